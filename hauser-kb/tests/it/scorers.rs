//! The KB scorers: aggregation, NaN handling, signatures, agreement with the reference formulas.

use std::sync::Arc;

use hauser_core::{CandidateGroup, Components, Criterion, Evaluator, Scorer};
use hauser_kb::ingest::TripletSink;
use hauser_kb::{CreativityScorer, Kb, KbBuilder, Normalizer, RelevanceScorer};

fn kb() -> Arc<Kb> {
    let mut b = KbBuilder::new(Normalizer::Reference);
    b.set_has_plausibility();
    b.add("he", "sad", "a child", 4.0, Some(0.5)).expect("add");
    b.add("he", "small", "child", 2.0, Some(1.0)).expect("add");
    b.add("she", "small", "a child", 10.0, Some(0.1))
        .expect("add");
    b.add("he", "strong", "an ox", 1.0, Some(1.0)).expect("add");
    Arc::new(b.build_in_memory().expect("build"))
}

#[test]
fn relevance_averages_components_and_absent_pairs_score_zero() {
    let s = RelevanceScorer::new(kb());
    assert_eq!(s.raw(&[Components::new("He", "like a child", "wept")]), 4.0);
    let two = [
        Components::new("he", "a child", "wept"),
        Components::new("he", "a unicorn", "ran"),
    ];
    assert_eq!(s.raw(&two), 2.0);
    let partial = [Components::from_triple([Some("he".into()), None, None])];
    assert_eq!(s.raw(&partial), 0.0);
    assert!(s.raw(&[]).is_nan());
}

#[test]
fn creativity_is_minus_log_one_plus_mean_vehicle_count() {
    let s = CreativityScorer::new(kb());
    // N(child) = 4 + 2 + 10, N(ox) = 1.
    assert_eq!(
        s.raw(&[Components::new("x", "the child", "y")]),
        -(17.0f64).ln()
    );
    let two = [
        Components::new("x", "child", "y"),
        Components::new("x", "an ox", "y"),
    ];
    assert_eq!(s.raw(&two), -(1.0 + 8.5f64).ln());
    assert_eq!(s.raw(&[Components::new("x", "a dodo", "y")]), 0.0);
}

#[test]
fn pipeline_normalises_per_group_and_nan_becomes_zero() {
    let kb = kb();
    let group = CandidateGroup::new("He wept.", ["a", "b", "c"])
        .with_components(vec![
            vec![Components::new("he", "a child", "wept")],
            vec![Components::new("he", "an ox", "wept")],
            vec![],
        ])
        .expect("components");
    let ev = Evaluator::new()
        .with_scorer(RelevanceScorer::new(kb.clone()))
        .with_scorer(CreativityScorer::new(kb.clone()));
    let report = ev.evaluate(&[group], 0).remove(0).expect("scores");
    let rel: Vec<f64> = report
        .candidates
        .iter()
        .map(|c| c.score(&Criterion::Relevance).expect("rel").normalized)
        .collect();
    assert_eq!(rel, vec![1.0, 0.25, 0.0]);
    let cre: Vec<f64> = report
        .candidates
        .iter()
        .map(|c| c.score(&Criterion::Creativity).expect("cre").normalized)
        .collect();
    // Raw: -ln 17, -ln 2, NaN -> 0 (as the reference's NaN -> 0 before -log(x + 1)).
    assert_eq!(cre[2], 1.0);
    assert_eq!(cre[0], 0.0);
    assert!((cre[1] - (1.0 - 2f64.ln() / 17f64.ln())).abs() < 1e-12);
}

#[test]
fn signatures_carry_the_kb_checksum() {
    let kb = kb();
    let r = RelevanceScorer::new(kb.clone());
    let c = CreativityScorer::new(kb.clone());
    assert!(r.needs_components() && c.needs_components());
    assert_eq!(r.criterion(), Criterion::Relevance);
    assert_eq!(c.criterion(), Criterion::Creativity);
    for sig in [r.signature(), c.signature()] {
        assert_eq!(sig.get("kb"), Some(kb.checksum().as_str()));
        assert!(kb.checksum().starts_with("xxh64:") && kb.checksum().len() == 22);
        assert_eq!(sig.get("clean"), Some("reference"));
        assert_eq!(sig.get("plausibility"), Some("kb"));
    }
}

#[test]
fn missing_components_is_a_group_error() {
    let s = RelevanceScorer::new(kb());
    let group = CandidateGroup::new("l", ["x"]);
    let out = s.score_groups(&[group]);
    assert!(out[0].is_err());
}
