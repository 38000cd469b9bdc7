//! MetricX-23/24 on tiny random mT5 regressors against the google-research/metricx code
//! (tools/gen/gen_metricx_fixtures.py): the T5 tokenizer's ids exactly (spiece.model converted as
//! transformers converts it, and tokenizer.json), predict.py's inputs (templates, truncation,
//! EOS removal) exactly, logits and clamped scores within 1e-4 in every mode; a changed
//! template, bucket setting, feed-forward kind, tie or sentinel lookup disagrees or is refused.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use hauser_nli::PackedCpu;
use hauser_nli::{
    Batching, LoadOptions, MetricxInput, MetricxModel, MetricxVersion, ModelSource, NliError,
    TextEncoder,
};

use crate::common::{fixture, ids, reference, TOL};

const FORMS: [&str; 2] = ["metricx", "metricx-relu"];

/// The modes of the fixtures: (name, version, with source, with reference).
const MODES: [(&str, MetricxVersion, bool, bool); 5] = [
    ("24-ref", MetricxVersion::V24, true, true),
    ("24-ref-nosrc", MetricxVersion::V24, false, true),
    ("24-qe", MetricxVersion::V24, true, false),
    ("23-ref", MetricxVersion::V23, false, true),
    ("23-qe", MetricxVersion::V23, true, false),
];

fn opts(batch_size: usize) -> LoadOptions {
    LoadOptions {
        batching: Batching {
            batch_size,
            bucketed: true,
        },
        ..LoadOptions::default()
    }
}

fn max_len(r: &serde_json::Value) -> usize {
    r["meta"]["max_input_length"].as_u64().unwrap() as usize
}

fn load_dir(dir: &Path, r: &serde_json::Value, bs: usize) -> Result<MetricxModel, NliError> {
    let src = ModelSource::Dir(dir.to_path_buf());
    MetricxModel::load(&src, &src, &opts(bs), max_len(r))
}

fn load(form: &str, bs: usize) -> MetricxModel {
    load_dir(&fixture(form), &reference(form), bs).unwrap()
}

/// The fixture's triples as `(source, hypothesis, reference)`.
fn triples(r: &serde_json::Value) -> Vec<(String, String, String)> {
    r["triples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap().to_string();
            (s("source"), s("hypothesis"), s("reference"))
        })
        .collect()
}

fn inputs(t: &[(String, String, String)], src: bool, rf: bool) -> Vec<MetricxInput<'_>> {
    t.iter()
        .map(|(s, h, r)| MetricxInput {
            source: src.then_some(s.as_str()),
            hypothesis: h,
            reference: rf.then_some(r.as_str()),
        })
        .collect()
}

/// The largest |ours - theirs| over a mode's logits and scores.
fn worst(model: &MetricxModel, r: &serde_json::Value, mode: usize, version: MetricxVersion) -> f64 {
    let (name, _, src, rf) = MODES[mode];
    let t = triples(r);
    let got = model.predict(version, &inputs(&t, src, rf)).unwrap();
    let m = &r["modes"][name];
    let mut diff: f64 = 0.0;
    for (i, p) in got.iter().enumerate() {
        diff = diff.max((f64::from(p.logit) - m["logits"][i].as_f64().unwrap()).abs());
        diff = diff.max((f64::from(p.score) - m["scores"][i].as_f64().unwrap()).abs());
    }
    diff
}

#[test]
fn t5_tokenizer_ids_match_transformers() {
    for form in FORMS {
        let r = reference(form);
        let model = load(form, 1);
        let text = model.text_encoder();
        let want_origin = if form == "metricx" {
            "spiece.model"
        } else {
            "tokenizer.json"
        };
        assert_eq!(text.origin, want_origin, "{form}");
        for t in r["texts"].as_array().unwrap() {
            let s = t["text"].as_str().unwrap();
            let enc = TextEncoder::load_t5(&ModelSource::Dir(fixture(form)), 10_000).unwrap();
            assert_eq!(
                enc.encode(s, None).unwrap().ids,
                ids(&t["ids"]),
                "{form}: {s:?}"
            );
        }
        assert_eq!(
            u64::from(model.score_token()),
            r["meta"]["extra_id_10"].as_u64().unwrap(),
            "{form}"
        );
    }
}

#[test]
fn spiece_model_converted_like_tokenizer_json() {
    // metricx-relu without its tokenizer.json: mT5's form (sentinels as `▁<extra_id_N>`
    // pieces, extra_ids 0), read from spiece.model as transformers converts it.
    let r = reference("metricx-relu");
    let dir = copy("metricx-relu", |_| {}, |_| {});
    std::fs::remove_file(dir.path().join("tokenizer.json")).unwrap();
    let enc = TextEncoder::load_t5(&ModelSource::Dir(dir.path().to_path_buf()), 10_000).unwrap();
    assert_eq!(enc.origin, "spiece.model");
    for t in r["texts"].as_array().unwrap() {
        let s = t["text"].as_str().unwrap();
        assert_eq!(enc.encode(s, None).unwrap().ids, ids(&t["ids"]), "{s:?}");
    }
    let model = load_dir(dir.path(), &r, 2).unwrap();
    assert!(worst(&model, &r, 0, MetricxVersion::V24) < TOL);
}

#[test]
fn predict_py_inputs_are_built_exactly() {
    for form in FORMS {
        let r = reference(form);
        let model = load(form, 1);
        let t = triples(&r);
        let mut truncated = 0;
        for (name, version, src, rf) in MODES {
            let want = r["modes"][name]["inputs"].as_array().unwrap();
            for (x, w) in inputs(&t, src, rf).iter().zip(want) {
                let text = x.template(version).unwrap();
                assert_eq!(text, w["text"].as_str().unwrap(), "{form} {name}");
                let (got, cut) = model.encode(&text).unwrap();
                assert_eq!(got, ids(&w["ids"]), "{form} {name}: {text:?}");
                truncated += usize::from(cut);
            }
        }
        assert!(truncated > 0, "{form}: the fixture exercises truncation");
    }
}

#[test]
fn scores_match_metricx_in_every_mode_and_batch_size() {
    let mut max: f64 = 0.0;
    for form in FORMS {
        let r = reference(form);
        // The packed CPU kernels (the default) and candle's padded path.
        for (bs, packed) in [(1, true), (3, true), (8, true), (3, false)] {
            let mut model = load(form, bs);
            assert_eq!(model.set_packed_cpu(packed), packed);
            for (i, (name, version, _, _)) in MODES.iter().enumerate() {
                let d = worst(&model, &r, i, *version);
                assert!(
                    d < TOL,
                    "{form} {name} batch {bs} packed {packed}: max abs diff {d}"
                );
                max = max.max(d);
            }
        }
    }
    eprintln!("metricx parity: max abs diff {max:e}");
}

#[test]
fn scores_are_clamped_to_0_25() {
    let r = reference("metricx");
    let model = load("metricx", 4);
    let t = triples(&r);
    let got = model
        .predict(MetricxVersion::V24, &inputs(&t, true, true))
        .unwrap();
    assert!(got.iter().any(|p| p.logit < 0.0 && p.score == 0.0));
    assert!(got.iter().any(|p| p.logit > 0.0 && p.score == p.logit));
}

#[test]
fn a_changed_template_disagrees() {
    let r = reference("metricx");
    let model = load("metricx", 4);
    // MetricX-23's template on the data of MetricX-24's reference-based mode, and the other
    // way round.
    let t = triples(&r);
    let got = model
        .predict(MetricxVersion::V23, &inputs(&t, false, true))
        .unwrap();
    let want = &r["modes"]["24-ref-nosrc"]["logits"];
    let d = got
        .iter()
        .enumerate()
        .map(|(i, p)| (f64::from(p.logit) - want[i].as_f64().unwrap()).abs())
        .fold(0.0, f64::max);
    assert!(d > 1e-2, "{d}");
    assert!(worst(&model, &r, 3, MetricxVersion::V24) > 1e-2);
    // MetricX-23 refuses a source next to a reference; nothing at all is refused by both.
    let both = inputs(&t, true, true);
    let e = model.predict(MetricxVersion::V23, &both).unwrap_err();
    assert!(e.to_string().contains("not both"), "{e}");
    let none = inputs(&t, false, false);
    assert!(model.predict(MetricxVersion::V24, &none).is_err());
}

/// A copy of fixture `form` with its tensors edited by `edit` and its config by `config`.
fn copy(
    form: &str,
    edit: impl FnOnce(&mut HashMap<String, Tensor>),
    config: impl FnOnce(&mut serde_json::Value),
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture(form)).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    let st = dir.path().join("model.safetensors");
    let mut tensors = candle_core::safetensors::load(&st, &Device::Cpu).unwrap();
    edit(&mut tensors);
    candle_core::safetensors::save(&tensors, &st).unwrap();
    let cfg_path = dir.path().join("config.json");
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg_path).unwrap()).unwrap();
    config(&mut cfg);
    std::fs::write(&cfg_path, cfg.to_string()).unwrap();
    dir
}

fn worst_of(dir: &tempfile::TempDir, form: &str) -> f64 {
    let r = reference(form);
    let model = load_dir(dir.path(), &r, 4).unwrap();
    (0..MODES.len())
        .map(|i| worst(&model, &r, i, MODES[i].1))
        .fold(0.0, f64::max)
}

#[test]
fn changed_bucket_settings_disagree() {
    let dir = copy(
        "metricx",
        |_| {},
        |c| c["relative_attention_max_distance"] = 64.into(),
    );
    assert!(worst_of(&dir, "metricx") > 1e-3);
    // Two more buckets (zero rows appended to each stack's bias table).
    let grow = |t: &mut HashMap<String, Tensor>| {
        for stack in ["encoder", "decoder"] {
            let name =
                format!("{stack}.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
            let w = &t[&name];
            let heads = w.dim(1).unwrap();
            let pad = Tensor::zeros((2, heads), DType::F32, &Device::Cpu).unwrap();
            let grown = Tensor::cat(&[w, &pad], 0).unwrap();
            t.insert(name, grown);
        }
    };
    let dir = copy("metricx", grow, |c| {
        c["relative_attention_num_buckets"] = 10.into()
    });
    assert!(worst_of(&dir, "metricx") > 1e-3);
}

#[test]
fn untying_the_embeddings_disagrees() {
    // metricx-relu has tie_word_embeddings: the decoder output is scaled by d_model**-0.5.
    let dir = copy(
        "metricx-relu",
        |_| {},
        |c| c["tie_word_embeddings"] = false.into(),
    );
    assert!(worst_of(&dir, "metricx-relu") > 1e-3);
}

#[test]
fn a_changed_feed_forward_kind_is_refused_naming_the_tensor() {
    let r = reference("metricx");
    let dir = copy(
        "metricx",
        |_| {},
        |c| c["feed_forward_proj"] = "relu".into(),
    );
    let e = load_dir(dir.path(), &r, 1).unwrap_err().to_string();
    assert!(e.contains("DenseReluDense.wi.weight"), "{e}");
    let dir = copy(
        "metricx",
        |_| {},
        |c| c["feed_forward_proj"] = "gated-silu".into(),
    );
    let e = load_dir(dir.path(), &r, 1).unwrap_err().to_string();
    assert!(
        e.contains("feed_forward_proj") && e.contains("gated-silu"),
        "{e}"
    );
    let dir = copy(
        "metricx",
        |_| {},
        |c| {
            c.as_object_mut().unwrap().remove("d_kv");
        },
    );
    let e = load_dir(dir.path(), &r, 1).unwrap_err().to_string();
    assert!(e.contains("d_kv"), "{e}");
}

#[test]
fn an_extra_tensor_is_refused_naming_it() {
    let r = reference("metricx");
    let name = "decoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight";
    let dir = copy(
        "metricx",
        |t| {
            let x = Tensor::zeros((8, 4), DType::F32, &Device::Cpu).unwrap();
            t.insert(name.to_string(), x);
        },
        |_| {},
    );
    let e = load_dir(dir.path(), &r, 1).unwrap_err().to_string();
    assert!(e.contains(name), "{e}");
}

#[test]
fn the_sentinel_is_looked_up_in_the_tokenizer() {
    let r = reference("metricx");
    // 99 extra ids instead of 100: `<extra_id_10>` is then another row of the head.
    let edit_cfg = |extra: u64| {
        move |dir: &Path| {
            let p = dir.join("tokenizer_config.json");
            let mut v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            v["extra_ids"] = extra.into();
            std::fs::write(&p, v.to_string()).unwrap();
        }
    };
    let dir = copy("metricx", |_| {}, |_| {});
    edit_cfg(99)(dir.path());
    let model = load_dir(dir.path(), &r, 4).unwrap();
    assert_ne!(
        u64::from(model.score_token()),
        r["meta"]["extra_id_10"].as_u64().unwrap()
    );
    assert!(worst(&model, &r, 0, MetricxVersion::V24) > 1e-3);
    // No sentinels at all: refused, naming the token.
    edit_cfg(0)(dir.path());
    let e = load_dir(dir.path(), &r, 4).unwrap_err().to_string();
    assert!(e.contains("<extra_id_10>"), "{e}");
}
