//! `hauser bert-score` against bert_score 0.3.13's own `bert-score` runs
//! (tools/gen/gen_bert_score_cli_fixtures.py): every case's standard output byte for byte, but for
//! the transformers version in the settings hash, which hauser replaces by its own
//! (`hug_trans=hauser-X.Y.Z`), and a number one unit off in its sixth decimal (f64 against
//! float32 arithmetic); and its exit status.

use std::path::{Path, PathBuf};

use crate::common::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/drop-in-bert-score")
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

/// Runs one recorded case in a fresh directory holding the inputs and the two models; returns
/// what differs.
fn replay(case: &serde_json::Value, models: &Path) -> Option<String> {
    let dir = case_dir(
        &fixtures(),
        &[
            "cand.txt",
            "ref1.txt",
            "ref2.txt",
            "ref3.txt",
            "baseline.csv",
        ],
    );
    copy_dir(&models.join("bert"), &dir.path().join("bert"));
    copy_dir(&models.join("roberta"), &dir.path().join("roberta"));
    // The generator's CLASS_COPIES: the tiny models naming a model-specific tokenizer class, as
    // hub models do (bert_score then encodes an empty sentence as [CLS] [SEP]).
    for (name, model, class) in [
        ("bertc", "bert", "BertTokenizer"),
        ("robc", "roberta", "RobertaTokenizer"),
    ] {
        let to = dir.path().join(name);
        copy_dir(&models.join(model), &to);
        let p = to.join("tokenizer_config.json");
        let mut cfg: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).expect("config")).expect("JSON");
        cfg["tokenizer_class"] = class.into();
        std::fs::write(&p, cfg.to_string()).expect("write config");
    }
    let argv: Vec<String> = std::iter::once("bert-score".to_string())
        .chain(
            case["argv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string()),
        )
        .collect();
    let (out, status) = run_case(dir.path(), &argv, case["status"].as_i64().unwrap());
    let want: String = case["stdout"]
        .as_str()
        .unwrap()
        .split_inclusive('\n')
        .map(hauser_hash)
        .collect();
    let got = String::from_utf8_lossy(&out.stdout).to_string();
    let mut problems: Vec<String> = status.into_iter().collect();
    if !same_lines(&got, &want) {
        problems.push(format!("stdout:\n{got}\nwanted:\n{want}"));
    }
    (!problems.is_empty()).then(|| format!("{}: {}", argv.join(" "), problems.join("\n")))
}

#[test]
fn bert_score_prints_what_bert_score_prints() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hauser-nli/tests/fixtures");
    replay_cases(&fixtures(), 10, |c| replay(c, &models));
}
