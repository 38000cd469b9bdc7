//! The documents tell the truth (issue 29, deliverable 13), checked on every `cargo test`:
//!
//! - every flag that `hauser ... --help` lists, for every subcommand, is documented in README.md
//!   or docs/;
//! - every repository path that README.md or docs/ names in backticks exists;
//! - every command line of their `sh` blocks runs and succeeds, in order, in a scratch directory
//!   where the files and model names they use are small local stand-ins (`docs_sandbox`): hub
//!   ids such as `gpt2` or `roberta-large` are directories there, which `hauser` loads as local
//!   models, never from the hub. Commands that cannot run inside a test (the test command
//!   itself, the wheel build, the instrumented fuzzer) are listed in [`NOT_RUN`] with the place
//!   where CI runs them; a listed command that no document shows any more fails the test, so the
//!   list cannot go stale.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::hauser;
use crate::docs_sandbox;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// README.md and every docs/*.md, with their text.
fn documents() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(root()).unwrap().display().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The text of `hauser ARGS --help`.
fn help(path: &[String]) -> String {
    let out = hauser().args(path).arg("--help").output().unwrap();
    assert!(out.status.success(), "hauser {path:?} --help fails");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a help text lists under `Commands:` (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap_or_default();
            if !name.is_empty() && name != "help" {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The long flags a help text lists (`--name`), without `--help` and `--version`.
fn long_flags(help: &str) -> BTreeSet<String> {
    let mut flags = BTreeSet::new();
    for line in help.lines() {
        let t = line.trim_start();
        // Option lines start with `-x, --long` or `--long`; description lines never start with
        // a dash after clap's indentation.
        let t = match t.strip_prefix('-') {
            Some(rest) if !rest.starts_with('-') => match rest.split_once(", ") {
                Some((_, long)) => long,
                None => continue,
            },
            Some(_) => t,
            None => continue,
        };
        if let Some(name) = t.strip_prefix("--") {
            let name: String = name
                .chars()
                // `_` too: the drop-in commands keep comet's and bert_score's `--batch_size`.
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if !name.is_empty() && name != "help" && name != "version" {
                flags.insert(format!("--{name}"));
            }
        }
    }
    flags
}

/// Every command path (`["narratives", "score"]`...) with its long flags.
fn command_flags() -> BTreeMap<Vec<String>, BTreeSet<String>> {
    let mut all = BTreeMap::new();
    let mut todo = vec![Vec::<String>::new()];
    while let Some(path) = todo.pop() {
        let text = help(&path);
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        all.insert(path, long_flags(&text));
    }
    all
}

/// Whether `text` mentions `flag` as a whole flag (`--ref` is not found in `--refs`).
fn mentions(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        let next = text[i + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn every_flag_of_every_help_is_documented() {
    let docs: String = documents().into_iter().map(|(_, t)| t).collect();
    let mut missing = Vec::new();
    let commands = command_flags();
    assert!(
        commands.len() > 20,
        "the help tree was not read: {commands:?}"
    );
    for (path, flags) in &commands {
        for flag in flags {
            if !mentions(&docs, flag) {
                missing.push(format!("hauser {} {flag}", path.join(" ")));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "flags that no document (README.md, docs/*.md) mentions:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_subcommand_is_documented() {
    let docs: String = documents().into_iter().map(|(_, t)| t).collect();
    let missing: Vec<String> = command_flags()
        .keys()
        .filter(|p| !p.is_empty())
        .map(|p| format!("hauser {}", p.join(" ")))
        .filter(|c| !mentions(&docs, c))
        .collect();
    assert!(missing.is_empty(), "undocumented commands: {missing:?}");
}

/// Top-level folders of the repository: a backticked path starting with one of them names a
/// file of this repository.
const REPO_DIRS: [&str; 16] = [
    "hauser-core/",
    "hauser-kb/",
    "hauser-extract/",
    "hauser-nli/",
    "hauser-cli/",
    "figlang-stats/",
    "figlang-metrics/",
    "figlang-tasks/",
    "bindings/",
    "examples/",
    "benches/",
    "testkit/",
    "tools/",
    "docs/",
    "fuzz/",
    ".ci/",
];

#[test]
fn repository_paths_named_by_the_documents_exist() {
    let mut missing = Vec::new();
    for (name, text) in documents() {
        for (i, quoted) in text.split('`').enumerate() {
            // Odd pieces are inside backticks.
            if i % 2 == 0 || quoted.contains(' ') || quoted.contains('*') || quoted.contains('{') {
                continue;
            }
            let path = quoted.trim_end_matches(['/', ':', ',']);
            // `fuzz/corpus/TARGET`-style templates name no file; ignored outputs are not files of
            // the repository.
            if !REPO_DIRS.iter().any(|d| path.starts_with(d))
                || path
                    .chars()
                    .any(|c| c.is_ascii_uppercase() && path.contains("TARGET"))
                || [
                    "fuzz/corpus",
                    "fuzz/artifacts",
                    "fuzz/logs",
                    "bindings/python/dist",
                ]
                .iter()
                .any(|ignored| path.starts_with(ignored))
            {
                continue;
            }
            if !root().join(path).exists() {
                missing.push(format!("{name}: {path}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// A command of a document's `sh` block: its document, line and text (continuations joined).
#[derive(Debug, Clone)]
struct DocCommand {
    doc: String,
    line: usize,
    text: String,
}

/// Removes a trailing shell comment (`  # ...` outside quotes).
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => return line[..i].trim_end(),
            _ => {}
        }
        prev = c;
    }
    line.trim_end()
}

/// The commands of every ```sh block, a line ending in `\` or `|` joined with the next.
fn sh_commands() -> Vec<DocCommand> {
    let mut commands = Vec::new();
    for (doc, text) in documents() {
        let mut in_block = false;
        let mut pending: Option<DocCommand> = None;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("```") {
                in_block = line.trim() == "```sh";
                continue;
            }
            if !in_block {
                continue;
            }
            let code = strip_comment(line);
            if code.trim().is_empty() && pending.is_none() {
                continue;
            }
            let cmd = pending.get_or_insert_with(|| DocCommand {
                doc: doc.clone(),
                line: n + 1,
                text: String::new(),
            });
            let (body, more) = match code.strip_suffix('\\') {
                Some(b) => (b.trim_end(), true),
                None => (code, code.ends_with('|')),
            };
            if !cmd.text.is_empty() {
                cmd.text.push(' ');
            }
            cmd.text.push_str(body.trim());
            if !more {
                commands.extend(pending.take());
            }
        }
        assert!(
            pending.is_none(),
            "{doc}: an sh block ends inside a command"
        );
    }
    commands
}

/// Commands that documents show but this test cannot run, with the reason and where they run.
const NOT_RUN: [(&str, &str); 6] = [
    (
        "bash tools/test.sh",
        "the README's test command: this test is one of the tests it runs (.ci/run runs it)",
    ),
    (
        "pip install maturin==1.16.0 && (cd bindings/python && maturin build --release --out dist)",
        "builds the wheel (minutes in release): tools/python-tests.sh, run by .ci/run, builds it with maturin in the dev profile and tests it",
    ),
    (
        "pip install bindings/python/dist/hauser-*.whl",
        "installs the wheel: tools/python-tests.sh installs it in a fresh venv",
    ),
    (
        "bash tools/fuzz.sh build",
        "builds the instrumented fuzzer: .ci/run runs tools/fuzz.sh smoke, which builds it",
    ),
    (
        "bash tools/fuzz.sh run kb_ingest -runs=10000000",
        "10 million fuzz executions: .ci/run runs a short smoke run of every target instead",
    ),
    (
        "bash tools/fuzz.sh smoke 5",
        "the fuzz smoke run: .ci/run runs it (tools/fuzz.sh smoke)",
    ),
];

/// Commands that write seed corpora from the reference data (a tool of the fuzzer's, run by
/// hand): skipped with the fuzzer's commands.
fn not_run(text: &str) -> Option<&'static str> {
    if text.starts_with("HAUSER_BIN=") && text.contains("tools/fuzz_seeds.py") {
        return Some("writes the fuzz seed corpora from ../shared/data (a maintainer's step)");
    }
    NOT_RUN
        .iter()
        .find(|(cmd, _)| *cmd == text)
        .map(|(_, why)| *why)
}

#[test]
fn every_command_line_in_the_documents_runs() {
    let commands = sh_commands();
    assert!(commands.len() > 30, "the sh blocks were not read");
    for (cmd, _) in NOT_RUN {
        assert!(
            commands.iter().any(|c| c.text == cmd),
            "NOT_RUN lists `{cmd}`, which no document shows any more"
        );
    }
    let sandbox = docs_sandbox::Sandbox::new();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_hauser")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for cmd in &commands {
        if let Some(why) = not_run(&cmd.text) {
            eprintln!("docs: not run here: {} ({why})", cmd.text);
            continue;
        }
        // The README's first command builds and runs the binary: the same binary as `hauser`.
        let text = cmd
            .text
            .replace("cargo run --release -p hauser-cli -- ", "hauser ");
        assert!(
            text.contains("hauser "),
            "{}:{}: `{}` is neither a `hauser` command nor listed in NOT_RUN",
            cmd.doc,
            cmd.line,
            cmd.text
        );
        if let Some(why) = sandbox.unavailable(&text) {
            eprintln!("docs: skipped (asset missing: {why}): {text}");
            continue;
        }
        let started = std::time::Instant::now();
        let out = Command::new("bash")
            .args(["-o", "pipefail", "-c", &text])
            .current_dir(sandbox.dir())
            .env("PATH", &path)
            .env("HF_HUB_OFFLINE", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}:{}: `{}` failed ({}):\n{}",
            cmd.doc,
            cmd.line,
            cmd.text,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        // With --nocapture, where the test's time goes (the slowest commands are named in
        // docs/PERFORMANCE.md).
        eprintln!("docs: {:.1} s: {text}", started.elapsed().as_secs_f64());
        ran += 1;
    }
    eprintln!("docs: {ran} command lines ran");
}
