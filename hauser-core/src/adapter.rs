//! Scorer adapters: build the per-group results of [`crate::Scorer::score_batch`] from a
//! function of one candidate ([`per_candidate`]) or from one function over every candidate of
//! the call ([`batched`]), so that no scorer writes its own per-group loop, split or error fan-out.

use rayon::prelude::*;

use crate::error::{CoreError, Result};
use crate::types::{Candidate, CandidateGroup, Components};

/// One candidate seen with its group: what a scoring function needs (the simile, its literal,
/// its components, its position).
#[derive(Debug, Clone, Copy)]
pub struct CandidateRef<'a> {
    /// The group the candidate belongs to.
    pub group: &'a CandidateGroup,
    /// The candidate's index within its group.
    pub index: usize,
    /// The candidate.
    pub candidate: &'a Candidate,
}

impl<'a> CandidateRef<'a> {
    /// The simile sentence.
    pub fn text(&self) -> &'a str {
        &self.candidate.text
    }

    /// The literal sentence the simile was generated from.
    pub fn literal(&self) -> &'a str {
        &self.group.literal
    }

    /// The candidate's components.
    ///
    /// # Errors
    /// [`CoreError::MissingComponents`] (naming the candidate) when it carries none.
    pub fn components(&self) -> Result<&'a [Components]> {
        self.candidate
            .components
            .as_deref()
            .ok_or(CoreError::MissingComponents {
                candidate: self.index,
            })
    }
}

/// The candidates of `group`, in order, each with its group and index.
pub fn candidates(group: &CandidateGroup) -> impl ExactSizeIterator<Item = CandidateRef<'_>> {
    group
        .candidates
        .iter()
        .enumerate()
        .map(move |(index, candidate)| CandidateRef {
            group,
            index,
            candidate,
        })
}

/// Scores every candidate of every group with `score`, groups in parallel. A group's result is
/// the first error of its candidates, if any; other groups are unaffected.
///
/// ```
/// use hauser_core::adapter::per_candidate;
/// use hauser_core::{CandidateGroup, Components, CoreError};
///
/// let with = CandidateGroup::new("He ran.", ["He ran like a deer."])
///     .with_components(vec![vec![Components::new("he", "a deer", "ran")]])?;
/// let without = CandidateGroup::new("She sang.", ["She sang like a bird."]);
/// let vehicles = |c: hauser_core::adapter::CandidateRef<'_>| Ok(c.components()?.len() as f64);
/// let out = per_candidate(&[&with, &without], vehicles);
/// assert_eq!(out[0], Ok(vec![1.0]));
/// assert_eq!(out[1], Err(CoreError::MissingComponents { candidate: 0 }));
/// # Ok::<(), CoreError>(())
/// ```
pub fn per_candidate<F>(groups: &[&CandidateGroup], score: F) -> Vec<Result<Vec<f64>>>
where
    F: Fn(CandidateRef<'_>) -> Result<f64> + Sync,
{
    groups
        .par_iter()
        .map(|g| candidates(g).map(&score).collect())
        .collect()
}

/// Scores the candidates of all groups in one call of `score` (one model batch spanning
/// literals), then splits its flat scores back into groups. `score` gets the candidates in
/// group order and returns one score per candidate, or one error for the whole batch; a batch
/// error, or a batch with the wrong number of scores, becomes one error per group (naming
/// `scorer`).
///
/// ```
/// use hauser_core::adapter::batched;
/// use hauser_core::{CandidateGroup, CoreError};
///
/// let a = CandidateGroup::new("He ran.", ["He ran like a deer.", "He ran like the wind."]);
/// let b = CandidateGroup::new("She sang.", ["She sang like a bird."]);
/// let words = |batch: &[hauser_core::adapter::CandidateRef<'_>]| {
///     Ok(batch.iter().map(|c| c.text().split_whitespace().count() as f64).collect())
/// };
/// assert_eq!(batched("words", &[&a, &b], words), vec![Ok(vec![5.0, 5.0]), Ok(vec![5.0])]);
///
/// let down = |_: &[hauser_core::adapter::CandidateRef<'_>]| Err(CoreError::scorer("words", "model offline"));
/// let out = batched("words", &[&a, &b], down);
/// assert_eq!(out.len(), 2);
/// assert!(out.iter().all(|r| r.as_ref().unwrap_err().to_string() == "scorer words: model offline"));
/// ```
pub fn batched<F>(scorer: &str, groups: &[&CandidateGroup], score: F) -> Vec<Result<Vec<f64>>>
where
    F: FnOnce(&[CandidateRef<'_>]) -> Result<Vec<f64>>,
{
    let flat: Vec<CandidateRef<'_>> = groups.iter().flat_map(|g| candidates(g)).collect();
    let error = match score(&flat) {
        Ok(scores) if scores.len() == flat.len() => {
            let mut it = scores.into_iter();
            return groups
                .iter()
                .map(|g| Ok(it.by_ref().take(g.len()).collect()))
                .collect();
        }
        Ok(scores) => CoreError::ScoreCountMismatch {
            scorer: scorer.to_string(),
            got: scores.len(),
            expected: flat.len(),
        },
        Err(e) => e,
    };
    vec![Err(error); groups.len()]
}

/// Scores each group's candidates in a call of `score` of their own, the groups in parallel:
/// a group's scores then depend on that group alone, never on which other groups shared the
/// call (with floating-point kernels whose sums depend on the batch's shape, [`batched`] can
/// move a score in its last bits when the groups around it change, e.g. with `--chunk`).
/// Errors and wrong counts stay in their group (naming `scorer`).
///
/// ```
/// use hauser_core::adapter::per_group;
/// use hauser_core::CandidateGroup;
///
/// let a = CandidateGroup::new("He ran.", ["He ran like a deer.", "He ran like the wind."]);
/// let b = CandidateGroup::new("She sang.", ["She sang like a bird."]);
/// let size = |batch: &[hauser_core::adapter::CandidateRef<'_>]| Ok(vec![batch.len() as f64; batch.len()]);
/// assert_eq!(per_group("size", &[&a, &b], size), vec![Ok(vec![2.0, 2.0]), Ok(vec![1.0])]);
/// ```
pub fn per_group<F>(scorer: &str, groups: &[&CandidateGroup], score: F) -> Vec<Result<Vec<f64>>>
where
    F: Fn(&[CandidateRef<'_>]) -> Result<Vec<f64>> + Sync,
{
    groups
        .par_iter()
        .map(|g| {
            let batch: Vec<CandidateRef<'_>> = candidates(g).collect();
            if batch.is_empty() {
                return Ok(Vec::new());
            }
            match score(&batch)? {
                scores if scores.len() == batch.len() => Ok(scores),
                scores => Err(CoreError::ScoreCountMismatch {
                    scorer: scorer.to_string(),
                    got: scores.len(),
                    expected: batch.len(),
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(literal: &str, n: usize) -> CandidateGroup {
        CandidateGroup::new(literal, (0..n).map(|i| format!("{literal} {i}")))
    }

    #[test]
    fn batched_splits_in_group_order_and_sees_one_flat_batch() {
        let (a, b, c) = (group("a", 2), group("b", 0), group("c", 3));
        let mut seen = Vec::new();
        let out = batched("t", &[&a, &b, &c], |batch| {
            seen = batch
                .iter()
                .map(|c| (c.literal().to_string(), c.index))
                .collect();
            Ok((0..batch.len()).map(|i| i as f64).collect())
        });
        assert_eq!(
            out,
            vec![Ok(vec![0.0, 1.0]), Ok(vec![]), Ok(vec![2.0, 3.0, 4.0])]
        );
        assert_eq!(seen.len(), 5);
        assert_eq!(seen[2], ("c".to_string(), 0));
    }

    #[test]
    fn batched_wrong_count_fails_every_group() {
        let (a, b) = (group("a", 2), group("b", 1));
        let out = batched("t", &[&a, &b], |_| Ok(vec![1.0]));
        let expected = CoreError::ScoreCountMismatch {
            scorer: "t".into(),
            got: 1,
            expected: 3,
        };
        assert_eq!(out, vec![Err(expected.clone()), Err(expected)]);
    }

    #[test]
    fn per_group_calls_once_per_group_and_keeps_errors_in_their_group() {
        let (a, b, c) = (group("a", 2), group("b", 0), group("c", 3));
        let out = per_group("t", &[&a, &b, &c], |batch| {
            // Every call sees one literal only.
            assert!(batch.iter().all(|x| x.literal() == batch[0].literal()));
            if batch[0].literal() == "c" {
                Ok(vec![1.0])
            } else {
                Ok(batch.iter().map(|x| x.index as f64).collect())
            }
        });
        assert_eq!(out[0], Ok(vec![0.0, 1.0]));
        assert_eq!(out[1], Ok(vec![]));
        assert_eq!(
            out[2],
            Err(CoreError::ScoreCountMismatch {
                scorer: "t".into(),
                got: 1,
                expected: 3
            })
        );
    }

    #[test]
    fn per_candidate_errors_stay_in_their_group() {
        let (ok, bad) = (group("ok", 2), group("bad", 2));
        let out = per_candidate(&[&ok, &bad], |c| {
            if c.literal() == "bad" && c.index == 1 {
                Err(CoreError::scorer("t", "no"))
            } else {
                Ok(c.index as f64)
            }
        });
        assert_eq!(out[0], Ok(vec![0.0, 1.0]));
        assert!(out[1].is_err());
        assert!(per_candidate(&[], |_| Ok(0.0)).is_empty());
    }
}
