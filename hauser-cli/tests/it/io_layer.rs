//! The shared input/output rules, command by command: `-` for standard input, byte-order marks
//! and CRLF, one record per input line, atomic outputs, outputs that are also inputs, and the
//! shared option parsers.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::common::*;

const BOM: &str = "\u{feff}";

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

/// With BOM-prefixed and CRLF versions of the same text.
fn variants(text: &str) -> [String; 3] {
    [
        text.to_string(),
        format!("{BOM}{text}"),
        format!("{BOM}{}", text.replace('\n', "\r\n")),
    ]
}

const GROUPS: &str = concat!(
    r#"{"id": "wolf", "literal": "He howls.", "candidates": ["He howls like a wolf.", "He howls like a lonely grey wolf."]}"#,
    "\n",
    r#"{"literal": "She ran.", "candidates": ["She ran like the wind."]}"#,
    "\n",
);

const ARRAY: &str = "[\n{\"origin_sentence\": \"He howls.\", \"cands\": [\"He howls like a wolf.\", \"He howls like a lonely grey wolf.\"]}\n]\n";

#[test]
fn score_reads_bom_and_crlf_as_plain_input_in_both_formats() {
    for text in [GROUPS, ARRAY] {
        let [plain, bom, crlf] = variants(text);
        let want = run_stdin(&["score", "--input", "-"], &plain);
        assert!(want.status.success(), "{}", stderr(&want));
        assert!(!want.stdout.is_empty());
        for other in [bom, crlf] {
            let got = run_stdin(&["score", "--input", "-"], &other);
            assert!(got.status.success(), "{other:?}: {}", stderr(&got));
            assert_eq!(got.stdout, want.stdout, "{other:?}");
        }
    }
}

#[test]
fn score_answers_a_blank_line_with_an_error_record_on_its_line() {
    let input = format!(
        "{}\n\n{}",
        GROUPS.lines().next().unwrap(),
        GROUPS.lines().nth(1).unwrap()
    );
    let out = run_stdin(&["score", "--input", "-"], &input);
    assert_eq!(out.status.code(), Some(1), "an error record gives exit 1");
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 2 + 1 + 1);
    assert_eq!(recs[2]["line"], 2);
    assert_eq!(recs[2]["group"], 1);
    assert!(recs[2]["error"].as_str().unwrap().contains("blank line"));
    // Group labels count every line, so the next group is group 2 (line 3).
    assert_eq!(recs[3]["group"], 2);
}

#[test]
fn extract_reads_bom_and_crlf_and_answers_every_line() {
    let text = "Soon her deck smoked like a furnace.\n\nHer smile was brighter than the sun.\n";
    let [plain, bom, crlf] = variants(text);
    let want = run_stdin(&["extract", "--input", "-"], &plain);
    assert!(want.status.success(), "{}", stderr(&want));
    let recs = json_lines(&want);
    assert_eq!(recs.len(), 3, "one record per input line");
    assert_eq!(recs[1], serde_json::json!({"simile": "", "components": []}));
    for other in [bom, crlf] {
        let got = run_stdin(&["extract", "--input", "-"], &other);
        assert_eq!(got.stdout, want.stdout, "{other:?}");
    }
}

#[test]
fn extract_error_records_carry_their_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "in.txt",
        b"a like b\n\xff\xfe\n{\"simile\": 3}\n",
    );
    let out = run(&["extract", "--input", s(&input)]);
    assert_eq!(out.status.code(), Some(1));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[1]["line"], 2);
    assert!(recs[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(recs[2]["line"], 3);
}

fn metric_files(dir: &Path, prefix: &str, hyp: &str, reference: &str) -> (PathBuf, PathBuf) {
    (
        write(dir, &format!("{prefix}hyp.txt"), hyp.as_bytes()),
        write(dir, &format!("{prefix}ref.txt"), reference.as_bytes()),
    )
}

#[test]
fn metric_scores_are_the_same_with_bom_and_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let hyp = "the cat sat on the mat\nrain fell like tears\n";
    let reference = "a cat sat on a mat\nit rained\n";
    let (h, r) = metric_files(dir.path(), "plain-", hyp, reference);
    for name in ["chrf", "bleu", "rougeL"] {
        for sentence in [true, false] {
            let mut args = vec!["metric", name, "--hyp", s(&h), "--ref", s(&r)];
            if sentence {
                args.push("--sentence");
            }
            let want = run(&args);
            assert!(want.status.success(), "{name}: {}", stderr(&want));
            for (i, (hv, rv)) in variants(hyp).iter().zip(variants(reference)).enumerate() {
                let (h2, r2) = metric_files(dir.path(), &format!("{i}-"), hv, &rv);
                let mut args = vec!["metric", name, "--hyp", s(&h2), "--ref", s(&r2)];
                if sentence {
                    args.push("--sentence");
                }
                let got = run(&args);
                assert_eq!(
                    String::from_utf8_lossy(&got.stdout),
                    String::from_utf8_lossy(&want.stdout),
                    "{name} variant {i}"
                );
            }
        }
    }
}

#[test]
fn metric_reads_standard_input_but_only_once() {
    let dir = tempfile::tempdir().unwrap();
    let (h, r) = metric_files(
        dir.path(),
        "",
        "a cat sat\nit rained\n",
        "a cat sat\nrain\n",
    );
    let want = run(&[
        "metric",
        "chrf",
        "--hyp",
        s(&h),
        "--ref",
        s(&r),
        "--sentence",
    ]);
    assert!(want.status.success(), "{}", stderr(&want));
    let hyp_text = std::fs::read_to_string(&h).unwrap();
    let got = run_stdin(
        &["metric", "chrf", "--hyp", "-", "--ref", s(&r), "--sentence"],
        &hyp_text,
    );
    assert_eq!(got.stdout, want.stdout, "{}", stderr(&got));
    let ref_text = std::fs::read_to_string(&r).unwrap();
    let got = run_stdin(
        &["metric", "chrf", "--hyp", s(&h), "--ref", "-", "--sentence"],
        &ref_text,
    );
    assert_eq!(got.stdout, want.stdout, "{}", stderr(&got));
    let twice = run_stdin(&["metric", "chrf", "--hyp", "-", "--ref", "-"], &hyp_text);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains("only one input may be standard input"),
        "{}",
        stderr(&twice)
    );
}

#[test]
fn metric_refuses_an_input_above_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (h, r) = metric_files(dir.path(), "", "a cat sat on the mat\n", "a cat sat\n");
    let out = hauser()
        .args(["metric", "chrf", "--hyp", s(&h), "--ref", s(&r)])
        .env("HAUSER_MAX_INPUT_BYTES", "10")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("too large") && err.contains("HAUSER_MAX_INPUT_BYTES"),
        "{err}"
    );
    // The same limit applies to standard input, whose size is not known in advance.
    let mut child = hauser()
        .args(["metric", "chrf", "--hyp", "-", "--ref", s(&r)])
        .env("HAUSER_MAX_INPUT_BYTES", "10")
        .stdin(File::open(&h).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("too large"), "{}", stderr(&out));
}

#[test]
fn input_limit_follows_the_memory_limit_and_takes_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let line = "a cat sat on the mat\n".repeat(100);
    let (h, r) = metric_files(dir.path(), "", &line, &line);
    let run = |envs: &[(&str, &str)]| {
        let mut cmd = hauser();
        cmd.args(["metric", "chrf", "--hyp", s(&h), "--ref", s(&r)]);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    // A memory limit below the input's size bounds the input too, without a second setting.
    let out = run(&[("HAUSER_MAX_MEMORY", "1K")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("too large"), "{}", stderr(&out));
    // The input limit takes the same sizes as the memory limit.
    assert_eq!(
        run(&[("HAUSER_MAX_INPUT_BYTES", "1K")]).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&[("HAUSER_MAX_INPUT_BYTES", "1M")]).status.code(),
        Some(0)
    );
    // A setting that is not a size is refused up front instead of being ignored.
    let out = run(&[("HAUSER_MAX_INPUT_BYTES", "lots")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("HAUSER_MAX_INPUT_BYTES=\"lots\" is not a size"),
        "{}",
        stderr(&out)
    );
}

const TSV: &str = "system\tsegment\thuman\tmetric\nA\t1\t1\t0.1\nA\t2\t2\t0.2\nB\t1\t3\t0.3\nB\t2\t4\t0.5\nC\t1\t5\t0.4\nC\t2\t6\t0.9\n";

#[test]
fn meta_eval_and_corr_read_stdin_bom_and_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write(dir.path(), "t.tsv", TSV.as_bytes());
    for args in [
        vec!["meta-eval", "--input"],
        vec!["corr", "--x", "human", "--y", "metric", "--input"],
    ] {
        let mut a = args.clone();
        a.push(s(&plain));
        let want = run(&a);
        assert!(want.status.success(), "{args:?}: {}", stderr(&want));
        for (i, text) in variants(TSV).iter().enumerate() {
            let mut a = args.clone();
            a.push("-");
            let got = run_stdin(&a, text);
            assert_eq!(
                got.stdout,
                want.stdout,
                "{args:?} variant {i}: {}",
                stderr(&got)
            );
        }
    }
}

const TRIPLETS: &str = "he\tfast\twind\t3\nshe\tcold\tice\t2\n";

#[test]
fn kb_build_reads_stdin_bom_and_crlf_and_stats_reads_an_index_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let mut stats = Vec::new();
    for (i, text) in variants(TRIPLETS).iter().enumerate() {
        let out_path = dir.path().join(format!("{i}.kb"));
        let out = run_stdin(
            &[
                "kb",
                "build",
                "--format",
                "triplets",
                "--input",
                "-",
                "--out",
                s(&out_path),
            ],
            text,
        );
        assert!(out.status.success(), "variant {i}: {}", stderr(&out));
        let st = run(&["kb", "stats", s(&out_path)]);
        assert!(st.status.success(), "{}", stderr(&st));
        stats.push(std::fs::read(&out_path).unwrap());
        let piped = hauser()
            .args(["kb", "stats", "-"])
            .stdin(File::open(&out_path).unwrap())
            .output()
            .unwrap();
        assert!(piped.status.success(), "{}", stderr(&piped));
        // Equal but for the path, which is `<memory>` for an index read from stdin.
        let without_path = |o: &Output| {
            let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            v.as_object_mut().unwrap().remove("path");
            v
        };
        assert_eq!(
            without_path(&piped),
            without_path(&st),
            "an index read from stdin is the same index"
        );
    }
    assert_eq!(stats[0], stats[1], "a BOM does not change the index");
    assert_eq!(stats[0], stats[2], "CRLF does not change the index");
    // No temporary file is left beside the outputs.
    let names = files_in(dir.path());
    assert_eq!(names.len(), 3, "{names:?}");
}

/// Each command with an output flag, writing to `output` from `input`.
fn writers<'a>(input: &'a str, output: &'a str) -> Vec<Vec<&'a str>> {
    vec![
        vec!["score", "--input", input, "--output", output],
        vec!["extract", "--input", input, "--output", output],
        // The check comes before the model is loaded, so no model is needed.
        vec![
            "embed",
            "--model",
            "/nonexistent/model",
            "--input",
            input,
            "--output",
            output,
        ],
        vec![
            "kb", "build", "--format", "similes", "--input", input, "--out", output,
        ],
    ]
}

fn assert_refused(args: &[&str], input: &Path, original: &[u8]) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(
        stderr(&out).contains("same file as the input"),
        "{args:?}: {}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(input).unwrap(),
        original,
        "{args:?} changed its input"
    );
}

#[test]
fn an_output_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.jsonl", GROUPS.as_bytes());
    let sym = dir.path().join("sym.jsonl");
    std::os::unix::fs::symlink(&input, &sym).unwrap();
    let hard = dir.path().join("hard.jsonl");
    std::fs::hard_link(&input, &hard).unwrap();
    let dotted = format!("{}/./in.jsonl", dir.path().display());
    for output in [s(&input), s(&sym), s(&hard), dotted.as_str()] {
        for args in writers(s(&input), output) {
            assert_refused(&args, &input, GROUPS.as_bytes());
        }
    }
}

#[test]
fn an_output_that_is_redirected_standard_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.jsonl", GROUPS.as_bytes());
    for args in writers("-", s(&input)) {
        let out = hauser()
            .args(&args)
            .stdin(File::open(&input).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("same file"), "{}", stderr(&out));
        assert_eq!(std::fs::read(&input).unwrap(), GROUPS.as_bytes());
    }
}

#[test]
fn a_failed_run_leaves_an_existing_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let output = write(dir.path(), "out.jsonl", b"previous results\n");
    for args in writers("/nonexistent/input.txt", s(&output)) {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            std::fs::read(&output).unwrap(),
            b"previous results\n",
            "{args:?}"
        );
    }
    let names = files_in(dir.path());
    assert_eq!(names.len(), 1, "no temporary file left behind: {names:?}");
}

#[test]
fn an_unwritable_output_directory_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.jsonl", GROUPS.as_bytes());
    for args in writers(s(&input), "/nonexistent/dir/out.jsonl") {
        if args[0] == "embed" {
            continue; // needs a model before it writes
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("/nonexistent/dir/out.jsonl"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn outputs_through_a_symlink_replace_the_target_and_keep_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.jsonl", GROUPS.as_bytes());
    let target = write(dir.path(), "target.jsonl", b"old\n");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run(&["score", "--input", s(&input), "--output", s(&link)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let written = std::fs::read_to_string(&target).unwrap();
    assert_eq!(written.lines().count(), 3);
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn kb_synth_and_build_refuse_standard_output() {
    for args in [
        vec!["kb", "synth", "--triplets", "3", "--out", "-"],
        vec![
            "kb", "build", "--format", "triplets", "--input", "x", "--out", "-",
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("--out must be a file"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_zero_batch_size_is_refused_by_every_command_with_the_same_message() {
    let dir = tempfile::tempdir().unwrap();
    let (h, r) = metric_files(dir.path(), "", "a\n", "a\n");
    let m = tiny("bert");
    for args in [
        vec![
            "embed",
            "--model",
            s(&m),
            "--input",
            s(&h),
            "--batch-size",
            "0",
        ],
        vec![
            "metric",
            "bertscore",
            "--model",
            s(&m),
            "--hyp",
            s(&h),
            "--ref",
            s(&r),
            "--batch-size",
            "0",
        ],
        vec!["score", "--input", s(&h), "--nli-batch-size", "0"],
        vec!["score", "--input", s(&h), "--chunk", "0"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("invalid value '0'") && err.contains("must be at least 1"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn seeds_are_unsigned_64_bit_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = write(dir.path(), "t.tsv", TSV.as_bytes());
    let csv = dir.path().join("s.csv");
    for seed in ["-1", "18446744073709551616"] {
        for args in [
            vec![
                "meta-eval",
                "--input",
                s(&tsv),
                "--bootstrap",
                "10",
                "--seed",
                seed,
            ],
            vec![
                "kb",
                "synth",
                "--triplets",
                "3",
                "--out",
                s(&csv),
                "--seed",
                seed,
            ],
        ] {
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(
                stderr(&out).contains("expected a whole number from 0 to 18446744073709551615"),
                "{}",
                stderr(&out)
            );
        }
    }
    let max = "18446744073709551615";
    let out = run(&[
        "kb",
        "synth",
        "--triplets",
        "3",
        "--out",
        s(&csv),
        "--seed",
        max,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&[
        "meta-eval",
        "--input",
        s(&tsv),
        "--bootstrap",
        "10",
        "--seed",
        max,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn bertscore_accepts_negative_layers_counted_from_the_end_as_embed_does() {
    let dir = tempfile::tempdir().unwrap();
    let (h, r) = metric_files(
        dir.path(),
        "",
        "the cat sat\nrain fell\n",
        "a cat sat\nit rained\n",
    );
    let m = tiny("bert");
    let n = hauser_nli::Embedder::load(
        &hauser_nli::ModelSource::Dir(m.clone()),
        &hauser_nli::LoadOptions::default(),
    )
    .unwrap()
    .layers();
    let last = (n - 1).to_string();
    let base = [
        "metric",
        "bertscore",
        "--model",
        s(&m),
        "--hyp",
        s(&h),
        "--ref",
        s(&r),
        "--sentence",
    ];
    let run_with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        let out = run(&a);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        out.stdout
    };
    let want = run_with(&["--layer", &last]);
    assert_eq!(run_with(&["--layer", "-1"]), want);
    assert_eq!(run_with(&["--layer=-1"]), want);
    let embed_last = run_stdin(
        &["embed", "--model", s(&m), "--input", "-", "--layer=-1"],
        "a\n",
    );
    let embed_n = run_stdin(
        &["embed", "--model", s(&m), "--input", "-", "--layer", &last],
        "a\n",
    );
    assert!(embed_last.status.success(), "{}", stderr(&embed_last));
    assert_eq!(embed_last.stdout, embed_n.stdout);
    let mut a = base.to_vec();
    let too_far = format!("-{}", n + 1);
    a.extend_from_slice(&["--layer", &too_far]);
    let out = run(&a);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("out of range"), "{}", stderr(&out));
}

#[test]
fn embed_answers_every_line_with_blank_ones_embedded_and_bad_ones_as_errors() {
    let m = tiny("bert");
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "in.txt",
        b"\xEF\xBB\xBFa cat\r\n\r\n\xff\nrain\n",
    );
    let out = run(&["embed", "--model", s(&m), "--input", s(&input)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 4, "one record per input line");
    assert!(recs[0].is_array() && recs[1].is_array() && recs[3].is_array());
    assert_eq!(recs[2]["line"], 3);
    let clean = run_stdin(&["embed", "--model", s(&m), "--input", "-"], "a cat\n");
    assert_eq!(
        json_lines(&clean)[0],
        recs[0],
        "the BOM and CR do not change the embedding"
    );
}

#[test]
fn device_and_precision_options_are_shared() {
    let dir = tempfile::tempdir().unwrap();
    let (h, _) = metric_files(dir.path(), "", "a\n", "a\n");
    for args in [
        vec!["embed", "--model", "x", "--input", s(&h), "--device", "tpu"],
        vec!["score", "--input", s(&h), "--device", "tpu"],
        vec!["metric", "bertscore", "--hyp", s(&h), "--device", "tpu"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("expected cpu, cuda, cuda:N, metal or metal:N"),
            "{}",
            stderr(&out)
        );
    }
    let out = run(&[
        "embed",
        "--model",
        s(&tiny("bert")),
        "--input",
        s(&h),
        "--precision",
        "f16",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("only supported on a GPU"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_killed_run_leaves_no_output_and_the_next_run_removes_its_leftover() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("synth.csv");
    let mut child = hauser()
        .args(["kb", "synth", "--triplets", "20000000", "--out", s(&target)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let temp_exists = || {
        files_in(dir.path())
            .iter()
            .any(|n| n.starts_with(".synth.csv."))
    };
    let start = std::time::Instant::now();
    while !temp_exists() && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(temp_exists(), "the run writes to a temporary file");
    // Let it write some rows, then SIGKILL: no cleanup code can run.
    std::thread::sleep(std::time::Duration::from_millis(200));
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success());
    assert!(
        !target.exists(),
        "a killed run leaves no file at the output path"
    );
    assert!(temp_exists(), "only the hidden temporary file remains");
    let out = run(&["kb", "synth", "--triplets", "3", "--out", s(&target)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&target).unwrap().lines().count(), 4);
    assert!(
        !temp_exists(),
        "the next run removed the leftover of the dead process"
    );
}

#[test]
fn kb_lookup_reads_an_index_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("t.kb");
    let out = run_stdin(
        &[
            "kb",
            "build",
            "--format",
            "triplets",
            "--input",
            "-",
            "--out",
            s(&index),
        ],
        TRIPLETS,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let args = ["kb", "lookup", "--topic", "he", "--vehicle", "wind"];
    let mut from_file = args.to_vec();
    from_file.push(s(&index));
    let want = run(&from_file);
    assert!(want.status.success(), "{}", stderr(&want));
    let mut from_stdin = args.to_vec();
    from_stdin.push("-");
    let got = hauser()
        .args(&from_stdin)
        .stdin(File::open(&index).unwrap())
        .output()
        .unwrap();
    assert_eq!(got.stdout, want.stdout, "{}", stderr(&got));
    let v: serde_json::Value = serde_json::from_slice(&got.stdout).unwrap();
    assert_eq!(v["pair_count"], 3.0);
}
