//! The plug-in traits: [`Scorer`], [`Reranker`] and [`ComponentExtractor`].
//!
//! All three are object-safe and `Send + Sync`, so a pipeline holds them as trait objects and
//! may call them from several threads.

use crate::criterion::Criterion;
use crate::error::Result;
use crate::signature::Signature;
use crate::types::{CandidateGroup, Components};

/// Scores simile candidates on one criterion.
///
/// A scorer receives many groups per call so that neural scorers can batch across literals
/// (one literal has only about five candidates); it returns, for each group, one raw score per
/// candidate in candidate order, or an error for that group alone. Normalisation is not the
/// scorer's job: the pipeline normalises raw scores per group with [`Criterion::tie_rule`].
pub trait Scorer: Send + Sync {
    /// The criterion this scorer measures; its name is the output key.
    fn criterion(&self) -> Criterion;

    /// Everything needed to reproduce the scores.
    fn signature(&self) -> Signature;

    /// True when the scorer reads [`crate::Candidate::components`]; the pipeline then fills
    /// components (from an extractor) or skips this criterion for groups that lack them.
    fn needs_components(&self) -> bool {
        false
    }

    /// Raw scores: `result[g][c]` for candidate `c` of `groups[g]`; one result per group.
    fn score_groups(&self, groups: &[CandidateGroup]) -> Vec<Result<Vec<f64>>>;
}

/// Orders the candidates of one group from best to worst.
pub trait Reranker: Send + Sync {
    /// The reranker's signature (weights and tie rules).
    fn signature(&self) -> Signature;

    /// Ranks (1 = best) for every candidate, given normalised per-criterion scores.
    ///
    /// `scores` holds one `(criterion, normalised scores)` entry per criterion that ran; each
    /// score vector has one value per candidate. Returns `None` when none of the criteria the
    /// reranker uses is present.
    fn rank(&self, scores: &[(Criterion, Vec<f64>)], n_candidates: usize) -> Option<Vec<usize>>;
}

/// Finds the topic, vehicle and event of the comparisons in a simile.
pub trait ComponentExtractor: Send + Sync {
    /// The extractor's signature.
    fn signature(&self) -> Signature;

    /// Components of every comparison in `simile`, in order of appearance; empty when the
    /// sentence holds no simile. `literal` is the sentence the simile was generated from, when
    /// known: the inserted comparison is then the difference between the two.
    fn extract(&self, simile: &str, literal: Option<&str>) -> Result<Vec<Components>>;
}
