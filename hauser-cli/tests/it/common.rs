//! Helpers shared by the end-to-end tests of the `hauser` binary.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The `hauser` binary under test.
pub fn hauser() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hauser"))
}

/// Runs `hauser ARGS` with `input` on standard input.
pub fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = hauser()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hauser starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("hauser finishes")
}

/// Standard output as one JSON value per line.
pub fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("every stdout line is JSON"))
        .collect()
}

/// Runs `hauser ARGS` and collects its output.
pub fn run(args: &[&str]) -> Output {
    hauser().args(args).output().expect("hauser runs")
}
