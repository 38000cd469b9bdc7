//! System-level accuracies of the WMT metrics task: pairwise accuracy (Kocmi et al. 2021, "To
//! Ship or Not to Ship") as mt-metrics-eval's `stats.Agreement` and
//! `data.CompareMetricsWithGlobalAccuracy` count it, and soft pairwise accuracy (Thompson et al.
//! 2024) as its `stats.PairwiseConfidenceError` computes it.

use std::iter::Sum;
use std::ops::Add;

use serde::Serialize;

use super::error::{StatsError, StatsResult};
use super::grouping::{check_packed, PackedScores};
use super::kendall_variants::counts_unchecked;
use super::numpy_rng::{random_f32, Pcg64};

/// Agreeing and counted system pairs; add the counts of several language pairs to pool them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PairwiseAccuracy {
    /// Pairs the metric orders as the humans do (both tied counts as agreeing).
    pub agree: u64,
    /// Pairs of systems that both have a human score.
    pub pairs: u64,
}

impl PairwiseAccuracy {
    /// `agree / pairs`; NaN without pairs.
    pub fn accuracy(&self) -> f64 {
        self.agree as f64 / self.pairs as f64
    }
}

impl Add for PairwiseAccuracy {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self {
            agree: self.agree + other.agree,
            pairs: self.pairs + other.pairs,
        }
    }
}

impl Sum for PairwiseAccuracy {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), Add::add)
    }
}

/// System-level pairwise accuracy of one group of systems (one language pair): the pairs
/// whose human and metric differences have the same sign (-1, 0 or +1), as `stats.Agreement`.
/// A NaN human score is a missing system, left out of every pair. The WMT global accuracy pools
/// language pairs by adding their counts (`data.CompareMetricsWithGlobalAccuracy`):
/// `groups.map(pairwise_accuracy).sum::<PairwiseAccuracy>().accuracy()`.
///
/// Errors: different lengths, an infinite human score, a non-finite metric score.
///
/// ```
/// use figlang_stats::pairwise_accuracy;
/// let human = [80.0, 75.0, 75.0, f64::NAN];
/// let metric = [0.9, 0.7, 0.8, 0.1];
/// let a = pairwise_accuracy(&human, &metric).unwrap();
/// // (0,1) and (0,2) agree; humans tie (1,2), the metric does not.
/// assert_eq!((a.agree, a.pairs), (2, 3));
/// ```
pub fn pairwise_accuracy(human: &[f64], metric: &[f64]) -> StatsResult<PairwiseAccuracy> {
    check_packed("pairwise_accuracy", human, metric)?;
    let (h, m): (Vec<f64>, Vec<f64>) = human
        .iter()
        .zip(metric)
        .filter(|(h, _)| !h.is_nan())
        .map(|(&h, &m)| (h, m))
        .unzip();
    // Agreement is acc_23 without a threshold: concordant or tied in both.
    let c = counts_unchecked(&h, &m, 0.0);
    Ok(PairwiseAccuracy {
        agree: c.concordant + c.ties_both,
        pairs: c.pairs(),
    })
}

/// Soft pairwise accuracy (SPA, Thompson et al. 2024): one minus the mean, over system pairs, of
/// |p_human - p_metric|, where p is the one-sided paired permutation p-value that the first
/// system of the pair beats the second, from the segment scores of each side (mt-metrics-eval's
/// `stats.PairwiseConfidenceError(human, metric, num_sys, num_permutations)`, with
/// `pce.compute_pairwise_p_values`' seed 4 unless told otherwise).
///
/// Draws: the reference's, reproduced (`default_rng(seed).random((permutations, segments),
/// float32)`, rounded to a +-1 sign per segment; the same signs for every system). Scores are
/// rounded to float32 as the reference does; a permutation counts when the segments it flips
/// favour the second system by at least as much as they favoured the first, which this
/// function computes from the flipped segments' sums in f64. The reference sums in float32 with
/// its BLAS's order, so the two agree exactly where those sums are exact (scores on a coarse
/// grid, as in the golden test) and elsewhere can differ in a permutation whose null delta
/// equals the observed one within float32 rounding.
///
/// Errors: a missing human score (the reference needs full matrices), fewer than 2 systems,
/// `permutations` 0.
pub fn soft_pairwise_accuracy(
    scores: &PackedScores<'_>,
    permutations: usize,
    seed: u64,
) -> StatsResult<f64> {
    const WHAT: &str = "soft_pairwise_accuracy";
    if scores.has_missing() {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: "every system needs a human score on every segment".into(),
        });
    }
    if scores.num_sys() < 2 {
        return Err(StatsError::TooFewItems {
            what: WHAT,
            needed: 2,
            got: scores.num_sys(),
        });
    }
    if permutations == 0 {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: "needs at least one permutation".into(),
        });
    }
    let ns = scores.num_sys();
    let nseg = scores.num_items();
    // The same flips serve both sides, as the reference draws the same stream twice.
    let mut rng = Pcg64::default_rng(Some(seed));
    let flips: Vec<bool> = (0..permutations * nseg)
        .map(|_| random_f32(&mut rng) <= 0.5) // rint(u) == 0: the segment's sign is -1
        .collect();
    let ph = pairwise_p_values(scores.human(), ns, nseg, &flips, permutations);
    let pm = pairwise_p_values(scores.metric(), ns, nseg, &flips, permutations);
    let npairs = ns * (ns - 1) / 2;
    let total: f64 = ph.iter().zip(&pm).map(|(a, b)| (a - b).abs()).sum();
    Ok(1.0 - total / npairs as f64)
}

/// One-sided p-values that system i beats system j (i < j, row-major over the upper triangle):
/// the share of permutations whose null delta `sum_s sign_s (x_is - x_js)` is at least the
/// observed `sum_s (x_is - x_js)`, i.e. whose flipped segments sum to `<= 0` in `x_i - x_j`.
fn pairwise_p_values(
    packed: &[f64],
    ns: usize,
    nseg: usize,
    flips: &[bool],
    permutations: usize,
) -> Vec<f64> {
    let x: Vec<f64> = packed.iter().map(|&v| f64::from(v as f32)).collect();
    let mut hits = vec![0usize; ns * (ns - 1) / 2];
    let mut flipped = vec![0.0f64; ns];
    for p in 0..permutations {
        let signs = &flips[p * nseg..(p + 1) * nseg];
        for (s, sum) in flipped.iter_mut().enumerate() {
            let row = &x[s * nseg..(s + 1) * nseg];
            *sum = row
                .iter()
                .zip(signs)
                .filter(|&(_, &f)| f)
                .map(|(v, _)| v)
                .sum();
        }
        let mut k = 0;
        for i in 0..ns {
            for j in i + 1..ns {
                if flipped[i] - flipped[j] <= 0.0 {
                    hits[k] += 1;
                }
                k += 1;
            }
        }
    }
    hits.into_iter()
        .map(|h| h as f64 / permutations as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_sides_give_one() {
        let h = [1.0, 2.0, 3.0, 0.5, 0.25, 4.0, 2.0, 2.0, 2.0];
        let s = PackedScores::new(&h, &h, 3).unwrap();
        assert_eq!(soft_pairwise_accuracy(&s, 200, 4).unwrap(), 1.0);
    }

    #[test]
    fn missing_humans_are_refused_and_skipped() {
        let h = [1.0, f64::NAN];
        let s = PackedScores::new(&h, &[1.0, 2.0], 2).unwrap();
        assert!(soft_pairwise_accuracy(&s, 10, 4).is_err());
        let a = pairwise_accuracy(&h, &[1.0, 2.0]).unwrap();
        assert_eq!((a.agree, a.pairs), (0, 0));
        assert!(a.accuracy().is_nan());
        assert_eq!(pairwise_accuracy(&[], &[]).unwrap().pairs, 0);
    }
}
