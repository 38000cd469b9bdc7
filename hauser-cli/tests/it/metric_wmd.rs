//! `hauser metric wmd`: distances against gensim 4.4.0 + POT 0.9.7 on the fixture vectors of
//! figlang-metrics (`tools/gen/gen_wmd_fixture.py`), output formats and errors.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../figlang-metrics/tests/fixtures/wmd")
        .join(name)
        .display()
        .to_string()
}

/// The golden cases whose documents are non-empty and have no space inside a token, as lines.
fn golden_lines(norm: bool) -> (String, String, Vec<Value>) {
    let g: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("wmd_golden.json")).unwrap())
            .unwrap();
    let (mut hyp, mut reference, mut want) = (String::new(), String::new(), Vec::new());
    for c in g["cases"].as_array().unwrap() {
        let join = |v: &Value| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (h, r) = (join(&c["doc1"]), join(&c["doc2"]));
        if h.is_empty() || r.is_empty() || c["norm"].as_bool() != Some(norm) {
            continue;
        }
        hyp += &format!("{h}\n");
        reference += &format!("{r}\n");
        want.push(c["distance"].clone());
    }
    (hyp, reference, want)
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn sentence_distances_match_gensim_for_every_vector_format() {
    let dir = tempfile::tempdir().unwrap();
    for norm in [true, false] {
        let (hyp, reference, want) = golden_lines(norm);
        let h = dir.path().join("hyp.txt");
        let r = dir.path().join("ref.txt");
        std::fs::write(&h, hyp).unwrap();
        std::fs::write(&r, reference).unwrap();
        for file in ["vectors.bin", "vectors.txt", "glove.txt"] {
            let vectors = fixture(file);
            let mut args = vec![
                "metric",
                "wmd",
                "--vectors",
                &vectors,
                "--tokenize",
                "none",
                "--sentence",
                "--hyp",
                h.to_str().unwrap(),
                "--ref",
                r.to_str().unwrap(),
            ];
            if !norm {
                args.push("--no-norm");
            }
            let text = stdout(&run(&args));
            let got: Vec<&str> = text.lines().collect();
            assert_eq!(got.len(), want.len(), "{file}");
            for (g, w) in got.iter().zip(&want) {
                match w {
                    Value::String(s) => assert_eq!(g, s, "{file}"),
                    w => {
                        let (g, w): (f64, f64) = (g.parse().unwrap(), w.as_f64().unwrap());
                        assert!(
                            (g - w).abs() <= 1e-9 * w.abs().max(1e-12),
                            "{file}: {g} vs {w}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn corpus_line_reports_the_mean_the_infinite_lines_and_the_signature() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("hyp.txt");
    let r = dir.path().join("ref.txt");
    std::fs::write(&h, "the cat sat\nunknown words only\n").unwrap();
    std::fs::write(&r, "a cat sat on the mat\nthe dog\n").unwrap();
    let vectors = fixture("vectors.bin");
    let (h, r) = (h.to_str().unwrap(), r.to_str().unwrap());
    // `hauser metric wmd` on these files, with `extra` flags.
    let wmd = |extra: &[&str]| {
        let mut args = vec![
            "metric",
            "wmd",
            "--vectors",
            &vectors,
            "--hyp",
            h,
            "--ref",
            r,
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = wmd(&[]);
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["metric"], "wmd");
    assert_eq!(v["score"], Value::Null, "one line is inf, so is the mean");
    assert_eq!(v["n_inf"], 1);
    assert_eq!(v["n"], 2);
    let sentence = wmd(&["--sentence"]);
    let lines: Vec<String> = stdout(&sentence).lines().map(String::from).collect();
    assert_eq!(lines[1], "inf");
    let first: f64 = lines[0].parse().unwrap();
    assert!((v["mean_finite"].as_f64().unwrap() - first).abs() < 1e-15);
    let sig = v["signature"].as_str().unwrap();
    for part in [
        "wmd|",
        "vectors:vectors.bin",
        "vocab:35",
        "dim:8",
        "tok:nltk-3.10.4-word_tokenize|",
        "norm:yes",
    ] {
        assert!(sig.contains(part), "{sig}");
    }
    assert!(!sig.contains("nltk-nltk"), "{sig}");
    // --vocab-limit keeps the file's first words only ("the", "cat", "dog").
    let out = wmd(&["--vocab-limit", "3"]);
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v["signature"].as_str().unwrap().contains("vocab:3"), "{v}");
}

#[test]
fn missing_or_malformed_vectors_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("hyp.txt");
    std::fs::write(&h, "the cat\n").unwrap();
    let h = h.to_str().unwrap();
    let out = run(&["metric", "wmd", "--hyp", h, "--ref", h]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("wmd needs --vectors"));
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "2 3\ncat 1 2 3\ndog 1 2\n").unwrap();
    let bad = bad.to_str().unwrap();
    let out = run(&["metric", "wmd", "--vectors", bad, "--hyp", h, "--ref", h]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.txt: line 3: 2 numbers where 3 were expected"),
        "{err}"
    );
    let out = run(&[
        "metric",
        "wmd",
        "--vectors",
        bad,
        "--tokenize",
        "13a",
        "--hyp",
        h,
        "--ref",
        h,
    ]);
    assert_eq!(out.status.code(), Some(2));
}
