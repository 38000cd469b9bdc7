//! The plug-in traits: [`Scorer`], [`Reranker`] and [`ComponentExtractor`].
//!
//! All three are object-safe and `Send + Sync`, so a pipeline holds them as trait objects and
//! may call them from several threads.

use crate::criterion::{Criterion, Direction, TieRule};
use crate::error::Result;
use crate::signature::Signature;
use crate::types::{CandidateGroup, Components};

/// Scores simile candidates on one criterion.
///
/// A scorer receives many groups per call so that neural scorers can batch across literals
/// (one literal has only about five candidates); it returns, for each group, one raw score per
/// candidate in candidate order, or an error for that group alone. Normalisation is not the
/// scorer's job: the pipeline normalises raw scores per group with the scorer's
/// [`Scorer::direction`] and [`Scorer::tie_rule`].
///
/// Implementations rarely write the per-group loop themselves: [`crate::adapter::per_candidate`]
/// builds the result from a function of one candidate, [`crate::adapter::batched`] from one
/// function over all candidates of the call.
///
/// ```
/// use hauser_core::adapter::{per_candidate, CandidateRef};
/// use hauser_core::{CandidateGroup, Criterion, Direction, Result, Scorer, Signature};
///
/// /// Shorter similes are better: a lower-is-better custom criterion.
/// struct Length;
///
/// impl Scorer for Length {
///     fn criterion(&self) -> Criterion {
///         Criterion::Other("length".into())
///     }
///     fn signature(&self) -> Signature {
///         Signature::new("length", "example").with("unit", "bytes")
///     }
///     fn direction(&self) -> Direction {
///         Direction::LowerIsBetter
///     }
///     fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<Result<Vec<f64>>> {
///         per_candidate(groups, |c: CandidateRef<'_>| Ok(c.text().len() as f64))
///     }
/// }
///
/// let group = CandidateGroup::new("He ran.", ["He ran like the wind.", "He ran like a deer."]);
/// assert_eq!(Length.score_groups(&[group]), vec![Ok(vec![21.0, 19.0])]);
/// ```
pub trait Scorer: Send + Sync {
    /// The criterion this scorer measures; its name is the output key.
    fn criterion(&self) -> Criterion;

    /// Everything needed to reproduce the scores.
    fn signature(&self) -> Signature;

    /// Which end of the raw scale is good; normalisation gives the best candidate 1.
    /// Defaults to the criterion's ([`Criterion::direction`]: higher is better).
    fn direction(&self) -> Direction {
        self.criterion().direction()
    }

    /// How normalisation treats a group whose raw scores are all equal. Defaults to the
    /// criterion's ([`Criterion::tie_rule`]).
    fn tie_rule(&self) -> TieRule {
        self.criterion().tie_rule()
    }

    /// True when the scorer reads [`crate::Candidate::components`]; the pipeline then fills
    /// components (from an extractor) or skips this criterion for groups that lack them.
    fn needs_components(&self) -> bool {
        false
    }

    /// Raw scores: `result[g][c]` for candidate `c` of `groups[g]`; one result per group.
    ///
    /// The groups are borrowed so that the pipeline hands over any subset of its (possibly
    /// extracted) groups without copying them.
    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<Result<Vec<f64>>>;

    /// [`Scorer::score_batch`] for a slice of owned groups (direct use outside the pipeline).
    fn score_groups(&self, groups: &[CandidateGroup]) -> Vec<Result<Vec<f64>>> {
        let borrowed: Vec<&CandidateGroup> = groups.iter().collect();
        self.score_batch(&borrowed)
    }
}

/// Forwards every method, so that `Box<dyn Scorer>` and `Arc<dyn Scorer>` are scorers too.
macro_rules! forward_scorer {
    ($($ptr:ident)::+) => {
        impl<S: Scorer + ?Sized> Scorer for $($ptr)::+<S> {
            fn criterion(&self) -> Criterion {
                (**self).criterion()
            }
            fn signature(&self) -> Signature {
                (**self).signature()
            }
            fn direction(&self) -> Direction {
                (**self).direction()
            }
            fn tie_rule(&self) -> TieRule {
                (**self).tie_rule()
            }
            fn needs_components(&self) -> bool {
                (**self).needs_components()
            }
            fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<Result<Vec<f64>>> {
                (**self).score_batch(groups)
            }
        }
    };
}

forward_scorer!(Box);
forward_scorer!(std::sync::Arc);

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

impl<R: Reranker + ?Sized> Reranker for Box<R> {
    fn signature(&self) -> Signature {
        (**self).signature()
    }
    fn rank(&self, scores: &[(Criterion, Vec<f64>)], n_candidates: usize) -> Option<Vec<usize>> {
        (**self).rank(scores, n_candidates)
    }
}

impl<E: ComponentExtractor + ?Sized> ComponentExtractor for Box<E> {
    fn signature(&self) -> Signature {
        (**self).signature()
    }
    fn extract(&self, simile: &str, literal: Option<&str>) -> Result<Vec<Components>> {
        (**self).extract(simile, literal)
    }
}
