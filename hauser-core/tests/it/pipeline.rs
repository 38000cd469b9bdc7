//! Pipeline behaviour with mock scorers: batching across groups, skipping, failures, quality.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use hauser_core::*;

/// Scores each candidate by its text length; records how many groups each call received.
/// Also records the address of every group it is lent, to check the pipeline does not copy.
struct LenScorer {
    criterion: Criterion,
    direction: Direction,
    tie_rule: Option<TieRule>,
    calls: Arc<AtomicUsize>,
    groups_seen: Arc<AtomicUsize>,
    addresses: Arc<Mutex<Vec<usize>>>,
}

impl LenScorer {
    fn new(criterion: Criterion) -> Self {
        Self {
            criterion,
            direction: Direction::HigherIsBetter,
            tie_rule: None,
            calls: Arc::default(),
            groups_seen: Arc::default(),
            addresses: Arc::default(),
        }
    }
}

impl Scorer for LenScorer {
    fn criterion(&self) -> Criterion {
        self.criterion.clone()
    }
    fn signature(&self) -> Signature {
        Signature::new(self.criterion.as_str(), "test")
    }
    fn direction(&self) -> Direction {
        self.direction
    }
    fn tie_rule(&self) -> TieRule {
        self.tie_rule.unwrap_or_else(|| self.criterion.tie_rule())
    }
    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<Result<Vec<f64>>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.groups_seen.fetch_add(groups.len(), Ordering::SeqCst);
        if let Ok(mut a) = self.addresses.lock() {
            a.extend(groups.iter().map(|g| *g as *const CandidateGroup as usize));
        }
        adapter::per_candidate(groups, |c| {
            if c.literal() == "fail" {
                return Err(CoreError::scorer("len", "boom"));
            }
            Ok(c.text().len() as f64)
        })
    }
}

fn len_scorer(criterion: Criterion) -> (Box<dyn Scorer>, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let s = LenScorer::new(criterion);
    let (calls, seen) = (s.calls.clone(), s.groups_seen.clone());
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
    let ev = Evaluator::new().with_scorer(InformativenessScorer);
    let out = ev.evaluate(&[CandidateGroup::new("lit", Vec::<String>::new())], 0);
    assert!(matches!(
        out[0].as_ref().unwrap_err().error,
        CoreError::EmptyGroup { .. }
    ));
}

#[test]
fn empty_group_names_its_own_position() {
    // Issue 29: the fourth group of an input was reported as "group 0: no candidates".
    let ev = Evaluator::new().with_scorer(InformativenessScorer);
    let groups = [
        group("a", &["x"]),
        CandidateGroup::new("lit", Vec::<String>::new()),
    ];
    let out = ev.evaluate(&groups, 2);
    let f = out[1].as_ref().unwrap_err();
    assert_eq!(f.index, 3);
    assert_eq!(f.error.to_string(), "group 3: no candidates");
    // Positions that are not consecutive (lines left out by the caller).
    let out = ev.evaluate_at(&groups, |k| [5, 9][k]);
    assert_eq!(out[0].as_ref().unwrap().index, 5);
    let f = out[1].as_ref().unwrap_err();
    assert_eq!(
        (f.index, f.error.to_string().as_str()),
        (9, "group 9: no candidates")
    );
}

#[test]
fn component_criteria_are_skipped_without_components_and_extracted_with_extractor() {
    let g = group(
        "He ran.",
        &["He ran like the wind.", "He ran like a very fast horse."],
    );
    let ev = Evaluator::new().with_scorer(InformativenessScorer);
    let r = ev.evaluate(std::slice::from_ref(&g), 0).remove(0).unwrap();
    assert_eq!(r.skipped.len(), 1);
    assert_eq!(r.skipped[0].criterion, Criterion::Informativeness);
    assert!(r.candidates[0].scores.is_empty());
    assert_eq!(r.candidates[0].rank, None);

    let ev = Evaluator::new()
        .with_scorer(InformativenessScorer)
        .with_extractor(FixedExtractor);
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

#[test]
fn scorers_are_lent_the_callers_groups_without_copies() {
    let s = LenScorer::new(Criterion::Relevance);
    let addresses = s.addresses.clone();
    let groups = vec![
        group("a", &["x"]),
        CandidateGroup::new("empty", Vec::<String>::new()),
        group("b", &["y", "zz"]),
    ];
    let out = Evaluator::new().with_scorer(s).evaluate(&groups, 0);
    assert!(out[1].is_err());
    let expected: Vec<usize> = [&groups[0], &groups[2]]
        .iter()
        .map(|g| *g as *const CandidateGroup as usize)
        .collect();
    assert_eq!(*addresses.lock().unwrap(), expected);
}

#[test]
fn lower_is_better_criterion_gives_the_smallest_raw_score_one() {
    let length = Criterion::Other("length".into());
    let mut s = LenScorer::new(length.clone());
    s.direction = Direction::LowerIsBetter;
    let reranker = RankSumReranker::new(vec![(length.clone(), 1.0)]).unwrap();
    let ev = Evaluator::new().with_scorer(s).with_reranker(reranker);
    let r = ev
        .evaluate(&[group("x", &["ccc", "a", "bb"])], 0)
        .remove(0)
        .unwrap();
    let scores: Vec<(f64, f64)> = r
        .candidates
        .iter()
        .map(|c| c.score(&length).map(|s| (s.raw, s.normalized)).unwrap())
        .collect();
    assert_eq!(scores, vec![(3.0, 0.0), (1.0, 1.0), (2.0, 0.5)]);
    let ranks: Vec<_> = r.candidates.iter().map(|c| c.rank).collect();
    assert_eq!(ranks, vec![Some(3), Some(1), Some(2)]);
}

#[test]
fn a_scorer_tie_rule_overrides_its_criterion_default() {
    let tied = || group("x", &["aa", "bb"]);
    let normalized = |s: LenScorer| {
        let r = Evaluator::new().with_scorer(s).evaluate(&[tied()], 0);
        let r = r.into_iter().next().unwrap().unwrap();
        r.candidates
            .iter()
            .map(|c| c.scores[0].normalized)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        normalized(LenScorer::new(Criterion::Relevance)),
        vec![0.5, 0.5]
    );
    let mut zero = LenScorer::new(Criterion::Relevance);
    zero.tie_rule = Some(TieRule::Constant(0.0));
    assert_eq!(normalized(zero), vec![0.0, 0.0]);
    let mut one = LenScorer::new(Criterion::Other("custom".into()));
    one.tie_rule = Some(TieRule::Constant(1.0));
    assert_eq!(normalized(one), vec![1.0, 1.0]);
}

#[test]
fn boxed_and_shared_scorers_plug_in_like_plain_ones() {
    let g = || group("x", &["a", "bb"]);
    let plain = Evaluator::new().with_scorer(LenScorer::new(Criterion::Relevance));
    let boxed: Box<dyn Scorer> = Box::new(LenScorer::new(Criterion::Relevance));
    let shared: Arc<dyn Scorer> = Arc::new(LenScorer::new(Criterion::Relevance));
    let expected = plain.evaluate(&[g()], 0);
    assert!(expected[0].is_ok());
    assert_eq!(
        Evaluator::new().with_scorer(boxed).evaluate(&[g()], 0),
        expected
    );
    assert_eq!(
        Evaluator::new().with_scorer(shared).evaluate(&[g()], 0),
        expected
    );
}
