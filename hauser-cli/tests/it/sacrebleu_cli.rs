//! `hauser sacrebleu` against sacreBLEU 2.4.3's command line: every case that
//! tools/gen/gen_sacrebleu_cli_fixtures.py recorded (arguments, standard input, environment) is
//! replayed in the fixture folder, and standard output must be the same bytes and the exit
//! status the same. Standard error is sacreBLEU's log: not compared.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

use crate::common::{hauser, replay_cases};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sacrebleu_cli")
}

/// Runs `hauser sacrebleu ARGS` in the fixture folder with `stdin` and `env`.
fn sacrebleu(args: &[String], stdin: &str, env: &[(String, String)]) -> (Vec<u8>, Option<i32>) {
    let mut cmd = hauser();
    cmd.arg("sacrebleu")
        .args(args)
        .current_dir(fixture_dir())
        .env_remove("SACREBLEU_SEED")
        .env_remove("SACREBLEU_FORMAT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    // A run that exits before reading standard input closes the pipe: not a failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (out.stdout, out.status.code())
}

/// Runs one recorded case; returns what differs.
fn replay(case: &Value) -> Option<String> {
    let name = case["name"].as_str().unwrap();
    let args: Vec<String> = case["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let env: Vec<(String, String)> = case["env"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    let stdin = case["stdin"].as_str().unwrap_or("");
    let (stdout, code) = sacrebleu(&args, stdin, &env);
    let want = case["stdout"].as_str().unwrap();
    let want_code = case["code"].as_i64().map(|c| c as i32);
    let got = String::from_utf8_lossy(&stdout);
    (got != want || code != want_code).then(|| {
        format!(
            "{name} (sacrebleu {}): exit {code:?}, want {want_code:?}\n--- got\n{got}--- want\n{want}",
            args.join(" ")
        )
    })
}

#[test]
fn every_recorded_sacrebleu_command_line_prints_the_same_bytes() {
    let text = std::fs::read_to_string(fixture_dir().join("cases.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["sacrebleu"], "2.4.3");
    replay_cases(&fixture_dir(), 60, replay);
}

/// sacreBLEU 2.4.3 crashes on `--paired-bs -f json` with chrF (NumPy's float32 is not JSON
/// serialisable); hauser prints the JSON it meant to print.
#[test]
fn paired_bootstrap_json_with_chrf_is_valid_json() {
    let args: Vec<String> = [
        "ref.txt", "-i", "a.txt", "b.txt", "-m", "bleu", "chrf", "ter",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["--paired-bs".to_string()])
    .collect();
    let (stdout, code) = sacrebleu(&args, "", &[]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_slice(&stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["system"], "Baseline: a.txt");
    assert!(rows[0]["chrF2"]["p_value"].is_null());
    assert!(rows[1]["chrF2"]["p_value"].as_f64().unwrap() > 0.0);
    assert!(rows[1]["TER"]["mean"].as_f64().unwrap() > 0.0);
}

/// Test sets are read from sacreBLEU's cache only: one it lacks, the test-set list and the
/// citations are refused with exit status 2 and a message.
#[test]
fn test_sets_missing_from_the_cache_are_refused_clearly() {
    for (args, says) in [
        (
            vec!["-t", "wmt14", "-l", "de-en", "-i", "a.txt"],
            "not in sacreBLEU's cache",
        ),
        (
            vec!["-t", "wmt22", "-l", "en-de", "--echo", "src"],
            "not in sacreBLEU's cache",
        ),
        (vec!["--download", "wmt14"], "not in sacreBLEU's cache"),
        (vec!["--list"], "not available"),
        (vec!["-t", "wmt14", "--citation"], "not available"),
    ] {
        let out = hauser()
            .arg("sacrebleu")
            .args(&args)
            .current_dir(fixture_dir())
            .env("SACREBLEU", "sacrebleu_cache")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// `-` is standard input for a reference or `-i`, and only one of them may be.
#[test]
fn standard_input_as_a_named_input() {
    let text = std::fs::read_to_string(fixture_dir().join("a.txt")).unwrap();
    let args: Vec<String> = ["ref.txt", "-i", "-", "-b"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (stdout, code) = sacrebleu(&args, &text, &[]);
    assert_eq!(code, Some(0));
    let (file_out, _) = sacrebleu(&["ref.txt", "-i", "a.txt", "-b"].map(String::from), "", &[]);
    assert_eq!(stdout, file_out);
    let (_, code) = sacrebleu(&["-", "-i", "-"].map(String::from), "x\n", &[]);
    assert_eq!(code, Some(2));
}

#[test]
fn a_leading_double_dash_is_sacrebleus_end_of_options() {
    // sacreBLEU's argparse reads the words after `--` as references, the hypotheses then come
    // from standard input; clap used to drop the `--` and read `-i` as the option.
    let text = std::fs::read_to_string(fixture_dir().join("a.txt")).unwrap();
    let (dashed, code) = sacrebleu(&["--", "ref.txt", "-b"].map(String::from), &text, &[]);
    assert_eq!(code, Some(1), "{}", String::from_utf8_lossy(&dashed));
    let (plain, code) = sacrebleu(&["-b", "--", "ref.txt"].map(String::from), &text, &[]);
    assert_eq!(code, Some(0));
    let (want, _) = sacrebleu(&["ref.txt", "-b"].map(String::from), &text, &[]);
    assert_eq!(plain, want);
}
