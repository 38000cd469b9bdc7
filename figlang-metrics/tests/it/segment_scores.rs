//! `TextMetric::segment_corpus_scores` (sacreBLEU's `sentence_score`: each hypothesis as a
//! corpus of one) equals `corpus_score` of that hypothesis alone, bit for bit, for the metrics
//! that compute it from their segment statistics and for the default (one corpus call each).

use figlang_metrics::text::{metric_by_name, TextMetricOptions};
use proptest::prelude::*;

fn words() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "the", "cat", "sat", ".", "on", "a", "Mat", "mat,", "running", "x",
        ]),
        0..12,
    )
    .prop_map(|w| w.join(" "))
}

fn options(lowercase: bool, smoothing: &str, effective: bool) -> TextMetricOptions {
    TextMetricOptions {
        lowercase,
        bleu_smoothing: Some(smoothing.parse().expect("sacreBLEU smoothing")),
        effective_order: effective,
        ..TextMetricOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn segment_corpus_scores_are_corpora_of_one(
        rows in prop::collection::vec((words(), words(), words()), 1..8),
        lowercase: bool,
        effective: bool,
        smoothing in prop::sample::select(vec!["exp", "floor", "add-k", "none"]),
    ) {
        let hyps: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let refs: Vec<Vec<String>> = vec![
            rows.iter().map(|r| r.1.clone()).collect(),
            rows.iter().map(|r| r.2.clone()).collect(),
        ];
        for name in ["bleu", "chrf", "chrf++", "ter", "rougeL"] {
            let o = if name == "bleu" { options(lowercase, smoothing, effective) } else { TextMetricOptions::default() };
            let m = metric_by_name(name, &o).unwrap();
            let got = m.segment_corpus_scores(&hyps, &refs).unwrap();
            for (i, g) in got.iter().enumerate() {
                let one: Vec<Vec<String>> = refs.iter().map(|r| vec![r[i].clone()]).collect();
                let want = m.corpus_score(std::slice::from_ref(&hyps[i]), &one).unwrap().score;
                prop_assert!(g.to_bits() == want.to_bits(), "{name} row {i}: {g} != {want}");
            }
        }
    }
}

#[test]
fn misaligned_references_are_refused() {
    let m = metric_by_name("chrf", &TextMetricOptions::default()).unwrap();
    let hyps = vec!["a".to_string(), "b".to_string()];
    let e = m
        .segment_corpus_scores(&hyps, &[vec!["a".into()]])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("reference list 1 has 1 lines for 2 hypotheses"),
        "{e}"
    );
    let r = metric_by_name("rougeL", &TextMetricOptions::default()).unwrap();
    assert!(r.segment_corpus_scores(&hyps, &[]).is_err());
}
