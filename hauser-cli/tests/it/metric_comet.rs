//! `hauser metric comet` end to end on the tiny COMET models of hauser-nli's fixtures
//! (unbabel-comet 2.2.7's scores in their reference.json).

use std::path::{Path, PathBuf};

use crate::common::*;

fn comet_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures/comet")
        .join(name)
}

fn reference() -> serde_json::Value {
    let text = std::fs::read_to_string(comet_fixture("reference.json")).expect("reference.json");
    serde_json::from_str(&text).expect("JSON")
}

/// Every fixture row, empty sources, hypotheses and references included (an empty line is an
/// empty segment, scored as unbabel-comet scores it), written as three files.
fn inputs(dir: &Path) -> (Vec<usize>, [PathBuf; 3]) {
    let r = reference();
    let col = |k: &str| -> Vec<String> {
        r[k].as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let (src, mt, rf) = (col("src"), col("mt"), col("ref"));
    let rows: Vec<usize> = (0..mt.len()).collect();
    assert!(rows
        .iter()
        .any(|&i| src[i].is_empty() || mt[i].is_empty() || rf[i].is_empty()));
    let write = |name: &str, v: &[String]| {
        let p = dir.join(name);
        let text: String = rows.iter().map(|&i| format!("{}\n", v[i])).collect();
        std::fs::write(&p, text).unwrap();
        p
    };
    (
        rows.clone(),
        [
            write("src.txt", &src),
            write("mt.txt", &mt),
            write("ref.txt", &rf),
        ],
    )
}

fn comet(model: &str, files: &[PathBuf; 3], extra: &[&str]) -> std::process::Output {
    let m = comet_fixture(model);
    let mut args = vec![
        "metric",
        "comet",
        "--model",
        m.to_str().unwrap(),
        "--hyp",
        files[1].to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn numbers(out: &std::process::Output) -> Vec<f64> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

#[test]
fn comet_and_comet_w_match_unbabel_comet() {
    let dir = tempfile::tempdir().unwrap();
    let (rows, files) = inputs(dir.path());
    let r = reference();
    let (src, rf) = (files[0].to_str().unwrap(), files[2].to_str().unwrap());
    for (model, with_ref) in [("estimator", true), ("regression", true), ("qe", false)] {
        for (key, src_args) in [
            ("scores", vec!["--src", src]),
            ("scores_no_src", vec!["--no-src"]),
        ] {
            let mut extra = src_args.clone();
            if with_ref {
                extra.extend(["--ref", rf]);
            }
            extra.push("--sentence");
            let got = numbers(&comet(model, &files, &extra));
            let want = r["models"][model][key].as_array().unwrap();
            assert_eq!(got.len(), rows.len());
            for (g, &i) in got.iter().zip(&rows) {
                let w = want[i].as_f64().unwrap();
                assert!((g - w).abs() < 1e-4, "{model} {key} row {i}: {g} vs {w}");
            }
            // The system line: the mean of the same scores, and a signature naming the variant.
            extra.pop();
            let out = comet(model, &files, &extra);
            assert!(out.status.success());
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let mean = got.iter().sum::<f64>() / got.len() as f64;
            assert!((v["score"].as_f64().unwrap() - mean).abs() < 1e-9);
            let sig = v["signature"].as_str().unwrap();
            assert!(sig.starts_with("comet|model:"), "{sig}");
            let want_src = if key == "scores" { "src:yes" } else { "src:no" };
            assert!(sig.contains(want_src), "{sig}");
        }
    }
}

#[test]
fn comet_usage_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let (_, files) = inputs(dir.path());
    let (src, rf) = (files[0].to_str().unwrap(), files[2].to_str().unwrap());
    let cases: [(&str, Vec<&str>, &str); 5] = [
        ("estimator", vec!["--ref", rf], "--no-src"),
        ("estimator", vec!["--src", src], "exactly one --ref"),
        ("qe", vec!["--src", src, "--ref", rf], "takes no --ref"),
        ("encoder", vec!["--src", src, "--ref", rf], "hparams.yaml"),
        (
            "estimator",
            vec!["--src", src, "--no-src", "--ref", rf],
            "--no-src",
        ),
    ];
    for (model, extra, needle) in cases {
        let out = comet(model, &files, &extra);
        assert_eq!(out.status.code(), Some(2), "{model} {extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{model} {extra:?}: {err}");
    }
}
