//! End-to-end tests of `hauser embed` (tiny BERT fixture; MiniLM when downloaded) and of
//! `hauser score --nli/--sentiment` with tiny models.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hauser-nli/tests/fixtures")
}

fn vectors(out: &Output) -> Vec<Vec<f64>> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Mean over tokens of a reference hidden-state matrix.
fn mean_rows(m: &Value) -> Vec<f64> {
    let rows: Vec<Vec<f64>> = m
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        })
        .collect();
    let n = rows.len() as f64;
    (0..rows[0].len())
        .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n)
        .collect()
}

fn assert_close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    let d = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(d < 1e-4, "max diff {d}");
}

#[test]
fn embeds_each_line_as_the_mean_of_transformers_hidden_states() {
    let model = fixtures().join("bert");
    let r = json(&model.join("reference.json"));
    let singles = r["singles"].as_array().unwrap();
    let input: String = singles
        .iter()
        .map(|s| format!("{}\n", s["text"].as_str().unwrap()))
        .collect();
    let m = model.to_str().unwrap();
    let last = vectors(&run_stdin(
        &["embed", "--model", m, "--input", "-", "--batch-size", "2"],
        &input,
    ));
    let first = vectors(&run_stdin(
        &["embed", "--model", m, "--input", "-", "--layer", "0"],
        &input,
    ));
    let minus1 = vectors(&run_stdin(
        &["embed", "--model", m, "--input", "-", "--layer", "-1"],
        &input,
    ));
    assert_eq!(last.len(), singles.len());
    for (i, s) in singles.iter().enumerate() {
        let layers = s["hidden_states"].as_array().unwrap();
        assert_close(&last[i], &mean_rows(&layers[layers.len() - 1]));
        assert_close(&minus1[i], &last[i]);
        assert_close(&first[i], &mean_rows(&layers[0]));
    }
    let norm = vectors(&run_stdin(
        &["embed", "--model", m, "--input", "-", "--normalize"],
        &input,
    ));
    for v in &norm {
        let n: f64 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((n - 1.0).abs() < 1e-5);
    }
}

#[test]
fn embed_errors_name_the_model_and_exit_2() {
    let out = run_stdin(
        &["embed", "--model", "/nonexistent/model-dir", "--input", "-"],
        "x\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/model-dir") && err.contains("config.json"),
        "{err}"
    );
    let m = fixtures().join("bert");
    let out = run_stdin(
        &[
            "embed",
            "--model",
            m.to_str().unwrap(),
            "--input",
            "-",
            "--layer",
            "9",
        ],
        "x\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("layer 9 out of range"));
}

#[test]
#[ignore = "needs MiniLM: bash tools/test-assets.sh"]
fn minilm_embeddings_match_sentence_transformers() {
    let dir = minilm_dir();
    let r = json(&fixtures().join("minilm_reference.json"));
    let sentences: Vec<&str> = r["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let input: String = sentences.iter().map(|s| format!("{s}\n")).collect();
    let got = vectors(&run_stdin(
        &[
            "embed",
            "--model",
            dir.to_str().unwrap(),
            "--input",
            "-",
            "--normalize",
        ],
        &input,
    ));
    assert_eq!(got.len(), sentences.len());
    for (g, e) in got.iter().zip(r["embeddings"].as_array().unwrap()) {
        let e: Vec<f64> = e
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_close(g, &e);
    }
}

#[test]
fn score_runs_the_neural_criteria_with_given_models() {
    let input = concat!(
        r#"{"id": "g1", "literal": "The boy ran.", "candidates": ["The boy ran like the wind.", "The boy ran like a deer."]}"#,
        "\n",
        r#"{"id": "g2", "literal": "She was quiet.", "candidates": ["She was as quiet as a mouse.", "She was quiet like snow."]}"#,
        "\n"
    );
    let nli = fixtures().join("bert");
    let sent = fixtures().join("roberta");
    let out = run_stdin(
        &[
            "score",
            "--input",
            "-",
            "--nli",
            nli.to_str().unwrap(),
            "--sentiment",
            sent.to_str().unwrap(),
        ],
        input,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("logical_consistency: skipped"), "{stderr}");
    let recs: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let lc = r["logical_consistency_raw"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&lc), "{r}");
        let sc = r["sentiment_consistency_raw"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&sc), "{r}");
        assert!(
            r["signature"]
                .as_str()
                .unwrap()
                .contains("logical_consistency|model:"),
            "{r}"
        );
    }

    let out = run_stdin(&["score", "--input", "-"], input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("logical_consistency: skipped (no --nli model given)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("sentiment_consistency: skipped (no --sentiment model given)"),
        "{stderr}"
    );

    // The tiny RoBERTa has no contradiction label: a clear error, unless labels are given.
    let out = run_stdin(
        &["score", "--input", "-", "--nli", sent.to_str().unwrap()],
        input,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no label \"contradiction\""));
    let out = run_stdin(
        &[
            "score",
            "--input",
            "-",
            "--nli",
            sent.to_str().unwrap(),
            "--nli-labels",
            "contradiction,entailment",
            "--nli-input",
            "concat",
        ],
        input,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
