//! `hauser bert-score` against bert_score 0.3.13's own `bert-score` runs
//! (tools/gen_bert_score_cli_fixtures.py): every case's standard output byte for byte, but for
//! the transformers version in the settings hash, which hauser replaces by its own
//! (`hug_trans=hauser-X.Y.Z`), and a number one unit off in its sixth decimal (f64 against
//! float32 arithmetic); and its exit status.

use std::path::{Path, PathBuf};

use crate::common::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/drop-in-bert-score")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
    }
}

/// bert_score's hash names the transformers release; hauser's names itself there.
fn hauser_hash(line: &str) -> String {
    match (line.find("(hug_trans="), line.find(')')) {
        (Some(a), Some(b)) if a < b => format!(
            "{}(hug_trans=hauser-{}{}",
            &line[..a],
            env!("CARGO_PKG_VERSION"),
            &line[b..]
        ),
        _ => line.to_string(),
    }
}

/// The same text, but that a printed number may be one unit off in its sixth decimal: hauser
/// computes the greedy matching in f64 where bert_score stays in float32, so a value on a
/// rounding edge can print one digit apart (see docs/DROP-IN-COMET-BERTSCORE.md).
fn same_lines(got: &str, want: &str) -> bool {
    let (g, w): (Vec<&str>, Vec<&str>) = (
        got.split(['\t', ' ', '\n']).collect(),
        want.split(['\t', ' ', '\n']).collect(),
    );
    g.len() == w.len()
        && g.iter().zip(&w).all(|(a, b)| {
            a == b
                || matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if (x - y).abs() < 1.5e-6)
        })
}

fn replay(case: &serde_json::Value, models: &Path) -> Option<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["cand.txt", "ref1.txt", "ref2.txt", "baseline.csv"] {
        std::fs::copy(fixtures().join(name), dir.path().join(name)).expect("copy input");
    }
    copy_dir(&models.join("bert"), &dir.path().join("bert"));
    copy_dir(&models.join("roberta"), &dir.path().join("roberta"));
    let argv: Vec<String> = std::iter::once("bert-score".to_string())
        .chain(
            case["argv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string()),
        )
        .collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hauser"))
        .args(&argv)
        .current_dir(dir.path())
        .output()
        .expect("run hauser");
    let want: String = case["stdout"]
        .as_str()
        .unwrap()
        .split_inclusive('\n')
        .map(hauser_hash)
        .collect();
    let got = String::from_utf8_lossy(&out.stdout).to_string();
    let status = i64::from(out.status.code().unwrap_or(-1));
    let mut problems = Vec::new();
    if status != case["status"].as_i64().unwrap() {
        problems.push(format!("status {status} ({})", stderr(&out)));
    }
    if !same_lines(&got, &want) {
        problems.push(format!("stdout:\n{got}\nwanted:\n{want}"));
    }
    (!problems.is_empty()).then(|| format!("{}: {}", argv.join(" "), problems.join("\n")))
}

#[test]
fn bert_score_prints_what_bert_score_prints() {
    let text = std::fs::read_to_string(fixtures().join("cases.json")).expect("cases.json");
    let cases: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hauser-nli/tests/fixtures");
    let failures: Vec<String> = cases.iter().filter_map(|c| replay(c, &models)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
