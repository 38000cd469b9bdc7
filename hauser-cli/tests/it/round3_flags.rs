//! Issue 37's smaller items on flags: negative numbers reach the value parsers (a range error
//! naming the flag, not clap's "unexpected argument"), comet-compare's `--sample_ratio` as
//! unbabel-comet 2.2.7 takes it.

use std::path::Path;

use crate::common::*;

/// Every numeric flag of every subcommand, given `-1`: the drop-ins, `hauser metric` (and
/// `rerank`, which shares its text flags) and the others. The layer flags (`--layer`,
/// `--bertscore-layer`) take negative numbers (counted from the end), and comet-compare's
/// `--sample_ratio` any finite number: not here.
const NEGATIVE: &[&[&str]] = &[
    &["bert-score", "-l", "-1"],
    &["bert-score", "--num_layers", "-1"],
    &["bert-score", "-b", "-1"],
    &["bert-score", "--batch_size", "-1"],
    &["bert-score", "--nthreads", "-1"],
    &["comet-score", "--batch_size", "-1"],
    &["comet-score", "--gpus", "-1"],
    &["comet-score", "--num_workers", "-1"],
    &["comet-compare", "--batch_size", "-1"],
    &["comet-compare", "--num_splits", "-1"],
    &["comet-compare", "--gpus", "-1"],
    &["comet-compare", "--num_workers", "-1"],
    &["metric", "--max-ngram-order", "-1"],
    &["metric", "--chrf-char-order", "-1"],
    &["metric", "--chrf-word-order", "-1"],
    &["metric", "--confidence-n", "-1"],
    &["metric", "--paired-bs-n", "-1"],
    &["metric", "--paired-ar-n", "-1"],
    &["metric", "--num-splits", "-1"],
    &["metric", "--sample-ratio", "-1"],
    &["rerank", "--max-ngram-order", "-1"],
    &["rerank", "--chrf-char-order", "-1"],
    // The other subcommands (issue 37's second list: these got "unexpected argument").
    &["kb", "lookup", "--top", "-1"],
    &["kb", "synth", "--triplets", "-1"],
    &["meta-eval", "--bootstrap", "-1"],
    &["narratives", "accuracy", "--n-bootstrap", "-1"],
    &["narratives", "generate", "--max-new-tokens", "-1"],
    &["narratives", "generate", "--no-repeat-ngram-size", "-1"],
    &["narratives", "score", "--max-length", "-1"],
    &["newsmet", "metaphoricity", "--vocab-limit", "-1"],
    &["newsmet", "candidates", "--metaphorical-class", "-1"],
    &["newsmet", "candidates", "--keep", "-1"],
    &["newsmet", "candidates", "--top-k", "-1"],
    &["metric", "--vocab-limit", "-1"],
    &["metric", "--max-input-length", "-1"],
    &["metric", "--metricx-version", "-1"],
    &["rerank", "--max-input-length", "-1"],
    &["rerank", "--metricx-version", "-1"],
    &["formality", "reproduce", "--bertscore-batch-size", "-1"],
    // score's weights are comma or colon lists (`allow_hyphen_values`, one value).
    &["score", "--weights", "-1"],
    &["score", "--rerank", "-1"],
    // Every other numeric flag (these already reached their parsers; kept so that none
    // regresses).
    &["score", "--chunk", "-1"],
    &["score", "--nli-batch-size", "-1"],
    &["embed", "--batch-size", "-1"],
    &["kb", "synth", "--seed", "-1"],
    &["meta-eval", "--seed", "-1"],
    &["metric", "--smooth-value", "-1"],
    &["metric", "--chrf-beta", "-1"],
    &["metric", "--batch-size", "-1"],
    &["rerank", "--smooth-value", "-1"],
    &["rerank", "--chrf-word-order", "-1"],
    &["rerank", "--chrf-beta", "-1"],
    &["rerank", "--batch-size", "-1"],
    &["narratives", "score", "--batch-size", "-1"],
    &["narratives", "choose", "--batch-size", "-1"],
    &["narratives", "accuracy", "--seed", "-1"],
    &["narratives", "accuracy", "--confidence", "-1"],
    &["narratives", "generate", "--top-k", "-1"],
    &["narratives", "generate", "--temperature", "-1"],
    &["narratives", "generate", "--seed", "-1"],
    &["narratives", "generate", "--batch-size", "-1"],
    &["narratives", "eval-gen", "--batch-size", "-1"],
    &["newsmet", "diversity", "--threshold", "-1"],
    &["newsmet", "candidates", "--batch-size", "-1"],
    &["classify", "--batch-size", "-1"],
];

#[test]
fn negative_numbers_reach_every_numeric_flag_and_get_a_range_error() {
    // Issue 37: `--batch_size -1` and `-l -1` got clap's "unexpected argument '-1'".
    let mut wrong = Vec::new();
    for args in NEGATIVE {
        let out = run(args);
        let err = stderr(&out);
        // A short flag is named by its long name.
        let flag = match args[args.len() - 2] {
            "-l" => "--num_layers",
            "-b" => "--batch_size",
            f => f,
        };
        let named = err.contains(&format!("{flag} ")) || err.contains(&format!("{flag}>"));
        let ok = out.status.code() == Some(2)
            && !err.contains("unexpected argument")
            && err.contains("invalid value '-1'")
            && named;
        if !ok {
            wrong.push(format!("{}: {err}", args.join(" ")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn weight_lists_starting_with_a_minus_sign_reach_their_parsers() {
    // Issue 37: `--weights -0.5,1` got clap's "unexpected argument" (a comma list is not a
    // number for `allow_negative_numbers`).
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let hyp = w("hyp.txt", "the cat sat on a mat\n");
    let reference = w("ref.txt", "the cat sat on the mat\n");
    // NLTK's sentence_bleu computes with negative weights: the list is taken, the same as
    // `--weights=-0.5,1`, and the flags after it are still flags.
    let sentbleu = |args: &[&str]| {
        let mut all = vec!["metric", "sentbleu"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let joined = sentbleu(&["--hyp", &hyp, "--ref", &reference, "--weights=-0.5,1"]);
    assert!(joined.contains("weights:-0.5,1"), "{joined}");
    assert_eq!(
        sentbleu(&["--hyp", &hyp, "--ref", &reference, "--weights", "-0.5,1"]),
        joined
    );
    assert_eq!(
        sentbleu(&["--weights", "-0.5,1", "--hyp", &hyp, "--ref", &reference]),
        joined
    );
    // A weight that is not finite is refused by the flag's parser, naming it.
    for args in [
        &["metric", "sentbleu", "--weights", "-inf,1", "--hyp", &hyp][..],
        &["rerank", "--weights", "-nan,1", "--metric", "sentbleu"][..],
    ] {
        let out = run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("for '--weights <WEIGHTS>'"), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
    // score's quality weights and reranker weights: negative weights are out of range, refused
    // when the command line is parsed with the parser's message; the next flag is a flag.
    for (flag, value, message) in [
        ("--weights", "-0.5,1,1", "non-negative"),
        ("--rerank", "-1:2:1", "non-negative"),
        ("--weights", "-1", "three comma-separated weights"),
    ] {
        let out = run_stdin(&["score", flag, value, "--input", "-", "--no-extract"], "");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(
            err.contains(&format!("invalid value '{value}' for '{flag} ")),
            "{flag} {value}: {err}"
        );
        assert!(err.contains(message), "{flag} {value}: {err}");
    }
    // A flag given no value is still refused naming it (its value would be the next flag).
    let out = run_stdin(&["score", "--input", "-", "--weights", "--no-extract"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--weights"), "{}", stderr(&out));
    // Valid lists are taken as before.
    let out = run_stdin(
        &[
            "score",
            "--weights",
            "1,1,1",
            "--rerank",
            "1:1:1",
            "--input",
            "-",
            "--no-extract",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

fn comet_dir() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures/comet")
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn comet_compare_takes_a_sample_ratio_of_zero_or_below_as_comet_does() {
    // Issue 37: `--sample_ratio 0` was refused. unbabel-comet 2.2.7 draws
    // `max(int(n * sample_ratio), 1)` segments per partition: 0 and negative ratios draw one,
    // as a ratio too small for one segment does; NaN and infinities crash it (refused here).
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/drop-in-comet");
    let dir = case_dir(&fixtures, &["src.txt", "ref.txt", "sys1.txt", "sys2.txt"]);
    let model = format!("{}/regression/checkpoints/model.ckpt", comet_dir());
    let compare = |ratio: &str| {
        let out = hauser()
            .current_dir(dir.path())
            .args([
                "comet-compare",
                "-s",
                "src.txt",
                "-t",
                "sys1.txt",
                "sys2.txt",
                "-r",
                "ref.txt",
                "--model",
                &model,
                "--gpus",
                "0",
                "--num_splits",
                "40",
                &format!("--sample_ratio={ratio}"),
            ])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            stderr_of(&out.stderr),
        )
    };
    let one = compare("1e-9");
    assert_eq!(one.0, Some(0), "{}", one.2);
    for ratio in ["0", "0.0", "-0.5", "-3"] {
        let got = compare(ratio);
        assert_eq!(got.0, Some(0), "{ratio}: {}", got.2);
        assert_eq!(got.1, one.1, "{ratio}");
    }
    for ratio in ["nan", "inf", "-inf"] {
        let got = compare(ratio);
        assert_eq!(got.0, Some(2), "{ratio}");
        assert!(got.2.contains("--sample_ratio"), "{ratio}: {}", got.2);
    }
}

fn stderr_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn sacrebleu_keeps_the_bytes_of_a_utf8_bom_under_latin1() {
    // Issue 37: `-e latin-1` dropped the bytes EF BB BF at the start of a file, which in
    // latin-1 are three characters (`ï»¿`), as sacreBLEU reads them.
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    };
    let bom_ref = w("ref.txt", b"\xEF\xBB\xBFthe cat sat on the mat\n");
    // The same text as latin-1 decodes it, written in UTF-8.
    let utf8_ref = w("ref8.txt", "ï»¿the cat sat on the mat\n".as_bytes());
    let hyp = w("hyp.txt", b"the cat sat on the mat\n");
    let score = |args: &[&str]| {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let latin1 = score(&["sacrebleu", &bom_ref, "-i", &hyp, "-e", "latin-1", "-b"]);
    let as_text = score(&["sacrebleu", &utf8_ref, "-i", &hyp, "-b"]);
    assert_eq!(latin1, as_text);
    assert_ne!(latin1.trim(), "100.0", "the BOM bytes were dropped");
    // Under UTF-8 (the default) a BOM is still dropped.
    let utf8 = score(&["sacrebleu", &bom_ref, "-i", &hyp, "-b"]);
    assert_eq!(utf8.trim(), "100.0");
    // A gzipped file: the same.
    let gz = dir.path().join("ref.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, b"\xEF\xBB\xBFthe cat sat on the mat\n").unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let gz = gz.display().to_string();
    assert_eq!(
        score(&["sacrebleu", &gz, "-i", &hyp, "-e", "latin-1", "-b"]),
        as_text
    );
}

#[test]
fn sentence_ter_is_sacrebleus_divided_by_100_and_exceeds_1() {
    // Issue 37: the docs said `--sentence` prints 0-1 scores, but TER is an edit rate with no
    // upper bound: 11 edits against a reference of 2 words are 550 for sacreBLEU, 5.5 here.
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let reference = w("ref.txt", "a cat\n");
    let hyp = w(
        "hyp.txt",
        "the big black dog ran over the hill and far away\n",
    );
    let out = run(&[
        "metric",
        "ter",
        "--sentence",
        "--hyp",
        &hyp,
        "--ref",
        &reference,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let score: f64 = String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(score > 1.0, "{score}");
    assert!((score - 5.5).abs() < 1e-12, "{score}");
    let out = run(&["metric", "ter", "--hyp", &hyp, "--ref", &reference]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("\"score\":550.0"));
    // The docs and the help no longer promise 0-1 without saying TER has no upper bound.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for doc in ["README.md", "docs/DESIGN.md", "docs/NEURAL-METRICS.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(
            !text.contains("prints one 0-1 score")
                && !text.contains("sentence scores (always 0-1)"),
            "{doc}"
        );
        assert!(text.contains("TER"), "{doc}");
    }
    let help = String::from_utf8(run(&["metric", "--help"]).stdout).unwrap();
    assert!(
        help.contains("TER, an edit rate, has no upper bound"),
        "{help}"
    );
}
