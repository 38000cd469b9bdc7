//! COMET's unified classes (UnifiedMetric / CometKiwi, XCOMETMetric) against unbabel-comet
//! 2.2.7's `predict` on tiny random models (tools/gen/gen_comet_unified_fixtures.py): scores and
//! span confidences within 1e-4, span texts, offsets and severities exact.

use hauser_nli::PackedCpu;
use hauser_nli::{CometModel, CometPrediction, CometSegment, LoadOptions};

use crate::common::{fixture, opts, TOL};

fn reference() -> serde_json::Value {
    let p = fixture("comet-unified").join("reference.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// `model`'s predictions on the fixture's inputs with the texts `mode` names.
fn predict(model: &str, mode: &str, o: &LoadOptions, packed: bool) -> Vec<CometPrediction> {
    let r = reference();
    let (src, mt, rf) = (strings(&r["src"]), strings(&r["mt"]), strings(&r["ref"]));
    let mut m = CometModel::load(&fixture("comet-unified").join(model), o).unwrap();
    // Every encoder layout of the fixtures (post-LayerNorm XLM-R, pre-LayerNorm XLM-R XL) has
    // packed kernels, so `packed` selects the path that runs.
    assert_eq!(m.encoder_mut().set_packed_cpu(packed), packed, "{model}");
    let inputs: Vec<CometSegment<'_>> = (0..mt.len())
        .map(|i| CometSegment {
            src: mode.contains("src").then_some(src[i].as_str()),
            mt: &mt[i],
            reference: mode.contains("ref").then_some(rf[i].as_str()),
        })
        .collect();
    m.predict(&inputs).unwrap()
}

fn check(model: &str, mode: &str, want: &serde_json::Value, got: &[CometPrediction], how: &str) {
    let at = format!("{model} {mode} {how}");
    let scores = want["scores"].as_array().unwrap();
    assert_eq!(got.len(), scores.len(), "{at}");
    for (i, (g, w)) in got.iter().zip(scores).enumerate() {
        let w = w.as_f64().unwrap();
        assert!(
            (f64::from(g.score) - w).abs() < TOL,
            "{at} row {i}: score {} vs {w}",
            g.score
        );
        match want.get("error_spans") {
            Some(spans) => {
                let spans = spans[i].as_array().unwrap();
                let got = g.error_spans.as_ref().expect("spans");
                assert_eq!(got.len(), spans.len(), "{at} row {i}: {got:?} vs {spans:?}");
                for (s, w) in got.iter().zip(spans) {
                    assert_eq!(s.text, w["text"].as_str().unwrap(), "{at} row {i}");
                    assert_eq!(s.severity, w["severity"].as_str().unwrap(), "{at} row {i}");
                    assert_eq!(s.start as u64, w["start"].as_u64().unwrap(), "{at} row {i}");
                    assert_eq!(s.end as u64, w["end"].as_u64().unwrap(), "{at} row {i}");
                    let c = w["confidence"].as_f64().unwrap();
                    assert!(
                        (f64::from(s.confidence) - c).abs() < TOL,
                        "{at} row {i}: {s:?}"
                    );
                }
            }
            None => assert!(g.error_spans.is_none(), "{at}: no word-level head"),
        }
        match want.get("mqm_scores") {
            Some(m) => {
                let w = m[i].as_f64().unwrap();
                let g = f64::from(g.mqm_score.expect("an MQM score"));
                assert!((g - w).abs() < 1e-6, "{at} row {i}: mqm {g} vs {w}");
            }
            None => assert!(g.mqm_score.is_none(), "{at}"),
        }
    }
}

#[test]
fn unified_and_xcomet_models_match_unbabel_comet_in_every_mode() {
    let r = reference();
    let mut spans = 0;
    for (model, modes) in r["models"].as_object().unwrap() {
        for (mode, want) in modes.as_object().unwrap() {
            for (bs, packed) in [(1, true), (4, true), (3, false)] {
                let got = predict(model, mode, &opts(bs), packed);
                check(model, mode, want, &got, &format!("bs {bs} packed {packed}"));
            }
            spans += want.get("error_spans").map_or(0, |s| {
                s.as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|x| x.as_array().unwrap())
                    .count()
            });
        }
    }
    assert!(
        spans >= 20,
        "the fixture has error spans to compare ({spans})"
    );
}

/// A copy of fixture model `name` with `from` replaced by `to` in hparams.yaml.
fn altered(name: &str, from: &str, to: &str) -> tempfile::TempDir {
    crate::common::altered_comet("comet-unified", name, from, to)
}

/// The largest score difference and whether any span differs from the reference.
fn distance(dir: &std::path::Path, want: &serde_json::Value, mode: &str) -> (f64, bool) {
    let r = reference();
    let (src, mt, rf) = (strings(&r["src"]), strings(&r["mt"]), strings(&r["ref"]));
    let m = CometModel::load(dir, &opts(4)).unwrap();
    let inputs: Vec<CometSegment<'_>> = (0..mt.len())
        .map(|i| CometSegment {
            src: mode.contains("src").then_some(src[i].as_str()),
            mt: &mt[i],
            reference: mode.contains("ref").then_some(rf[i].as_str()),
        })
        .collect();
    let got = m.predict(&inputs).unwrap();
    let d = got
        .iter()
        .zip(want["scores"].as_array().unwrap())
        .map(|(g, w)| (f64::from(g.score) - w.as_f64().unwrap()).abs())
        .fold(0.0, f64::max);
    let spans_differ = want.get("error_spans").is_some_and(|spans| {
        got.iter().zip(spans.as_array().unwrap()).any(|(g, w)| {
            let g = g.error_spans.as_deref().unwrap_or_default();
            let w = w.as_array().unwrap();
            g.len() != w.len()
                || g.iter().zip(w).any(|(a, b)| {
                    a.start as u64 != b["start"].as_u64().unwrap()
                        || a.end as u64 != b["end"].as_u64().unwrap()
                        || a.severity != b["severity"].as_str().unwrap()
                })
        })
    });
    (d, spans_differ)
}

#[test]
fn a_wrong_mix_segment_layer_or_label_setting_fails_parity() {
    let r = reference();
    for (name, mode, from, to, spans) in [
        (
            "kiwi",
            "src",
            "layer_transformation: sparsemax",
            "layer_transformation: softmax",
            false,
        ),
        ("kiwi", "src+ref", "- src", "- ref", false),
        (
            "unified",
            "src+ref",
            "layer_norm: true",
            "layer_norm: false",
            false,
        ),
        ("unified", "src+ref", "word_layer: 2", "word_layer: 1", true),
        (
            "unified",
            "src+ref",
            "- minor\n- major",
            "- major\n- minor",
            true,
        ),
        (
            "unified-ref",
            "ref",
            "sent_layer: 1",
            "sent_layer: 2",
            false,
        ),
        (
            "unified-ref",
            "ref",
            "final_activation: Sigmoid",
            "final_activation: null",
            false,
        ),
        (
            "xcomet",
            "src+ref",
            "layer_transformation: sparsemax_patch",
            "layer_transformation: sparsemax",
            false,
        ),
        ("xcomet", "src", "word_layer: 3", "word_layer: 2", true),
    ] {
        let want = &r["models"][name][mode];
        let dir = altered(name, from, to);
        let (d, spans_differ) = distance(dir.path(), want, mode);
        if spans {
            assert!(spans_differ, "{name} with {to:?}: the same spans");
        } else {
            assert!(d > 100.0 * TOL, "{name} with {to:?} still matches ({d})");
        }
    }
    let dir = altered("xcomet", "sent_layer: mix", "sent_layer: mix");
    let (d, spans_differ) = distance(dir.path(), &r["models"]["xcomet"]["src+ref"], "src+ref");
    assert!(d < TOL && !spans_differ, "the unaltered copy matches");
}

#[test]
fn unsupported_unified_settings_are_refused_naming_the_key() {
    for (name, from, to, says) in [
        // XCOMET-XL's encoder class over a post-LayerNorm config, and the other way round.
        (
            "xcomet",
            "encoder_model: XLM-RoBERTa",
            "encoder_model: XLM-RoBERTa-XL",
            "is not the architecture of encoder_model \"XLM-RoBERTa-XL\"",
        ),
        (
            "xcomet-xl",
            "encoder_model: XLM-RoBERTa-XL",
            "encoder_model: XLM-RoBERTa",
            "expected xlm-roberta or roberta",
        ),
        (
            "xcomet",
            "encoder_model: XLM-RoBERTa",
            "encoder_model: MiniLM",
            "MiniLM",
        ),
        ("xcomet", "- critical", "- fatal", "error_labels"),
        (
            "unified",
            "word_layer: 2",
            "word_layer: 4",
            "word_layer 4 is out of range",
        ),
        ("kiwi", "- mt\n- src", "- src\n- mt", "input_segments"),
        ("kiwi", "sent_layer: mix", "sent_layer: top", "sent_layer"),
        // A layer index leaves the checkpoint's layer mix unused: refused, not ignored.
        (
            "xcomet",
            "sent_layer: mix",
            "sent_layer: 3",
            "layerwise_attention.gamma",
        ),
    ] {
        let dir = altered(name, from, to);
        let err = CometModel::load(dir.path(), &opts(2))
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "{name} with {to:?}: {err}");
    }
}

#[test]
fn xlm_roberta_xl_hidden_states_match_transformers() {
    // The pre-LayerNorm encoder on its own (XCOMET-XL's), every hidden state: the embeddings
    // without a norm, the raw residual stream, the final norm on the last state only.
    let r = reference();
    let dir = fixture("comet-unified").join("encoder-xl");
    for bs in [1, 2] {
        let e = hauser_nli::Embedder::load(&hauser_nli::ModelSource::Dir(dir.clone()), &opts(bs))
            .unwrap();
        assert_eq!(e.model().model_type(), "xlm-roberta-xl");
        for entry in r["encoder_xl_states"].as_array().unwrap() {
            let text = entry["text"].as_str().unwrap();
            let layers = entry["layers"].as_array().unwrap();
            assert_eq!(layers.len(), e.layers());
            for (l, want) in layers.iter().enumerate() {
                let got = e.token_states(&[(text, None)], Some(l as isize)).unwrap();
                let ids: Vec<u64> = got.ids[0].iter().map(|&i| u64::from(i)).collect();
                let want_ids: Vec<u64> = entry["ids"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                assert_eq!(ids, want_ids, "{text}");
                for (t, (g, w)) in got.states[0]
                    .iter()
                    .zip(want.as_array().unwrap())
                    .enumerate()
                {
                    for (a, b) in g.iter().zip(w.as_array().unwrap()) {
                        let b = b.as_f64().unwrap();
                        assert!(
                            (f64::from(*a) - b).abs() < TOL,
                            "layer {l} token {t}: {a} vs {b}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_tokenizers_model_max_length_does_not_cut_comet_inputs() {
    // COMET passes max_length (max_positions - 2) to the tokenizer, so a smaller
    // `model_max_length` in tokenizer_config.json cuts nothing: a copy of the encoder saying 8
    // still gives unbabel-comet's scores on inputs much longer than 8 tokens.
    let r = reference();
    let tmp = tempfile::tempdir().unwrap();
    let enc = tmp.path().join("encoder");
    std::fs::create_dir_all(&enc).unwrap();
    for f in ["config.json", "tokenizer.json", "tokenizer_config.json"] {
        std::fs::copy(fixture("comet-unified/encoder").join(f), enc.join(f)).unwrap();
    }
    let cfg = std::fs::read_to_string(enc.join("tokenizer_config.json")).unwrap();
    assert!(cfg.contains("\"model_max_length\": 64"));
    std::fs::write(
        enc.join("tokenizer_config.json"),
        cfg.replace("\"model_max_length\": 64", "\"model_max_length\": 8"),
    )
    .unwrap();
    let model = tmp.path().join("kiwi");
    std::fs::create_dir_all(model.join("checkpoints")).unwrap();
    let src = fixture("comet-unified").join("kiwi");
    std::fs::copy(
        src.join("checkpoints/model.ckpt"),
        model.join("checkpoints/model.ckpt"),
    )
    .unwrap();
    std::fs::copy(src.join("hparams.yaml"), model.join("hparams.yaml")).unwrap();
    let (d, _) = distance(&model, &r["models"]["kiwi"]["src"], "src");
    assert!(d < TOL, "{d}");
}
