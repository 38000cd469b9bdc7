//! Pipeline behaviour with mock scorers: batching across groups, skipping, failures, quality.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use hauser_core::*;

/// Scores each candidate by its text length; records how many groups each call received.
struct LenScorer {
    criterion: Criterion,
    calls: Arc<AtomicUsize>,
    groups_seen: Arc<AtomicUsize>,
}

impl Scorer for LenScorer {
    fn criterion(&self) -> Criterion {
        self.criterion.clone()
    }
    fn signature(&self) -> Signature {
        Signature::new(self.criterion.as_str(), "test")
    }
    fn score_groups(&self, groups: &[CandidateGroup]) -> Vec<Result<Vec<f64>>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.groups_seen.fetch_add(groups.len(), Ordering::SeqCst);
        groups
            .iter()
            .map(|g| {
                if g.literal == "fail" {
                    return Err(CoreError::Scorer {
                        scorer: "len".into(),
                        message: "boom".into(),
                    });
                }
                Ok(g.candidates.iter().map(|c| c.text.len() as f64).collect())
            })
            .collect()
    }
}

fn len_scorer(criterion: Criterion) -> (Box<dyn Scorer>, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(AtomicUsize::new(0));
    let s = LenScorer {
        criterion,
        calls: calls.clone(),
        groups_seen: seen.clone(),
    };
    (Box::new(s), calls, seen)
}

struct FixedExtractor;
impl ComponentExtractor for FixedExtractor {
    fn signature(&self) -> Signature {
        Signature::new("fixed", "test")
    }
    fn extract(&self, simile: &str, _literal: Option<&str>) -> Result<Vec<Components>> {
        let vehicle = simile
            .split(" like ")
            .nth(1)
            .map(|v| v.trim_end_matches('.').to_string());
        Ok(vehicle
            .map(|v| Components::from_triple([None, Some(v), None]))
            .into_iter()
            .collect())
    }
}

fn group(literal: &str, cands: &[&str]) -> CandidateGroup {
    CandidateGroup::new(literal, cands.iter().copied())
}

#[test]
fn scorer_receives_all_groups_in_one_call() {
    let (s, calls, seen) = len_scorer(Criterion::Relevance);
    let ev = Evaluator::new().with_scorer(s);
    let groups: Vec<_> = (0..7)
        .map(|i| group(&format!("l{i}"), &["a", "bb"]))
        .collect();
    let out = ev.evaluate(&groups, 0);
    assert_eq!(out.len(), 7);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(seen.load(Ordering::SeqCst), 7);
    let r = out[3].as_ref().unwrap();
    assert_eq!(r.index, 3);
    assert_eq!(r.candidates[0].scores[0].normalized, 0.0);
    assert_eq!(r.candidates[1].scores[0].normalized, 1.0);
}

#[test]
fn quality_needs_all_three_parts_by_default() {
    let (r, _, _) = len_scorer(Criterion::Relevance);
    let (l, _, _) = len_scorer(Criterion::LogicalConsistency);
    let ev = Evaluator::new().with_scorer(r).with_scorer(l);
    let out = ev.evaluate(&[group("x", &["a", "bb"])], 0);
    assert!(out[0]
        .as_ref()
        .unwrap()
        .candidates
        .iter()
        .all(|c| c.quality.is_none()));

    let (r, _, _) = len_scorer(Criterion::Relevance);
    let (l, _, _) = len_scorer(Criterion::LogicalConsistency);
    let (s, _, _) = len_scorer(Criterion::SentimentConsistency);
    let ev = Evaluator::new()
        .with_scorer(r)
        .with_scorer(l)
        .with_scorer(s);
    let out = ev.evaluate(&[group("x", &["a", "bb", "ccc"])], 0);
    let c = &out[0].as_ref().unwrap().candidates;
    assert_eq!(c[0].quality, Some(0.0));
    assert!((c[1].quality.unwrap() - 0.5).abs() < 1e-12);
    assert!((c[2].quality.unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(c[2].rank, Some(1));
}

#[test]
fn failing_group_does_not_affect_others() {
    let (s, _, _) = len_scorer(Criterion::Relevance);
    let ev = Evaluator::new().with_scorer(s);
    let groups = vec![
        group("ok", &["a"]),
        group("fail", &["a", "b", "c"]),
        group("ok2", &["a", "b"]),
    ];
    let out = ev.evaluate(&groups, 10);
    assert!(out[0].is_ok());
    let f = out[1].as_ref().unwrap_err();
    assert_eq!((f.index, f.n_candidates), (11, 3));
    assert!(f.error.to_string().contains("boom"));
    assert_eq!(out[2].as_ref().unwrap().index, 12);
}

#[test]
fn empty_group_is_a_failure() {
    let ev = Evaluator::new().with_scorer(Box::new(InformativenessScorer));
    let out = ev.evaluate(&[CandidateGroup::new("lit", Vec::<String>::new())], 0);
    assert!(matches!(
        out[0].as_ref().unwrap_err().error,
        CoreError::EmptyGroup { .. }
    ));
}

#[test]
fn component_criteria_are_skipped_without_components_and_extracted_with_extractor() {
    let g = group(
        "He ran.",
        &["He ran like the wind.", "He ran like a very fast horse."],
    );
    let ev = Evaluator::new().with_scorer(Box::new(InformativenessScorer));
    let r = ev.evaluate(std::slice::from_ref(&g), 0).remove(0).unwrap();
    assert_eq!(r.skipped.len(), 1);
    assert_eq!(r.skipped[0].criterion, Criterion::Informativeness);
    assert!(r.candidates[0].scores.is_empty());
    assert_eq!(r.candidates[0].rank, None);

    let ev = Evaluator::new()
        .with_scorer(Box::new(InformativenessScorer))
        .with_extractor(Box::new(FixedExtractor));
    let r = ev.evaluate(&[g], 0).remove(0).unwrap();
    assert!(r.skipped.is_empty());
    assert_eq!(r.candidates[1].scores[0].raw, 4.0);
    assert_eq!(r.candidates[1].rank, Some(1));
    assert!(render_signatures(&ev.signatures()).contains("fixed|"));
}

#[test]
fn parallel_and_sequential_runs_agree() {
    let groups: Vec<_> = (0..50)
        .map(|i| {
            let cands: Vec<String> = (0..5)
                .map(|k| "x".repeat((i * 7 + k * 3) % 11 + 1))
                .collect();
            CandidateGroup::new(format!("l{i}"), cands)
        })
        .collect();
    let make = || {
        let (r, _, _) = len_scorer(Criterion::Relevance);
        Evaluator::new().with_scorer(r)
    };
    let all = make().evaluate(&groups, 0);
    let one_by_one: Vec<_> = groups
        .iter()
        .enumerate()
        .flat_map(|(i, g)| make().evaluate(std::slice::from_ref(g), i))
        .collect();
    assert_eq!(all, one_by_one);
}

#[test]
fn traits_are_object_safe_and_thread_safe() {
    fn assert_send_sync<T: Send + Sync + ?Sized>() {}
    assert_send_sync::<dyn Scorer>();
    assert_send_sync::<dyn Reranker>();
    assert_send_sync::<dyn ComponentExtractor>();
    assert_send_sync::<Evaluator>();
}
