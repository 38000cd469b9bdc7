//! A config.json that claims more than its weights hold is refused at load, naming the first
//! missing tensor, before anything is sized by the claim: 10^9 layers over a checkpoint of two
//! used to build a plan of 10^9 layer names (tens of gigabytes) and grow until memory ran out.
//! Every other size is checked against a tensor's shape before anything is allocated by it.
//! Copies of the tiny fixtures with edited configs are made in a temporary directory.

use std::path::Path;

use hauser_nli::{
    CausalLm, CometModel, Embedder, MaskedLm, MetricxModel, ModelSource, NliError,
    SequenceClassifier,
};

use crate::common::*;

/// A claim no checkpoint here can back: 10^9 layers (under the 2^31 - 1 every size may hold).
const HUGE: u64 = 1_000_000_000;

/// A copy of fixture `name` with `config` (relative to it) edited by `edit`.
fn edited(
    name: &str,
    config: &str,
    edit: impl FnOnce(&mut serde_json::Value),
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture(name), dir.path());
    let path = dir.path().join(config);
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut cfg);
    std::fs::write(&path, cfg.to_string()).unwrap();
    dir
}

fn src(dir: &Path) -> ModelSource {
    ModelSource::Dir(dir.to_path_buf())
}

fn err_of<T>(r: Result<T, NliError>) -> String {
    match r {
        Ok(_) => panic!("a config claiming more than its weights was loaded"),
        Err(e) => e.to_string(),
    }
}

/// Loads `dir` as the model kind `name` is tested with.
fn load(name: &str, dir: &Path) -> String {
    match name {
        "gpt2" => err_of(CausalLm::load(&src(dir), &opts(2))),
        "metricx" => err_of(MetricxModel::load(&src(dir), &src(dir), &opts(2), 64)),
        "masked-lm/albert" => err_of(MaskedLm::load(&src(dir), &opts(2))),
        "bleurt" | "deberta" => err_of(SequenceClassifier::load(&src(dir), &opts(2))),
        _ => err_of(Embedder::load(&src(dir), &opts(2))),
    }
}

#[test]
fn more_layers_than_the_weights_hold_fail_naming_the_first_missing_tensor() {
    for (name, key, missing) in [
        (
            "bert",
            "num_hidden_layers",
            "encoder.layer.2.attention.self.query.weight",
        ),
        (
            "roberta",
            "num_hidden_layers",
            "encoder.layer.2.attention.self.query.weight",
        ),
        (
            "xlm-roberta",
            "num_hidden_layers",
            "encoder.layer.2.attention.self.query.weight",
        ),
        (
            "comet-unified/encoder-xl",
            "num_hidden_layers",
            "encoder.layer.3.attention.self.query.weight",
        ),
        (
            "distilbert",
            "n_layers",
            "distilbert.transformer.layer.2.attention.q_lin.weight",
        ),
        (
            "bleurt",
            "num_hidden_layers",
            "bleurt.encoder.layer.2.attention.self.query.weight",
        ),
        (
            "deberta",
            "num_hidden_layers",
            "encoder.layer.2.attention.self.in_proj.weight",
        ),
        (
            "deberta-v2",
            "num_hidden_layers",
            "encoder.layer.2.attention.self.query_proj.weight",
        ),
        (
            "masked-lm/albert",
            "num_hidden_groups",
            "albert.encoder.albert_layer_groups.2.albert_layers.0.attention.query.weight",
        ),
        (
            "masked-lm/albert",
            "inner_group_num",
            "albert.encoder.albert_layer_groups.0.albert_layers.2.attention.query.weight",
        ),
        ("gpt2", "n_layer", "h.2.ln_1.weight"),
        (
            "metricx",
            "num_layers",
            "encoder.block.2.layer.0.SelfAttention.q.weight",
        ),
        (
            "metricx",
            "num_decoder_layers",
            "decoder.block.2.layer.0.SelfAttention.q.weight",
        ),
    ] {
        // ALBERT's groups cannot outnumber its steps, which are bounded (see the next test):
        // both are claimed at that bound.
        let claim = if name == "masked-lm/albert" {
            4096
        } else {
            HUGE
        };
        let dir = edited(name, "config.json", |c| {
            c[key] = claim.into();
            if name == "masked-lm/albert" {
                c["num_hidden_layers"] = claim.into();
            }
        });
        let err = load(name, dir.path());
        assert!(
            err.contains(missing) && err.contains(&format!("{key} is {claim}")),
            "{name} {key}: {err}"
        );
    }
}

#[test]
fn albert_shared_steps_beyond_any_model_are_refused() {
    let dir = edited("masked-lm/albert", "config.json", |c| {
        c["num_hidden_layers"] = HUGE.into();
    });
    let err = load("masked-lm/albert", dir.path());
    assert!(
        err.contains("num_hidden_layers = 1000000000 steps"),
        "{err}"
    );
}

#[test]
fn a_comet_encoder_with_more_layers_than_its_checkpoint_fails_naming_the_first_missing() {
    let dir = edited("comet", "encoder/config.json", |c| {
        c["num_hidden_layers"] = 100_000_000.into();
    });
    let err = err_of(CometModel::load(&dir.path().join("regression"), &opts(2)));
    assert!(
        err.contains("tensor encoder.model.encoder.layer.3.attention.self.query.weight is missing"),
        "{err}"
    );
}

#[test]
fn other_sizes_beyond_the_weights_are_refused_at_load() {
    for (name, key) in [
        ("bert", "vocab_size"),
        ("bert", "max_position_embeddings"),
        ("bert", "intermediate_size"),
        ("bert", "type_vocab_size"),
        ("bert", "hidden_size"),
        ("bert", "num_attention_heads"),
        ("deberta-v2", "vocab_size"),
        ("deberta-v2", "intermediate_size"),
        ("gpt2", "vocab_size"),
        ("gpt2", "n_positions"),
        ("gpt2", "n_embd"),
        ("metricx", "vocab_size"),
        ("metricx", "d_ff"),
        ("metricx", "d_model"),
        ("metricx", "relative_attention_num_buckets"),
    ] {
        let dir = edited(name, "config.json", |c| c[key] = HUGE.into());
        // Any typed load error will do; what matters is that it comes at load, without
        // allocating by the claimed size (the CLI's limits tests run these under a cap).
        let _ = load(name, dir.path());
    }
}
