//! `hauser metric comet` on COMET's unified classes (CometKiwi's `unified_metric`,
//! `xcomet_metric`): unbabel-comet 2.2.7's scores and error spans (hauser-nli's
//! `comet-unified` fixture, tools/gen/gen_comet_unified_fixtures.py), and the inputs each model
//! takes or refuses.

use std::path::{Path, PathBuf};

use crate::common::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures/comet-unified")
        .join(name)
}

fn reference() -> serde_json::Value {
    let text = std::fs::read_to_string(fixture("reference.json")).expect("reference.json");
    serde_json::from_str(&text).expect("JSON")
}

/// The fixture's sources, hypotheses and references as line files (empty lines included).
fn files(dir: &Path) -> [PathBuf; 3] {
    let r = reference();
    ["src", "mt", "ref"].map(|k| {
        let p = dir.join(format!("{k}.txt"));
        let text: String = r[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{}\n", s.as_str().unwrap()))
            .collect();
        std::fs::write(&p, text).unwrap();
        p
    })
}

fn comet(
    model: &str,
    files: &[PathBuf; 3],
    src: bool,
    rf: bool,
    extra: &[&str],
) -> std::process::Output {
    let m = fixture(model);
    let mut args = vec![
        "metric",
        "comet",
        "--model",
        m.to_str().unwrap(),
        "--hyp",
        files[1].to_str().unwrap(),
    ];
    if src {
        args.extend(["--src", files[0].to_str().unwrap()]);
    }
    if rf {
        args.extend(["--ref", files[2].to_str().unwrap()]);
    }
    args.extend(extra);
    run(&args)
}

#[test]
fn unified_models_score_and_give_spans_as_unbabel_comet() {
    let dir = tempfile::tempdir().unwrap();
    let f = files(dir.path());
    let r = reference();
    for (model, mode, src, rf) in [
        ("kiwi", "src", true, false),
        ("unified", "src+ref", true, true),
        ("unified", "ref", false, true),
        ("unified-ref", "ref", false, true),
        ("xcomet", "src+ref", true, true),
        ("xcomet", "src", true, false),
        ("xcomet-xl", "src+ref", true, true),
    ] {
        let out = comet(model, &f, src, rf, &["--sentence", "--format", "jsonl"]);
        assert!(
            out.status.success(),
            "{model} {mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want = &r["models"][model][mode];
        let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), want["scores"].as_array().unwrap().len());
        for (i, line) in lines.iter().enumerate() {
            let (g, w) = (
                line["score"].as_f64().unwrap(),
                want["scores"][i].as_f64().unwrap(),
            );
            assert!((g - w).abs() < 1e-4, "{model} {mode} line {i}: {g} vs {w}");
            match want.get("error_spans") {
                Some(spans) => {
                    let got = line["error_spans"].as_array().expect("error_spans");
                    let spans = spans[i].as_array().unwrap();
                    assert_eq!(got.len(), spans.len(), "{model} {mode} line {i}");
                    for (g, w) in got.iter().zip(spans) {
                        for k in ["text", "severity", "start", "end"] {
                            assert_eq!(g[k], w[k], "{model} {mode} line {i}: {k}");
                        }
                    }
                }
                None => assert!(line.get("error_spans").is_none()),
            }
            if let Some(m) = want.get("mqm_scores") {
                let g = line["mqm_score"].as_f64().unwrap();
                assert!((g - m[i].as_f64().unwrap()).abs() < 1e-6);
            }
            let sig = line["signature"].as_str().unwrap();
            assert!(
                sig.contains(&format!("src:{}", if src { "yes" } else { "no" })),
                "{sig}"
            );
            assert!(
                sig.contains(&format!("ref:{}", if rf { "yes" } else { "no" })),
                "{sig}"
            );
        }
    }
}

#[test]
fn unified_models_refuse_the_texts_they_do_not_take() {
    let dir = tempfile::tempdir().unwrap();
    let f = files(dir.path());
    for (model, src, rf, says) in [
        ("kiwi", true, true, "takes no --ref"),
        ("unified-ref", true, true, "takes no --src"),
        ("unified-ref", false, false, "needs exactly one --ref"),
    ] {
        let out = comet(model, &f, src, rf, &[]);
        assert_eq!(out.status.code(), Some(2), "{model}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{model}: {err}");
    }
    // Two reference files for a model that takes at most one.
    let m = fixture("unified");
    let out = run(&[
        "metric",
        "comet",
        "--model",
        m.to_str().unwrap(),
        "--hyp",
        f[1].to_str().unwrap(),
        "--ref",
        f[2].to_str().unwrap(),
        "--ref",
        f[2].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most one --ref"));
}
