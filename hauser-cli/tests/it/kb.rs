//! End-to-end tests of `hauser kb build|lookup|stats|synth` and `hauser score --kb`.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn example_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data/similes.jsonl")
}

const TRIPLETS: &str = "topic\tproperty\tvehicle\tcount\n\
he\tfierce\ta wolf\t5\n\
he\tloud\twolf\t2\n\
she\tcold\tice\t7\n\
her hands\tcold\tice\t3\n\
he\tloyal\ta dog\t40\n";

fn build(dir: &Path, text: &str, extra: &[&str]) -> (PathBuf, Output) {
    let input = dir.join("kb.tsv");
    std::fs::write(&input, text).expect("write input");
    let index = dir.join("kb.idx");
    let mut args = vec![
        "kb",
        "build",
        "--input",
        input.to_str().expect("utf-8 path"),
        "--format",
        "triplets",
        "--out",
        index.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    (index, out)
}

#[test]
fn build_lookup_and_stats() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (index, out) = build(dir.path(), TRIPLETS, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["ingest"]["rows_read"], 5);
    assert_eq!(report["index"]["triplets"], 5);
    let idx = index.to_str().expect("utf-8 path");

    let out = run(&[
        "kb",
        "lookup",
        idx,
        "--topic",
        "He",
        "--vehicle",
        "like a wolf",
        "--top",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["vehicle_key"], "wolf");
    assert_eq!(v["relevance"], 7.0);
    assert_eq!(v["pair_count"], 7.0);
    assert_eq!(v["vehicle_count"], 7.0);
    assert_eq!(v["top_properties"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["top_properties"][0]["name"], "fierce");

    let out = run(&[
        "kb",
        "lookup",
        idx,
        "--topic",
        "her hands",
        "--property",
        "cold",
    ]);
    assert_eq!(json(&out)["top_vehicles"][0]["name"], "ice");
    let out = run(&["kb", "lookup", idx, "--topic", "he"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--vehicle"), "{}", stderr(&out));

    let out = run(&["kb", "stats", idx]);
    let s = json(&out);
    assert_eq!(s["vehicles"], 3);
    assert_eq!(s["total_count"], 57.0);
    assert!(s["checksum"]
        .as_str()
        .is_some_and(|c| c.starts_with("xxh64:")));
}

#[test]
fn malformed_rows_stop_the_build_or_are_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = format!("{TRIPLETS}he\tonly two\n");
    let (index, out) = build(dir.path(), &bad, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("kb.tsv:7: 2 tab-separated fields"),
        "{}",
        stderr(&out)
    );
    assert!(!index.exists(), "no index is left behind on failure");
    let (_, out) = build(dir.path(), &bad, &["--skip-bad-rows"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["ingest"]["bad_rows"], 1);
    assert!(
        stderr(&out).contains("skipped 1 malformed row"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_line_past_the_input_limit_is_a_bad_row_like_in_every_line_reader() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("kb.tsv");
    let text = format!(
        "{TRIPLETS}{}\tcold\tice\t1\nhe\tsly\tfox\t2\n",
        "x".repeat(200)
    );
    std::fs::write(&input, text).expect("write input");
    let index = dir.path().join("kb.idx");
    let out = hauser()
        .args([
            "kb",
            "build",
            "--format",
            "triplets",
            "--skip-bad-rows",
            "--input",
        ])
        .arg(&input)
        .arg("--out")
        .arg(&index)
        .env("HAUSER_MAX_INPUT_BYTES", "100")
        .output()
        .expect("run hauser");
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["ingest"]["rows_read"], 7);
    assert_eq!(report["ingest"]["bad_rows"], 1);
    assert_eq!(report["index"]["triplets"], 6);
}

#[test]
fn corrupt_index_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (index, _) = build(dir.path(), TRIPLETS, &[]);
    let bytes = std::fs::read(&index).expect("read");
    std::fs::write(&index, &bytes[..bytes.len() - 3]).expect("truncate");
    let out = run(&["kb", "stats", index.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("corrupt or incompatible knowledge base"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn synth_then_build_maps_kb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("synth.csv");
    let csv_s = csv.to_str().expect("utf-8 path");
    let out = run(&[
        "kb",
        "synth",
        "--triplets",
        "2000",
        "--seed",
        "7",
        "--out",
        csv_s,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["rows"], 2000);
    let text = std::fs::read_to_string(&csv).expect("read");
    assert!(text.starts_with("new_topic,property,new_vehicle,count,plausibility\n"));
    assert_eq!(text.lines().count(), 2001);
    let index = dir.path().join("s.idx");
    let out = run(&[
        "kb",
        "build",
        "--input",
        csv_s,
        "--format",
        "maps-kb",
        "--out",
        index.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["index"]["rows"], 2000);
    assert_eq!(v["index"]["plausibility"], true);
    // Same seed, same file.
    let again = dir.path().join("again.csv");
    run(&[
        "kb",
        "synth",
        "--triplets",
        "2000",
        "--seed",
        "7",
        "--out",
        again.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(std::fs::read(&again).expect("read"), text.as_bytes());
}

#[test]
fn score_with_and_without_kb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (index, _) = build(dir.path(), TRIPLETS, &[]);
    let input = example_data();
    let input = input.to_str().expect("utf-8 path");
    let out = run(&["score", "--input", input]);
    assert!(
        stderr(&out).contains("relevance: skipped (no --kb given)"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("creativity: skipped (no --kb given)"),
        "{}",
        stderr(&out)
    );

    let out = run(&[
        "score",
        "--input",
        input,
        "--kb",
        index.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let wolf: Vec<&Value> = records.iter().filter(|r| r["group"] == "wolf").collect();
    assert_eq!(wolf.len(), 3);
    // "a wolf": relevance 7 and N = 7; "a lonely grey wolf": absent; "a dog": 40 and N = 40.
    let rel: Vec<f64> = wolf
        .iter()
        .map(|r| r["relevance_raw"].as_f64().expect("number"))
        .collect();
    assert_eq!(rel, vec![7.0, 0.0, 40.0]);
    assert_eq!(wolf[0]["relevance"], 7.0 / 40.0);
    let cre: Vec<f64> = wolf
        .iter()
        .map(|r| r["creativity_raw"].as_f64().expect("number"))
        .collect();
    assert_eq!(cre, vec![-(8.0f64).ln(), 0.0, -(41.0f64).ln()]);
    assert_eq!(wolf[1]["creativity"], 1.0);
    assert_eq!(wolf[2]["creativity"], 0.0);
    let sig = wolf[0]["signature"].to_string();
    let checksum =
        json(&run(&["kb", "stats", index.to_str().expect("utf-8 path")]))["checksum"].clone();
    assert!(sig.contains(checksum.as_str().expect("checksum")), "{sig}");

    let out = run(&["score", "--input", input, "--kb", "/nonexistent.idx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("/nonexistent.idx"),
        "{}",
        stderr(&out)
    );
}
