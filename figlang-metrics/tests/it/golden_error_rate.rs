//! Golden test: WER (with MER, WIL, WIP) and CER against jiwer 4.0.0 with rapidfuzz 3.14.6
//! (`process_words`, `process_characters` at their default transforms), per pair and over
//! corpora, through the metric's own API and through the registry (`hauser metric wer|cer`).
//! Counts exactly, rates within 1e-12. Fixture written by
//! `tools/gen/gen_error_rate_fixture.py`.

use crate::common;
use figlang_metrics::text::metrics::error_rate::{EditCounts, ErrorRate};
use figlang_metrics::text::{metric_by_name, TextMetricOptions};
use serde_json::Value;

fn counts(v: &Value) -> EditCounts {
    let n = |k: &str| v[k].as_u64().expect("count") as usize;
    EditCounts {
        hits: n("hits"),
        substitutions: n("substitutions"),
        deletions: n("deletions"),
        insertions: n("insertions"),
    }
}

fn check_rates(
    mm: &mut common::Mismatches,
    label: &str,
    got: &EditCounts,
    want: &Value,
    unit: &str,
    tol: f64,
) {
    mm.check(
        || format!("{label} {unit}"),
        got.error_rate(),
        want[unit].as_f64().expect("rate"),
        tol,
    );
    if unit == "wer" {
        mm.check(
            || format!("{label} mer"),
            got.mer(),
            want["mer"].as_f64().expect("mer"),
            tol,
        );
        mm.check(
            || format!("{label} wil"),
            got.wil(),
            want["wil"].as_f64().expect("wil"),
            tol,
        );
        mm.check(
            || format!("{label} wip"),
            got.wip(),
            want["wip"].as_f64().expect("wip"),
            tol,
        );
    }
}

#[test]
fn error_rates_match_jiwer() {
    let fx = common::fixture("jiwer_error_rate.json");
    let tol = fx["tolerance"].as_f64().expect("tolerance");
    let items = fx["items"].as_array().expect("items");
    assert!(items.len() >= 100, "{} items", items.len());
    let refs: Vec<String> = items
        .iter()
        .map(|i| i["ref"].as_str().unwrap().to_string())
        .collect();
    let hyps: Vec<String> = items
        .iter()
        .map(|i| i["hyp"].as_str().unwrap().to_string())
        .collect();
    let mut mm = common::Mismatches::default();
    let mut wrong_counts = Vec::new();
    for (metric, key, unit) in [
        (ErrorRate::WORDS, "words", "wer"),
        (ErrorRate::CHARS, "chars", "cer"),
    ] {
        for (i, want) in fx[key].as_array().expect("per item").iter().enumerate() {
            let got = metric.counts(&refs[i], &hyps[i]);
            if got != counts(want) {
                wrong_counts.push(format!("{unit} item {i}: {got:?} vs {want}"));
            }
            check_rates(&mut mm, &format!("item {i}"), &got, want, unit, tol);
        }
        for (name, sub) in fx["corpus"].as_object().expect("corpus") {
            let idx: Vec<usize> = sub["indices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
                .collect();
            let h: Vec<&str> = idx.iter().map(|&i| hyps[i].as_str()).collect();
            let r: Vec<&str> = idx.iter().map(|&i| refs[i].as_str()).collect();
            let got = metric.corpus_counts(&h, &r);
            if got != counts(&sub[key]) {
                wrong_counts.push(format!("{unit} corpus {name}: {got:?} vs {}", sub[key]));
            }
            check_rates(
                &mut mm,
                &format!("corpus {name}"),
                &got,
                &sub[key],
                unit,
                tol,
            );
        }
    }
    assert!(
        wrong_counts.is_empty(),
        "{} count mismatches:\n{}",
        wrong_counts.len(),
        wrong_counts.join("\n")
    );
    mm.assert_none();
}

#[test]
fn the_registry_metrics_are_jiwers() {
    let fx = common::fixture("jiwer_error_rate.json");
    let tol = fx["tolerance"].as_f64().expect("tolerance");
    let items = fx["items"].as_array().expect("items");
    let hyps: Vec<String> = items
        .iter()
        .map(|i| i["hyp"].as_str().unwrap().to_string())
        .collect();
    let refs = vec![items
        .iter()
        .map(|i| i["ref"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()];
    for (name, key) in [("wer", "words"), ("cer", "chars")] {
        let m = metric_by_name(name, &TextMetricOptions::default()).expect(name);
        assert!(m.lower_is_better());
        assert_eq!(m.scale().as_str(), "0-1");
        let (corpus, details) = m.corpus_details(&hyps, &refs).expect("corpus");
        let want = &fx["corpus"]["all"][key];
        assert!(
            (corpus.score - want[name].as_f64().unwrap()).abs() <= tol,
            "{name}: {} vs {}",
            corpus.score,
            want[name]
        );
        assert_eq!(
            corpus.signature.to_string(),
            format!(
                "{name}|compat:jiwer-4.0.0|nrefs:1|transform:{name}_default|version:{}",
                figlang_metrics::VERSION
            )
        );
        for k in ["hits", "substitutions", "deletions", "insertions"] {
            assert_eq!(details[k], want[k], "{name} {k}");
        }
        let sentences = m.sentence_scores(&hyps, &refs).expect("sentences");
        for (i, (got, want)) in sentences
            .iter()
            .zip(fx[key].as_array().unwrap())
            .enumerate()
        {
            assert!(
                (got - want[name].as_f64().unwrap()).abs() <= tol,
                "{name} item {i}: {got} vs {}",
                want[name]
            );
        }
        let rows = m.sentence_details(&hyps, &refs).expect("details");
        assert_eq!(rows[1].get("mer").is_some(), name == "wer");
        // One reference per hypothesis, as jiwer: two lists are refused, naming the metric.
        let two = vec![refs[0].clone(), refs[0].clone()];
        let err = m.corpus_score(&hyps, &two).unwrap_err().to_string();
        assert!(err.contains(name) && err.contains("one reference"), "{err}");
        assert!(m.sentence_scores(&hyps, &two).is_err());
    }
}
