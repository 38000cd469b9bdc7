//! The two HAUSER criteria on tiny models: formulas, cuts, and batching across groups.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_core::{Candidate, CandidateGroup, Components, Criterion, Scorer};
use hauser_nli::{
    cut_for_sentiment, LogicalConsistency, NliInput, SentimentConsistency, SequenceClassifier,
};

fn softmax(l: &[f64]) -> Vec<f64> {
    let m = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = l.iter().map(|x| (x - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|x| x / s).collect()
}

#[test]
fn logical_consistency_is_one_minus_p_contradiction_of_the_pair() {
    let r = reference("bert");
    let c = SequenceClassifier::load(&source("bert"), &opts(3)).unwrap();
    let scorer = LogicalConsistency::new(c, NliInput::Pair).unwrap();
    assert_eq!(scorer.criterion(), Criterion::LogicalConsistency);
    let pairs = r["pairs"].as_array().unwrap();
    // Two groups, scored in one call: batches span groups.
    let groups: Vec<CandidateGroup> = pairs
        .iter()
        .map(|p| {
            CandidateGroup::new(
                p["first"].as_str().unwrap(),
                [p["second"].as_str().unwrap(), "Nothing."],
            )
        })
        .collect();
    let out = scorer.score_groups(&groups);
    assert_eq!(out.len(), 2);
    for (g, p) in out.iter().zip(pairs) {
        let scores = g.as_ref().unwrap();
        assert_eq!(scores.len(), 2);
        let want = 1.0 - softmax(&floats(&p["logits"]))[2];
        assert!((scores[0] - want).abs() < TOL, "{} vs {want}", scores[0]);
    }
    let sig = scorer.signature().to_string();
    assert!(
        sig.contains("input:pair")
            && sig.contains("label:Contradiction")
            && sig.contains("arch:bert"),
        "{sig}"
    );
}

#[test]
fn concatenated_mode_feeds_one_sequence() {
    let c = SequenceClassifier::load(&source("roberta"), &opts(3)).unwrap();
    // The tiny RoBERTa has no contradiction label: an override makes class 0 play that role.
    let c = c
        .with_labels(vec!["contradiction".into(), "entailment".into()])
        .unwrap();
    let direct = c
        .predict(&[("He ran. He ran like the wind.", None)])
        .unwrap();
    let scorer = LogicalConsistency::new(c, NliInput::Concatenated).unwrap();
    let got = scorer
        .score_pairs(&[("He ran.", "He ran like the wind.")])
        .unwrap();
    assert!((got[0] - (1.0 - direct.probs[0][0] as f64)).abs() < 1e-6);
    assert!(scorer.signature().to_string().contains("input:concat"));

    let c = SequenceClassifier::load(&source("roberta"), &opts(3)).unwrap();
    let err = LogicalConsistency::new(c, NliInput::Pair)
        .unwrap_err()
        .to_string();
    assert!(err.contains("contradiction"), "{err}");
}

#[test]
fn sentiment_consistency_uses_cut_texts_and_the_literal_label() {
    let c = SequenceClassifier::load(&source("roberta"), &opts(2)).unwrap();
    let probe = SequenceClassifier::load(&source("roberta"), &opts(1)).unwrap();
    let scorer = SentimentConsistency::new(c);
    assert_eq!(scorer.criterion(), Criterion::SentimentConsistency);
    let literal = "The boy ran across the old field.";
    let with = Candidate::with_components(
        "The boy ran like the wind across the old field.",
        vec![Components::new("the boy", "the wind", "ran")],
    );
    let without = Candidate::new("The boy ran like a happy storm.");
    let group = CandidateGroup {
        id: None,
        literal: literal.into(),
        candidates: vec![with, without],
    };
    let other = CandidateGroup::new("She was quiet.", ["She was as quiet as a mouse."]);
    let out = scorer.score_groups(&[group, other]);
    let expect = |l: &str, s: &str| {
        let p = probe.predict(&[(l, None), (s, None)]).unwrap().probs;
        let a = if p[0][1] > p[0][0] { 1 } else { 0 };
        p[1][a] as f64 - p[0][a] as f64
    };
    let (l, s) = cut_for_sentiment(
        literal,
        "The boy ran like the wind across the old field.",
        Some("ran"),
        Some("the wind"),
    );
    assert_eq!(
        (l.as_str(), s.as_str()),
        ("The boy ran", "The boy ran like the wind")
    );
    let g0 = out[0].as_ref().unwrap();
    assert!((g0[0] - expect(&l, &s)).abs() < 1e-6);
    assert!((g0[1] - expect(literal, "The boy ran like a happy storm.")).abs() < 1e-6);
    let g1 = out[1].as_ref().unwrap();
    assert!((g1[0] - expect("She was quiet.", "She was as quiet as a mouse.")).abs() < 1e-6);
    assert!(!scorer.needs_components());
}
