//! `hauser metric bertscore|bleurt|perplexity|style` end to end on the tiny random models.

use std::path::{Path, PathBuf};

use figlang_metrics::neural::{BertScore, BertScoreOptions, BosMode, Perplexity};
use hauser_nli::{CausalLm, Embedder, LoadOptions, ModelSource};

use crate::common::*;

fn tiny(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures")
        .join(name)
}

fn write(dir: &Path, name: &str, lines: &[&str]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").expect("write");
    p
}

/// The numbers a `--sentence` run printed, one per line.
fn numbers(stdout: Vec<u8>) -> Vec<f64> {
    String::from_utf8(stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|l| l.parse().expect("one number per line"))
        .collect()
}

/// `hauser metric bertscore --model MODEL --hyp HYP --ref REF` followed by `extra`.
fn bertscore(model: &Path, hyp: &Path, reference: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "metric",
        "bertscore",
        "--model",
        model.to_str().expect("UTF-8 path"),
        "--hyp",
        hyp.to_str().expect("UTF-8 path"),
        "--ref",
        reference.to_str().expect("UTF-8 path"),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

const HYPS: [&str; 3] = [
    "the cat sat like a king",
    "she sang softly",
    "rain fell like tears",
];
const REFS: [&str; 3] = ["a cat was sitting", "she was singing quietly", "it rained"];

#[test]
fn bertscore_sentence_scores_match_the_library() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hyp = write(dir.path(), "hyp.txt", &HYPS);
    let reference = write(dir.path(), "ref.txt", &REFS);
    let model = tiny("bert");
    let out = bertscore(
        &model,
        &hyp,
        &reference,
        &["--layer", "2", "--idf", "--sentence"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = numbers(out.stdout);
    let embedder =
        Embedder::load(&ModelSource::Dir(model.clone()), &LoadOptions::default()).unwrap();
    let options = BertScoreOptions {
        layer: Some(2),
        idf: true,
        ..Default::default()
    };
    let metric = BertScore::new(embedder, "tiny", options).unwrap();
    let refs: Vec<Vec<&str>> = REFS.iter().map(|r| vec![*r]).collect();
    let want = metric.score(&HYPS, &refs).unwrap();
    assert_eq!(got.len(), 3);
    for (g, w) in got.iter().zip(want) {
        assert_eq!(*g, w.f1, "the CLI prints full precision");
    }

    // Corpus mode: one JSON line with P/R/F1 means and the signature.
    let out = bertscore(&model, &hyp, &reference, &["--layer", "2"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .starts_with("bertscore|model:"));
    assert!(v["signature"].as_str().unwrap().contains("layer:2|idf:no"));
    assert_eq!(v["n"], 3);
}

#[test]
fn bertscore_on_deberta_v1_with_and_without_the_leading_space() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hyp = write(dir.path(), "hyp.txt", &HYPS);
    let reference = write(dir.path(), "ref.txt", &REFS);
    let model = tiny("deberta");
    let cli = |prefix: Option<&str>| {
        let out = match prefix {
            Some(p) => bertscore(
                &model,
                &hyp,
                &reference,
                &["--layer", "2", "--prefix-space", p],
            ),
            None => bertscore(&model, &hyp, &reference, &["--layer", "2"]),
        };
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        (
            v["f1"].as_f64().unwrap(),
            v["signature"].as_str().unwrap().to_string(),
        )
    };
    let refs: Vec<Vec<&str>> = REFS.iter().map(|r| vec![*r]).collect();
    for (flag, prefix) in [(None, None), (Some("no"), Some(false))] {
        let (f1, signature) = cli(flag);
        let embedder =
            Embedder::load(&ModelSource::Dir(model.clone()), &LoadOptions::default()).unwrap();
        let options = BertScoreOptions {
            layer: Some(2),
            prefix_space: prefix,
            ..Default::default()
        };
        let want = BertScore::new(embedder, "tiny", options)
            .unwrap()
            .score(&HYPS, &refs)
            .unwrap();
        let mean = want.iter().map(|p| p.f1).sum::<f64>() / 3.0;
        assert!((f1 - mean).abs() < 1e-12, "{flag:?}: {f1} vs {mean}");
        assert_eq!(
            signature.contains("prefix:no"),
            flag.is_some(),
            "{signature}"
        );
    }
    assert_ne!(
        cli(None).0,
        cli(Some("no")).0,
        "the leading space changes DeBERTa's tokens"
    );
    let bad = bertscore(&model, &hyp, &reference, &["--prefix-space", "maybe"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected yes or no"));
}

#[test]
fn bertscore_errors_are_clear() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hyp = write(dir.path(), "hyp.txt", &HYPS);
    let model = tiny("bert");
    // No layer and no default for a local directory.
    let out = bertscore(&model, &hyp, &hyp, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--layer"));
    // A missing model directory names the model.
    let out = bertscore(
        Path::new("/nonexistent/model"),
        &hyp,
        &hyp,
        &["--layer", "1"],
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/model"));
    // No --model at all.
    let out = run(&["metric", "perplexity", "--hyp", hyp.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model"));
}

#[test]
fn perplexity_and_style_from_the_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hyp = write(dir.path(), "hyp.txt", &HYPS);
    let gpt2 = tiny("gpt2");
    let out = run(&[
        "metric",
        "perplexity",
        "--model",
        gpt2.to_str().unwrap(),
        "--prepend-bos",
        "--hyp",
        hyp.to_str().unwrap(),
        "--sentence",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = numbers(out.stdout);
    let lm = CausalLm::load(&ModelSource::Dir(gpt2), &LoadOptions::default()).unwrap();
    let want = Perplexity::new(lm, "tiny", BosMode::Prepend)
        .unwrap()
        .perplexity(&HYPS)
        .unwrap();
    assert_eq!(got, want);

    let clf = tiny("roberta");
    let args = [
        "metric",
        "style",
        "--model",
        clf.to_str().unwrap(),
        "--label",
        "positive",
        "--hyp",
        hyp.to_str().unwrap(),
        "--sentence",
    ];
    let plain = numbers(run(&args).stdout);
    let mut flipped_args = args.to_vec();
    flipped_args.extend(["--flip", "2-3"]);
    let flipped = numbers(run(&flipped_args).stdout);
    assert_eq!(plain.len(), 3);
    assert_eq!(flipped[0], plain[0]);
    for i in 1..3 {
        assert!((flipped[i] - (1.0 - plain[i])).abs() < 1e-12);
    }
    let out = run(&[
        "metric",
        "style",
        "--model",
        tiny("roberta").to_str().unwrap(),
        "--label",
        "formal",
        "--hyp",
        hyp.to_str().unwrap(),
    ]);
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("POSITIVE"));
}

#[test]
fn bleurt_from_the_command_line_matches_bleurt_pytorch() {
    // The original layout (WordPiece), BLEURT-20's (SentencePiece, factorised embeddings) and
    // the distilled BLEURT-20-D shape.
    for form in ["bleurt", "bleurt-20", "bleurt-20-d"] {
        bleurt_command_matches(form);
    }
}

fn bleurt_command_matches(form: &str) {
    let model = tiny(form);
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(model.join("reference.json")).unwrap())
            .unwrap();
    let col = |k: &str| -> Vec<String> {
        r[k].as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let (refs, cands) = (col("references"), col("candidates"));
    // A line file cannot hold a text with a line break; empty lines are scored.
    let fits = |s: &str| !s.contains('\n');
    let rows: Vec<usize> = (0..refs.len())
        .filter(|&i| fits(&refs[i]) && fits(&cands[i]))
        .collect();
    let pick = |v: &[String]| -> Vec<String> { rows.iter().map(|&i| v[i].clone()).collect() };
    let dir = tempfile::tempdir().expect("tempdir");
    let (c, rf) = (pick(&cands), pick(&refs));
    let hyp = write(
        dir.path(),
        "hyp.txt",
        &c.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let reference = write(
        dir.path(),
        "ref.txt",
        &rf.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "metric".to_string(),
            "bleurt".into(),
            "--model".into(),
            model.display().to_string(),
            "--hyp".into(),
            hyp.display().to_string(),
            "--ref".into(),
            reference.display().to_string(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let a = args(&["--sentence"]);
    let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = numbers(out.stdout);
    assert_eq!(got.len(), rows.len());
    for (g, &i) in got.iter().zip(&rows) {
        let w = r["scores"][i].as_f64().unwrap();
        assert!((g - w).abs() < 1e-4, "{form} row {i}: {g} vs {w}");
    }
    let a = args(&[]);
    let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .starts_with("bleurt|model:"));
    // Two reference files are refused: BLEURT compares with one reference.
    let mut a = args(&[]);
    a.extend(["--ref".to_string(), reference.display().to_string()]);
    let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly one --ref"));
}
