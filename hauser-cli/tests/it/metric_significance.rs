//! `hauser metric --confidence`, `--paired-bs` and `--paired-ar` against sacreBLEU 2.4.3 and
//! rouge-score 0.1.2 (tools/gen/gen_metric_significance_fixture.py): scores, means, intervals and
//! p-values for SACREBLEU_SEED 12345 and 7, 1e-9.

use serde_json::Value;

use crate::common::{hauser, json_lines};

fn close(got: &Value, want: &Value, what: &str) {
    match (got.as_f64(), want.as_f64()) {
        (Some(a), Some(b)) => assert!(
            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            "{what}: {a} vs {b}"
        ),
        _ => assert_eq!(got, want, "{what}"),
    }
}

#[test]
fn significance_options_equal_sacrebleu_and_rouge_score() {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/metric_significance.json"
    );
    let fx: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lines = |v: &Value| -> String {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{}\n", s.as_str().unwrap()))
            .collect()
    };
    let mut files = Vec::new();
    for (i, sys) in fx["systems"].as_array().unwrap().iter().enumerate() {
        let f = dir.path().join(format!("sys{i}.txt"));
        std::fs::write(&f, lines(&sys[1])).unwrap();
        files.push(f.display().to_string());
    }
    let r = dir.path().join("ref.txt");
    std::fs::write(&r, lines(&fx["refs"])).unwrap();
    let r = r.display().to_string();
    let cases = fx["cases"].as_array().unwrap();
    assert!(cases.len() >= 50);
    for case in cases {
        let metric = case["metric"].as_str().unwrap();
        let mut args = vec!["metric", metric, "--hyp", &files[0], "--ref", &r];
        let extra: Vec<&str> = case["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        args.extend(&extra);
        if case["kind"] == "paired" {
            args.extend(["--system", &files[1], "--system", &files[2]]);
        }
        let seed = case["seed"].to_string();
        let out = hauser()
            .args(&args)
            .env("SACREBLEU_SEED", &seed)
            .output()
            .unwrap();
        let what = format!("{args:?} seed {seed}");
        assert!(
            out.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = json_lines(&out);
        if case["kind"] == "paired" {
            let want = case["expect"].as_array().unwrap();
            assert_eq!(got.len(), 3, "{what}");
            assert!(got[0]["system"].as_str().unwrap().starts_with("Baseline: "));
            for (g, w) in got.iter().zip(want) {
                for k in ["score", "p_value", "mean", "ci"] {
                    close(&g[k], &w[k], &format!("{what} {k}"));
                }
            }
        } else {
            let g = &got[0];
            for (k, w) in case["expect"].as_object().unwrap() {
                match w {
                    Value::Object(prf) => {
                        for (f, v) in prf {
                            close(&g[k][f], v, &format!("{what} {k}.{f}"));
                        }
                    }
                    _ => close(&g[k], w, &format!("{what} {k}")),
                }
            }
            assert!(g["signature"]
                .as_str()
                .unwrap()
                .contains(&format!("|seed:{seed}|")));
        }
    }
}

#[test]
fn significance_needs_what_it_tests() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("h.txt");
    std::fs::write(&h, "a b c\n").unwrap();
    let h = h.display().to_string();
    for (args, needle) in [
        (vec!["sentbleu", "--confidence"], "sentbleu has none"),
        (vec!["bleu", "--paired-bs"], "--system"),
        (
            vec!["bleu", "--system", &h],
            "--system needs --paired-bs, --paired-ar or --comet-compare",
        ),
        (
            vec!["bleu", "--confidence", "--confidence-n", "0"],
            "from 1 to 1000000",
        ),
    ] {
        let mut a = vec!["metric"];
        a.extend(&args[..1]);
        a.extend(["--hyp", &h, "--ref", &h]);
        a.extend(&args[1..]);
        let out = hauser().args(&a).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{a:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{a:?}: {err}");
    }
}
