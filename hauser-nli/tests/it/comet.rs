//! COMET against unbabel-comet 2.2.7 on tiny random models (tools/gen/gen_comet_fixtures.py).

use std::path::Path;

use hauser_nli::PackedCpu;
use hauser_nli::{CometInput, CometModel, LoadOptions, NliError};

use crate::common::{fixture, opts, TOL};

const MODELS: [&str; 4] = ["estimator", "regression", "qe", "cls"];

fn reference() -> serde_json::Value {
    let p = fixture("comet").join("reference.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Scores of the model in `dir` on the fixture's inputs, with or without the source.
fn scores(dir: &Path, o: &LoadOptions, with_src: bool, packed: bool) -> Vec<f64> {
    let r = reference();
    let (src, mt, rf) = (strings(&r["src"]), strings(&r["mt"]), strings(&r["ref"]));
    let mut m = CometModel::load(dir, o).unwrap();
    m.encoder_mut().set_packed_cpu(packed);
    let inputs: Vec<CometInput<'_>> = (0..mt.len())
        .map(|i| CometInput {
            src: if with_src { &src[i] } else { "" },
            mt: &mt[i],
            reference: Some(&rf[i]),
        })
        .collect();
    m.score(&inputs)
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn every_model_matches_unbabel_comet() {
    let r = reference();
    for name in MODELS {
        let want = floats(&r["models"][name]["scores"]);
        let want_no_src = floats(&r["models"][name]["scores_no_src"]);
        let dir = fixture("comet").join(name);
        // Batch sizes 1 and 3 (padding and bucketing), packed kernels and candle's path.
        for (bs, packed) in [(1, true), (3, true), (3, false)] {
            let got = scores(&dir, &opts(bs), true, packed);
            let d = max_diff(&got, &want);
            assert!(
                d < TOL,
                "{name} bs {bs} packed {packed}: {got:?} vs {want:?} ({d})"
            );
            let got = scores(&dir, &opts(bs), false, packed);
            let d = max_diff(&got, &want_no_src);
            assert!(
                d < TOL,
                "{name} COMET-w bs {bs}: {got:?} vs {want_no_src:?} ({d})"
            );
        }
    }
}

#[test]
fn tokenisation_and_truncation_match_comet() {
    let r = reference();
    let m = CometModel::load(&fixture("comet").join("estimator"), &opts(4)).unwrap();
    for key in ["src", "mt", "ref"] {
        let texts = strings(&r[key]);
        for (t, want) in texts.iter().zip(r["ids"][key].as_array().unwrap()) {
            let got = m.encoder().text_encoder().encode(t, None).unwrap().ids;
            let want: Vec<u32> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect();
            assert_eq!(got, want, "{key}: {t:?}");
        }
    }
}

/// A copy of fixture model `name` with one line of hparams.yaml replaced.
fn altered(name: &str, from: &str, to: &str) -> tempfile::TempDir {
    crate::common::altered_comet("comet", name, from, to)
}

#[test]
fn a_wrong_mix_pooling_or_head_setting_fails_parity() {
    let r = reference();
    for (name, from, to) in [
        (
            "regression",
            "layer_transformation: sparsemax",
            "layer_transformation: softmax",
        ),
        (
            "estimator",
            "layer_transformation: softmax",
            "layer_transformation: sparsemax",
        ),
        ("estimator", "layer_norm: true", "layer_norm: false"),
        ("regression", "layer_norm: false", "layer_norm: true"),
        ("estimator", "pool: avg", "pool: max"),
        ("qe", "pool: max", "pool: avg"),
        ("cls", "pool: cls", "pool: default"),
        ("cls", "layer: 2", "layer: 3"),
        (
            "regression",
            "final_activation: Sigmoid",
            "final_activation: null",
        ),
    ] {
        let want = floats(&r["models"][name]["scores"]);
        let dir = altered(name, from, to);
        let got = scores(dir.path(), &opts(4), true, true);
        let d = max_diff(&got, &want);
        assert!(d > 100.0 * TOL, "{name} with {to:?} still matches ({d})");
    }
    // The unaltered copy matches: the test's own plumbing is not what fails.
    let dir = altered("estimator", "pool: avg", "pool: avg");
    let d = max_diff(
        &scores(dir.path(), &opts(4), true, true),
        &floats(&r["models"]["estimator"]["scores"]),
    );
    assert!(d < TOL);
}

#[test]
fn regression_models_need_a_reference_and_bad_directories_are_named() {
    let m = CometModel::load(&fixture("comet").join("regression"), &opts(4)).unwrap();
    assert!(!m.is_referenceless());
    let err = m
        .score(&[CometInput {
            src: "a",
            mt: "b",
            reference: None,
        }])
        .unwrap_err();
    assert!(err.to_string().contains("no reference"), "{err}");
    let qe = CometModel::load(&fixture("comet").join("qe"), &opts(4)).unwrap();
    assert!(qe.is_referenceless());
    assert_eq!(
        qe.score(&[CometInput {
            src: "a",
            mt: "b",
            reference: None
        }])
        .unwrap()
        .len(),
        1
    );
    assert!(m.score(&[]).unwrap().is_empty());

    let err = CometModel::load(&fixture("comet").join("encoder"), &opts(4)).unwrap_err();
    assert!(err.to_string().contains("hparams.yaml"), "{err}");
    let err = CometModel::load(Path::new("./no/such/comet"), &opts(4)).unwrap_err();
    assert!(matches!(err, NliError::NotADirectory { .. }), "{err}");
    let dir = altered(
        "qe",
        "class_identifier: referenceless_regression_metric",
        "class_identifier: ranking_metric",
    );
    let err = CometModel::load(dir.path(), &opts(4)).unwrap_err();
    assert!(err.to_string().contains("ranking_metric"), "{err}");
    let dir = altered("qe", "activations: Tanh", "activations: ReLU");
    let err = CometModel::load(dir.path(), &opts(4)).unwrap_err();
    assert!(err.to_string().contains("ReLU"), "{err}");
}
