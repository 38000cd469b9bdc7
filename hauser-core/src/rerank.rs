//! HAUSER's reranker: combine the per-criterion rankings by quality, creativity and
//! informativeness with weights 2:2:1.
//!
//! Tie-breaking, in order, so that the result never depends on thread scheduling or sort
//! stability:
//! 1. Within one criterion, candidates with equal normalised scores share the best rank of their
//!    block (competition ranking, SciPy's `rankdata(method="min")` on the negated scores).
//! 2. Candidates are ordered by the weighted sum of their ranks, ascending.
//! 3. Equal sums are ordered by the first criterion's score (quality by default), higher first.
//! 4. Then by position in the input, earlier first.
//!
//! Criteria that did not run are left out of the sum; when none ran, no ranks are given.

use crate::criterion::Criterion;
use crate::error::{CoreError, Result};
use crate::scorer::Reranker;
use crate::signature::{Signature, CORE_VERSION};

/// The weighted rank-sum reranker of the HAUSER case study.
#[derive(Debug, Clone, PartialEq)]
pub struct RankSumReranker {
    weights: Vec<(Criterion, f64)>,
}

impl Default for RankSumReranker {
    fn default() -> Self {
        Self {
            weights: vec![
                (Criterion::Quality, 2.0),
                (Criterion::Creativity, 2.0),
                (Criterion::Informativeness, 1.0),
            ],
        }
    }
}

impl RankSumReranker {
    /// A reranker with custom `(criterion, weight)` pairs; the first criterion breaks ties.
    ///
    /// # Errors
    /// [`CoreError::InvalidWeights`] for an empty list or a negative or non-finite weight.
    pub fn new(weights: Vec<(Criterion, f64)>) -> Result<Self> {
        if weights.is_empty() {
            return Err(CoreError::InvalidWeights(
                "reranker needs at least one criterion".into(),
            ));
        }
        if weights.iter().any(|(_, w)| !w.is_finite() || *w < 0.0) {
            return Err(CoreError::InvalidWeights(format!(
                "reranker weights must be finite and non-negative: {weights:?}"
            )));
        }
        Ok(Self { weights })
    }

    /// Parses `"q:c:i"` weights for quality, creativity and informativeness, e.g. `"2:2:1"`.
    ///
    /// # Errors
    /// [`CoreError::InvalidWeights`] on a malformed string.
    pub fn parse(text: &str) -> Result<Self> {
        let values: Vec<f64> = text
            .split(':')
            .map(|p| p.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| CoreError::InvalidWeights(format!("expected q:c:i, got {text:?}")))?;
        let [q, c, i] = values[..] else {
            return Err(CoreError::InvalidWeights(format!(
                "expected q:c:i, got {text:?}"
            )));
        };
        Self::new(vec![
            (Criterion::Quality, q),
            (Criterion::Creativity, c),
            (Criterion::Informativeness, i),
        ])
    }

    /// The weighted rank sums (lower is better) for the criteria present, or `None`.
    pub fn rank_sums(&self, scores: &[(Criterion, Vec<f64>)], n: usize) -> Option<Vec<f64>> {
        let mut sums = vec![0.0; n];
        let mut any = false;
        for (criterion, weight) in &self.weights {
            let Some((_, values)) = scores.iter().find(|(c, v)| c == criterion && v.len() == n)
            else {
                continue;
            };
            any = true;
            for (sum, rank) in sums.iter_mut().zip(competition_ranks(values)) {
                *sum += weight * rank as f64;
            }
        }
        any.then_some(sums)
    }
}

/// Ranks with 1 = highest value; equal values share the best rank of their block.
/// NaN is treated as the lowest value.
pub fn competition_ranks(values: &[f64]) -> Vec<usize> {
    let key = |x: f64| if x.is_nan() { f64::NEG_INFINITY } else { x };
    values
        .iter()
        .map(|&x| 1 + values.iter().filter(|&&y| key(y) > key(x)).count())
        .collect()
}

impl Reranker for RankSumReranker {
    fn signature(&self) -> Signature {
        let weights = self
            .weights
            .iter()
            .map(|(c, w)| format!("{c}={w}"))
            .collect::<Vec<_>>()
            .join(",");
        Signature::new("rerank", CORE_VERSION)
            .with("method", "rank-sum")
            .with("weights", weights)
            .with("ties", "min-rank,first-criterion,input-order")
    }

    fn rank(&self, scores: &[(Criterion, Vec<f64>)], n: usize) -> Option<Vec<usize>> {
        let sums = self.rank_sums(scores, n)?;
        let first = self
            .weights
            .iter()
            .find_map(|(c, _)| scores.iter().find(|(s, v)| s == c && v.len() == n))
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| vec![0.0; n]);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            sums[a]
                .total_cmp(&sums[b])
                .then_with(|| first[b].total_cmp(&first[a]))
                .then_with(|| a.cmp(&b))
        });
        let mut ranks = vec![0; n];
        for (position, &candidate) in order.iter().enumerate() {
            ranks[candidate] = position + 1;
        }
        Some(ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn competition_ranks_share_best_rank() {
        assert_eq!(competition_ranks(&[0.5, 1.0, 0.5, 0.0]), vec![2, 1, 2, 4]);
        assert_eq!(competition_ranks(&[f64::NAN, 0.0]), vec![2, 1]);
    }

    #[test]
    fn two_two_one_combination() {
        // quality ranks 1,2,3; creativity ranks 3,1,2; informativeness ranks 3,2,1
        let scores = vec![
            (Criterion::Quality, vec![1.0, 0.5, 0.0]),
            (Criterion::Creativity, vec![0.0, 1.0, 0.5]),
            (Criterion::Informativeness, vec![0.0, 0.5, 1.0]),
        ];
        let r = RankSumReranker::default();
        // sums: 2+6+3=11, 4+2+2=8, 6+4+1=11
        assert_eq!(r.rank_sums(&scores, 3).unwrap(), vec![11.0, 8.0, 11.0]);
        // candidate 0 and 2 tie at 11: candidate 0 has higher quality
        assert_eq!(r.rank(&scores, 3).unwrap(), vec![2, 1, 3]);
    }

    #[test]
    fn full_ties_fall_back_to_input_order() {
        let scores = vec![(Criterion::Quality, vec![0.5, 0.5, 0.5])];
        let r = RankSumReranker::default();
        assert_eq!(r.rank(&scores, 3).unwrap(), vec![1, 2, 3]);
    }

    #[test]
    fn missing_criteria_are_left_out() {
        let scores = vec![(Criterion::Informativeness, vec![0.0, 1.0])];
        assert_eq!(
            RankSumReranker::default().rank(&scores, 2).unwrap(),
            vec![2, 1]
        );
        assert_eq!(RankSumReranker::default().rank(&[], 2), None);
    }

    #[test]
    fn parse_weights() {
        let r = RankSumReranker::parse("1:0:0").unwrap();
        let scores = vec![
            (Criterion::Quality, vec![0.0, 1.0]),
            (Criterion::Creativity, vec![1.0, 0.0]),
        ];
        assert_eq!(r.rank(&scores, 2).unwrap(), vec![2, 1]);
        assert!(RankSumReranker::parse("2:2").is_err());
        assert!(RankSumReranker::parse("2:-1:1").is_err());
        assert!(RankSumReranker::default()
            .signature()
            .to_string()
            .contains("quality=2"));
    }
}
