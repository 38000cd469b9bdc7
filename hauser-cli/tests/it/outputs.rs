//! Outputs and the files of a run, command by command (issue 29, second reliability round):
//! devices, FIFOs and standard streams are written directly and never replaced; symbolic
//! links stay links; an output that is any input of the run (labels, a file of a model
//! directory, a table in the plot directory...) and an output that cannot be written are
//! refused before a model is loaded; plots are replaced only when the whole run succeeded;
//! two standard-input inputs are refused by every command.

use std::path::{Path, PathBuf};

use crate::common::*;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

fn narratives_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../figlang-tasks/tests/fixtures/narratives/data.jsonl")
}

/// A copy of a tiny model in `dir`, so that a run that wrongly writes into it destroys nothing
/// of the repository.
fn model_copy(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name.replace('/', "-"));
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(tiny(name)).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    to
}

const LINES: &str = "He ran like the wind.\nShe is as brave as a lion.\n";

/// The commands that load a model before writing `output`, with `model` as their model.
fn model_writers<'a>(
    data: &'a str,
    text: &'a str,
    model: &'a str,
    output: &'a str,
) -> Vec<Vec<&'a str>> {
    vec![
        vec![
            "narratives",
            "score",
            "--data",
            data,
            "--model",
            model,
            "-o",
            output,
        ],
        vec![
            "narratives",
            "choose",
            "--data",
            data,
            "--model",
            model,
            "-o",
            output,
        ],
        vec![
            "narratives",
            "generate",
            "--data",
            data,
            "--model",
            model,
            "-o",
            output,
        ],
        vec!["classify", "--model", model, "--input", text, "-o", output],
        vec!["embed", "--model", model, "--input", text, "-o", output],
        vec!["score", "--input", text, "--nli", model, "-o", output],
    ]
}

#[test]
fn an_unwritable_output_is_refused_before_the_model_is_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let text = write(dir.path(), "in.txt", LINES);
    let data = narratives_data();
    // The model does not exist: had it been loaded first, the error would name it.
    let model = dir.path().join("no-such-model");
    let missing = dir.path().join("missing/out.jsonl");
    let is_dir = dir.path().to_path_buf();
    for (output, says) in [(&missing, "does not exist"), (&is_dir, "is a directory")] {
        for args in model_writers(s(&data), s(&text), s(&model), s(output)) {
            let out = run(&args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(says) && err.contains("--output"),
                "{args:?}: {err}"
            );
            assert!(
                !err.contains("no-such-model"),
                "{args:?} loaded the model first: {err}"
            );
        }
    }
    assert!(!dir.path().join("missing").exists());
}

#[test]
fn an_output_that_is_a_file_of_the_model_is_refused_and_the_model_kept() {
    let dir = tempfile::tempdir().unwrap();
    let text = write(dir.path(), "in.txt", LINES);
    let data = narratives_data();
    // Refused before loading, whatever the model's kind; `narratives score|generate` used to
    // run it and overwrite its config.
    let model = model_copy(dir.path(), "gpt2");
    let config = model.join("config.json");
    let before = std::fs::read(&config).unwrap();
    for args in model_writers(s(&data), s(&text), s(&model), s(&config)) {
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("same file") && err.contains("a file of --"),
            "{args:?}: {err}"
        );
        assert_eq!(
            std::fs::read(&config).unwrap(),
            before,
            "{args:?} overwrote the model"
        );
    }
}

#[test]
fn an_output_that_is_the_labels_file_is_refused_and_the_labels_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = narratives_data();
    let labels = write(dir.path(), "labels.txt", &"option1\n".repeat(7));
    let model = model_copy(dir.path(), "gpt2");
    let out = run(&[
        "narratives",
        "score",
        "--data",
        s(&data),
        "--model",
        s(&model),
        "--labels",
        s(&labels),
        "-o",
        s(&labels),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--labels"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&labels).unwrap(),
        "option1\n".repeat(7)
    );
}

#[test]
fn standard_output_redirected_to_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", LINES);
    let out = hauser()
        .args(["extract", "--input", s(&input)])
        .stdout(
            std::fs::OpenOptions::new()
                .append(true)
                .open(&input)
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("standard output"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), LINES);
}

fn meta_tsv(dir: &Path, name: &str) -> PathBuf {
    let mut text = String::from("system\tsegment\thuman\tmetric\n");
    for (i, sys) in ["a", "b", "c", "d"].iter().enumerate() {
        for seg in 0..5 {
            text.push_str(&format!("{sys}\t{seg}\t{}\t{}\n", i + seg, (i * seg) % 7));
        }
    }
    write(dir, name, &text)
}

#[test]
fn a_meta_eval_input_in_the_plot_directory_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let input = meta_tsv(dir.path(), "system.svg");
    let before = std::fs::read(&input).unwrap();
    let out = run(&["meta-eval", "--input", s(&input), "--plot", s(dir.path())]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("same file"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    assert_eq!(files_in(dir.path()), ["system.svg"]);
}

#[test]
fn plot_given_a_file_says_it_needs_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let input = meta_tsv(dir.path(), "in.tsv");
    let file = write(dir.path(), "plots", "not a directory");
    let out = run(&["meta-eval", "--input", s(&input), "--plot", s(&file)]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--plot") && err.contains("not a directory"),
        "{err}"
    );
    assert!(!err.contains("File exists"), "{err}");
}

#[test]
fn plots_are_replaced_only_when_the_whole_run_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let input = meta_tsv(dir.path(), "in.tsv");
    let plots = dir.path().join("plots");
    std::fs::create_dir(&plots).unwrap();
    for name in ["system.svg", "system.png", "segment.svg", "segment.png"] {
        write(&plots, name, "earlier plot");
    }
    // Refused in the bootstrap, after the correlations (and, before, after the plots).
    let out = run(&[
        "meta-eval",
        "--input",
        s(&input),
        "--plot",
        s(&plots),
        "--bootstrap",
        "1000000000000",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    for name in ["system.svg", "system.png", "segment.svg", "segment.png"] {
        assert_eq!(
            std::fs::read_to_string(plots.join(name)).unwrap(),
            "earlier plot",
            "{name}"
        );
    }
    assert_eq!(files_in(&plots).len(), 4, "no temporary file left");
    let out = run(&[
        "meta-eval",
        "--input",
        s(&input),
        "--plot",
        s(&plots),
        "--bootstrap",
        "20",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(plots.join("system.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));
    assert_eq!(files_in(&plots).len(), 4);
}

#[test]
fn meta_eval_plots_values_near_the_largest_float_and_ends() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = write(
        dir.path(),
        "big.tsv",
        "system\tsegment\thuman\tmetric\na\t1\t1\t1e308\na\t2\t2\t-1e308\nb\t1\t3\t1e308\nb\t2\t1\t5\nc\t1\t2\t3\nc\t2\t3\t-1.7976931348623157e308\n",
    );
    let plots = dir.path().join("plots");
    let out = run(&["meta-eval", "--input", s(&tsv), "--plot", s(&plots)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(files_in(&plots).len(), 4);
}

/// `-o` into a FIFO: the reader gets the records, the FIFO stays a FIFO.
#[cfg(unix)]
#[test]
fn a_fifo_output_is_written_into_not_replaced() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", LINES);
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    });
    let out = run(&["extract", "--input", s(&input), "-o", s(&fifo)]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Checked before joining: had the FIFO been replaced, the reader would wait forever.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by {kind:?}");
    let text = reader.join().unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert_eq!(files_in(dir.path()), ["fifo", "in.txt"]);
    // An index is written with seeks and read back: a FIFO is refused, and kept.
    let out = run(&[
        "kb",
        "build",
        "--format",
        "similes",
        "--input",
        s(&input),
        "--out",
        s(&fifo),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// `-o /dev/fd/1` (and `/dev/stdout`, `/proc/self/fd/1`) into a pipe: the records reach it.
#[cfg(target_os = "linux")]
#[test]
fn standard_output_named_by_a_path_is_written_into_the_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", LINES);
    for path in ["/dev/fd/1", "/proc/self/fd/1"] {
        let out = run(&["extract", "--input", s(&input), "-o", path]);
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        assert_eq!(json_lines(&out).len(), 2, "{path}");
    }
}

#[cfg(unix)]
#[test]
fn a_dangling_symbolic_link_stays_a_link_and_its_target_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", LINES);
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink("target.jsonl", &link).unwrap();
    let out = run(&["extract", "--input", s(&input), "-o", s(&link)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(dir.path().join("target.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 2);
}

#[test]
fn vectors_and_directories_cannot_be_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.jsonl", "{}\n");
    for (args, flag) in [
        (
            vec![
                "metric",
                "wmd",
                "--hyp",
                s(&input),
                "--ref",
                s(&input),
                "--vectors",
                "-",
            ],
            "--vectors",
        ),
        (
            vec![
                "newsmet",
                "metaphoricity",
                "--input",
                s(&input),
                "--vectors",
                "-",
            ],
            "--vectors",
        ),
        (
            vec![
                "newsmet",
                "diversity",
                "--input",
                s(&input),
                "--wordnet",
                "-",
            ],
            "--wordnet",
        ),
        (vec!["formality", "reproduce", "--data", "-"], "--data"),
        (
            vec!["embed", "--model", "-", "--input", s(&input)],
            "--model",
        ),
    ] {
        let out = run_stdin(&args, "");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(flag) && err.contains("standard input"),
            "{args:?}: {err}"
        );
    }
}

/// A subcommand, and its arguments with two `-` inputs and the flags the refusal names.
type StdinCase = (&'static str, Option<(Vec<&'static str>, &'static str)>);

/// A tiny COMET checkpoint directory (hauser-nli's fixtures).
const COMET_MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../hauser-nli/tests/fixtures/comet/regression"
);

/// Every subcommand, with the two of its input flags that can both be `-` (or why it has no
/// two): all refuse two standard-input inputs before reading either, naming both flags.
fn two_stdin_runs() -> Vec<StdinCase> {
    let no_model = "/no/such/model";
    vec![
        (
            "score",
            Some((
                vec!["score", "--input", "-", "--kb", "-"],
                "--input and --kb",
            )),
        ),
        ("embed", None),   // one input
        ("extract", None), // one input
        ("kb build", None),
        ("kb lookup", None),
        ("kb stats", None),
        ("kb synth", None),
        ("meta-eval", None),
        ("corr", None),
        (
            "metric",
            Some((
                vec!["metric", "bleu", "--hyp", "-", "--ref", "-"],
                "--hyp and --ref",
            )),
        ),
        ("formality reproduce", None), // one stream input: --bertscore-baseline
        (
            "narratives score",
            Some((
                vec![
                    "narratives",
                    "score",
                    "--data",
                    "-",
                    "--labels",
                    "-",
                    "--model",
                    no_model,
                ],
                "--data and --labels",
            )),
        ),
        (
            "narratives choose",
            Some((
                vec![
                    "narratives",
                    "choose",
                    "--data",
                    "-",
                    "--labels",
                    "-",
                    "--model",
                    no_model,
                ],
                "--data and --labels",
            )),
        ),
        (
            "narratives accuracy",
            Some((
                vec!["narratives", "accuracy", "--pred", "-", "--data", "-"],
                "--pred and --data",
            )),
        ),
        (
            "narratives compare",
            Some((
                vec!["narratives", "compare", "--pred", "-", "x", "--labels", "-"],
                "--pred and --labels",
            )),
        ),
        ("narratives generate", None),
        (
            "narratives eval-gen",
            Some((
                vec!["narratives", "eval-gen", "--pred", "-", "--data", "-"],
                "--pred and --data",
            )),
        ),
        (
            "newsmet eval",
            Some((
                vec!["newsmet", "eval", "--pred", "-", "--data", "-"],
                "--pred and --data",
            )),
        ),
        (
            "newsmet families",
            Some((
                vec!["newsmet", "families", "--data", "-", "-"],
                "--data and --data",
            )),
        ),
        ("newsmet diversity", None),     // --wordnet is a directory
        ("newsmet metaphoricity", None), // --vectors must be a file
        ("newsmet candidates", None),    // --wordnet is a directory
        ("classify", None),
        ("rerank", None), // one input, --input
        (
            "comet-score",
            Some((
                vec!["comet-score", "-s", "-", "-t", "-", "--model", COMET_MODEL],
                "-s and -t",
            )),
        ),
        (
            "comet-compare",
            Some((
                vec![
                    "comet-compare",
                    "-s",
                    "-",
                    "-t",
                    "a",
                    "-",
                    "--model",
                    COMET_MODEL,
                ],
                "-s and -t",
            )),
        ),
        ("bert-score", None), // -r and -c name files or are texts, as in bert_score ("-" is a text)
        (
            "sacrebleu",
            Some((vec!["sacrebleu", "-", "-i", "-"], "a reference and -i")),
        ),
    ]
}

/// The subcommands `hauser [GROUP] --help` lists.
fn subcommands(group: &[&str]) -> Vec<String> {
    let mut args = group.to_vec();
    args.push("--help");
    let help = String::from_utf8(run(&args).stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(|c| {
            let mut full = group.to_vec();
            full.push(c);
            full.join(" ")
        })
        .collect()
}

#[test]
fn every_command_refuses_two_standard_input_inputs_naming_them() {
    let runs = two_stdin_runs();
    let mut listed = Vec::new();
    for top in subcommands(&[]) {
        let nested = subcommands(&[top.as_str()]);
        if nested.is_empty() {
            listed.push(top);
        } else {
            listed.extend(nested);
        }
    }
    let known: Vec<String> = runs.iter().map(|(c, _)| c.to_string()).collect();
    for command in &listed {
        assert!(
            known.contains(command),
            "{command} is missing from two_stdin_runs"
        );
    }
    for (command, case) in runs {
        let Some((args, flags)) = case else { continue };
        let out = run_stdin(&args, "a\nb\nc\n");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("only one input may be standard input") && err.contains(flags),
            "{command}: {err}"
        );
    }
}
