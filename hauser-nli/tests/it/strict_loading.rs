//! The strict loader: every tensor of a checkpoint is used or the load fails naming it; an
//! unknown activation, a missing size or an inconsistent one fails naming the key. Corrupted
//! copies of the tiny fixtures are made in a temporary directory.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use hauser_nli::{
    CausalLm, CometModel, Embedder, MaskedLm, ModelSource, MultipleChoice, NliError,
    SequenceClassifier,
};

use crate::common::*;

/// A copy of fixture `name` with `model.safetensors` (converted from `pytorch_model.bin` if
/// need be) rewritten by `edit` and `config.json` by `config`.
fn variant(
    name: &str,
    edit: impl FnOnce(&mut HashMap<String, Tensor>),
    config: impl FnOnce(&mut serde_json::Value),
) -> tempfile::TempDir {
    let from = fixture(name);
    let dir = tempfile::tempdir().unwrap();
    let mut tensors = None;
    for entry in std::fs::read_dir(&from).unwrap() {
        let p = entry.unwrap().path();
        let file = p.file_name().unwrap().to_str().unwrap().to_string();
        match file.as_str() {
            "model.safetensors" => {
                tensors = Some(candle_core::safetensors::load(&p, &Device::Cpu).unwrap());
            }
            "pytorch_model.bin" => {
                tensors = Some(
                    candle_core::pickle::read_all(&p)
                        .unwrap()
                        .into_iter()
                        .collect(),
                );
            }
            _ if p.is_file() => {
                std::fs::copy(&p, dir.path().join(&file)).unwrap();
            }
            _ => {}
        }
    }
    let mut tensors = tensors.expect("weights");
    edit(&mut tensors);
    candle_core::safetensors::save(&tensors, dir.path().join("model.safetensors")).unwrap();
    let cfg_path = dir.path().join("config.json");
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg_path).unwrap()).unwrap();
    config(&mut cfg);
    std::fs::write(&cfg_path, cfg.to_string()).unwrap();
    dir
}

fn extra(t: &mut HashMap<String, Tensor>, name: &str) {
    let x = Tensor::zeros(4, DType::F32, &Device::Cpu).unwrap();
    t.insert(name.to_string(), x);
}

fn src(dir: &Path) -> ModelSource {
    ModelSource::Dir(dir.to_path_buf())
}

fn err_of<T: std::fmt::Debug>(r: Result<T, NliError>) -> String {
    match r {
        Ok(_) => panic!("an off-spec checkpoint was loaded"),
        Err(e) => e.to_string(),
    }
}

/// Every loader, on every fixture it takes.
/// A loader run on a model directory.
type Load = fn(&Path) -> Result<(), NliError>;

fn loaders() -> Vec<(&'static str, &'static str, Load)> {
    let embed: Load = |d| Embedder::load(&src(d), &opts(2)).map(drop);
    let classify: Load = |d| SequenceClassifier::load(&src(d), &opts(2)).map(drop);
    let mlm: Load = |d| MaskedLm::load(&src(d), &opts(2)).map(drop);
    let choice: Load = |d| MultipleChoice::load(&src(d), &opts(2)).map(drop);
    let lm: Load = |d| CausalLm::load(&src(d), &opts(2)).map(drop);
    let mut out = Vec::new();
    for e in ENCODERS.iter().chain(&["bleurt"]) {
        out.push((*e, "embedder", embed));
        out.push((*e, "classifier", classify));
    }
    for m in ["masked-lm/bert", "masked-lm/roberta", "masked-lm/albert"] {
        out.push((m, "masked LM", mlm));
        out.push((m, "embedder", embed));
    }
    out.push(("masked-lm/albert-classifier", "classifier", classify));
    for m in ["multiple-choice/bert", "multiple-choice/roberta"] {
        out.push((m, "multiple choice", choice));
    }
    out.push(("gpt2", "causal LM", lm));
    out
}

#[test]
fn every_fixture_loads_with_every_tensor_used() {
    for (name, what, load) in loaders() {
        load(&fixture(name)).unwrap_or_else(|e| panic!("{name} as {what}: {e}"));
    }
}

#[test]
fn an_extra_tensor_fails_every_loader_naming_it() {
    for (name, what, load) in loaders() {
        // Inside the base model, so that the embedder (which skips task heads) sees it too.
        let names = candle_names(name);
        let prefix = [
            "bert.",
            "roberta.",
            "distilbert.",
            "deberta.",
            "albert.",
            "bleurt.",
        ]
        .into_iter()
        .find(|p| names.iter().any(|n| n.starts_with(p)))
        .unwrap_or("");
        let tensor = format!("{prefix}encoder.extra_layer.weight");
        let dir = variant(name, |t| extra(t, &tensor), |_| {});
        let err = err_of(load(dir.path()));
        assert!(err.contains(&tensor), "{name} as {what}: {err}");
    }
}

fn candle_names(name: &str) -> Vec<String> {
    let d = fixture(name);
    let st = d.join("model.safetensors");
    if st.is_file() {
        candle_core::safetensors::load(&st, &Device::Cpu)
            .unwrap()
            .into_keys()
            .collect()
    } else {
        candle_core::pickle::read_all(d.join("pytorch_model.bin"))
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }
}

#[test]
fn a_renamed_tensor_fails_naming_the_missing_one() {
    let dir = variant(
        "bert",
        |t| {
            let w = t
                .remove("bert.encoder.layer.1.output.dense.weight")
                .unwrap();
            t.insert("bert.encoder.layer.1.output.dense.wieght".into(), w);
        },
        |_| {},
    );
    let err = err_of(SequenceClassifier::load(&src(dir.path()), &opts(2)));
    assert!(
        err.contains("bert.encoder.layer.1.output.dense.weight"),
        "{err}"
    );
}

#[test]
fn fewer_layers_in_the_config_than_in_the_weights_fail_naming_the_layer() {
    for (name, key, layer) in [
        ("bert", "num_hidden_layers", "bert.encoder.layer.1."),
        ("roberta", "num_hidden_layers", "roberta.encoder.layer.1."),
        ("distilbert", "n_layers", "distilbert.transformer.layer.1."),
        ("deberta", "num_hidden_layers", "deberta.encoder.layer.1."),
        (
            "deberta-v2",
            "num_hidden_layers",
            "deberta.encoder.layer.1.",
        ),
        ("bleurt", "num_hidden_layers", "bleurt.encoder.layer.1."),
        ("gpt2", "n_layer", "h.1."),
    ] {
        let dir = variant(name, |_| {}, |c| c[key] = 1.into());
        let err = if name == "gpt2" {
            err_of(CausalLm::load(&src(dir.path()), &opts(2)))
        } else {
            err_of(SequenceClassifier::load(&src(dir.path()), &opts(2)))
        };
        assert!(err.contains(layer), "{name}: {err}");
    }
}

#[test]
fn no_segment_embeddings_in_the_config_fail_when_the_weights_have_them() {
    let dir = variant("bert", |_| {}, |c| c["type_vocab_size"] = 0.into());
    let err = err_of(SequenceClassifier::load(&src(dir.path()), &opts(2)));
    assert!(
        err.contains("bert.embeddings.token_type_embeddings.weight"),
        "{err}"
    );
    let err = err_of(Embedder::load(&src(dir.path()), &opts(2)));
    assert!(err.contains("token_type_embeddings"), "{err}");
}

#[test]
fn unknown_activations_fail_naming_the_key_and_value() {
    for (name, key) in [
        ("bert", "hidden_act"),
        ("roberta", "hidden_act"),
        ("distilbert", "activation"),
        ("gpt2", "activation_function"),
        ("deberta", "pooler_hidden_act"),
    ] {
        let dir = variant(name, |_| {}, |c| c[key] = "gelu_quick_typo".into());
        let err = if name == "gpt2" {
            err_of(CausalLm::load(&src(dir.path()), &opts(2)))
        } else {
            err_of(Embedder::load(&src(dir.path()), &opts(2)))
        };
        assert!(
            err.contains(&format!("{key} = \"gelu_quick_typo\"")),
            "{name}: {err}"
        );
    }
}

#[test]
fn missing_or_zero_sizes_fail_naming_the_key() {
    let dir = variant(
        "bert",
        |_| {},
        |c| {
            c.as_object_mut().unwrap().remove("hidden_size");
        },
    );
    let err = err_of(Embedder::load(&src(dir.path()), &opts(2)));
    assert!(err.contains("hidden_size is missing"), "{err}");
    let dir = variant("gpt2", |_| {}, |c| c["n_head"] = 0.into());
    let err = err_of(CausalLm::load(&src(dir.path()), &opts(2)));
    assert!(err.contains("n_head is 0"), "{err}");
}

#[test]
fn comet_with_fewer_encoder_layers_than_its_checkpoint_fails_naming_them() {
    let from = fixture("comet");
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&from, dir.path());
    let cfg_path = dir.path().join("encoder/config.json");
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg_path).unwrap()).unwrap();
    cfg["num_hidden_layers"] = 1.into();
    std::fs::write(&cfg_path, cfg.to_string()).unwrap();
    let mut checked = 0;
    for model in ["regression", "qe", "estimator"] {
        let m = dir.path().join(model);
        if !m.join("hparams.yaml").is_file() {
            continue;
        }
        let err = err_of(CometModel::load(&m, &opts(2)));
        assert!(
            err.contains("encoder.model.encoder.layer.1."),
            "{model}: {err}"
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn bleurt_applies_an_embedding_projection_when_the_checkpoint_has_one() {
    let pair = [("The cat sat.", Some("A cat was sitting."))];
    let logit = |dir: &Path| {
        SequenceClassifier::load(&src(dir), &opts(2))
            .unwrap()
            .predict(&pair)
            .unwrap()
            .logits[0][0]
    };
    let plain = logit(&fixture("bleurt"));
    let h = 32;
    let with = |scale: f64| {
        move |t: &mut HashMap<String, Tensor>| {
            let eye = (Tensor::eye(h, DType::F32, &Device::Cpu).unwrap() * scale).unwrap();
            t.insert("bleurt.encoder.embedding_projection.weight".into(), eye);
            t.insert(
                "bleurt.encoder.embedding_projection.bias".into(),
                Tensor::zeros(h, DType::F32, &Device::Cpu).unwrap(),
            );
        }
    };
    // An identity projection changes nothing; doubling the embeddings changes the score, so
    // the projection is applied, not skipped.
    let same = variant("bleurt", with(1.0), |_| {});
    assert!((logit(same.path()) - plain).abs() < 1e-5);
    let doubled = variant("bleurt", with(2.0), |_| {});
    let moved = logit(doubled.path());
    assert!((moved - plain).abs() > 1e-4, "{moved} vs {plain}");
    // The same, announced by `embedding_size` (bleurt-pytorch builds the projection then).
    let sized = variant("bleurt", with(2.0), |c| c["embedding_size"] = h.into());
    assert_eq!(logit(sized.path()), moved);
    // `embedding_size` set but no projection in the weights: the missing tensor is named.
    let missing = variant("bleurt", |_| {}, |c| c["embedding_size"] = h.into());
    let err = err_of(SequenceClassifier::load(&src(missing.path()), &opts(2)));
    assert!(
        err.contains("bleurt.encoder.embedding_projection.weight"),
        "{err}"
    );
}
