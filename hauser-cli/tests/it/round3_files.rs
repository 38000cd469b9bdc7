//! Issue 37 (reliability, third round), items 1-3 and the signal part of 9: the files a run
//! reads include the encoder a COMET checkpoint names and a hub model's cached snapshot;
//! `-o` through a link to standard output appends as the stream does; the drop-ins refuse
//! standard output appended to their inputs; `hauser sacrebleu` reports write errors; a run
//! ended by a signal leaves no temporary file. Each test fails on the code before the round.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::*;

const LINES: &str = "He ran like the wind.\nShe is as brave as a lion.\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

/// A copy of the tiny COMET regression checkpoint and of the encoder its hparams.yaml names
/// (`../encoder`): the checkpoint's directory.
fn comet_copy(dir: &Path) -> PathBuf {
    copy_dir(&tiny("comet/regression"), &dir.join("regression"));
    copy_dir(&tiny("comet/encoder"), &dir.join("encoder"));
    dir.join("regression")
}

/// Asserts a refused run: non-zero, "same file" naming the encoder, the file unchanged.
fn assert_refused(args: &[&str], file: &Path, before: &[u8], exit: i32) {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(exit), "{args:?}: {err}");
    assert!(err.contains("same file"), "{args:?}: {err}");
    assert_eq!(std::fs::read(file).unwrap(), before, "{args:?} replaced it");
}

#[test]
fn an_output_onto_the_encoder_a_comet_checkpoint_names_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let model = comet_copy(dir.path());
    let src = write(dir.path(), "src.txt", LINES);
    let hyp = write(dir.path(), "hyp.txt", LINES);
    let hyp2 = write(dir.path(), "hyp2.txt", "He ran fast.\nShe is brave.\n");
    let reference = write(dir.path(), "ref.txt", LINES);
    let tokenizer = dir.path().join("encoder/tokenizer.json");
    let config = dir.path().join("encoder/config.json");
    let (tok_before, cfg_before) = (
        std::fs::read(&tokenizer).unwrap(),
        std::fs::read(&config).unwrap(),
    );
    let (m, t) = (s(&model), s(&tokenizer));
    let common = ["-s", s(&src), "-r", s(&reference), "--model", m];
    let mut score = vec!["comet-score", "-t", s(&hyp)];
    score.extend(common);
    score.extend(["--to_json", t]);
    assert_refused(&score, &tokenizer, &tok_before, 2);
    let mut compare = vec!["comet-compare", "-t", s(&hyp), s(&hyp2)];
    compare.extend(common);
    compare.extend(["--to_json", t]);
    assert_refused(&compare, &tokenizer, &tok_before, 2);
    let groups = write(
        dir.path(),
        "groups.jsonl",
        "{\"src\": \"He ran.\", \"candidates\": [\"He ran fast.\", \"He ran like the wind.\"]}\n",
    );
    let rerank = [
        "rerank",
        "--metric",
        "comet",
        "--model",
        m,
        "--mbr",
        "-i",
        s(&groups),
        "-o",
        s(&config),
    ];
    assert_refused(&rerank, &config, &cfg_before, 2);
    let out = run(&rerank[..rerank.len() - 2]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_output_onto_a_cached_hub_snapshot_is_refused() {
    // A hub cache as hf-hub lays it out: refs/main names a snapshot whose files link to blobs.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("hf/hub/models--org--tiny");
    let snapshot = repo.join("snapshots/0123abcd");
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    std::fs::create_dir_all(repo.join("blobs")).unwrap();
    std::fs::create_dir_all(&snapshot).unwrap();
    std::fs::write(repo.join("refs/main"), "0123abcd").unwrap();
    for entry in std::fs::read_dir(tiny("bert")).unwrap() {
        let entry = entry.unwrap();
        let blob = repo.join("blobs").join(entry.file_name());
        std::fs::copy(entry.path(), &blob).unwrap();
        std::os::unix::fs::symlink(&blob, snapshot.join(entry.file_name())).unwrap();
    }
    let input = write(dir.path(), "in.txt", LINES);
    let config = snapshot.join("config.json");
    let before = std::fs::read(&config).unwrap();
    let args = [
        "embed",
        "--model",
        "org/tiny",
        "--input",
        s(&input),
        "-o",
        s(&config),
    ];
    let out = hauser()
        .args(args)
        .env("HF_HOME", dir.path().join("hf"))
        .env("HF_HUB_OFFLINE", "1")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("same file") && err.contains("org/tiny"),
        "{err}"
    );
    assert_eq!(std::fs::read(&config).unwrap(), before);
    // The same model, output elsewhere: it loads from the cache and runs.
    let elsewhere = dir.path().join("out.jsonl");
    let out = hauser()
        .args(&args[..args.len() - 1])
        .arg(&elsewhere)
        .env("HF_HOME", dir.path().join("hf"))
        .env("HF_HUB_OFFLINE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_output_linked_to_standard_output_appends_as_the_stream_does() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", LINES);
    let link = dir.path().join("out");
    std::os::unix::fs::symlink("/proc/self/fd/1", &link).unwrap();
    let log = write(dir.path(), "log", "earlier line\n");
    let appended = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let out = hauser()
        .args(["extract", "--input", s(&input), "-o", s(&link)])
        .stdout(appended)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("earlier line\n"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    // Onto an input through the link: refused as `>> in.txt` is.
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .open(&input)
        .unwrap();
    let out = hauser()
        .args(["extract", "--input", s(&input), "-o", s(&link)])
        .stdout(appended)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), LINES);
}

/// Runs `hauser ARGS` with standard output appended to `file`.
fn appending_to(args: &[&str], file: &Path) -> std::process::Output {
    let appended = std::fs::OpenOptions::new().append(true).open(file).unwrap();
    hauser().args(args).stdout(appended).output().unwrap()
}

#[test]
fn the_drop_ins_refuse_standard_output_appended_to_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let hyp = write(dir.path(), "hyp.txt", LINES);
    let reference = write(dir.path(), "ref.txt", "He ran fast.\nShe is brave.\n");
    let model = tiny("bert");
    let bert = [
        "bert-score",
        "-r",
        s(&reference),
        "-c",
        s(&hyp),
        "-m",
        s(&model),
        "-l",
        "1",
    ];
    let sacre = ["sacrebleu", s(&reference), "-i", s(&hyp)];
    let bert_seg: Vec<&str> = bert.iter().copied().chain(["-s"]).collect();
    // bert_score's failures exit 1 (its exceptions), sacreBLEU's refusals of this kind 2.
    for (args, file, exit) in [
        (&bert[..], &hyp, 1),
        (&bert_seg[..], &reference, 1),
        (&sacre[..], &hyp, 2),
        (&sacre[..], &reference, 2),
    ] {
        let before = std::fs::read(file).unwrap();
        let out = appending_to(args, file);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(exit), "{args:?}: {err}");
        assert!(err.contains("standard output"), "{args:?}: {err}");
        assert_eq!(std::fs::read(file).unwrap(), before, "{args:?} appended");
    }
    // The hypotheses on standard input, standard output appended to the same file.
    let before = std::fs::read(&hyp).unwrap();
    let out = hauser()
        .args(["sacrebleu", s(&reference)])
        .stdin(std::fs::File::open(&hyp).unwrap())
        .stdout(std::fs::OpenOptions::new().append(true).open(&hyp).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read(&hyp).unwrap(), before);
    // Elsewhere, both run.
    let log = write(dir.path(), "log", "");
    assert!(appending_to(&sacre, &log).status.success());
    assert!(appending_to(&bert, &log).status.success());
}

#[test]
fn sacrebleu_reports_a_full_disk() {
    if !Path::new("/dev/full").exists() {
        eprintln!("not run: no /dev/full on this system");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let hyp = write(dir.path(), "hyp.txt", LINES);
    let hyp2 = write(dir.path(), "hyp2.txt", "He ran fast.\nShe is brave.\n");
    let reference = write(dir.path(), "ref.txt", "He ran fast.\nShe is brave.\n");
    let (h, r) = (s(&hyp), s(&reference));
    for args in [
        vec!["--help"],
        vec![r, "-i", h],
        vec![r, "-i", h, "-f", "text"],
        vec![r, "-i", h, "-b"],
        vec![r, "-i", h, s(&hyp2), "--paired-bs", "--paired-bs-n", "10"],
    ] {
        let out = hauser()
            .arg("sacrebleu")
            .args(&args)
            .stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
}

/// The temporary files beside `target` (`.NAME.PID.*.tmp`).
fn temps_beside(target: &Path) -> Vec<PathBuf> {
    let name = format!(".{}.", target.file_name().unwrap().to_str().unwrap());
    std::fs::read_dir(target.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_str().unwrap();
            n.starts_with(&name) && n.ends_with(".tmp")
        })
        .collect()
}

/// Starts `hauser ARGS` reading a standard input that never ends, waits until its temporary
/// output beside `target` exists, sends `signal`; returns the exit status's code and signal.
fn signalled(args: &[&str], target: &Path, signal: &str) -> (Option<i32>, Option<i32>) {
    let mut child = hauser()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while temps_beside(target).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{args:?}: no temporary output appeared"
        );
        assert!(child.try_wait().unwrap().is_none(), "{args:?} ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut stdin = child.stdin.take().unwrap();
    // Nothing more is read; the pipe stays open until the process is gone.
    let _ = stdin.flush();
    let status = child.wait().unwrap();
    drop(stdin);
    use std::os::unix::process::ExitStatusExt;
    (status.code(), status.signal())
}

#[test]
fn a_signal_removes_the_temporary_output_and_keeps_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let model = tiny("bert");
    let target = write(dir.path(), "out.jsonl", "old\n");
    let embed = [
        "embed",
        "--model",
        s(&model),
        "--input",
        "-",
        "-o",
        s(&target),
    ];
    let index = write(dir.path(), "kb.idx", "old\n");
    let kb = [
        "kb",
        "build",
        "--input",
        "-",
        "--format",
        "triplets",
        "--out",
        s(&index),
    ];
    // Ctrl-C (SIGINT) to a command that polls no flag, SIGTERM and SIGHUP to one that does.
    for (args, target, signal, want) in [
        (&embed[..], &target, "-INT", (Some(130), None)),
        (&embed[..], &target, "-TERM", (None, Some(15))),
        (&kb[..], &index, "-TERM", (None, Some(15))),
        (&kb[..], &index, "-HUP", (None, Some(1))),
    ] {
        let got = signalled(args, target, signal);
        assert_eq!(got, want, "{args:?} {signal}");
        assert!(
            temps_beside(target).is_empty(),
            "{args:?} {signal}: temporary left"
        );
        assert_eq!(std::fs::read_to_string(target).unwrap(), "old\n");
    }
}
