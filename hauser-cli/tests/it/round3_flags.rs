//! Issue 37's smaller items on flags: negative numbers reach the value parsers (a range error
//! naming the flag, not clap's "unexpected argument"), comet-compare's `--sample_ratio` as
//! unbabel-comet 2.2.7 takes it.

use std::path::Path;

use crate::common::*;

/// Every numeric flag of the drop-ins and of `hauser metric` (and `rerank`, which shares its
/// text flags), given `-1`.
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
];

#[test]
fn negative_numbers_reach_every_numeric_flag_and_get_a_range_error() {
    // Issue 37: `--batch_size -1` and `-l -1` got clap's "unexpected argument '-1'".
    let mut wrong = Vec::new();
    for args in NEGATIVE {
        let out = run(args);
        let err = stderr(&out);
        // A short flag is named by its long name.
        let flag = match args[1] {
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
