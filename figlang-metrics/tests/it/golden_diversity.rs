//! Golden test: Self-BLEU against NLTK sentence BLEU of each generation versus the others
//! (`fixtures/self_bleu_nltk.json`, 1e-9); Distinct-n on hand-counted cases.

use crate::common;
use figlang_metrics::text::diversity::{Distinct, SelfBleu};

#[test]
fn self_bleu_matches_nltk() {
    let fx = common::fixture("self_bleu_nltk.json");
    let mut mm = common::Mismatches::default();
    for g in fx["groups"].as_array().expect("groups") {
        let texts = common::strings(&g["texts"]);
        let got = SelfBleu::default().per_text(&texts).expect("self-bleu");
        let want: Vec<f64> = serde_json::from_value(g["per_text"].clone()).expect("floats");
        assert_eq!(got.len(), want.len());
        for (a, b) in got.iter().zip(&want) {
            mm.check(|| format!("{texts:?}"), *a, *b, 1e-9);
        }
        let mean = SelfBleu::default().corpus(&texts).expect("corpus").score;
        mm.check(
            || "mean".into(),
            mean,
            want.iter().sum::<f64>() / want.len() as f64,
            1e-12,
        );
    }
    mm.assert_none();
    assert!(SelfBleu::default().corpus(&["only one"]).is_err());
}

#[test]
fn distinct_n_counts_corpus_level_ngrams() {
    let texts = ["the cat sat.", "the cat ran!"];
    // tokens: the cat sat . | the cat ran !  -> unigrams 8, distinct 6; bigrams 6, distinct 5
    assert_eq!(
        Distinct::new(1).corpus(&texts).expect("d1").score,
        6.0 / 8.0
    );
    assert_eq!(
        Distinct::new(2).corpus(&texts).expect("d2").score,
        5.0 / 6.0
    );
    assert_eq!(Distinct::new(2).sentence("a a a").expect("d2").score, 0.5);
    assert_eq!(Distinct::new(3).corpus(&["a b"]).expect("d3").score, 0.0);
    assert!(Distinct::new(0).corpus(&["a"]).is_err());
}
