//! End-to-end tests of `hauser meta-eval` and `hauser corr`.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

fn json_out(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn close(v: &Value, want: f64, tol: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{got} vs {want}"
    );
}

/// 3 systems x 3 segments; expected values from SciPy 1.17.1 (pearsonr) and a by-hand WMT tau.
const TABLE: &str = "system\tsegment\thuman\tmetric\n\
A\ts1\t1\t0.1\nB\ts1\t2\t0.2\nC\ts1\t3\t0.3\n\
A\ts2\t2\t0.3\nB\ts2\t3\t0.2\nC\ts2\t5\t0.6\n\
A\ts3\t3\t0.2\nB\ts3\t5\t0.5\nC\ts3\t4\t0.4\n";

#[test]
fn meta_eval_prints_system_and_segment_correlations() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "t.tsv", TABLE);
    let v = json_out(&run(&["meta-eval", "--input", &input]));
    assert_eq!(v["n_systems"], 3);
    assert_eq!(v["n_segments"], 3);
    assert_eq!(v["n_items"], 9);
    // System means: human 2, 10/3, 4; metric 0.2, 0.3, 13/30.
    // scipy.stats.pearsonr([0.2, 0.3, 13/30], [2, 10/3, 4]) = (0.96312313730186, 0.1734266511453236)
    close(&v["system_pearson"], 0.96312313730186, 1e-12);
    close(&v["system_pearson_p"], 0.1734266511453236, 1e-9);
    // s1: 3 concordant; s2: human 2,3,5 metric .3,.2,.6: 2c 1d; s3: human 3,5,4 metric .2,.5,.4: 3c.
    close(
        &v["segment_kendall_wmt"],
        (1.0 + 1.0 / 3.0 + 1.0) / 3.0,
        1e-12,
    );
    // scipy.stats.pearsonr over the 9 items
    close(&v["segment_pearson"], 0.9009583479519814, 1e-12);
    close(&v["segment_pearson_p"], 0.0009126883740796271, 1e-9);
    assert!(v["signature"]
        .as_str()
        .expect("sig")
        .starts_with("meta-eval|"));
    // Top-N: with 3 systems only N = 3, the full system-level Pearson.
    let top = v["system_pearson_top_n"].as_array().expect("top-n");
    assert_eq!(top.len(), 1);
    assert_eq!(top[0]["n"], 3);
    close(&top[0]["pearson"], 0.96312313730186, 1e-12);
}

#[test]
fn meta_eval_honours_column_options_and_bootstrap() {
    let dir = tempfile::tempdir().expect("tmp");
    let renamed = TABLE.replacen("system\tsegment\thuman\tmetric", "sys\tsrc\tgold\tbleu", 1);
    let input = write(dir.path(), "t.tsv", &renamed);
    let args = [
        "meta-eval",
        "--input",
        &input,
        "--system-col",
        "sys",
        "--segment-col",
        "src",
        "--human-col",
        "gold",
        "--metric-col",
        "bleu",
        "--bootstrap",
        "200",
        "--seed",
        "7",
    ];
    let a = json_out(&run(&args));
    let b = json_out(&run(&args));
    assert_eq!(a, b, "seeded bootstrap is reproducible");
    close(&a["system_pearson"], 0.96312313730186, 1e-12);
    let ci = &a["bootstrap"]["segment_kendall_wmt_ci95"];
    assert!(ci[0].as_f64().expect("low") <= ci[1].as_f64().expect("high"));
    assert_eq!(a["bootstrap"]["resamples"], 200);
}

#[test]
fn corr_matches_scipy() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(
        dir.path(),
        "c.tsv",
        "id\tx\ty\n1\t1\t5\n2\t2\t6\n3\t3\t7\n4\t4\t8\n5\t5\t7\n",
    );
    let v = json_out(&run(&["corr", "--input", &input, "--x", "x", "--y", "y"]));
    // scipy.stats.pearsonr / spearmanr / kendalltau of [1..5] and [5, 6, 7, 8, 7]
    assert_eq!(v["n"], 5);
    close(&v["pearson"], 0.8320502943378436, 1e-12);
    close(&v["pearson_p"], 0.0805095732984986, 1e-9);
    close(&v["spearman"], 0.8207826816681233, 1e-12);
    close(&v["spearman_p"], 0.08858700531354384, 1e-9);
    close(&v["kendall"], 0.7378647873726218, 1e-12);
    close(&v["kendall_p"], 0.07697417298126674, 1e-9);
}

#[test]
fn constant_column_gives_null_not_a_crash() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "c.tsv", "x\ty\n1\t2\n2\t2\n3\t2\n");
    let v = json_out(&run(&["corr", "--input", &input, "--x", "x", "--y", "y"]));
    assert!(v["pearson"].is_null() && v["spearman_p"].is_null() && v["kendall"].is_null());
}

fn failure(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "t.tsv", TABLE);
    let err = failure(&["meta-eval", "--input", &input, "--metric-col", "bleu"]);
    assert!(
        err.contains("\"bleu\"") && err.contains("columns: system"),
        "{err}"
    );
    let err = failure(&["corr", "--input", &input, "--x", "human", "--y", "nope"]);
    assert!(err.contains("\"nope\""), "{err}");

    let bad = write(
        dir.path(),
        "bad.tsv",
        &TABLE.replace("B\ts2\t3\t0.2", "B\ts2\tthree\t0.2"),
    );
    let err = failure(&["meta-eval", "--input", &bad]);
    assert!(
        err.contains("bad.tsv:6") && err.contains("\"three\""),
        "{err}"
    );

    let one = write(
        dir.path(),
        "one.tsv",
        "system\tsegment\thuman\tmetric\nA\ts1\t1\t2\n",
    );
    let err = failure(&["meta-eval", "--input", &one]);
    assert!(err.contains("at least 2"), "{err}");
    let err = failure(&["corr", "--input", &one, "--x", "human", "--y", "metric"]);
    assert!(err.contains("at least 2"), "{err}");

    let dup = write(dir.path(), "dup.tsv", &format!("{TABLE}A\ts1\t1\t0.5\n"));
    let err = failure(&["meta-eval", "--input", &dup]);
    assert!(err.contains("twice"), "{err}");

    let missing = dir.path().join("absent.tsv");
    let err = failure(&[
        "corr",
        "--input",
        &missing.to_string_lossy(),
        "--x",
        "a",
        "--y",
        "b",
    ]);
    assert!(err.contains("absent.tsv"), "{err}");
}

#[test]
fn plot_writes_well_formed_svg_and_png_for_both_levels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write(dir.path(), "t.tsv", TABLE);
    let plots = dir.path().join("plots");
    let out = run(&[
        "meta-eval",
        "--input",
        &input,
        "--plot",
        plots.to_str().expect("utf-8 path"),
    ]);
    let v = json_out(&out);
    let listed: Vec<&str> = v["plots"]
        .as_array()
        .expect("plots listed")
        .iter()
        .map(|p| p.as_str().expect("path"))
        .collect();
    assert_eq!(listed.len(), 4);
    for level in ["system", "segment"] {
        let svg = std::fs::read_to_string(plots.join(format!("{level}.svg"))).expect("svg");
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{level}.svg"
        );
        assert!(svg.contains("Pearson r = "), "{level}.svg has its title");
        if level == "system" {
            for system in ["A", "B", "C"] {
                assert!(
                    svg.contains(&format!(">\n{system}\n</text>")),
                    "label {system}"
                );
            }
        }
        let png = image::open(plots.join(format!("{level}.png"))).expect("png decodes");
        assert_eq!((png.width(), png.height()), (800, 600));
        // Not blank: the points and text leave dark pixels on the white background.
        let dark = png
            .to_rgb8()
            .pixels()
            .filter(|p| p.0.iter().all(|&c| c < 128))
            .count();
        assert!(dark > 500, "{level}.png has only {dark} dark pixels");
        assert!(listed.iter().any(|p| p.ends_with(&format!("{level}.png"))));
    }
    // Nothing else is left in the directory (no temporary file).
    assert_eq!(std::fs::read_dir(&plots).expect("dir").count(), 4);
}
