//! `hauser rerank`: COMET MBR and QE against unbabel-comet 2.2.7's own `comet.cli.mbr`
//! functions (tools/gen/gen_rerank_fixture.py), text-metric and MetricX MBR against `hauser metric`
//! on every pair, and the records, refusals and output rules every JSONL command keeps.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const TOL: f64 = 1e-4;

fn fixture() -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rerank/comet.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The fixture's groups as an input file.
fn groups_file(dir: &Path, r: &Value) -> PathBuf {
    let p = dir.join("groups.jsonl");
    let body: String = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| format!("{g}\n"))
        .collect();
    std::fs::write(&p, body).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The records of a successful run, grouped by input line.
fn ranked(out: &std::process::Output) -> Vec<Vec<Value>> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut groups: Vec<Vec<Value>> = Vec::new();
    for v in json_lines(out) {
        let line = v["line"].as_u64().unwrap() as usize;
        if groups.len() < line {
            groups.push(Vec::new());
        }
        groups[line - 1].push(v);
    }
    groups
}

/// The candidate indices from best to worst.
fn order(group: &[Value]) -> Vec<u64> {
    let mut by_rank: Vec<(u64, u64)> = group
        .iter()
        .map(|v| {
            (
                v["rank"].as_u64().unwrap(),
                v["candidate"].as_u64().unwrap(),
            )
        })
        .collect();
    by_rank.sort_unstable();
    by_rank.into_iter().map(|(_, c)| c).collect()
}

#[test]
fn comet_mbr_matches_comet_mbr() {
    let r = fixture();
    let dir = tempfile::tempdir().unwrap();
    let input = groups_file(dir.path(), &r);
    let model = tiny("comet/regression");
    let out = run(&[
        "rerank",
        "--metric",
        "comet",
        "--model",
        s(&model),
        "--mbr",
        "-i",
        s(&input),
    ]);
    let got = ranked(&out);
    let want = r["mbr"]["regression"].as_array().unwrap();
    assert_eq!(got.len(), want.len());
    let mut worst = 0f64;
    for (g, w) in got.iter().zip(want) {
        for (v, x) in g.iter().zip(w["scores"].as_array().unwrap()) {
            worst = worst.max((v["score"].as_f64().unwrap() - x.as_f64().unwrap()).abs());
        }
        assert_eq!(order(g)[0], w["best"].as_u64().unwrap(), "{g:?}");
        let sig = g[0]["signature"].as_str().unwrap();
        assert!(
            sig.contains("src:yes|ref:yes") && sig.contains("mbr|"),
            "{sig}"
        );
    }
    assert!(worst < TOL, "max |diff| {worst}");
}

#[test]
fn comet_qe_matches_rerank_top_k() {
    let r = fixture();
    let dir = tempfile::tempdir().unwrap();
    let input = groups_file(dir.path(), &r);
    for (name, path) in [("qe", "comet/qe"), ("kiwi", "comet-unified/kiwi")] {
        let model = tiny(path);
        let out = run(&[
            "rerank",
            "--metric",
            "comet",
            "--model",
            s(&model),
            "-i",
            s(&input),
        ]);
        let got = ranked(&out);
        let want = r["qe"][name].as_array().unwrap();
        let mut worst = 0f64;
        for (g, w) in got.iter().zip(want) {
            for (v, x) in g.iter().zip(w["scores"].as_array().unwrap()) {
                worst = worst.max((v["score"].as_f64().unwrap() - x.as_f64().unwrap()).abs());
            }
            let want_order: Vec<u64> = w["order"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            assert_eq!(order(g), want_order, "{name}");
        }
        assert!(worst < TOL, "{name}: max |diff| {worst}");
    }
}

/// Every (hypothesis, pseudo-reference) pair of `cands` scored by `hauser metric NAME
/// --sentence` with `extra`, and the mean per candidate.
fn mbr_by_metric(dir: &Path, name: &str, cands: &[&str], extra: &[&str]) -> Vec<f64> {
    let n = cands.len();
    let (mut h, mut r) = (String::new(), String::new());
    for j in 0..n {
        for k in (0..n).filter(|&k| k != j) {
            h.push_str(&format!("{}\n", cands[j]));
            r.push_str(&format!("{}\n", cands[k]));
        }
    }
    let (hp, rp) = (dir.join("pairs.hyp"), dir.join("pairs.ref"));
    std::fs::write(&hp, h).unwrap();
    std::fs::write(&rp, r).unwrap();
    let mut args = vec![
        "metric",
        name,
        "--sentence",
        "--hyp",
        s(&hp),
        "--ref",
        s(&rp),
    ];
    args.extend(extra);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let scores: Vec<f64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    scores
        .chunks(n - 1)
        .map(|c| c.iter().sum::<f64>() / c.len() as f64)
        .collect()
}

const CANDS: [&str; 4] = [
    "The boy ran very fast across the field.",
    "The boy sprinted over the field.",
    "A boy ran fast.",
    "The wind ran across the field.",
];

#[test]
fn text_metric_mbr_is_the_mean_of_the_metric_over_the_other_candidates() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(
        &input,
        format!("{}\n", serde_json::json!({"candidates": CANDS})),
    )
    .unwrap();
    for (name, extra, lower) in [
        ("chrf", &[][..], false),
        ("chrf++", &["--chrf-beta", "1"][..], false),
        ("ter", &[][..], true),
        ("bleu", &["--tokenize", "intl"][..], false),
        ("rougeL", &["--use-stemmer"][..], false),
    ] {
        let want = mbr_by_metric(dir.path(), name, &CANDS, extra);
        let mut args = vec!["rerank", "--metric", name, "--mbr", "-i", s(&input)];
        args.extend(extra);
        let got = &ranked(&run(&args))[0];
        for (v, w) in got.iter().zip(&want) {
            assert!(
                (v["score"].as_f64().unwrap() - w).abs() < 1e-12,
                "{name}: {v} {w}"
            );
        }
        let best = want.iter().enumerate().fold(0, |b, (i, &x)| {
            let better = if lower { x < want[b] } else { x > want[b] };
            if better {
                i
            } else {
                b
            }
        });
        assert_eq!(order(got)[0], best as u64, "{name}: {want:?}");
        let sig = got[0]["signature"].as_str().unwrap();
        let best_word = if lower { "best:lowest" } else { "best:highest" };
        assert!(sig.contains(best_word), "{sig}");
    }
}

#[test]
fn metricx_mbr_and_qe_are_metricx_scores_lowest_first() {
    let dir = tempfile::tempdir().unwrap();
    let model = tiny("metricx");
    let src = "The boy ran like the wind across the field.";
    let input = dir.path().join("in.jsonl");
    std::fs::write(
        &input,
        format!("{}\n", serde_json::json!({"src": src, "candidates": CANDS})),
    )
    .unwrap();
    // MBR: MetricX-24 with source and pseudo-reference; the source file repeats it.
    let srcs: String = (0..CANDS.len() * (CANDS.len() - 1))
        .map(|_| format!("{src}\n"))
        .collect();
    let sp = dir.path().join("pairs.src");
    std::fs::write(&sp, srcs).unwrap();
    let want = mbr_by_metric(
        dir.path(),
        "metricx",
        &CANDS,
        &["--model", s(&model), "--src", s(&sp)],
    );
    let got = &ranked(&run(&[
        "rerank",
        "--metric",
        "metricx",
        "--model",
        s(&model),
        "--mbr",
        "-i",
        s(&input),
    ]))[0];
    for (v, w) in got.iter().zip(&want) {
        assert!((v["score"].as_f64().unwrap() - w).abs() < 1e-6, "{v} {w}");
    }
    let min = (0..want.len()).fold(0, |b, i| if want[i] < want[b] { i } else { b });
    assert_eq!(order(got)[0], min as u64);
    // QE: the source and each candidate.
    let got = &ranked(&run(&[
        "rerank",
        "--metric",
        "metricx",
        "--model",
        s(&model),
        "-i",
        s(&input),
    ]))[0];
    let scores: Vec<f64> = got.iter().map(|v| v["score"].as_f64().unwrap()).collect();
    let min = (0..scores.len()).fold(0, |b, i| if scores[i] < scores[b] { i } else { b });
    assert_eq!(order(got)[0], min as u64);
    assert!(got[0]["signature"]
        .as_str()
        .unwrap()
        .contains("best:lowest"));
}

#[test]
fn every_line_answers_and_bad_lines_are_error_records() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let good = r#"{"src": "s", "candidates": ["a cat", "a cat sat", "a dog"]}"#;
    std::fs::write(
        &input,
        format!("{good}\n\nnot json\n{{\"candidates\": []}}\n{{\"candidates\": [1]}}\n{{\"candidates\": [\"alone\"]}}\n"),
    )
    .unwrap();
    let out = run(&["rerank", "--metric", "chrf", "--mbr", "-i", s(&input)]);
    assert_eq!(out.status.code(), Some(1));
    let v = json_lines(&out);
    assert_eq!(v.len(), 3 + 4 + 1);
    for (rec, line) in v[3..7].iter().zip(2..) {
        assert_eq!(rec["line"], line);
        let e = rec["error"].as_str().unwrap();
        assert!(
            e.starts_with(&format!("{}:{line}: ", input.display())),
            "{e}"
        );
    }
    // A lone candidate has no pseudo-reference: no score, rank 1.
    assert_eq!(v[7]["line"], 6);
    assert!(v[7]["score"].is_null());
    assert_eq!(v[7]["rank"], 1);
    // BOM and CRLF, and standard input: the same records.
    let crlf = dir.path().join("crlf.jsonl");
    std::fs::write(&crlf, format!("\u{feff}{good}\r\n")).unwrap();
    let a = run(&["rerank", "--metric", "chrf", "--mbr", "-i", s(&crlf)]);
    let b = run_stdin(
        &["rerank", "--metric", "chrf", "--mbr", "-i", "-"],
        &format!("{good}\n"),
    );
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(json_lines(&a)[..], v[..3]);
    // A group lacking a source the metric needs is an error record; the others are ranked.
    let model = tiny("comet/regression");
    let out = run_stdin(
        &[
            "rerank",
            "--metric",
            "comet",
            "--model",
            s(&model),
            "--mbr",
            "-i",
            "-",
        ],
        &format!("{{\"candidates\": [\"a\", \"b\"]}}\n{good}\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json_lines(&out);
    assert!(
        v[0]["error"].as_str().unwrap().contains("no \"src\""),
        "{v:?}"
    );
    assert_eq!(v.len(), 4);
    // --no-src scores with empty sources (COMET-w) instead.
    let out = run_stdin(
        &[
            "rerank",
            "--metric",
            "comet",
            "--model",
            s(&model),
            "--mbr",
            "--no-src",
            "-i",
            "-",
        ],
        "{\"candidates\": [\"a\", \"b\"]}\n",
    );
    assert!(out.status.success());
    assert!(json_lines(&out)[0]["signature"]
        .as_str()
        .unwrap()
        .contains("src:no"));
}

#[test]
fn metrics_and_flags_that_cannot_run_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, "{\"candidates\": [\"a\", \"b\"]}\n").unwrap();
    let i = s(&input);
    let regression = tiny("comet/regression");
    let qe = tiny("comet/qe");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--metric", "chrf"], "use --mbr"),
        (vec!["--metric", "bleurt"], "use --mbr"),
        (
            vec!["--metric", "comet", "--model", s(&regression)],
            "use --mbr",
        ),
        (
            vec!["--metric", "comet", "--model", s(&qe), "--mbr"],
            "drop --mbr",
        ),
        (vec!["--metric", "perplexity", "--mbr"], "drop --mbr"),
        (vec!["--metric", "distinct1", "--mbr"], "diversity"),
        (vec!["--metric", "nope", "--mbr"], "unknown metric"),
        (
            vec!["--metric", "chrf", "--mbr", "--layer", "3"],
            "--layer is not read by chrf",
        ),
        (
            vec!["--metric", "chrf", "--mbr", "--tokenize", "intl"],
            "--tokenize is not read by chrf",
        ),
        (
            vec!["--metric", "chrf", "--mbr", "--lowercase"],
            "--lowercase",
        ),
        (
            vec!["--metric", "bleu", "--mbr", "--effective-order"],
            "sentence scores only",
        ),
        (
            vec!["--metric", "comet", "--mbr", "--src", i],
            "--src is not read by rerank",
        ),
        (
            vec!["--metric", "bertscore", "--mbr", "--idf"],
            "--idf is not read by rerank",
        ),
        (
            vec!["--metric", "style", "--flip", "1-2"],
            "--flip is not read by rerank",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["rerank", "-i", i];
        args.extend(&extra);
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_output_is_written_whole_and_never_over_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let body = "{\"candidates\": [\"a cat\", \"a cat sat\"]}\n";
    std::fs::write(&input, body).unwrap();
    let to_stdout = run(&["rerank", "--metric", "chrf", "--mbr", "-i", s(&input)]);
    let output = dir.path().join("out.jsonl");
    std::fs::write(&output, "old\n").unwrap();
    let out = run(&[
        "rerank",
        "--metric",
        "chrf",
        "--mbr",
        "-i",
        s(&input),
        "-o",
        s(&output),
    ]);
    assert!(out.status.success());
    assert_eq!(std::fs::read(&output).unwrap(), to_stdout.stdout);
    // The output is the input: refused, the input unchanged.
    let out = run(&[
        "rerank",
        "--metric",
        "chrf",
        "--mbr",
        "-i",
        s(&input),
        "-o",
        s(&input),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), body);
    // A missing output directory: refused before the model is loaded.
    let missing = dir.path().join("no/such/dir/out.jsonl");
    let model = tiny("comet/regression");
    let out = run(&[
        "rerank",
        "--metric",
        "comet",
        "--model",
        s(&model),
        "--mbr",
        "-i",
        s(&input),
        "-o",
        s(&missing),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("out.jsonl"));
    // A run that stops (an unloadable model) leaves an existing output as it was.
    let out = run(&[
        "rerank",
        "--metric",
        "bleurt",
        "--model",
        s(dir.path()),
        "--mbr",
        "-i",
        s(&input),
        "-o",
        s(&output),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&output).unwrap(), to_stdout.stdout);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn a_line_with_invalid_utf8_is_an_error_record_and_the_run_goes_on() {
    // Issue 37: one bad byte made rerank exit 2 with no record at all.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let good = br#"{"candidates": ["a cat", "a cat sat", "a dog"]}"#;
    let mut body = Vec::new();
    body.extend_from_slice(good);
    body.extend_from_slice(b"\n{\"candidates\": [\"a \xff\"]}\r\n");
    body.extend_from_slice(good);
    body.push(b'\n');
    std::fs::write(&input, body).unwrap();
    let out = run(&["rerank", "--metric", "chrf", "--mbr", "-i", s(&input)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v = json_lines(&out);
    assert_eq!(v.len(), 3 + 1 + 3, "{v:?}");
    assert_eq!(v[3]["line"], 2);
    let e = v[3]["error"].as_str().unwrap();
    assert!(
        e.starts_with(&format!("{}:2: invalid UTF-8", input.display())),
        "{e}"
    );
    assert_eq!(v[4]["line"], 3);
    assert_eq!(
        v[..3].iter().map(|r| &r["score"]).collect::<Vec<_>>(),
        v[4..].iter().map(|r| &r["score"]).collect::<Vec<_>>()
    );
}

#[test]
fn mbr_over_lone_candidates_still_names_the_model_in_its_signature() {
    // Issue 37: with every group of one candidate no pair was scored, and the records were
    // signed `comet|version:...` without the model.
    let model = tiny("comet/regression");
    let input = "{\"src\": \"s\", \"candidates\": [\"alone\"]}\n{\"candidates\": [\"solo\"]}\n";
    for extra in [&[][..], &["--no-src"][..]] {
        let mut args = vec!["rerank", "--metric", "comet", "--model", s(&model), "--mbr"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-i", "-"]);
        let out = run_stdin(&args, input);
        assert!(out.status.success(), "{}", stderr(&out));
        let v = json_lines(&out);
        assert_eq!(v.len(), 2);
        let sig = v[0]["signature"].as_str().unwrap();
        assert!(sig.starts_with("comet|model:regression|"), "{sig}");
        assert!(sig.contains("|class:regression_metric|"), "{sig}");
        let src = if extra.is_empty() {
            "src:yes"
        } else {
            "src:no"
        };
        assert!(sig.contains(src), "{sig}");
        assert!(v[0]["score"].is_null());
    }
}
