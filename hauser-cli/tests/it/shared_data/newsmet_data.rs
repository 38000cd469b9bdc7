//! NewsMet on ../shared/data/newsmet (`#[ignore]`d: tools/test.sh runs it when the data is there):
//! the families of the goldplus files give the paper's Table 2 counts and candidate statistics,
//! and `hauser newsmet eval` equals scikit-learn and statsmodels on the released test sets
//! (tools/gen/gen_newsmet_fixture.py, 1e-12).

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{json_lines, run, shared_data};

/// Metaphorical and literal headlines given candidates in the paper (its denominators).
const PAPER_METAPHORICAL: f64 = 389.0;
const PAPER_LITERAL: f64 = 611.0;

#[test]
#[ignore = "needs ../shared/data"]
fn families_reproduce_table_2_and_the_candidate_statistics() {
    let files: Vec<String> = ["train", "val", "test"]
        .iter()
        .map(|s| {
            shared_data(&format!("newsmet/{s}_goldplus.csv"))
                .display()
                .to_string()
        })
        .collect();
    let mut args = vec!["newsmet", "families", "--data"];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = &json_lines(&out)[0];
    assert_eq!(
        (v["gold"]["1"].as_u64(), v["gold"]["0"].as_u64()),
        (Some(594), Some(611))
    );
    assert_eq!(
        (v["accepted"]["0"].as_u64(), v["accepted"]["1"].as_u64()),
        (Some(1009), Some(455))
    );
    assert_eq!(v["total"], 2669);
    // Of the paper's 389 metaphorical headlines 31.6% have no literal candidate and 32.4% one;
    // of its 611 literal ones 27.2% and 23.9%.
    let pct = |fams: &Value, one: &Value, total: f64| {
        let none = 100.0 * (total - fams.as_f64().unwrap()) / total;
        let one = 100.0 * one.as_f64().unwrap() / total;
        ((none * 10.0).round() / 10.0, (one * 10.0).round() / 10.0)
    };
    assert_eq!(
        pct(
            &v["families"]["1"],
            &v["accepted_per_family"]["1"]["1"],
            PAPER_METAPHORICAL
        ),
        (31.6, 32.4)
    );
    assert_eq!(
        pct(
            &v["families"]["0"],
            &v["accepted_per_family"]["0"]["1"],
            PAPER_LITERAL
        ),
        (27.2, 23.9)
    );
}

fn flipped(gold: &[u8], a: usize, b: usize) -> String {
    gold.iter()
        .enumerate()
        .map(|(i, &g)| format!("{}\n", if (i * a).is_multiple_of(b) { 1 - g } else { g }))
        .collect()
}

#[test]
#[ignore = "needs ../shared/data"]
fn detection_metrics_equal_scikit_learn_and_statsmodels() {
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../figlang-tasks/tests/fixtures/newsmet/expected.json"
        )))
        .unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, w) in want["sets"].as_object().unwrap() {
        let data = shared_data(&format!("newsmet/{name}.csv"));
        let text = std::fs::read_to_string(&data).unwrap();
        let rows = figlang_tasks::newsmet::parse_csv(&text, &data).unwrap();
        let gold: Vec<u8> = rows.iter().map(|r| r.label).collect();
        let preds: Vec<String> = [(7, 5), (3, 4), (11, 3)]
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| {
                let p = dir.path().join(format!("{name}.{k}.txt"));
                std::fs::write(&p, flipped(&gold, a, b)).unwrap();
                p.display().to_string()
            })
            .collect();
        let d = data.display().to_string();
        let out = run(&[
            "newsmet",
            "eval",
            "--data",
            &d,
            "--pred",
            &preds[0],
            "--pred2",
            &preds[1],
            "--pred-more",
            &preds[2],
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let g = &json_lines(&out)[0];
        let close = |a: &Value, b: &Value| {
            let (x, y) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            assert!((x - y).abs() < 1e-12, "{name}: {x} vs {y}");
        };
        assert_eq!(g["n"], w["n"]);
        close(&g["accuracy"], &w["accuracy"]);
        close(&g["macro_f1"], &w["macro_f1"]);
        for c in ["0", "1"] {
            for k in ["precision", "recall", "f1"] {
                close(&g["per_class"][c][k], &w["per_class"][c][k]);
            }
            assert_eq!(g["per_class"][c]["support"], w["per_class"][c]["support"]);
        }
        assert_eq!(g["mcnemar"]["table"], w["mcnemar"]["table"]);
        for t in ["exact", "chi2_corrected"] {
            close(&g["mcnemar"][t]["statistic"], &w["mcnemar"][t]["statistic"]);
            close(&g["mcnemar"][t]["p_value"], &w["mcnemar"][t]["p_value"]);
        }
        close(&g["mcnemar"]["cohen_kappa"], &w["cohen_kappa"]);
        close(&g["fleiss_kappa"], &w["fleiss_kappa"]);
    }
}

#[test]
#[ignore = "needs ../shared/data and WordNet"]
fn wordnet_release_families_diversity_equals_nltk() {
    let wordnet = crate::common::wordnet_dir();
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../figlang-tasks/tests/fixtures/newsmet/diversity_release.json"
        )))
        .unwrap(),
    )
    .unwrap();
    // The families' candidates, as tools/gen/newsmet_diversity_ref.py builds them.
    let mut input = String::new();
    for split in ["train", "val", "test"] {
        let path = shared_data(&format!("newsmet/{split}_goldplus.csv"));
        let rows =
            figlang_tasks::newsmet::parse_csv(&std::fs::read_to_string(&path).unwrap(), &path)
                .unwrap();
        for f in figlang_tasks::newsmet::families(&rows).unwrap() {
            let cands: Vec<&str> = f
                .children
                .iter()
                .map(|&c| rows[c].text.split_whitespace().nth(f.token).unwrap())
                .collect();
            let rec = serde_json::json!({"headline": rows[f.parent].text, "focus": f.token, "candidates": cands});
            input.push_str(&format!("{rec}\n"));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fam.jsonl");
    std::fs::write(&file, input).unwrap();
    let out = run(&[
        "newsmet",
        "diversity",
        "-i",
        file.to_str().unwrap(),
        "--wordnet",
        wordnet.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<u64> = json_lines(&out)
        .iter()
        .map(|r| r["diversity"].as_u64().unwrap())
        .collect();
    let want: Vec<u64> = want["diversity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(got.len(), 711);
    let differ = got.iter().zip(&want).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} of 711 families differ from NLTK");
}

/// The released families as `hauser newsmet diversity` input (as tools/gen/newsmet_diversity_ref.py
/// builds them), one JSON line each.
fn release_families_jsonl() -> String {
    let mut input = String::new();
    for split in ["train", "val", "test"] {
        let path = shared_data(&format!("newsmet/{split}_goldplus.csv"));
        let rows =
            figlang_tasks::newsmet::parse_csv(&std::fs::read_to_string(&path).unwrap(), &path)
                .unwrap();
        for f in figlang_tasks::newsmet::families(&rows).unwrap() {
            let cands: Vec<&str> = f
                .children
                .iter()
                .map(|&c| rows[c].text.split_whitespace().nth(f.token).unwrap())
                .collect();
            let rec = serde_json::json!({"headline": rows[f.parent].text, "focus": f.token, "candidates": cands});
            input.push_str(&format!("{rec}\n"));
        }
    }
    input
}

/// `--tokenize treebank` gives Lesk NLTK's word tokens: on the released families it changes
/// the diversity of 2 (whitespace tokens keep punctuation such as `Oscar?` glued to words).
#[test]
#[ignore = "needs ../shared/data and WordNet"]
fn wordnet_release_families_treebank_tokens_change_two_diversities() {
    let wordnet = crate::common::wordnet_dir();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fam.jsonl");
    std::fs::write(&file, release_families_jsonl()).unwrap();
    let counts = |tokenize: &str| -> Vec<u64> {
        let out = run(&[
            "newsmet",
            "diversity",
            "-i",
            file.to_str().unwrap(),
            "--wordnet",
            wordnet.to_str().unwrap(),
            "--tokenize",
            tokenize,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        json_lines(&out)
            .iter()
            .map(|r| r["diversity"].as_u64().unwrap())
            .collect()
    };
    let (ws, tb) = (counts("whitespace"), counts("treebank"));
    assert_eq!((ws.len(), tb.len()), (711, 711));
    let differ = ws.iter().zip(&tb).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 2);
}
