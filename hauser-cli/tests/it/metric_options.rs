//! `hauser metric`'s options against sacreBLEU 2.4.3, rouge-score 0.1.2 and NLTK 3.10.4
//! (tools/gen/gen_metric_options_fixture.py, 1e-9): every flag a case names, the corpus statistics
//! of `--format json` and the per-hypothesis ones of `--sentence --format jsonl`, with empty
//! and whitespace-only segments among the inputs.

use std::path::Path;

use serde_json::Value;

use crate::common::{json_lines, run};

const TOL: f64 = 1e-9;

fn fixture() -> Value {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/metric_options.json"
    );
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Writes the case's inputs and returns the input flags.
fn inputs(case: &Value, dir: &Path) -> Vec<String> {
    let hyps = strings(&case["hyps"]);
    let refs: Vec<Vec<String>> = case["refs"]
        .as_array()
        .unwrap()
        .iter()
        .map(strings)
        .collect();
    if case["input"] == "jsonl" {
        let p = dir.join("in.jsonl");
        let lines: Vec<String> = hyps
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let rs: Vec<&String> = refs.iter().map(|r| &r[i]).collect();
                serde_json::json!({"hyp": h, "refs": rs}).to_string()
            })
            .collect();
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        return vec!["--input".into(), p.display().to_string()];
    }
    let h = dir.join("hyp.txt");
    std::fs::write(&h, hyps.join("\n") + "\n").unwrap();
    let mut args = vec!["--hyp".to_string(), h.display().to_string()];
    for (k, r) in refs.iter().enumerate() {
        let p = dir.join(format!("ref{k}.txt"));
        std::fs::write(&p, r.join("\n") + "\n").unwrap();
        args.extend(["--ref".to_string(), p.display().to_string()]);
    }
    args
}

fn close(got: &Value, want: &Value, what: &str) {
    match want {
        Value::Array(w) => {
            let g = got
                .as_array()
                .unwrap_or_else(|| panic!("{what}: {got} is no list"));
            assert_eq!(g.len(), w.len(), "{what}: length");
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                close(a, b, &format!("{what}[{i}]"));
            }
        }
        _ => {
            let (a, b) = (got.as_f64(), want.as_f64().unwrap());
            let a = a.unwrap_or_else(|| panic!("{what}: {got} is no number (want {b})"));
            assert!(
                (a - b).abs() <= TOL * b.abs().max(1.0),
                "{what}: {a} vs {b}"
            );
        }
    }
}

/// The start of the metric's signature (its name as signatures spell it).
fn got_signature_prefix(case: &Value) -> String {
    match case["metric"].as_str().unwrap() {
        "chrf" | "chrf++" => "chrF".into(),
        m => format!("{m}|"),
    }
}

#[test]
fn every_option_gives_the_reference_values() {
    let fx = fixture();
    let cases = fx["cases"].as_array().unwrap();
    assert!(cases.len() >= 40);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec![
            "metric".to_string(),
            case["metric"].as_str().unwrap().into(),
        ];
        args.extend(strings(&case["args"]));
        args.extend(inputs(case, dir.path()));
        let corpus_args: Vec<&str> = args
            .iter()
            .map(String::as_str)
            .chain(["--format", "json"])
            .collect();
        let out = run(&corpus_args);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = &json_lines(&out)[0];
        for (k, want) in case["corpus"].as_object().unwrap() {
            close(&got[k], want, &format!("{name}: corpus {k}"));
        }
        let sentence_args: Vec<&str> = args
            .iter()
            .map(String::as_str)
            .chain(["--sentence", "-f", "jsonl"])
            .collect();
        let out = run(&sentence_args);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = json_lines(&out);
        let want = case["sentence"].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{name}: one object per hypothesis");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            let sig = g["signature"].as_str().unwrap_or_default();
            assert!(
                sig.starts_with(&got_signature_prefix(case)),
                "{name}: {sig}"
            );
            for (k, v) in w.as_object().unwrap() {
                close(&g[k], v, &format!("{name}: sentence {i} {k}"));
            }
        }
    }
}

/// The signature of `--sentence --format jsonl` describes the sentence scores: sacreBLEU's
/// sentence BLEU uses effective order, and BLEU, chrF and TER sentence scores are 0-1, while
/// the corpus line keeps sacreBLEU's corpus settings.
#[test]
fn sentence_records_carry_the_sentence_signature() {
    let dir = tempfile::tempdir().unwrap();
    let (h, r) = (dir.path().join("h.txt"), dir.path().join("r.txt"));
    std::fs::write(&h, "the cat sat\nhello there\n").unwrap();
    std::fs::write(&r, "the cat sat down\nhello here\n").unwrap();
    let (h, r) = (h.display().to_string(), r.display().to_string());
    let signatures = |name: &str| {
        let base = ["metric", name, "--hyp", &h, "--ref", &r];
        let corpus = json_lines(&run(&[&base[..], &["--format", "json"]].concat()));
        let rows = json_lines(&run(
            &[&base[..], &["--sentence", "--format", "jsonl"]].concat()
        ));
        assert_eq!(rows.len(), 2, "{name}: one record per hypothesis");
        assert!(rows.iter().all(|x| x["signature"] == rows[0]["signature"]));
        let s = |v: &Value| v["signature"].as_str().unwrap().to_string();
        (s(&corpus[0]), s(&rows[0]))
    };
    let (corpus, sentence) = signatures("bleu");
    assert!(
        corpus.contains("|eff:no|") && !corpus.contains("scale:"),
        "{corpus}"
    );
    assert!(
        sentence.contains("|eff:yes|") && sentence.contains("|scale:0-1|"),
        "{sentence}"
    );
    let (corpus, sentence) = signatures("chrf");
    assert!(corpus.contains("|scale:0-100|"), "{corpus}");
    assert_eq!(sentence, corpus.replace("|scale:0-100|", "|scale:0-1|"));
    let (corpus, sentence) = signatures("ter");
    assert!(
        sentence.contains("|scale:0-1|") && !corpus.contains("scale:"),
        "{sentence}"
    );
    let (corpus, sentence) = signatures("rougeL");
    assert_eq!(sentence, corpus, "ROUGE is 0-1 at both levels");
}
