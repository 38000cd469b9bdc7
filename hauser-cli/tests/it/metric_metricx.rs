//! `hauser metric metricx` end to end on the tiny random mT5 regressors of hauser-nli's
//! fixtures (tools/gen/gen_metricx_fixtures.py, scored by google-research/metricx's own code):
//! every mode's scores within 1e-4, the signature and JSON, and the refusals (exit 2).

use std::path::Path;

use crate::common::*;

const TOL: f64 = 1e-4;

fn reference(form: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(tiny(form).join("reference.json")).unwrap())
        .unwrap()
}

/// The fixture's triples that fit on a line, with their indices.
fn lines(r: &serde_json::Value) -> Vec<(usize, [String; 3])> {
    r["triples"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let f = |k: &str| t[k].as_str().unwrap().to_string();
            (i, [f("source"), f("hypothesis"), f("reference")])
        })
        .filter(|(_, t)| t.iter().all(|x| !x.contains('\n')))
        .collect()
}

fn write(dir: &Path, name: &str, texts: impl Iterator<Item = String>) -> String {
    let p = dir.join(name);
    let body: String = texts.map(|t| t + "\n").collect();
    std::fs::write(&p, body).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn metricx_from_the_command_line_matches_metricx_in_every_mode() {
    let modes: [(&str, &str, bool, bool); 5] = [
        ("24-ref", "24", true, true),
        ("24-ref-nosrc", "24", false, true),
        ("24-qe", "24", true, false),
        ("23-ref", "23", false, true),
        ("23-qe", "23", true, false),
    ];
    for form in ["metricx", "metricx-relu"] {
        let r = reference(form);
        let kept = lines(&r);
        assert!(kept.len() >= 6);
        let dir = tempfile::tempdir().unwrap();
        let col = |k: usize| kept.iter().map(move |(_, t)| t[k].clone());
        let src = write(dir.path(), "src.txt", col(0));
        let hyp = write(dir.path(), "hyp.txt", col(1));
        let rf = write(dir.path(), "ref.txt", col(2));
        let model = tiny(form);
        let max_len = r["meta"]["max_input_length"].to_string();
        for (name, version, with_src, with_ref) in modes {
            for batch in ["1", "3"] {
                let mut args = vec![
                    "metric",
                    "metricx",
                    "--model",
                    s(&model),
                    "--hyp",
                    &hyp,
                    "--metricx-version",
                    version,
                    "--max-input-length",
                    &max_len,
                    "--batch-size",
                    batch,
                    "--sentence",
                    "--format",
                    "jsonl",
                ];
                if with_src {
                    args.extend(["--src", &src]);
                }
                if with_ref {
                    args.extend(["--ref", &rf]);
                }
                let out = run(&args);
                assert!(out.status.success(), "{form} {name}: {}", stderr(&out));
                let got = json_lines(&out);
                assert_eq!(got.len(), kept.len());
                for ((i, _), g) in kept.iter().zip(&got) {
                    let want = r["modes"][name]["scores"][*i].as_f64().unwrap();
                    let score = g["score"].as_f64().unwrap();
                    assert!(
                        (score - want).abs() < TOL,
                        "{form} {name} line {i}: {score} vs {want}"
                    );
                    let sig = g["signature"].as_str().unwrap();
                    assert!(sig.starts_with("metricx|"), "{sig}");
                    assert!(sig.contains(&format!("|metricx:{version}|")), "{sig}");
                    let mode = if with_ref { "|mode:ref|" } else { "|mode:qe|" };
                    assert!(
                        sig.contains(mode) && sig.contains("|better:lower|"),
                        "{sig}"
                    );
                }
            }
        }
    }
}

#[test]
fn metricx_corpus_record_says_lower_is_better() {
    let r = reference("metricx");
    let kept = lines(&r);
    let dir = tempfile::tempdir().unwrap();
    let hyp = write(
        dir.path(),
        "hyp.txt",
        kept.iter().map(|(_, t)| t[1].clone()),
    );
    let rf = write(
        dir.path(),
        "ref.txt",
        kept.iter().map(|(_, t)| t[2].clone()),
    );
    let model = tiny("metricx");
    let out = run(&[
        "metric",
        "metricx",
        "--model",
        s(&model),
        "--hyp",
        &hyp,
        "--ref",
        &rf,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = &json_lines(&out)[0];
    assert_eq!(v["metric"], "metricx");
    assert_eq!(v["direction"], "lower is better");
    assert_eq!(v["n"].as_u64(), Some(kept.len() as u64));
    // The default length is MetricX-24's 1536: nothing of the fixture is cut.
    assert_eq!(v["truncated"].as_u64(), Some(0));
    assert!(v["signature"].as_str().unwrap().contains("|max_len:1536|"));
    // The significance tests run on the line scores, as for every neural metric.
    let out = run(&[
        "metric",
        "metricx",
        "--model",
        s(&model),
        "--hyp",
        &hyp,
        "--ref",
        &rf,
        "--confidence",
        "--confidence-n",
        "20",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("metricx"));
}

#[test]
fn metricx_refusals_exit_2_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let hyp = write(dir.path(), "hyp.txt", ["a b".to_string()].into_iter());
    let model = tiny("metricx");
    let m = s(&model);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "needs --ref"),
        (
            vec!["--metricx-version", "23", "--src", &hyp, "--ref", &hyp],
            "not both",
        ),
        (vec!["--ref", &hyp, "--ref", &hyp], "at most one --ref"),
        (
            vec!["--ref", &hyp, "--max-input-length", "1"],
            "--max-input-length",
        ),
        (
            vec!["--ref", &hyp, "--metricx-version", "25"],
            "--metricx-version",
        ),
        (vec!["--ref", &hyp, "--no-src"], "--no-src"),
        (vec!["--ref", &hyp, "--idf"], "--idf"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["metric", "metricx", "--model", m, "--hyp", &hyp];
        args.extend(extra.iter().copied());
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{extra:?}: {}", stderr(&out));
    }
    // MetricX's flags are refused by the other metrics.
    for (flag, value) in [
        ("--tokenizer", m),
        ("--metricx-version", "23"),
        ("--max-input-length", "64"),
    ] {
        let out = run(&[
            "metric", "bleurt", "--model", m, "--hyp", &hyp, "--ref", &hyp, flag, value,
        ]);
        assert_eq!(out.status.code(), Some(2), "{flag}: {}", stderr(&out));
        assert!(stderr(&out).contains(flag), "{flag}: {}", stderr(&out));
    }
}

/// Issue 37, item 9a: the scores of one file are the same f64 at every `--batch-size` and
/// thread count (they moved by up to 8e-6 when a batch of one sequence took gemm's
/// matrix-vector path in the decoder and larger batches its blocked kernel).
#[test]
fn metricx_scores_do_not_move_with_batch_size_or_threads() {
    let dir = tempfile::tempdir().unwrap();
    let words = [
        "the", "dog", "barks", "at", "night", "über", "café", "猫", "quickly", "and",
    ];
    // Twenty lines of 1 to 39 words, in no order of length.
    let line = |i: usize, salt: usize| {
        let n = 1 + (i * 7 + salt) % 39;
        (0..n)
            .map(|j| words[(i + j * salt) % words.len()])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let src = write(dir.path(), "src.txt", (0..20).map(|i| line(i, 3)));
    let hyp = write(dir.path(), "hyp.txt", (0..20).map(|i| line(i, 5)));
    let rf = write(dir.path(), "ref.txt", (0..20).map(|i| line(i, 11)));
    for form in ["metricx", "metricx-relu"] {
        let model = tiny(form);
        let mut first: Option<(String, Vec<f64>)> = None;
        for (batch, threads) in [("1", "1"), ("3", "2"), ("7", "1"), ("64", "2"), ("3", "1")] {
            let out = hauser()
                .env("RAYON_NUM_THREADS", threads)
                .args([
                    "metric",
                    "metricx",
                    "--model",
                    s(&model),
                    "--src",
                    &src,
                    "--hyp",
                    &hyp,
                    "--ref",
                    &rf,
                    "--max-input-length",
                    "64",
                    "--batch-size",
                    batch,
                    "--sentence",
                    "--format",
                    "jsonl",
                ])
                .output()
                .unwrap();
            assert!(out.status.success(), "{form} {batch}: {}", stderr(&out));
            let scores: Vec<f64> = json_lines(&out)
                .iter()
                .map(|v| v["score"].as_f64().unwrap())
                .collect();
            assert_eq!(scores.len(), 20);
            let at = format!("--batch-size {batch} RAYON_NUM_THREADS={threads}");
            match &first {
                None => first = Some((at, scores)),
                Some((at0, s0)) => {
                    for (i, (a, b)) in s0.iter().zip(&scores).enumerate() {
                        assert!(a == b, "{form} line {i}: {a} at {at0}, {b} at {at}");
                    }
                }
            }
        }
    }
}
