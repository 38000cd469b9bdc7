//! Non-finite activations are an error naming the first bad layer, on the packed CPU kernels
//! and on candle's path alike; local model paths never reach the hub; perplexity-length inputs
//! are the library's business (see `gpt2.rs`).

use std::path::{Path, PathBuf};

use hauser_nli::PackedCpu;
use hauser_nli::{CausalLm, Embedder, ModelSource, NliError, SequenceClassifier};

use crate::common::*;

/// A copy of fixture `arch` in `dir`.
fn copy_fixture(dir: &Path, arch: &str) -> PathBuf {
    let to = dir.join(arch);
    std::fs::create_dir(&to).unwrap();
    for entry in std::fs::read_dir(fixture(arch)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    to
}

/// Overwrites the first value of the first (by name) tensor of the model's second layer
/// (hidden state 2) with NaN, in place in model.safetensors.
fn poison_second_layer(model: &Path) -> String {
    let path = model.join("model.safetensors");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let obj = header.as_object().unwrap();
    let mut names: Vec<&String> = obj
        .keys()
        .filter(|k| k.contains(".layer.1.") || k.contains(".h.1."))
        .collect();
    names.sort();
    let name = names[0];
    assert_eq!(obj[name]["dtype"], "F32");
    let start = 8 + n + obj[name]["data_offsets"][0].as_u64().unwrap() as usize;
    bytes[start..start + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(&path, bytes).unwrap();
    name.clone()
}

fn with_config(model: &Path, key: &str, value: serde_json::Value) {
    let p = model.join("config.json");
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    cfg[key] = value;
    std::fs::write(&p, cfg.to_string()).unwrap();
}

fn layer_of(e: NliError) -> Option<usize> {
    match e {
        NliError::NonFinite { layer, .. } => layer,
        other => panic!("expected NonFinite, got {other}"),
    }
}

const TEXTS: [&str; 3] = [
    "the cat sat",
    "rain fell like tears on the roof",
    "she sang",
];

#[test]
fn nan_weights_name_the_layer_on_both_paths() {
    let dir = tempfile::tempdir().unwrap();
    for arch in ["bert", "roberta", "deberta", "deberta-v2"] {
        let model = copy_fixture(dir.path(), arch);
        let tensor = poison_second_layer(&model);
        let src = ModelSource::Dir(model);
        let mut e = Embedder::load(&src, &opts(2)).unwrap();
        for packed in [true, false] {
            let on = e.model_mut().set_packed_cpu(packed);
            let what = format!("{arch} ({tensor}), packed {on}");
            // Layers before the poisoned one are fine; the last is not.
            assert!(e.embed(&TEXTS, Some(1), false).is_ok(), "{what}");
            let err = e.embed(&TEXTS, None, false).unwrap_err();
            assert!(
                err.to_string().contains("output of layer 2"),
                "{what}: {err}"
            );
            assert_eq!(layer_of(err), Some(2), "{what}");
            let err = e
                .token_states(&[("a b", Some("c d"))], Some(-1))
                .unwrap_err();
            assert_eq!(layer_of(err), Some(2), "{what}");
        }
        let mut clf = SequenceClassifier::load(&src, &opts(2)).unwrap();
        for packed in [true, false] {
            clf.model_mut().set_packed_cpu(packed);
            let inputs: Vec<_> = TEXTS.iter().map(|t| (*t, None)).collect();
            let err = clf.predict(&inputs).unwrap_err();
            assert_eq!(layer_of(err), Some(2), "{arch} classifier, packed {packed}");
        }
    }
}

#[test]
fn nan_weights_of_gpt2_name_the_block_on_both_paths() {
    let dir = tempfile::tempdir().unwrap();
    let model = copy_fixture(dir.path(), "gpt2");
    poison_second_layer(&model);
    let mut lm = CausalLm::load(&ModelSource::Dir(model), &opts(2)).unwrap();
    for packed in [true, false] {
        lm.set_packed_cpu(packed);
        let err = lm.token_logprobs(&TEXTS).unwrap_err();
        assert_eq!(layer_of(err), Some(2), "packed {packed}");
    }
}

#[test]
fn a_negative_layer_norm_epsilon_is_caught_in_the_embeddings() {
    let dir = tempfile::tempdir().unwrap();
    for arch in ENCODERS {
        let model = copy_fixture(dir.path(), arch);
        if arch == "distilbert" {
            // DistilBERT's epsilon is fixed by transformers, not read from the config.
            continue;
        }
        with_config(&model, "layer_norm_eps", (-10.0).into());
        let mut e = Embedder::load(&ModelSource::Dir(model), &opts(2)).unwrap();
        for packed in [true, false] {
            e.model_mut().set_packed_cpu(packed);
            let err = e.embed(&TEXTS, None, true).unwrap_err();
            assert_eq!(layer_of(err), Some(0), "{arch}, packed {packed}");
        }
    }
    let model = copy_fixture(dir.path(), "gpt2");
    with_config(&model, "layer_norm_epsilon", (-10.0).into());
    let mut lm = CausalLm::load(&ModelSource::Dir(model), &opts(2)).unwrap();
    for packed in [true, false] {
        lm.set_packed_cpu(packed);
        let err = lm.perplexity(&TEXTS).unwrap_err();
        assert_eq!(layer_of(err), Some(1), "gpt2, packed {packed}");
    }
}

#[test]
fn finite_models_are_untouched_by_the_checks() {
    let e = Embedder::load(&source("bert"), &opts(2)).unwrap();
    let v = e.embed(&TEXTS, None, true).unwrap();
    assert!(v.vectors.iter().flatten().all(|x| x.is_finite()));
}

#[test]
fn absurd_config_sizes_are_config_errors() {
    let dir = tempfile::tempdir().unwrap();
    let model = copy_fixture(dir.path(), "bert");
    with_config(&model, "num_hidden_layers", 1_000_000_000_000_000u64.into());
    let err = Embedder::load(&ModelSource::Dir(model), &opts(2)).unwrap_err();
    assert!(matches!(err, NliError::Config { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("num_hidden_layers = 1000000000000000"),
        "{err}"
    );
}
