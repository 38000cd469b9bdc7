//! Issue 29, items 7 and 12: every data line of narratives and newsmet answers (a blank line
//! with an error record), float flags are checked when the command line is parsed, seeds parse
//! alike everywhere, messages name the files and flags that exist, signatures record the batch
//! size used, and `score` gives the same numbers whatever its chunk and batch sizes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{json_lines, run, run_stdin};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn tiny(name: &str) -> String {
    root()
        .join("hauser-nli/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn narratives_fixture(rel: &str) -> String {
    root()
        .join("figlang-tasks/tests/fixtures/narratives")
        .join(rel)
        .display()
        .to_string()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Groups of one literal and two to six candidates, words drawn by a fixed LCG so that every
/// run reads the same file.
fn many_groups(n: usize) -> String {
    const WORDS: [&str; 16] = [
        "the", "boy", "ran", "quiet", "like", "wind", "deer", "snow", "cold", "bright", "sea",
        "fire", "stone", "bird", "night", "moon",
    ];
    let mut state: u64 = 7;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % m
    };
    let sentence = |next: &mut dyn FnMut(u64) -> u64| {
        let len = 3 + next(10);
        let words: Vec<&str> = (0..len).map(|_| WORDS[next(16) as usize]).collect();
        format!("{}.", words.join(" "))
    };
    let mut text = String::new();
    for _ in 0..n {
        let literal = sentence(&mut next);
        let k = 2 + next(5);
        let cands: Vec<String> = (0..k).map(|_| sentence(&mut next)).collect();
        text.push_str(&serde_json::json!({"literal": literal, "candidates": cands}).to_string());
        text.push('\n');
    }
    text
}

#[test]
fn score_output_is_the_same_whatever_the_chunk_and_batch_sizes() {
    // Issue 29: NLI raw scores moved by ~3e-8 with the batch composition and the per-literal
    // normalisation magnified it (up to 0.016 here with --chunk 1 against 256).
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, many_groups(120)).unwrap();
    let nli = tiny("bert");
    let score = |extra: &[&str]| {
        let mut args = vec![
            "score",
            "--input",
            input.to_str().unwrap(),
            "--nli",
            &nli,
            "--no-extract",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        out.stdout
    };
    let reference = score(&[]);
    let recs: Vec<Value> = String::from_utf8(reference.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(recs.len() > 400);
    assert!(recs[0]["logical_consistency_raw"].is_f64());
    for extra in [
        &["--chunk", "1"][..],
        &["--chunk", "7"],
        &["--chunk", "1000"],
        &["--nli-batch-size", "1"],
        &["--nli-batch-size", "5"],
        &["--chunk", "3", "--nli-batch-size", "100"],
    ] {
        assert!(score(extra) == reference, "{extra:?} changed the output");
    }
}

#[test]
fn score_names_the_group_of_an_error_by_its_own_position() {
    // Issue 29: the fourth line's empty group was reported as "group 0: no candidates".
    let input = "{\"literal\": \"a\", \"candidates\": [\"b\"]}\n\n\
                 {\"literal\": \"a\", \"candidates\": [\"c\"]}\n\
                 {\"literal\": \"a\", \"candidates\": []}\n";
    let out = run_stdin(&["score", "--input", "-", "--no-extract"], input);
    assert_eq!(out.status.code(), Some(1));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 4);
    assert_eq!(recs[3]["group"], 3);
    assert_eq!(recs[3]["error"], "group 3: no candidates");
}

#[test]
fn score_weight_errors_name_their_flag() {
    for (flag, value) in [("--weights", "nan,1,1"), ("--rerank", "inf:1:1")] {
        let out = run_stdin(&["score", "--input", "-", flag, value], "");
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(flag), "{flag}: {}", stderr(&out));
    }
}

#[test]
fn narratives_score_answers_a_blank_data_line_with_an_error_record() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(narratives_fixture("data.jsonl")).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(1, "");
    lines.insert(3, "   ");
    let data = dir.path().join("d.jsonl");
    std::fs::write(&data, format!("{}\n", lines.join("\n"))).unwrap();
    let out = run(&[
        "narratives",
        "score",
        "--data",
        data.to_str().unwrap(),
        "--model",
        &tiny("gpt2"),
        "--batch-size",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), lines.len());
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r["line"], i + 1);
    }
    for i in [1, 3] {
        let e = recs[i]["error"].as_str().unwrap();
        assert!(
            e.ends_with(&format!("d.jsonl:{}: blank line (no record)", i + 1)),
            "{e}"
        );
    }
    assert!(recs[0]["prediction"].is_string() && recs[2]["prediction"].is_string());
    // The labels of --labels are one per non-blank line.
    let labels = dir.path().join("l.txt");
    std::fs::write(&labels, "1\n2\n1\n").unwrap();
    let out = run(&[
        "narratives",
        "score",
        "--data",
        data.to_str().unwrap(),
        "--model",
        &tiny("gpt2"),
        "--labels",
        labels.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("l.txt") && e.contains("d.jsonl") && e.contains("3 labels for 7 data records"),
        "{e}"
    );
}

/// `narratives generate` writes one line per narrative, not per data line: its summary names
/// the blank data lines instead of skipping them without a word.
#[test]
fn narratives_generate_names_blank_data_lines_in_its_summary() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(narratives_fixture("data.jsonl")).unwrap();
    let mut lines: Vec<&str> = good.lines().take(2).collect();
    lines.insert(1, "");
    let data = dir.path().join("d.jsonl");
    std::fs::write(&data, format!("{}\n", lines.join("\n"))).unwrap();
    let out = run(&[
        "narratives",
        "generate",
        "--data",
        data.to_str().unwrap(),
        "--model",
        &tiny("gpt2"),
        "--greedy",
        "--max-new-tokens",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: Value = serde_json::from_str(stderr(&out).trim().lines().last().unwrap()).unwrap();
    assert_eq!(summary["blank_lines"], serde_json::json!([2]));
    assert_eq!(summary["rows"], 2);
}

#[test]
fn newsmet_metaphoricity_answers_a_blank_line_with_an_error_record() {
    let vectors = root().join("figlang-metrics/tests/fixtures/wmd/vectors.txt");
    let line = "{\"subject\": \"Cat\", \"object\": \"mat\", \"candidates\": [\"sat\"]}";
    let out = run_stdin(
        &[
            "newsmet",
            "metaphoricity",
            "-i",
            "-",
            "--vectors",
            vectors.to_str().unwrap(),
        ],
        &format!("{line}\n\n{line}\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[1]["line"], 2);
    assert_eq!(recs[1]["error"], "-:2: blank line (no record)");
    assert_eq!(recs[2]["line"], 3);
}

#[test]
fn float_flags_are_checked_when_the_command_line_is_parsed() {
    // Issue 29: --temperature 1e-40 gave empty generations with exit 0. The files do not
    // exist: the flag is refused before anything is read.
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "narratives",
                "generate",
                "--data",
                "nope",
                "--model",
                "nope",
                "--temperature",
                "1e-40",
            ],
            "--temperature",
        ),
        (
            &[
                "narratives",
                "generate",
                "--data",
                "nope",
                "--model",
                "nope",
                "--temperature",
                "nan",
            ],
            "--temperature",
        ),
        (
            &[
                "narratives",
                "generate",
                "--data",
                "nope",
                "--model",
                "nope",
                "--top-k",
                "0",
            ],
            "--top-k",
        ),
        (
            &[
                "narratives",
                "accuracy",
                "--pred",
                "nope",
                "--data",
                "nope",
                "--confidence",
                "1.5",
            ],
            "--confidence",
        ),
        (
            &[
                "narratives",
                "accuracy",
                "--pred",
                "nope",
                "--data",
                "nope",
                "--confidence",
                "-0.5",
            ],
            "--confidence",
        ),
        (
            &["newsmet", "diversity", "-i", "nope", "--threshold", "nan"],
            "--threshold",
        ),
        (
            &[
                "metric",
                "bleu",
                "--hyp",
                "nope",
                "--ref",
                "nope",
                "--smooth-value",
                "inf",
            ],
            "--smooth-value",
        ),
        (
            &[
                "metric",
                "chrf",
                "--hyp",
                "nope",
                "--ref",
                "nope",
                "--chrf-beta",
                "-1",
            ],
            "--chrf-beta",
        ),
    ];
    for (args, flag) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let e = stderr(&out);
        assert!(e.contains(flag) && !e.contains("nope"), "{args:?}: {e}");
    }
}

#[test]
fn seeds_are_refused_alike_by_every_command() {
    // Issue 29: `--seed -1` was an unknown argument to narratives accuracy|generate.
    let commands: &[&[&str]] = &[
        &["narratives", "accuracy", "--pred", "nope", "--data", "nope"],
        &[
            "narratives",
            "generate",
            "--data",
            "nope",
            "--model",
            "nope",
        ],
        &["meta-eval", "--input", "nope"],
        &["kb", "synth", "--triplets", "3", "--out", "nope"],
    ];
    for args in commands {
        let mut args = args.to_vec();
        args.extend(["--seed", "-1"]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = stderr(&out);
        assert!(
            e.contains("--seed")
                && e.contains("expected a whole number from 0 to 18446744073709551615"),
            "{args:?}: {e}"
        );
    }
}

#[test]
fn count_mismatches_and_bad_labels_name_the_files_and_print_values_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| -> PathBuf {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let data = write("d.csv", "Text,label\nA,1\nB,0\nC,1\n");
    let pred = write("p.txt", "1\n0\n1\n");
    let short = write("short.txt", "1\n0\n");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let (p, sh) = (s(&pred), s(&short));
    for args in [
        vec!["--pred", &sh],
        vec!["--pred", &p, "--pred2", &sh],
        vec!["--pred", &p, "--pred2", &p, "--pred-more", &sh],
    ] {
        let mut all = vec!["newsmet", "eval", "--data", data.to_str().unwrap()];
        all.extend(args.iter().copied());
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2));
        let e = stderr(&out);
        assert!(
            e.contains("short.txt: 2 predictions for 3 data rows of") && e.contains("d.csv"),
            "{e}"
        );
    }
    // Issue 29: `label Some("abc")`.
    let bad = write("bad.csv", "Text,label\nA,abc\n");
    let out = run(&[
        "newsmet",
        "eval",
        "--data",
        bad.to_str().unwrap(),
        "--pred",
        &s(&pred),
    ]);
    let e = stderr(&out);
    assert!(e.contains("bad.csv:2: label \"abc\" is not 0 or 1"), "{e}");
    assert!(!e.contains("Some("), "{e}");
    // narratives accuracy and compare name the prediction file and where the gold came from.
    let preds = write("np.jsonl", "{\"prediction\": 1}\n");
    let data = narratives_fixture("data.jsonl");
    for sub in ["accuracy", "compare"] {
        let mut args = vec!["narratives", sub, "--pred", preds.to_str().unwrap()];
        if sub == "compare" {
            args.push(preds.to_str().unwrap());
        }
        args.extend(["--data", &data]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        let e = stderr(&out);
        assert!(
            e.contains("np.jsonl: 1 predictions for 7 gold labels of --data")
                && e.contains("data.jsonl"),
            "{sub}: {e}"
        );
    }
}

#[test]
fn bertscore_layer_errors_name_the_commands_own_flag() {
    // Issue 29: eval-gen suggested `--layer`, which it does not have.
    let out = run(&[
        "narratives",
        "eval-gen",
        "--pred",
        &narratives_fixture("pred.jsonl"),
        "--data",
        &narratives_fixture("data.jsonl"),
        "--bertscore-model",
        &tiny("bert"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(e.contains("--bertscore-layer"), "{e}");
    assert!(!e.contains("(--layer)") && !e.contains(" --layer"), "{e}");
}

#[test]
fn bertscore_signature_records_the_batch_size_used() {
    // Issue 29: the signature said batch:64 whatever --batch-size was.
    let dir = tempfile::tempdir().unwrap();
    let hyp = dir.path().join("h.txt");
    let reference = dir.path().join("r.txt");
    std::fs::write(&hyp, "a cat sat\nthe dog ran\n").unwrap();
    std::fs::write(&reference, "a cat sat down\nthe dog runs\n").unwrap();
    let model = tiny("bert");
    for (batch, want) in [(None, "|batch:64|"), (Some("3"), "|batch:3|")] {
        let mut args = vec![
            "metric",
            "bertscore",
            "--model",
            &model,
            "--layer",
            "2",
            "--hyp",
            hyp.to_str().unwrap(),
            "--ref",
            reference.to_str().unwrap(),
        ];
        if let Some(b) = batch {
            args.extend(["--batch-size", b]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let sig = v["signature"].as_str().unwrap();
        assert!(sig.contains(want), "{sig}");
    }
}
