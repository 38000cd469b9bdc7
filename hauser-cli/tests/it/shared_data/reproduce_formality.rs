//! Reproduction of the formality-transfer meta-evaluation (Lai et al., HumEval 2022) over
//! ../shared/data/formality (`#[ignore]`d: tools/test.sh runs it when the data is there).
//!
//! Style: human = mean of the two style ratings, 8 systems (REF excluded), metric = the style
//! classifier / regressor column (the 17th); `cls.*` probabilities are flipped (1 - p) for the
//! formal->informal lines 40-79. System level: Pearson of per-system means; segment level: WMT17
//! Kendall-like tau per source sentence over the 8 outputs, averaged over the 80 sources.
//! Expected (paper / data README): reg.pt16 0.928 / 0.330, cls.pt16 0.929 / 0.390,
//! cls.xformal 0.967 / 0.420; inter-annotator Pearson over the 640 outputs: content 0.85,
//! fluency 0.66, style 0.52. The exact values below were also computed with NumPy/SciPy 1.17.1.

use std::path::{Path, PathBuf};
use std::process::Command;

use figlang_metrics::stats::{meta_evaluate, pearson, zscore_by_group, MetaEvalData};

use crate::common::shared_data;

fn data_dir() -> PathBuf {
    shared_data("formality")
}

/// System names (files `NAME.human.txt`), REF excluded, sorted.
fn systems(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable data dir")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".human.txt").map(str::to_string)
        })
        .filter(|n| n != "REF")
        .collect();
    names.sort();
    names
}

fn rows(dir: &Path, system: &str, kind: &str) -> Vec<Vec<String>> {
    let path = dir.join(format!("{system}.{kind}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn num(cell: &str) -> f64 {
    cell.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {cell:?}"))
}

/// (system, segment, human style, metric) rows of one style metric.
fn style_rows(dir: &Path, metric: &str) -> Vec<(String, String, f64, f64)> {
    let flip = metric.starts_with("cls.");
    let mut out = Vec::new();
    for system in systems(dir) {
        let lines = rows(dir, &system, metric);
        assert_eq!(lines.len(), 80, "{system}.{metric}");
        for (i, r) in lines.iter().enumerate() {
            let human = (num(&r[5]) + num(&r[8])) / 2.0;
            let mut score = num(&r[16]);
            if flip && i >= 40 {
                score = 1.0 - score;
            }
            out.push((system.clone(), i.to_string(), human, score));
        }
    }
    out
}

#[test]
#[ignore = "needs ../shared/data"]
fn style_metrics_system_and_segment_correlations() {
    let dir = data_dir();
    assert_eq!(systems(&dir).len(), 8);
    // (metric, paper system r, paper segment tau, NumPy/SciPy values)
    let expected = [
        (
            "reg.pt16",
            0.928,
            0.330,
            0.9282386699927124,
            0.3301551993863711,
        ),
        (
            "cls.pt16",
            0.929,
            0.390,
            0.9285722549052398,
            0.3898984401061565,
        ),
        (
            "cls.xformal",
            0.967,
            0.420,
            0.9668966757691033,
            0.4204142186110654,
        ),
    ];
    for (metric, paper_r, paper_tau, py_r, py_tau) in expected {
        let data = MetaEvalData::from_rows(style_rows(&dir, metric)).expect("table");
        let report = meta_evaluate(&data).expect("meta-eval");
        let (r, tau) = (report.system_pearson.statistic, report.segment_kendall_wmt);
        println!("formality style {metric}: system Pearson {r:.4}, segment WMT tau {tau:.4}");
        assert_eq!((report.n_systems, report.n_segments), (8, 80));
        assert_eq!(report.segment_kendall_segments, 80);
        assert!((r - paper_r).abs() < 5e-4, "{metric} system r {r}");
        assert!((tau - paper_tau).abs() < 5e-4, "{metric} segment tau {tau}");
        assert!((r - py_r).abs() < 1e-12 && (tau - py_tau).abs() < 1e-12);
    }
}

#[test]
#[ignore = "needs ../shared/data"]
fn inter_annotator_pearson_over_640_outputs() {
    let dir = data_dir();
    // (aspect, rater-1 column, rater-2 column, paper, NumPy/SciPy)
    let aspects = [
        ("content", 4, 7, 0.85, 0.8546990835736434),
        ("style", 5, 8, 0.52, 0.5238377200167768),
        ("fluency", 6, 9, 0.66, 0.6644546501849523),
    ];
    for (aspect, c1, c2, paper, py) in aspects {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for system in systems(&dir) {
            for r in rows(&dir, &system, "human") {
                a.push(num(&r[c1]));
                b.push(num(&r[c2]));
            }
        }
        assert_eq!(a.len(), 640);
        let r = pearson(&a, &b).expect("pearson").statistic;
        println!("formality inter-annotator {aspect}: Pearson {r:.4}");
        assert!((r - paper).abs() < 5e-3, "{aspect} {r}");
        assert!((r - py).abs() < 1e-12, "{aspect} {r} vs {py}");
    }
}

#[test]
#[ignore = "needs ../shared/data"]
fn cli_meta_eval_reproduces_reg_pt16() {
    let dir = data_dir();
    let tmp = tempfile::tempdir().expect("tmp");
    let tsv = tmp.path().join("reg.tsv");
    let mut text = String::from("system\tsegment\thuman\tmetric\n");
    for (s, g, h, m) in style_rows(&dir, "reg.pt16") {
        text.push_str(&format!("{s}\t{g}\t{h}\t{m}\n"));
    }
    std::fs::write(&tsv, text).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_hauser"))
        .args(["meta-eval", "--input", &tsv.to_string_lossy()])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let r = v["system_pearson"].as_f64().expect("r");
    let tau = v["segment_kendall_wmt"].as_f64().expect("tau");
    assert!((r - 0.9282386699927124).abs() < 1e-12, "{r}");
    assert!((tau - 0.3301551993863711).abs() < 1e-12, "{tau}");
    assert_eq!(v["n_systems"], 8);
    assert_eq!(v["n_segments"], 80);
    let top = v["system_pearson_top_n"].as_array().expect("top-n");
    let ns: Vec<i64> = top.iter().map(|t| t["n"].as_i64().expect("n")).collect();
    assert_eq!(ns, vec![8, 7, 6, 5, 4, 3]);
    assert!((top[0]["pearson"].as_f64().expect("r") - r).abs() < 1e-15);
    let shown: Vec<String> = top
        .iter()
        .map(|t| {
            format!(
                "{}:{:.3}",
                t["n"],
                t["pearson"].as_f64().unwrap_or(f64::NAN)
            )
        })
        .collect();
    println!(
        "formality style reg.pt16 top-N system Pearson: {}",
        shown.join(" ")
    );
}

#[test]
#[ignore = "needs ../shared/data"]
fn per_survey_zscores_reproduce_the_data_columns() {
    let dir = data_dir();
    // All 9 output sets (REF included): 720 rows in 4 surveys. Columns 4-9 are the raw ratings
    // (content, style, fluency of rater 1, then rater 2), columns 10-15 their z-scores as
    // distributed (rounded to 4 decimals).
    let mut names = systems(&dir);
    names.push("REF".to_string());
    let mut surveys = Vec::new();
    let mut raw = vec![Vec::new(); 6];
    let mut given = vec![Vec::new(); 6];
    for name in &names {
        for r in rows(&dir, name, "reg.pt16") {
            surveys.push(r[0].clone());
            for k in 0..6 {
                raw[k].push(num(&r[4 + k]));
                given[k].push(num(&r[10 + k]));
            }
        }
    }
    assert_eq!(surveys.len(), 720);
    let mut worst: f64 = 0.0;
    for k in 0..6 {
        let z = zscore_by_group(&raw[k], &surveys).expect("zscore");
        for (a, b) in z.iter().zip(&given[k]) {
            worst = worst.max((a - b).abs());
        }
    }
    println!("formality per-survey z-scores: max |diff| to the data's columns {worst:.2e}");
    assert!(worst <= 5.01e-5, "{worst}");
}
