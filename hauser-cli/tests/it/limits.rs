//! Sizes from flags and files that the machine cannot hold are refused before allocating
//! (exit 2, no output file); long loops stop on Ctrl-C (exit 130, no output file).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// A headed meta-evaluation TSV: 3 systems x 6 segments.
fn meta_tsv(dir: &Path) -> PathBuf {
    let mut text = String::from("system\tsegment\thuman\tmetric\n");
    for s in 0..3 {
        for g in 0..6 {
            let h = (s * 7 + g * 3) % 5;
            let m = (s * 5 + g * 2) % 7;
            text.push_str(&format!("sys{s}\tseg{g}\t{h}\t{m}\n"));
        }
    }
    let p = dir.join("meta.tsv");
    std::fs::write(&p, text).expect("write");
    p
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The files left in `dir`, by name.
fn assert_refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(needle), "{err}");
    assert!(err.contains("of memory, more than"), "{err}");
    assert!(!err.contains("memory allocation"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
}

#[test]
fn meta_eval_bootstrap_beyond_memory_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tsv = meta_tsv(dir.path());
    let input = tsv.to_str().expect("UTF-8");
    let out = run(&[
        "meta-eval",
        "--input",
        input,
        "--bootstrap",
        "1000000000000",
    ]);
    assert_refused(&out, "a bootstrap of 1000000000000 resamples needs");
    assert!(out.stdout.is_empty());
    // A count the machine holds still runs.
    let out = run(&["meta-eval", "--input", input, "--bootstrap", "50"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json_lines(&out)[0]["bootstrap"]["resamples"], 50);
}

#[test]
fn meta_eval_table_beyond_the_memory_limit_is_refused() {
    // 400 rows, each a new system and a new segment: a dense 400 x 400 table (5 MiB), more
    // than the 1 MiB this run allows.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("system\tsegment\thuman\tmetric\n");
    for i in 0..400 {
        text.push_str(&format!("s{i}\tg{i}\t{}\t{}\n", i % 5, i % 7));
    }
    let tsv = dir.path().join("sparse.tsv");
    std::fs::write(&tsv, text).expect("write");
    let out = hauser()
        .args(["meta-eval", "--input", tsv.to_str().expect("UTF-8")])
        .env("HAUSER_MAX_MEMORY", "1M")
        .output()
        .expect("runs");
    assert_refused(
        &out,
        "a meta-evaluation table of 400 systems x 400 segments needs",
    );
    assert!(
        stderr(&out).contains("HAUSER_MAX_MEMORY"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_bad_memory_setting_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tsv = meta_tsv(dir.path());
    let out = hauser()
        .args([
            "meta-eval",
            "--input",
            tsv.to_str().expect("UTF-8"),
            "--bootstrap",
            "10",
        ])
        .env("HAUSER_MAX_MEMORY", "plenty")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("HAUSER_MAX_MEMORY=\"plenty\" is not a size"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn kb_synth_beyond_memory_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("synth.csv");
    let out = run(&[
        "kb",
        "synth",
        "--triplets",
        "1000000000000",
        "--out",
        csv.to_str().expect("UTF-8"),
    ]);
    assert_refused(&out, "kb synth of 1000000000000 rows");
    assert!(
        files_in(dir.path()).is_empty(),
        "{:?}",
        files_in(dir.path())
    );
}

#[test]
fn kb_synth_writes_every_row_and_no_temporary_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("synth.csv");
    let out = run(&[
        "kb",
        "synth",
        "--triplets",
        "2500",
        "--seed",
        "3",
        "--out",
        csv.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).expect("output");
    assert_eq!(text.lines().count(), 2501);
    assert_eq!(files_in(dir.path()), vec!["synth.csv".to_string()]);
}

/// Sends SIGINT to `child` (through `kill`, so the test needs no signal crate).
fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Waits at most `limit` for `child` to exit; kills it and fails if it does not.
fn wait_with_limit(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().expect("try_wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("did not stop within {limit:?} of Ctrl-C");
}

fn assert_interrupted(out: &Output) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert_eq!(err.trim(), "hauser: interrupted", "{err}");
}

#[test]
fn ctrl_c_stops_kb_synth_and_leaves_no_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("big.csv");
    // 10^8 rows (about 1.5 GiB of vocabulary by the up-front estimate) would take minutes in
    // a test build; the run is interrupted as soon as its temporary file exists.
    let child = hauser()
        .args([
            "kb",
            "synth",
            "--triplets",
            "100000000",
            "--out",
            csv.to_str().expect("UTF-8"),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let start = Instant::now();
    while files_in(dir.path()).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&child);
    let out = wait_with_limit(child, Duration::from_secs(20));
    assert_interrupted(&out);
    assert!(out.stdout.is_empty());
    assert!(
        files_in(dir.path()).is_empty(),
        "{:?}",
        files_in(dir.path())
    );
}

#[test]
fn ctrl_c_stops_a_bootstrap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tsv = meta_tsv(dir.path());
    let child = hauser()
        .args([
            "meta-eval",
            "--input",
            tsv.to_str().expect("UTF-8"),
            "--bootstrap",
            "20000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    // Reading six rows takes milliseconds; the bootstrap then runs for a minute or more.
    std::thread::sleep(Duration::from_millis(1500));
    interrupt(&child);
    let out = wait_with_limit(child, Duration::from_secs(20));
    assert_interrupted(&out);
    assert!(out.stdout.is_empty());
}

#[test]
fn ctrl_c_stops_kb_build_and_leaves_no_index() {
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("rows.csv");
    // A million rows (45 MB) take seconds to ingest in a test build.
    let out = run(&[
        "kb",
        "synth",
        "--triplets",
        "1000000",
        "--out",
        csv.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let index = dir.path().join("kb.idx");
    let child = hauser()
        .args([
            "kb",
            "build",
            "--input",
            csv.to_str().expect("UTF-8"),
            "--format",
            "maps-kb",
            "--out",
            index.to_str().expect("UTF-8"),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(Duration::from_millis(800));
    interrupt(&child);
    let out = wait_with_limit(child, Duration::from_secs(30));
    assert_interrupted(&out);
    assert_eq!(files_in(dir.path()), vec!["rows.csv".to_string()]);
}

#[test]
fn ctrl_c_stops_score_between_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("groups.jsonl");
    let line = "{\"literal\": \"He ran home.\", \"candidates\": [\"He ran home like the wind.\", \"He ran home like a hare.\"]}\n";
    // 200,000 groups take about twenty seconds in a test build.
    std::fs::write(&input, line.repeat(200_000)).expect("write");
    let stdout_path = dir.path().join("stdout.jsonl");
    let stdout = std::fs::File::create(&stdout_path).expect("stdout file");
    let child = hauser()
        .args(["score", "--input", input.to_str().expect("UTF-8")])
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(Duration::from_millis(1000));
    interrupt(&child);
    let out = wait_with_limit(child, Duration::from_secs(20));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    // The criteria that cannot run are named first, as in every run; then the one line.
    assert_eq!(
        err.trim().lines().last(),
        Some("hauser: interrupted"),
        "{err}"
    );
    assert!(!err.contains("candidate(s) scored"), "{err}");
    let text = std::fs::read_to_string(&stdout_path).expect("stdout");
    let records = text.lines().count();
    // Whole chunks of 256 groups (two records each), no torn record, not the whole input.
    assert!(records < 400_000, "{records}");
    assert_eq!(records % 512, 0, "{records}");
    for l in text.lines() {
        serde_json::from_str::<serde_json::Value>(l).expect("a whole JSON record");
    }
}
