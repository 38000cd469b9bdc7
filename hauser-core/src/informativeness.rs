//! Informativeness: how much the vehicles say, in word tokens.

use crate::adapter::per_candidate;
use crate::criterion::Criterion;
use crate::error::{CoreError, Result};
use crate::scorer::Scorer;
use crate::signature::{Signature, CORE_VERSION};
use crate::tokenize::word_tokenize;
use crate::types::{Candidate, CandidateGroup};

/// Raw informativeness = mean over the candidate's components of the number of word tokens of
/// the vehicle. A candidate with no vehicle scores NaN (normalised to 0, as in the reference).
#[derive(Debug, Clone, Copy, Default)]
pub struct InformativenessScorer;

impl InformativenessScorer {
    /// Raw score of one candidate.
    ///
    /// # Errors
    /// [`CoreError::MissingComponents`] when the candidate carries no component list.
    pub fn raw(candidate: &Candidate, index: usize) -> Result<f64> {
        let comps = candidate
            .components
            .as_ref()
            .ok_or(CoreError::MissingComponents { candidate: index })?;
        let lengths: Vec<usize> = comps
            .iter()
            .filter_map(|c| c.vehicle.as_deref())
            .map(|v| word_tokenize(v).len())
            .collect();
        if lengths.is_empty() {
            return Ok(f64::NAN);
        }
        Ok(lengths.iter().sum::<usize>() as f64 / lengths.len() as f64)
    }
}

impl Scorer for InformativenessScorer {
    fn criterion(&self) -> Criterion {
        Criterion::Informativeness
    }

    fn signature(&self) -> Signature {
        Signature::new("informativeness", CORE_VERSION)
            .with("tok", "treebank")
            .with("agg", "mean-vehicle-tokens")
    }

    fn needs_components(&self) -> bool {
        true
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<Result<Vec<f64>>> {
        per_candidate(groups, |c| Self::raw(c.candidate, c.index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Components;

    #[test]
    fn mean_vehicle_length_in_tokens() {
        let c = Candidate::with_components(
            "x",
            vec![
                Components::new("he", "a child", "wept"),
                Components::new("she", "a little old man's dog", "ran"),
            ],
        );
        // "a child" = 2, "a little old man 's dog" = 6
        assert_eq!(InformativenessScorer::raw(&c, 0).unwrap(), 4.0);
    }

    #[test]
    fn no_vehicle_is_nan_and_no_components_is_an_error() {
        let c = Candidate::with_components("x", vec![]);
        assert!(InformativenessScorer::raw(&c, 0).unwrap().is_nan());
        let c = Candidate::new("x");
        assert!(matches!(
            InformativenessScorer::raw(&c, 3),
            Err(CoreError::MissingComponents { candidate: 3 })
        ));
    }
}
