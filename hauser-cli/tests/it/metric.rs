//! `hauser metric`: output formats, reference values and input errors.
//! Expected corpus values were produced by sacreBLEU 2.4.3 on the same lines.

use std::path::PathBuf;
use std::process::Output;

use crate::common::*;

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

fn hauser(args: &[&str]) -> Output {
    let args: Vec<&str> = std::iter::once("metric")
        .chain(args.iter().copied())
        .collect();
    run(&args)
}

const HYP: &[u8] = b"It depends on when you are ready.\nThe cat sat.\n";
const REF: &[u8] = b"It all depends on when you are ready.\nThe cat sat on the mat.\n";

fn setup() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = write(&dir, "hyp.txt", HYP).display().to_string();
    let r = write(&dir, "ref.txt", REF).display().to_string();
    (dir, h, r)
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout.clone()).expect("utf8");
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).expect("json line")
}

#[test]
fn corpus_bleu_and_chrf_equal_sacrebleu_with_signatures() {
    let (_d, h, r) = setup();
    let v = json(&hauser(&["bleu", "--hyp", &h, "--ref", &r]));
    assert!((v["score"].as_f64().expect("score") - 56.98363775444274).abs() < 1e-9);
    let sig = v["signature"].as_str().expect("signature");
    assert!(
        sig.starts_with("bleu|") && sig.contains("tok:13a") && sig.contains("nrefs:1"),
        "{sig}"
    );
    let v = json(&hauser(&["chrf", "--hyp", &h, "--ref", &r]));
    assert!((v["score"].as_f64().expect("score") - 73.13214122800618).abs() < 1e-9);
}

#[test]
fn several_references() {
    let (d, h, r) = setup();
    let r2 = write(
        &d,
        "ref2.txt",
        b"It depends on when you are ready.\nA cat.\n",
    )
    .display()
    .to_string();
    let v = json(&hauser(&["bleu", "--hyp", &h, "--ref", &r, "--ref", &r2]));
    assert!((v["score"].as_f64().expect("score") - 90.00514359196268).abs() < 1e-9);
    assert!(v["signature"].as_str().expect("sig").contains("nrefs:2"));
}

#[test]
fn sentence_mode_prints_one_unit_scale_number_per_line_and_nothing_else() {
    let (_d, h, r) = setup();
    let out = hauser(&["chrf", "--hyp", &h, "--ref", &r, "--sentence"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    let vals: Vec<f64> = text
        .lines()
        .map(|l| l.parse().expect("a number per line"))
        .collect();
    let want = [0.8529812435223064, 0.4926069433771915];
    assert_eq!(vals.len(), 2);
    for (v, w) in vals.iter().zip(want) {
        assert!((v - w).abs() < 1e-12, "{v} vs {w}");
    }
    for name in [
        "bleu",
        "sentbleu",
        "chrf++",
        "rouge1",
        "rouge2",
        "rougeL",
        "rougeLsum",
        "distinct1",
        "distinct2",
        "selfbleu",
    ] {
        let out = hauser(&[name, "--hyp", &h, "--ref", &r, "--sentence"]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("utf8");
        let vals: Vec<f64> = text.lines().map(|l| l.parse().expect("number")).collect();
        assert_eq!(vals.len(), 2, "{name}");
        assert!(
            vals.iter().all(|v| (0.0..=1.0).contains(v)),
            "{name}: {vals:?}"
        );
    }
}

#[test]
fn bad_inputs_are_errors_naming_file_and_line() {
    let (d, h, r) = setup();
    let empty = write(&d, "empty.txt", b"a\n\nb\n").display().to_string();
    let short = write(&d, "short.txt", b"a\n").display().to_string();
    let bad = write(&d, "bad.txt", b"ok\n\xff\xfe\n")
        .display()
        .to_string();
    for (args, needle) in [
        // An empty line is a segment, so this file has 3 lines for the reference's 2.
        (
            vec!["chrf", "--hyp", &empty, "--ref", &r],
            format!("{r}:3: 2 lines, but {empty} has 3"),
        ),
        (
            vec!["chrf", "--hyp", &h, "--ref", &short],
            format!("{short}:2:"),
        ),
        (
            vec!["bleu", "--hyp", &bad, "--ref", &r],
            format!("{bad}:2: invalid UTF-8"),
        ),
        (
            vec!["nosuch", "--hyp", &h, "--ref", &r],
            "unknown metric".to_string(),
        ),
        (
            vec!["bleu", "--hyp", &h],
            "needs at least one --ref".to_string(),
        ),
        (
            vec!["bleu", "--hyp", &h, "--ref", &r, "--tokenize", "zz"],
            "unknown tokenizer".to_string(),
        ),
    ] {
        let out = hauser(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&needle), "{args:?}: {err}");
    }
}

#[test]
fn meteor_names_a_missing_database_directory() {
    let (_d, h, r) = setup();
    let out = hauser(&[
        "meteor",
        "--hyp",
        &h,
        "--ref",
        &r,
        "--wordnet",
        "/nonexistent/wn",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("WordNet database not found at /nonexistent/wn"),
        "{err}"
    );
}

/// `hauser metric meteor --sentence` on the two pairs of [`setup`] with `extra` flags, against
/// the WordNet of `tools/test-assets.sh`.
fn meteor_sentences(extra: &[&str]) -> Vec<f64> {
    let (_d, h, r) = setup();
    let dir = crate::common::wordnet_dir();
    let dir = dir.to_str().expect("UTF-8 WordNet path");
    let mut args = vec![
        "meteor",
        "--hyp",
        &h,
        "--ref",
        &r,
        "--wordnet",
        dir,
        "--sentence",
    ];
    args.extend_from_slice(extra);
    let out = hauser(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf8")
        .lines()
        .map(|l| l.parse().expect("number"))
        .collect()
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_meteor_sentence_values_match_nltk() {
    let vals = meteor_sentences(&[]);
    // NLTK 3.10.4 meteor_score on word_tokenize tokens gives these two values.
    let want = [0.8918539325842695, 0.47108208955223874];
    assert_eq!(vals.len(), 2);
    for (v, w) in vals.iter().zip(want) {
        assert!((v - w).abs() < 1e-9, "{v} vs {w}");
    }
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_meteor_takes_nltk_s_alpha_beta_gamma() {
    let flags = [
        "--meteor-alpha",
        "0.5",
        "--meteor-beta",
        "2",
        "--meteor-gamma",
        "0.25",
    ];
    let vals = meteor_sentences(&flags);
    // NLTK 3.10.4: meteor_score([word_tokenize(r)], word_tokenize(h), alpha=0.5, beta=2.0,
    // gamma=0.25) on the same two pairs.
    let want = [0.9264705882352942, 0.625];
    assert_eq!(vals.len(), 2);
    for (v, w) in vals.iter().zip(want) {
        assert!((v - w).abs() < 1e-12, "{v} vs {w}");
    }
}
