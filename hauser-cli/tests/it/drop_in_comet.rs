//! `hauser comet-score` and `hauser comet-compare` against unbabel-comet 2.2.7's own runs
//! (tools/gen/gen_comet_cli_fixtures.py): every case's standard output, byte for byte, its exit
//! status, and the `--to_json` file it wrote: the same layout and texts, its full-precision
//! scores equal to 1e-5 (they are float32 scores written with all their digits, and hauser's
//! kernels are not PyTorch's: the last bits differ).

use std::path::{Path, PathBuf};

use crate::common::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/drop-in-comet")
}

fn fixture_dir(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures")
        .join(name)
        .canonicalize()
        .expect("COMET fixtures")
        .display()
        .to_string()
}

/// The placeholders of the recorded cases filled in: `{MODELS}` (the estimator and regression
/// checkpoints) and `{UNIFIED}` (CometKiwi and XCOMET).
fn fill(text: &str) -> String {
    text.replace("{MODELS}", &fixture_dir("comet"))
        .replace("{UNIFIED}", &fixture_dir("comet-unified"))
}

/// Whether two JSON texts hold the same values, numbers equal to 1e-5 (relative above 1).
fn same_json(a: &str, b: &str) -> bool {
    fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        use serde_json::Value as V;
        match (a, b) {
            (V::Number(x), V::Number(y)) => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                (x - y).abs() <= 1e-5 * x.abs().max(1.0)
            }
            (V::Array(x), V::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
            }
            (V::Object(x), V::Object(y)) => {
                x.keys().eq(y.keys()) && x.iter().zip(y).all(|((_, x), (_, y))| same(x, y))
            }
            _ => a == b,
        }
    }
    match (serde_json::from_str(a), serde_json::from_str(b)) {
        (Ok(x), Ok(y)) => same(&x, &y),
        _ => false,
    }
}

/// Runs one recorded case in a fresh directory holding the inputs; returns what differs.
fn replay(case: &serde_json::Value) -> Option<String> {
    let names = ["src.txt", "ref.txt", "sys1.txt", "sys2.txt", "sys3.txt"];
    let dir = case_dir(&fixtures(), &names);
    let mut args = vec![case["command"].as_str().unwrap().to_string()];
    args.extend(
        case["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| fill(a.as_str().unwrap())),
    );
    let (out, status) = run_case(dir.path(), &args, case["status"].as_i64().unwrap());
    let want = fill(case["stdout"].as_str().unwrap());
    let got = String::from_utf8_lossy(&out.stdout).to_string();
    let mut problems: Vec<String> = status.into_iter().collect();
    if got != want {
        problems.push(format!("stdout:\n{got}\nwanted:\n{want}"));
    }
    if let Some(json) = case.get("to_json") {
        let i = args.iter().position(|a| a == "--to_json").unwrap();
        let written = std::fs::read_to_string(dir.path().join(&args[i + 1])).unwrap_or_default();
        let want = fill(json.as_str().unwrap());
        if !same_json(&written, &want) {
            problems.push(format!("--to_json:\n{written}\nwanted:\n{want}"));
        }
    }
    (!problems.is_empty()).then(|| format!("{}: {}", args.join(" "), problems.join("\n")))
}

#[test]
fn comet_score_and_compare_print_what_unbabel_comet_prints() {
    replay_cases(&fixtures(), 15, replay);
}
