//! Results of an evaluation: per-candidate raw and normalised scores, quality and rank.

use serde::Serialize;

use crate::criterion::Criterion;
use crate::error::CoreError;
use crate::types::Components;

/// One criterion's score of one candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CriterionScore {
    /// The criterion.
    pub criterion: Criterion,
    /// The scorer's raw value (NaN when it could not be computed for this candidate).
    pub raw: f64,
    /// The value after per-group normalisation, in [0, 1].
    pub normalized: f64,
}

/// Everything computed for one candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateReport {
    /// Position of the candidate in its group.
    pub index: usize,
    /// The simile text.
    pub text: String,
    /// The components the scorers used (given or extracted).
    pub components: Option<Vec<Components>>,
    /// One entry per criterion that ran, in scorer order.
    pub scores: Vec<CriterionScore>,
    /// Weighted quality, when its parts ran.
    pub quality: Option<f64>,
    /// Rank within the group (1 = best), when the reranker had something to rank by.
    pub rank: Option<usize>,
}

impl CandidateReport {
    /// The score of `criterion`, if it ran.
    pub fn score(&self, criterion: &Criterion) -> Option<&CriterionScore> {
        self.scores.iter().find(|s| &s.criterion == criterion)
    }
}

/// A criterion that did not run on a group, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// The criterion.
    pub criterion: Criterion,
    /// Why it did not run.
    pub reason: String,
}

/// The evaluation of one candidate group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupReport {
    /// Position of the group in the input.
    pub index: usize,
    /// The caller's id, if any.
    pub id: Option<String>,
    /// One report per candidate, in input order.
    pub candidates: Vec<CandidateReport>,
    /// Criteria that could not run on this group.
    pub skipped: Vec<Skipped>,
}

/// A group that could not be evaluated. Its candidates still count: callers emit one error
/// record per candidate (`n_candidates`), or one for the group when it has none.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupFailure {
    /// Position of the group in the input.
    pub index: usize,
    /// The caller's id, if any.
    pub id: Option<String>,
    /// Number of candidates the group had.
    pub n_candidates: usize,
    /// What went wrong.
    pub error: CoreError,
}

impl GroupFailure {
    /// The `candidate` field of each error record the failure yields: one per candidate, or a
    /// single `None` (the whole group) when it had none, so that no input is lost.
    ///
    /// ```
    /// use hauser_core::{CoreError, GroupFailure};
    /// let f = |n| GroupFailure { index: 0, id: None, n_candidates: n, error: CoreError::EmptyGroup { group: "g".into() } };
    /// assert_eq!(f(2).record_slots().collect::<Vec<_>>(), [Some(0), Some(1)]);
    /// assert_eq!(f(0).record_slots().collect::<Vec<_>>(), [None]);
    /// ```
    pub fn record_slots(&self) -> impl Iterator<Item = Option<usize>> {
        let group = (self.n_candidates == 0).then_some(None);
        group.into_iter().chain((0..self.n_candidates).map(Some))
    }
}

/// Outcome of evaluating one group.
pub type GroupOutcome = std::result::Result<GroupReport, GroupFailure>;
