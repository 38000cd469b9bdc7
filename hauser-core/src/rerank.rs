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
//!
//! [`ScoreReranker`] ranks by one criterion alone (a metric's scores, e.g. `hauser rerank`'s
//! QE or MBR scores).

use crate::criterion::{Criterion, Direction};
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

/// Ranks candidates by one criterion's scores alone, in the criterion's direction.
///
/// Ranks are ordinal (1 = best, every rank used once), so that exactly one candidate is the
/// best, as an argmax picks it: equal scores are ordered by position in the input, earlier
/// first (`torch.argmax` and `np.argmax` also return the first maximum); NaN scores (no score)
/// come after every number, in input order. The scores are used as given: raw or min-max
/// normalised, the order is the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreReranker {
    criterion: Criterion,
    direction: Direction,
}

impl ScoreReranker {
    /// Ranks by `criterion`, whose best score is the highest or the lowest as `direction` says.
    pub fn new(criterion: Criterion, direction: Direction) -> Self {
        Self {
            criterion,
            direction,
        }
    }

    /// The criterion ranked by.
    pub fn criterion(&self) -> &Criterion {
        &self.criterion
    }

    /// The direction of the scores.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The rank (1 = best) of every score, by the rules of the type's documentation.
    pub fn ranks(&self, scores: &[f64]) -> Vec<usize> {
        let lower = self.direction == Direction::LowerIsBetter;
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (scores[a], scores[b]);
            let by_score = match (x.is_nan(), y.is_nan()) {
                (true, true) => std::cmp::Ordering::Equal,
                (true, false) => std::cmp::Ordering::Greater,
                (false, true) => std::cmp::Ordering::Less,
                (false, false) if lower => x.total_cmp(&y),
                (false, false) => y.total_cmp(&x),
            };
            // -0.0 and 0.0 are equal scores: total_cmp alone would order them.
            let by_score = if x == y {
                std::cmp::Ordering::Equal
            } else {
                by_score
            };
            by_score.then_with(|| a.cmp(&b))
        });
        let mut ranks = vec![0; scores.len()];
        for (position, &candidate) in order.iter().enumerate() {
            ranks[candidate] = position + 1;
        }
        ranks
    }
}

impl Reranker for ScoreReranker {
    fn signature(&self) -> Signature {
        Signature::new("rerank", CORE_VERSION)
            .with("method", "score")
            .with("criterion", &self.criterion)
            .with(
                "best",
                match self.direction {
                    Direction::LowerIsBetter => "lowest",
                    _ => "highest",
                },
            )
            .with("ties", "input-order,nan-last")
    }

    /// Ranks by the entry of the reranker's criterion; `None` when there is none with `n`
    /// scores.
    fn rank(&self, scores: &[(Criterion, Vec<f64>)], n: usize) -> Option<Vec<usize>> {
        scores
            .iter()
            .find(|(c, v)| *c == self.criterion && v.len() == n)
            .map(|(_, v)| self.ranks(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn other(name: &str) -> Criterion {
        Criterion::Other(name.into())
    }

    #[test]
    fn score_reranker_orders_by_direction_first_wins_ties_nan_last() {
        let high = ScoreReranker::new(other("chrf"), Direction::HigherIsBetter);
        assert_eq!(high.ranks(&[0.2, 0.9, 0.5]), vec![3, 1, 2]);
        assert_eq!(high.ranks(&[0.5, 0.9, 0.9, 0.5]), vec![3, 1, 2, 4]);
        assert_eq!(
            high.ranks(&[f64::NAN, 0.1, f64::NAN, -3.0]),
            vec![3, 1, 4, 2]
        );
        assert_eq!(high.ranks(&[-0.0, 0.0]), vec![1, 2]);
        assert_eq!(high.ranks(&[f64::NAN]), vec![1]);
        assert_eq!(high.ranks(&[]), Vec::<usize>::new());
        let low = ScoreReranker::new(other("ter"), Direction::LowerIsBetter);
        assert_eq!(low.ranks(&[0.2, 0.9, 0.2, f64::NAN]), vec![1, 3, 2, 4]);
        assert_eq!(
            low.rank(&[(other("ter"), vec![3.0, 1.0])], 2),
            Some(vec![2, 1])
        );
        assert_eq!(low.rank(&[(other("chrf"), vec![3.0, 1.0])], 2), None);
        assert_eq!(low.rank(&[(other("ter"), vec![3.0])], 2), None);
        let sig = low.signature().to_string();
        assert!(
            sig.contains("criterion:ter") && sig.contains("best:lowest"),
            "{sig}"
        );
    }

    proptest! {
        #[test]
        fn score_reranker_ranks_are_a_permutation_consistent_with_the_scores(
            xs in proptest::collection::vec(prop_oneof![-5i32..5, Just(99)], 0..12),
            lower in any::<bool>(),
        ) {
            // 99 stands for NaN; small integers make ties frequent.
            let scores: Vec<f64> = xs.iter().map(|&x| if x == 99 { f64::NAN } else { f64::from(x) }).collect();
            let direction = if lower { Direction::LowerIsBetter } else { Direction::HigherIsBetter };
            let ranks = ScoreReranker::new(other("m"), direction).ranks(&scores);
            let mut sorted = ranks.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (1..=scores.len()).collect::<Vec<_>>());
            for a in 0..scores.len() {
                for b in 0..scores.len() {
                    let (x, y) = (scores[a], scores[b]);
                    let better = match (x.is_nan(), y.is_nan()) {
                        (false, true) => true,
                        (true, _) => false,
                        _ if lower => x < y,
                        _ => x > y,
                    };
                    let tied = (x.is_nan() && y.is_nan()) || x == y;
                    if better || (tied && a < b) {
                        prop_assert!(ranks[a] < ranks[b], "{:?} {:?}", scores, ranks);
                    }
                }
            }
        }
    }

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
