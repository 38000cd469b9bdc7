//! Issue 29, item 3: every metric of `hauser metric` honours `--format` or refuses it, and the
//! significance options (`--confidence`, `--paired-bs`, `--paired-ar`, `--system` and the `-n`
//! variants) are honoured by the text metrics and (issue 28, item 4) the neural metrics, and
//! refused, exit 2 naming the option, by WMD (before anything is read). JSON outputs are valid JSON: a non-finite
//! value is `null`. Also `-lc`, which is BLEU's only, as in sacreBLEU's command line.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn tiny(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn wmd_vectors() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../figlang-metrics/tests/fixtures/wmd/vectors.txt")
        .display()
        .to_string()
}

fn write(dir: &Path, name: &str, lines: &[&str]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p.display().to_string()
}

struct Files {
    _dir: tempfile::TempDir,
    hyp: String,
    reference: String,
    src: String,
    system: String,
}

fn files() -> Files {
    let dir = tempfile::tempdir().unwrap();
    // "zzqx" has no vector: that line's WMD is inf.
    let hyps = ["the cat sat", "zzqx", "a dog ran"];
    let refs = ["the cat sat down", "the cat", "the dog runs"];
    Files {
        hyp: write(dir.path(), "hyp.txt", &hyps),
        reference: write(dir.path(), "ref.txt", &refs),
        src: write(dir.path(), "src.txt", &refs),
        system: write(dir.path(), "sys.txt", &refs),
        _dir: dir,
    }
}

/// Each non-text metric with the options it needs to run on `f`.
fn metrics(f: &Files) -> Vec<(&'static str, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            "wmd",
            s(&[
                "--vectors",
                &wmd_vectors(),
                "--tokenize",
                "none",
                "--ref",
                &f.reference,
            ]),
        ),
        (
            "bertscore",
            s(&[
                "--model",
                &tiny("bert"),
                "--layer",
                "-1",
                "--ref",
                &f.reference,
            ]),
        ),
        (
            "bleurt",
            s(&["--model", &tiny("bleurt"), "--ref", &f.reference]),
        ),
        (
            "comet",
            s(&[
                "--model",
                &tiny("comet/estimator"),
                "--src",
                &f.src,
                "--ref",
                &f.reference,
            ]),
        ),
        ("perplexity", s(&["--model", &tiny("gpt2")])),
        (
            "style",
            s(&["--model", &tiny("roberta"), "--label", "positive"]),
        ),
    ]
}

fn metric(name: &str, f: &Files, base: &[String], extra: &[&str]) -> Output {
    let mut args = vec!["metric", name, "--hyp", &f.hyp];
    args.extend(base.iter().map(String::as_str));
    args.extend_from_slice(extra);
    run(&args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A usage error: exit 2, and the message contains `needle` (the flag it names).
fn assert_refused(out: &Output, label: &str, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "{label}: {}", stderr(out));
    assert!(stderr(out).contains(needle), "{label}: {}", stderr(out));
}

#[test]
fn significance_options_are_refused_by_the_metrics_without_them() {
    // Before: each of these exited 0 with the plain score, the option ignored (a missing
    // --system FILE too). WMD has no test; the neural metrics run them (issue 28, item 4:
    // `learned_metrics_run_the_significance_tests`) and refuse what they cannot use.
    let f = files();
    let missing = "/nonexistent/system.txt";
    for (name, base) in metrics(&f) {
        let mut cases: Vec<(Vec<&str>, &str)> = vec![
            (vec!["--system", missing], "--system"),
            (vec!["--confidence-n", "5"], "--confidence"),
            (
                vec!["--paired-bs-n", "5", "--system", &f.system],
                "--paired-bs",
            ),
            // Missing, the file is named before any model is loaded (WMD refuses the test).
            (
                vec!["--paired-ar", "--system", missing],
                if name == "wmd" {
                    "--paired-ar"
                } else {
                    missing
                },
            ),
        ];
        if name == "wmd" {
            cases.extend([
                (vec!["--confidence"], "--confidence"),
                (vec!["--paired-bs", "--system", &f.system], "--paired-bs"),
            ]);
        }
        for (extra, flag) in cases {
            let out = metric(name, &f, &base, &extra);
            let label = format!("{name} {extra:?}");
            if flag == missing {
                assert_ne!(out.status.code(), Some(0), "{label}");
                assert!(stderr(&out).contains(flag), "{label}: {}", stderr(&out));
            } else {
                assert_refused(&out, &label, flag);
            }
            assert!(out.stdout.is_empty(), "{label}");
        }
    }
}

#[test]
fn learned_metrics_run_the_significance_tests() {
    // Issue 28, item 4: sacreBLEU's tests on the neural metrics' line scores, whose corpus
    // score is their mean. The records' scores are the plain runs' scores of each file, and the
    // intervals and p-values those of figlang-metrics' segment_* functions on the --sentence
    // scores (whose sacreBLEU parity the BLEU tests prove on the same resampling code).
    use figlang_metrics::text::significance::{
        segment_confidence_record, segment_paired_records, PairedTest, Resampling,
    };
    let f = files();
    let with_system = |base: &[String]| -> Vec<String> {
        base.iter()
            .map(|a| {
                if *a == f.hyp {
                    f.system.clone()
                } else {
                    a.clone()
                }
            })
            .collect()
    };
    for (name, base) in metrics(&f).into_iter().filter(|(n, _)| *n != "wmd") {
        let corpus = |out: Output| -> Value {
            assert!(out.status.success(), "{name}: {}", stderr(&out));
            json_lines(&out).remove(0)
        };
        let plain = corpus(metric(name, &f, &base, &["--format", "json"]));
        let sentence = |args: Vec<&str>| -> Vec<f64> {
            let out = run(&args);
            assert!(out.status.success(), "{name}: {}", stderr(&out));
            json_lines(&out)
                .iter()
                .map(|v| v["score"].as_f64().unwrap_or(f64::NAN))
                .collect()
        };
        let mut args = vec!["metric", name, "--hyp", &f.hyp];
        args.extend(base.iter().map(String::as_str));
        args.extend(["--sentence", "--format", "jsonl"]);
        let base_scores = sentence(args);
        let sys_base = with_system(&base);
        let mut args = vec!["metric", name, "--hyp", &f.system];
        args.extend(sys_base.iter().map(String::as_str));
        args.extend(["--sentence", "--format", "jsonl"]);
        let sys_scores = sentence(args);

        let conf = corpus(metric(
            name,
            &f,
            &base,
            &["--confidence", "--confidence-n", "50"],
        ));
        assert_eq!(conf["score"], plain["score"], "{name}");
        let sig = hauser_core::Signature::new("x", "1");
        let r = Resampling {
            n_samples: 50,
            ..Resampling::bootstrap()
        };
        let want = segment_confidence_record(name, &base_scores, &sig, &r).unwrap();
        for key in ["confidence_mean", "confidence_var", "confidence", "seed"] {
            assert_eq!(conf[key], want[key], "{name} {key}");
        }
        assert!(
            conf["signature"].as_str().unwrap().contains("bs:50"),
            "{conf}"
        );

        for (flag, test, n) in [
            ("--paired-bs", PairedTest::Bootstrap, 1000),
            ("--paired-ar", PairedTest::ApproximateRandomization, 10000),
        ] {
            let out = metric(name, &f, &base, &[flag, "--system", &f.system]);
            assert!(out.status.success(), "{name} {flag}: {}", stderr(&out));
            let recs = json_lines(&out);
            assert_eq!(recs.len(), 2, "{name} {flag}");
            assert_eq!(recs[0]["system"], format!("Baseline: {}", f.hyp));
            assert_eq!(recs[1]["system"], f.system.as_str());
            assert_eq!(recs[0]["score"], plain["score"], "{name} {flag}");
            let sys_plain = corpus(run(&{
                let mut a = vec!["metric", name, "--hyp", &f.system];
                a.extend(sys_base.iter().map(String::as_str));
                a.extend(["--format", "json"]);
                a
            }));
            assert_eq!(recs[1]["score"], sys_plain["score"], "{name} {flag}");
            let r = Resampling {
                n_samples: n,
                ..Resampling::bootstrap()
            };
            let want = segment_paired_records(
                name,
                &base_scores,
                std::slice::from_ref(&sys_scores),
                &sig,
                test,
                &r,
            )
            .unwrap();
            for (got, want) in recs.iter().zip(&want) {
                for key in ["p_value", "mean", "ci", "test", "n", "seed"] {
                    assert_eq!(got[key], want[key], "{name} {flag} {key}");
                }
            }
        }
    }
}

#[test]
fn the_n_variants_need_their_test_for_the_text_metrics_too() {
    let f = files();
    for (extra, flag) in [
        (vec!["--confidence-n", "5"], "--confidence"),
        (
            vec!["--paired-ar-n", "5", "--system", &f.system],
            "--paired-ar",
        ),
        (
            vec!["--paired-bs-n", "5", "--paired-ar", "--system", &f.system],
            "--paired-bs",
        ),
    ] {
        let out = metric("bleu", &f, &["--ref".into(), f.reference.clone()], &extra);
        assert_refused(&out, &format!("{extra:?}"), flag);
    }
    // --sentence with a test, whose records are corpus records: refused, not ignored.
    for extra in [
        vec!["--confidence", "--sentence"],
        vec!["--paired-bs", "--system", &f.system, "--sentence"],
    ] {
        let out = metric("chrf", &f, &["--ref".into(), f.reference.clone()], &extra);
        assert_refused(&out, &format!("{extra:?}"), "--sentence");
    }
    // With their test they are honoured.
    let out = metric(
        "bleu",
        &f,
        &["--ref".into(), f.reference.clone()],
        &["--confidence", "--confidence-n", "7"],
    );
    let v = &json_lines(&out)[0];
    assert!(v["signature"].as_str().unwrap().contains("bs:7"), "{v}");
}

#[test]
fn every_metric_honours_format() {
    let f = files();
    for (name, base) in metrics(&f) {
        // --sentence --format jsonl (and json): one object per line, valid JSON, with the
        // score, the signature and the plain output's numbers.
        let plain = metric(name, &f, &base, &["--sentence"]);
        assert!(plain.status.success(), "{name}: {}", stderr(&plain));
        let numbers: Vec<String> = String::from_utf8(plain.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(numbers.len(), 3, "{name}");
        for format in ["jsonl", "json"] {
            let out = metric(name, &f, &base, &["--sentence", "--format", format]);
            let lines = json_lines(&out);
            assert_eq!(lines.len(), 3, "{name} {format}");
            for (v, n) in lines.iter().zip(&numbers) {
                assert!(
                    v["signature"].as_str().unwrap().starts_with(name),
                    "{name}: {v}"
                );
                match v["score"].as_f64() {
                    Some(x) => assert_eq!(x.to_string(), *n, "{name}"),
                    None => {
                        assert!(v["score"].is_null(), "{name}: {v}");
                        assert!(n == "inf" || n == "nan", "{name}: {n}");
                    }
                }
            }
            if name == "bertscore" {
                assert!(lines[0]["precision"].is_number() && lines[0]["recall"].is_number());
            }
        }
        // --format json without --sentence: the corpus line.
        let out = metric(name, &f, &base, &["--format", "json"]);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "{name}");
        assert_eq!(lines[0]["metric"], name);
        assert_eq!(lines[0]["n"], 3);
    }
}

#[test]
fn wmd_jsonl_writes_null_for_an_infinite_distance() {
    // Before: `--format jsonl` was ignored and the line printed `inf`, which is not JSON.
    let f = files();
    let (_, base) = metrics(&f).remove(0);
    let out = metric("wmd", &f, &base, &["--sentence", "--format", "jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let second: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert!(second["score"].is_null(), "{text}");
    assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
}

#[test]
fn lowercase_is_bleus_only_as_in_sacrebleu() {
    // Before: -lc lowercased chrF too (sacreBLEU's CLI gives chrF its own --chrf-lowercase).
    let f = files();
    let refs = ["--ref".to_string(), f.reference.clone()];
    for (name, hint) in [
        ("chrf", "--chrf-lowercase"),
        ("chrf++", "--chrf-lowercase"),
        ("ter", "--ter-case-sensitive"),
        ("rougeL", "--lowercase"),
    ] {
        let out = metric(name, &f, &refs, &["-lc"]);
        assert_refused(&out, name, hint);
    }
    let out = metric("bleu", &f, &refs, &["-lc"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(json_lines(&out)[0]["signature"]
        .as_str()
        .unwrap()
        .contains("case:lc"));
}

/// sacreBLEU 2.4.3's command line on the three lines below (`sacrebleu ref -i hyp -m M ARGS -w 16
/// -f json`): `-lc` leaves chrF as it is, `--chrf-lowercase` lowercases it.
#[test]
fn lowercase_options_match_sacrebleus_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let hyp = write(
        dir.path(),
        "hyp.txt",
        &[
            "The Cat sat on the MAT.",
            "Hello World",
            "A QUICK brown Fox",
        ],
    );
    let reference = write(
        dir.path(),
        "ref.txt",
        &[
            "the cat sat on the mat.",
            "hello world!",
            "a quick brown fox jumps",
        ],
    );
    for (name, extra, want) in [
        ("chrf", vec![], 34.915038064721024),
        ("chrf", vec!["--chrf-lowercase"], 87.57895766864691),
        ("bleu", vec![], 15.610798436591523),
        ("bleu", vec!["-lc"], 85.74039191604417),
    ] {
        let mut args = vec!["metric", name, "--hyp", &hyp, "--ref", &reference];
        args.extend_from_slice(&extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let got = json_lines(&out)[0]["score"].as_f64().unwrap();
        assert!(
            (got - want).abs() < 1e-9,
            "{name} {extra:?}: {got} vs {want}"
        );
    }
}

#[test]
fn a_flag_the_metric_does_not_read_is_refused() {
    // Before: each exited 0, the flag without effect.
    let f = files();
    let refs = ["--ref".to_string(), f.reference.clone()];
    let vectors = wmd_vectors();
    for (name, extra, flag) in [
        ("bleu", vec!["--use-stemmer"], "--use-stemmer"),
        ("chrf", vec!["--weights", "0.5,0.5"], "--weights"),
        ("ter", vec!["--chrf-beta", "3"], "--chrf-beta"),
        ("bleu", vec!["--ter-normalized"], "--ter-normalized"),
        ("rougeL", vec!["--rouge-pretokenize"], "--rouge-pretokenize"),
        (
            "rougeL",
            vec!["--nltk-tokenizer", "3.4.5"],
            "--nltk-tokenizer",
        ),
        (
            "rouge1",
            vec!["--rouge-impl", "pltrdy", "--use-stemmer"],
            "--use-stemmer",
        ),
        ("sentbleu", vec!["--smooth-value", "0.2"], "--smooth-value"),
        ("chrf", vec!["--wordnet", "/tmp"], "--wordnet"),
        ("chrf", vec!["--meteor-alpha", "0.5"], "--meteor-alpha"),
        ("rougeL", vec!["--meteor-beta", "-1"], "--meteor-beta"),
        ("sentbleu", vec!["--meteor-gamma", "0"], "--meteor-gamma"),
        ("bleu", vec!["--model", "x"], "--model"),
        ("bleu", vec!["--vectors", &vectors], "--vectors"),
        ("chrf", vec!["--device", "cuda"], "--device"),
        ("wmd", vec!["--vectors", &vectors, "--idf"], "--idf"),
        (
            "wmd",
            vec!["--vectors", &vectors, "--weights", "1"],
            "--weights",
        ),
        ("bertscore", vec!["--model", "x", "--src", &f.src], "--src"),
        (
            "bertscore",
            vec!["--model", "x", "--label", "formal"],
            "--label",
        ),
        (
            "perplexity",
            vec!["--model", "x", "--use-stemmer"],
            "--use-stemmer",
        ),
        (
            "comet",
            vec!["--model", "x", "--no-src", "--vectors", &vectors],
            "--vectors",
        ),
    ] {
        let out = metric(name, &f, &refs, &extra);
        assert_eq!(out.status.code(), Some(2), "{name} {extra:?}");
        let err = stderr(&out);
        assert!(
            err.contains(flag) && err.contains("not read"),
            "{name} {extra:?}: {err}"
        );
    }
    // Read where it applies: pltrdy ROUGE reads --nltk-tokenizer with --rouge-pretokenize.
    let out = metric(
        "rougeL",
        &f,
        &refs,
        &[
            "--rouge-impl",
            "pltrdy",
            "--rouge-pretokenize",
            "--nltk-tokenizer",
            "3.4.5",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn comet_compare_runs_on_the_neural_metrics_only() {
    // Issue 28, item 4: comet-compare's statistics, on the line scores of --hyp and --system.
    use figlang_metrics::neural::{comet_compare, CometCompare};
    let f = files();
    let (name, base) = metrics(&f)
        .into_iter()
        .find(|(n, _)| *n == "comet")
        .unwrap();
    let out = metric(
        name,
        &f,
        &base,
        &[
            "--comet-compare",
            "--system",
            &f.system,
            "--num-splits",
            "40",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r["x_name"], f.hyp.as_str());
    assert_eq!(r["y_name"], f.system.as_str());
    assert!(
        r["signature"].as_str().unwrap().contains("splits:40"),
        "{r}"
    );
    let line_scores = |hyp: &str| -> Vec<f64> {
        let mut args = vec!["metric", name, "--hyp", hyp];
        args.extend(
            base.iter()
                .map(|a| if *a == f.hyp { hyp } else { a.as_str() }),
        );
        args.extend(["--sentence", "--format", "jsonl"]);
        json_lines(&run(&args))
            .iter()
            .map(|v| v["score"].as_f64().unwrap())
            .collect()
    };
    let cfg = CometCompare {
        num_splits: 40,
        ..CometCompare::default()
    };
    let want = comet_compare(&[line_scores(&f.hyp), line_scores(&f.system)], &cfg).unwrap();
    let b = &r["bootstrap_resampling"];
    assert_eq!(b["x-mean"].as_f64(), Some(want[0].x_mean));
    assert_eq!(b["y_wins (%)"].as_f64(), Some(want[0].y_wins));
    assert_eq!(
        r["paired_t-test"]["p_value"].as_f64(),
        Some(want[0].t_test.p_value).filter(|p| p.is_finite())
    );
    // Refused: for a text metric, without --system, and its options without it.
    let refs = ["--ref".to_string(), f.reference.clone()];
    for (name, base, extra, flag) in [
        (
            "bleu",
            &refs[..],
            vec!["--comet-compare", "--system", &f.system],
            "--comet-compare",
        ),
        ("comet", &base[..], vec!["--comet-compare"], "--system"),
        (
            "comet",
            &base[..],
            vec!["--num-splits", "5"],
            "--comet-compare",
        ),
        (
            "comet",
            &base[..],
            vec!["--sample-ratio", "0"],
            "--sample-ratio",
        ),
    ] {
        let out = metric(name, &f, base, &extra);
        assert_refused(&out, &format!("{name} {extra:?}"), flag);
    }
}
