//! End-to-end tests of `hauser meta-eval`'s WMT report (several `--metric-col`, or `--wmt`) and
//! of `hauser formality reproduce --wmt`.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

/// 4 systems x 6 items; `good` follows the human scores, `noisy` less so, `copy` is `good`
/// again, `bad` is reversed.
fn table() -> String {
    let mut t = String::from("system\tsegment\thuman\tgood\tnoisy\tcopy\tbad\n");
    for s in 0..4 {
        for g in 0..6 {
            let h = ((s * 7 + g * 5) % 6) as f64 + s as f64;
            let good = h * 0.1 + 0.01 * g as f64;
            let noisy = h * 0.1 + (((s * 3 + g * 11) % 5) as f64) * 0.15;
            t.push_str(&format!(
                "sys{s}\tseg{g}\t{h}\t{good}\t{noisy}\t{good}\t{}\n",
                -h
            ));
        }
    }
    t
}

fn stat<'a>(v: &'a Value, level: &str, name: &str) -> &'a Value {
    v["statistics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["level"] == level && s["statistic"] == name)
        .unwrap_or_else(|| panic!("no {level} {name}"))
}

fn entry<'a>(s: &'a Value, metric: &str) -> &'a Value {
    s["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == metric)
        .unwrap()
}

const METRICS: [&str; 8] = [
    "--metric-col",
    "good",
    "--metric-col",
    "noisy",
    "--metric-col",
    "copy",
    "--metric-col",
    "bad",
];

fn args<'a>(input: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["meta-eval", "--input", input];
    a.extend_from_slice(&METRICS);
    a.extend_from_slice(extra);
    a
}

#[test]
fn several_metric_columns_give_every_wmt_statistic_with_intervals_and_clusters() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table());
    let v = json(&run(&args(
        &input,
        &["--resamples", "200", "--bootstrap", "100"],
    )));
    assert_eq!(
        v["metrics"],
        serde_json::json!(["good", "noisy", "copy", "bad"])
    );
    assert_eq!(
        (v["n_systems"].as_u64(), v["n_items"].as_u64()),
        (Some(4), Some(6))
    );
    let names: Vec<(String, String)> = v["statistics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["level"].as_str().unwrap().into(),
                s["statistic"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(names.len(), 9, "{names:?}");
    let sig = v["signature"].as_str().unwrap();
    for part in [
        "resamples:200",
        "seed:0",
        "bootstrap:100",
        "alpha:0.05",
        "mt-metrics-eval@68a481a",
    ] {
        assert!(sig.contains(part), "{sig}");
    }
    // System means: good and copy order the 4 systems as the humans do, bad reverses them.
    let acc = stat(&v, "system", "pairwise_accuracy");
    assert_eq!(entry(acc, "good")["value"], 1.0);
    assert_eq!(entry(acc, "bad")["value"], 0.0);
    assert_eq!(acc["ranking"][0]["metric"], "copy", "ties ordered by name");
    // A metric and its copy: the same value, the same cluster, and p = 1 between them.
    for s in v["statistics"].as_array().unwrap() {
        let (g, c) = (entry(s, "good"), entry(s, "copy"));
        assert_eq!(g["value"], c["value"], "{}", s["statistic"]);
        assert_eq!(g["cluster"], c["cluster"], "{}", s["statistic"]);
        if s["test"].is_null() {
            assert!(g["cluster"].is_null() && s.get("p_values").is_none());
        } else {
            let rank = |m: &str| {
                s["ranking"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(|r| r["metric"] == m)
                    .unwrap()
            };
            let (i, j) = (
                rank("copy").min(rank("good")),
                rank("copy").max(rank("good")),
            );
            assert_eq!(s["p_values"][i][j], 1.0, "{}", s["statistic"]);
            // At segment level (24 items) the reversed metric is significantly worse than the
            // good one; 4 systems allow no p-value below 1/16.
            if s["level"] == "segment" {
                assert!(
                    entry(s, "bad")["cluster"].as_u64() > g["cluster"].as_u64(),
                    "{s}"
                );
            }
        }
    }
    // acc*_eq reports its tie threshold; intervals are ordered and in range.
    let star = stat(&v, "segment", "acc*_eq");
    assert!(entry(star, "noisy")["epsilon"].as_f64().unwrap() >= 0.0);
    for s in v["statistics"].as_array().unwrap() {
        for r in s["ranking"].as_array().unwrap() {
            if let (Some(ci), Some(x)) = (r.get("ci95"), r["value"].as_f64()) {
                let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
                // Every statistic here lies in [-1, 1] (percentile intervals need not hold the
                // estimate itself).
                assert!(-1.0 <= lo && lo <= hi && hi <= 1.0 && x.abs() <= 1.0, "{r}");
            }
        }
    }
    // SPA: a value, no interval, no test.
    let spa = stat(&v, "system", "soft_pairwise_accuracy");
    assert!(spa["test"].is_null() && entry(spa, "good").get("ci95").is_none());
    let good = entry(spa, "good")["value"].as_f64().unwrap();
    assert!(good > 0.9 && good <= 1.0, "{good}");
    assert!(entry(spa, "bad")["value"].as_f64().unwrap() < 0.5);
}

#[test]
fn the_wmt_report_agrees_with_the_single_metric_report_and_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table());
    let single = json(&run(&[
        "meta-eval",
        "--input",
        &input,
        "--metric-col",
        "noisy",
    ]));
    let a = &["--resamples", "50", "--bootstrap", "30", "--seed", "7"];
    let wmt = json(&run(&args(&input, a)));
    let n = |s: &str, l: &str| entry(stat(&wmt, l, s), "noisy")["value"].clone();
    assert_eq!(n("pearson", "system"), single["system_pearson"]);
    assert_eq!(n("spearman", "system"), single["system_spearman"]);
    assert_eq!(n("kendall_b", "system"), single["system_kendall"]);
    assert_eq!(n("pearson", "segment"), single["segment_pearson"]);
    assert_eq!(n("kendall_wmt", "segment"), single["segment_kendall_wmt"]);
    // One metric with --wmt: the same statistics of that metric.
    let one = json(&run(&[
        "meta-eval",
        "--input",
        &input,
        "--metric-col",
        "noisy",
        "--wmt",
        "--resamples",
        "50",
        "--bootstrap",
        "30",
        "--seed",
        "7",
    ]));
    assert_eq!(
        one["statistics"][6]["ranking"][0]["value"],
        n("acc*_eq", "segment")
    );
    assert!(one["statistics"][0]["ranking"][0]["cluster"] == 1);
    // The same run twice, and from standard input: the same bytes.
    let first = ok(&run(&args(&input, a)));
    let mut from_stdin = vec!["meta-eval", "--input", "-"];
    from_stdin.extend_from_slice(&METRICS);
    from_stdin.extend_from_slice(a);
    assert_eq!(first, ok(&run_stdin(&from_stdin, &table())));
    assert_eq!(first, ok(&run(&args(&input, a))));
}

#[test]
fn text_and_latex_print_the_findings_table() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table().replace("noisy", "no_isy"));
    let mut a = args(
        &input,
        &[
            "--resamples",
            "100",
            "--bootstrap",
            "50",
            "--format",
            "text",
        ],
    );
    a[6] = "no_isy";
    let text = ok(&run(&a));
    for want in [
        "WMT-style meta-evaluation: 4 metrics, 4 systems, 6 items (24 scored)",
        "system level",
        "segment level",
        "acc*_eq (item)",
        "Ranking as in the WMT findings",
        "sys acc",
        "seg acc*_eq",
        "signature: meta-eval-wmt|",
    ] {
        assert!(text.contains(want), "{want:?} missing in\n{text}");
    }
    let n = a.len();
    a[n - 1] = "latex";
    let tex = ok(&run(&a));
    for want in [
        "\\begin{tabular}",
        "\\toprule",
        "no\\_isy &",
        "\\textbf{",
        "\\end{tabular}",
    ] {
        assert!(tex.contains(want), "{want:?} missing in\n{tex}");
    }
}

#[test]
fn flags_of_the_wmt_report_are_refused_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table());
    for (extra, flag) in [
        (&["--format", "text"][..], "--format text"),
        (&["--format", "latex"][..], "--format latex"),
        (&["--resamples", "10"][..], "--resamples"),
        (&["--alpha", "0.1"][..], "--alpha"),
    ] {
        let mut a = vec!["meta-eval", "--input", &input, "--metric-col", "good"];
        a.extend_from_slice(extra);
        let out = run(&a);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&out).contains(flag), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // --format json is the single-metric report's own format: accepted, the same bytes.
    let plain = ok(&run(&[
        "meta-eval",
        "--input",
        &input,
        "--metric-col",
        "good",
    ]));
    let with = ok(&run(&[
        "meta-eval",
        "--input",
        &input,
        "--metric-col",
        "good",
        "--format",
        "json",
    ]));
    assert_eq!(plain, with);
    for (extra, flag) in [
        (&["--seed", "4294967296"][..], "--seed"),
        (&["--alpha", "1.5"][..], "--alpha"),
        (&["--resamples", "-1"][..], "--resamples"),
        (&["--metric-col", "good"][..], "--metric-col"),
    ] {
        let out = run(&args(&input, extra));
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(flag), "{}", stderr(&out));
    }
}

#[test]
fn no_resamples_means_no_tests_and_a_duplicate_cell_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table());
    let v = json(&run(&args(
        &input,
        &["--resamples", "0", "--bootstrap", "0"],
    )));
    for s in v["statistics"].as_array().unwrap() {
        assert!(s.get("p_values").is_none());
        for r in s["ranking"].as_array().unwrap() {
            assert!(r["cluster"].is_null() && r.get("ci95").is_none(), "{r}");
        }
    }
    let dup = table() + "sys0\tseg1\t1\t1\t1\t1\t1\n";
    let input = write(dir.path(), "dup.tsv", &dup);
    let out = run(&args(&input, &[]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("dup.tsv:26") && stderr(&out).contains("twice"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn missing_cells_leave_spa_out_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let t: String = table()
        .lines()
        .filter(|l| !l.starts_with("sys2\tseg3"))
        .map(|l| format!("{l}\n"))
        .collect();
    let input = write(dir.path(), "t.tsv", &t);
    let v = json(&run(&args(
        &input,
        &["--resamples", "20", "--bootstrap", "20"],
    )));
    assert_eq!(v["n_scored"], 23);
    assert!(entry(stat(&v, "system", "soft_pairwise_accuracy"), "good")["value"].is_null());
    assert!(
        v["notes"][0]
            .as_str()
            .unwrap()
            .contains("soft pairwise accuracy"),
        "{}",
        v["notes"]
    );
    assert_eq!(
        entry(stat(&v, "system", "pairwise_accuracy"), "good")["value"],
        1.0
    );
}

#[test]
fn plot_draws_the_clusters() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table());
    let plots = dir.path().join("plots");
    let v = json(&run(&args(
        &input,
        &[
            "--resamples",
            "20",
            "--bootstrap",
            "20",
            "--plot",
            plots.to_str().unwrap(),
        ],
    )));
    assert_eq!(v["plots"].as_array().unwrap().len(), 2);
    let svg = std::fs::read_to_string(plots.join("clusters.svg")).unwrap();
    assert!(
        svg.contains("acc*_eq") && svg.contains("good (1)"),
        "{}",
        &svg[..200]
    );
    let png = std::fs::read(plots.join("clusters.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    assert_eq!(files_in(&plots), vec!["clusters.png", "clusters.svg"]);
}

/// `formality reproduce --wmt` on the released data: the paper's tables unchanged, plus the
/// WMT statistics of the style and content metrics. Skipped, with a notice, without the data.
#[test]
fn formality_reproduce_adds_the_wmt_tables() {
    let Some(root) = shared_data_root() else {
        eprintln!("skipped: ../shared/data is absent (set HAUSER_SHARED_DATA)");
        return;
    };
    if !Path::new("/usr/share/wordnet/data.noun").is_file() {
        eprintln!("skipped: WordNet is absent (formality reproduce recomputes METEOR)");
        return;
    }
    let data = root.join("formality");
    let base = ["formality", "reproduce", "--data", data.to_str().unwrap()];
    let plain = ok(&run(&base));
    let mut with = base.to_vec();
    with.push("--wmt");
    let text = ok(&run(&with));
    let head = plain.split("note:").next().unwrap();
    assert!(text.starts_with(head), "the paper's tables changed");
    assert!(
        text.contains("Style strength vs human style, WMT statistics"),
        "{text}"
    );
    assert!(text.contains("Ranking as in the WMT findings"));
    with.push("--json");
    let v: Value = serde_json::from_str(&ok(&run(&with))).unwrap();
    let style = &v["wmt"]["style"];
    assert_eq!(style["n_systems"], 8);
    assert_eq!(style["n_items"], 80);
    // The WMT report's Pearson and WMT tau are the paper's table's numbers.
    let paper = &v["style"][2];
    assert_eq!(paper["metric"], "cls.xformal");
    let s = |l: &str, n: &str| entry(stat(style, l, n), "cls.xformal")["value"].clone();
    assert_eq!(s("system", "pearson"), paper["system_pearson"]);
    assert_eq!(s("segment", "kendall_wmt"), paper["segment_tau"]);
    let content = &v["wmt"]["content"];
    assert_eq!(content["metrics"].as_array().unwrap().len(), 11);
    assert!(content["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "-WMD"));
    // Without --wmt the JSON has no "wmt" key.
    let mut j = base.to_vec();
    j.push("--json");
    let v: Value = serde_json::from_str(&ok(&run(&j))).unwrap();
    assert!(v.get("wmt").is_none());
}

#[test]
fn the_report_does_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "t.tsv", &table());
    let a = args(
        &input,
        &["--resamples", "100", "--bootstrap", "60", "--seed", "3"],
    );
    let with = |threads: &str| {
        ok(&hauser()
            .args(&a)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap())
    };
    let one = with("1");
    assert_eq!(one, with("2"));
    assert_eq!(one, with("5"));
}
