//! Model sizes and MBR groups under an address-space cap (`ulimit -v`): a config claiming more
//! layers than its weights hold is refused at load naming the first missing tensor (it grew
//! until memory ran out), and COMET MBR over a large group stays within the cap (its feature
//! rows for all n (n - 1) pairs were built at once: the run aborted), with the scores of the
//! uncapped run on a smaller group unchanged.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;

/// The address-space cap the capped runs get, in KiB: 1.5 GiB, ample for the tiny models and
/// far below what the unbounded allocations asked for.
const CAP_KIB: u64 = 1_536_000;

/// `hauser ARGS` under `ulimit -v CAP_KIB`, with two worker threads and two malloc arenas so
/// that the reserved (not used) address space does not depend on the machine's core count.
fn capped(args: &[&str]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(format!("ulimit -v {CAP_KIB}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_hauser"))
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .env("MALLOC_ARENA_MAX", "2");
    cmd.output().expect("bash runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("fixture") {
        let p = entry.expect("entry").path();
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

/// A copy of fixture tree `name` in `dir` with `config` (relative to it) given `key = value`.
fn claiming(dir: &Path, name: &str, config: &str, key: &str, value: u64) -> PathBuf {
    let to = dir.join(name.replace('/', "-"));
    std::fs::create_dir_all(&to).expect("mkdir");
    copy_tree(&tiny(name), &to);
    let path = to.join(config);
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("config")).expect("json");
    cfg[key] = value.into();
    std::fs::write(&path, cfg.to_string()).expect("write config");
    to
}

fn write_lines(dir: &Path, name: &str, lines: &[&str]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").expect("write");
    p.to_str().expect("UTF-8").to_string()
}

#[test]
fn a_config_claiming_absent_layers_is_refused_under_a_memory_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = write_lines(dir.path(), "hyp.txt", &["the cat sat", "rain fell"]);
    let layers = 1_000_000_000;
    // (fixture, its config, key, command, the first layer the weights lack)
    let cases: [(&str, &str, &str, &str, usize); 5] = [
        ("bert", "config.json", "num_hidden_layers", "embed", 2),
        ("bert", "config.json", "num_hidden_layers", "bertscore", 2),
        ("bleurt", "config.json", "num_hidden_layers", "bleurt", 2),
        ("metricx", "config.json", "num_layers", "metricx", 2),
        (
            "comet",
            "encoder/config.json",
            "num_hidden_layers",
            "comet",
            3,
        ),
    ];
    for (fixture, config, key, command, first_missing) in cases {
        let model = claiming(dir.path(), fixture, config, key, layers);
        let model = if fixture == "comet" {
            model.join("regression")
        } else {
            model
        };
        let m = model.to_str().expect("UTF-8");
        let mut args = match command {
            "embed" => vec!["embed", "--model", m, "--input", &text],
            metric => vec![
                "metric", metric, "--model", m, "--hyp", &text, "--ref", &text,
            ],
        };
        if command == "comet" {
            args.extend(["--src", &text]);
        }
        let out = capped(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(!err.contains("memory allocation"), "{command}: {err}");
        assert!(
            err.contains(&format!("{key} is {layers}"))
                && err.contains(&format!("no layer {first_missing}: tensor "))
                && err.contains("is missing"),
            "{command}: {err}"
        );
    }
}

/// `n` distinct candidates, as one rerank group with a source.
fn group(n: usize) -> String {
    let words = [
        "the", "cat", "sat", "like", "a", "king", "rain", "fell", "softly",
    ];
    let cands: Vec<String> = (0..n)
        .map(|i| format!("{} {} {i}", words[i % 9], words[(i * 4 + 1) % 9]))
        .collect();
    serde_json::json!({"src": "the king sat", "candidates": cands}).to_string() + "\n"
}

fn comet_mbr(input: &Path, capped_run: bool) -> Output {
    let model = tiny("comet/regression");
    let args = [
        "rerank",
        "--metric",
        "comet",
        "--model",
        model.to_str().expect("UTF-8"),
        "--mbr",
        "-i",
        input.to_str().expect("UTF-8"),
    ];
    if capped_run {
        capped(&args)
    } else {
        run(&args)
    }
}

#[test]
fn comet_mbr_of_a_large_group_stays_within_a_memory_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 1,500 candidates: 2.2 million pairs, whose feature rows (192 floats each with the tiny
    // encoder) took 1.7 GB at once.
    let big = dir.path().join("big.jsonl");
    std::fs::write(&big, group(1500)).expect("write");
    let out = comet_mbr(&big, true);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let records = json_lines(&out);
    assert_eq!(records.len(), 1500);
    assert!(records.iter().all(|r| r["score"].is_f64()), "{err}");
}

#[test]
fn comet_mbr_scores_are_the_mean_of_metric_comet_over_the_other_candidates() {
    // 40 candidates (1,560 pairs, more than one block of estimator rows): each MBR score is
    // bit for bit the mean of `hauser metric comet` over the candidate's pairs, all scored in
    // one call, uncapped.
    let n = 40;
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("group.jsonl");
    std::fs::write(&input, group(n)).expect("write");
    let line: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&input).expect("read")).expect("json");
    let cands: Vec<&str> = line["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| c.as_str().expect("string"))
        .collect();
    let (mut hyps, mut refs) = (Vec::new(), Vec::new());
    for j in 0..n {
        for k in (0..n).filter(|&k| k != j) {
            hyps.push(cands[j]);
            refs.push(cands[k]);
        }
    }
    let srcs = vec!["the king sat"; hyps.len()];
    let model = tiny("comet/regression");
    let out = run(&[
        "metric",
        "comet",
        "--model",
        model.to_str().expect("UTF-8"),
        "--hyp",
        &write_lines(dir.path(), "hyp.txt", &hyps),
        "--ref",
        &write_lines(dir.path(), "ref.txt", &refs),
        "--src",
        &write_lines(dir.path(), "src.txt", &srcs),
        "--sentence",
        "--format",
        "jsonl",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pair: Vec<f64> = json_lines(&out)
        .iter()
        .map(|v| v["score"].as_f64().expect("score"))
        .collect();
    assert_eq!(pair.len(), n * (n - 1));
    let got = comet_mbr(&input, false);
    assert!(got.status.success(), "{}", stderr(&got));
    let records = json_lines(&got);
    assert_eq!(records.len(), n);
    for r in &records {
        let j = r["candidate"].as_u64().expect("candidate") as usize;
        let u = &pair[j * (n - 1)..(j + 1) * (n - 1)];
        let want = u.iter().sum::<f64>() / u.len() as f64;
        assert_eq!(r["score"].as_f64(), Some(want), "candidate {j}");
    }
}
