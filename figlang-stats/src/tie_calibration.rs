//! Tie calibration (Deutsch, Foster and Freitag 2023, "Ties Matter"): the metric tie threshold
//! epsilon that maximises tau_23 or acc_23 (acc*_eq), as mt-metrics-eval's
//! `stats.KendallWithTiesOpt` / `tau_optimization.tau_optimization` search it.

use hauser_core::limits::try_vec;
use serde::Serialize;

use super::error::{StatsError, StatsResult};
use super::grouping::{Grouping, PackedScores};
use super::kendall_variants::{KendallVariant, TauCounts};
use super::numpy_rng::{legacy_random_sample, Mt19937};

/// Which pairs the calibration looks at.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[non_exhaustive]
pub enum PairSampling {
    /// Every pair (mt-metrics-eval's `sample_rate=1.0`; exact).
    All,
    /// Each pair kept when a uniform draw is `<= rate` (`0 < rate <= 1`), drawn in pair order
    /// from NumPy's legacy global stream after `np.random.seed(seed)`, so the same pairs as
    /// mt-metrics-eval's `sample_rate=rate` are kept.
    Sampled {
        /// Share of pairs kept, in (0, 1].
        rate: f64,
        /// The `np.random.seed` value.
        seed: u32,
    },
}

/// The result of the threshold search.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TieCalibration {
    /// The best mean of the variant over groups: acc*_eq for [`KendallVariant::Acc23`].
    pub tau: f64,
    /// The threshold reaching it (the first, the smallest, among equal maxima).
    pub epsilon: f64,
    /// Every candidate threshold, increasing: 0, then each distinct |metric difference| of a pair.
    pub thresholds: Vec<f64>,
    /// The mean variant at each threshold.
    pub taus: Vec<f64>,
}

/// One pair of the search: its group, its |metric difference|, and its counts untied and tied.
struct Pair {
    group: usize,
    diff: f64,
    tied_human: bool,
    counts: TauCounts,
}

/// The tie threshold on the metric that maximises the mean of `variant` (tau_23 or acc_23) over
/// the groups of `scores`, searched as mt-metrics-eval's `KendallWithTiesOpt(human, metric,
/// variant, num_sys, average_by, sample_rate)`: every pair's |metric difference| is a
/// candidate; raising the threshold past it turns the pair into a metric tie; groups without a
/// pair (fewer than two scored items, or none sampled) are left out of the mean.
///
/// The search walks the pairs by increasing difference and updates the running sum of group
/// values in the reference's order, so the taus (and so the chosen threshold among near-equal
/// maxima) match it to the last bit. O(P log P) time and O(P) memory for P pairs (P grows with
/// the square of a group's size: Grouping::None over many segments is costly, as in the
/// reference; the allocation is checked against the memory limit first).
///
/// Errors: `variant` B or C (only the *23 variants take a threshold), a rate outside (0, 1],
/// no pair at all (mt-metrics-eval divides by zero), the memory limit.
///
/// ```
/// use figlang_stats::{kendall_with_ties_opt, Grouping, KendallVariant, PackedScores, PairSampling};
/// // One system, five segments; humans tie segments 0 and 1, the metric nearly does.
/// let human = [1.0, 1.0, 2.0, 3.0, 4.0];
/// let metric = [0.50, 0.52, 0.7, 0.9, 1.2];
/// let s = PackedScores::new(&human, &metric, 1).unwrap();
/// let c = kendall_with_ties_opt(&s, Grouping::None, KendallVariant::Acc23, PairSampling::All).unwrap();
/// assert!((c.epsilon - 0.02).abs() < 1e-12);
/// assert_eq!(c.tau, 1.0);
/// ```
pub fn kendall_with_ties_opt(
    scores: &PackedScores<'_>,
    grouping: Grouping,
    variant: KendallVariant,
    sampling: PairSampling,
) -> StatsResult<TieCalibration> {
    const WHAT: &str = "kendall_with_ties_opt";
    let value: fn(&TauCounts) -> f64 = match variant {
        KendallVariant::Tau23 => TauCounts::tau_23,
        KendallVariant::Acc23 => TauCounts::acc_23,
        _ => {
            return Err(StatsError::InvalidArgument {
                what: WHAT,
                message: "only the tau_23 and acc_23 variants take a tie threshold".into(),
            })
        }
    };
    let mut draw = match sampling {
        PairSampling::All => None,
        PairSampling::Sampled { rate, seed } => {
            if !(rate > 0.0 && rate <= 1.0) {
                return Err(StatsError::InvalidArgument {
                    what: WHAT,
                    message: format!("the sample rate must be in (0, 1], got {rate}"),
                });
            }
            // The reference draws nothing when the rate is exactly 1.
            (rate < 1.0).then(|| (Mt19937::seed(seed), rate))
        }
    };

    let groups = scores.groups(grouping);
    let total_pairs: usize = groups
        .iter()
        .map(|(h, _)| h.len() * h.len().saturating_sub(1) / 2)
        .sum();
    let mut pairs: Vec<Pair> = try_vec(WHAT, if draw.is_some() { 0 } else { total_pairs })?;
    let mut counts = vec![TauCounts::default(); groups.len()];
    let mut used = vec![false; groups.len()];
    for (g, (h, m)) in groups.iter().enumerate() {
        for i in 0..h.len() {
            for j in i + 1..h.len() {
                if let Some((rng, rate)) = draw.as_mut() {
                    if legacy_random_sample(rng) > *rate {
                        continue;
                    }
                }
                let mut c = TauCounts::default();
                c.add_pair(h[i] - h[j], m[i] - m[j], 0.0);
                counts[g] = add(counts[g], c);
                used[g] = true;
                pairs.push(Pair {
                    group: g,
                    diff: (m[i] - m[j]).abs(),
                    tied_human: h[i] == h[j],
                    counts: c,
                });
            }
        }
    }
    let num_groups = used.iter().filter(|&&u| u).count();
    if num_groups == 0 {
        return Err(StatsError::TooFewItems {
            what: WHAT,
            needed: 2,
            got: 0,
        });
    }
    let n = num_groups as f64;

    let mut total: f64 = (0..groups.len())
        .filter(|&g| used[g])
        .fold(0.0, |acc, g| acc + value(&counts[g]));
    let mut thresholds = vec![0.0];
    let mut taus = vec![total / n];
    // A stable sort: pairs of equal difference stay in enumeration order, as in Python.
    pairs.sort_by(|a, b| a.diff.total_cmp(&b.diff));
    for p in &pairs {
        total -= value(&counts[p.group]);
        let tied = if p.tied_human {
            TauCounts {
                ties_both: 1,
                ..TauCounts::default()
            }
        } else {
            TauCounts {
                ties_metric: 1,
                ..TauCounts::default()
            }
        };
        counts[p.group] = add(sub(counts[p.group], p.counts), tied);
        total += value(&counts[p.group]);
        let mean = total / n;
        // Pairs with the same difference tie together: the threshold's value is the one after
        // its last pair.
        if thresholds.last() == Some(&p.diff) {
            *taus.last_mut().expect("taus start non-empty") = mean;
        } else {
            thresholds.push(p.diff);
            taus.push(mean);
        }
    }
    // First maximum, as np.nanargmax (no value is NaN: every counted group has a pair).
    let best = taus
        .iter()
        .enumerate()
        .fold(0, |b, (i, &t)| if t > taus[b] { i } else { b });
    Ok(TieCalibration {
        tau: taus[best],
        epsilon: thresholds[best],
        thresholds,
        taus,
    })
}

fn add(a: TauCounts, b: TauCounts) -> TauCounts {
    TauCounts {
        concordant: a.concordant + b.concordant,
        discordant: a.discordant + b.discordant,
        ties_human: a.ties_human + b.ties_human,
        ties_metric: a.ties_metric + b.ties_metric,
        ties_both: a.ties_both + b.ties_both,
    }
}

fn sub(a: TauCounts, b: TauCounts) -> TauCounts {
    TauCounts {
        concordant: a.concordant - b.concordant,
        discordant: a.discordant - b.discordant,
        ties_human: a.ties_human - b.ties_human,
        ties_metric: a.ties_metric - b.ties_metric,
        ties_both: a.ties_both - b.ties_both,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kendall_variants::kendall_variant;

    #[test]
    fn best_tau_equals_the_variant_at_the_best_threshold() {
        let human = [1.0, 1.0, 2.0, 2.0, 3.0, 0.0, 4.0, 4.0];
        let metric = [0.3, 0.35, 0.5, 0.8, 0.81, 0.1, 0.2, 0.9];
        let s = PackedScores::new(&human, &metric, 1).unwrap();
        let c = kendall_with_ties_opt(&s, Grouping::None, KendallVariant::Acc23, PairSampling::All)
            .unwrap();
        let direct = kendall_variant(&human, &metric, KendallVariant::Acc23, c.epsilon).unwrap();
        assert!((c.tau - direct).abs() < 1e-12);
        assert!(c.taus.iter().all(|&t| t <= c.tau));
        assert_eq!(c.thresholds.len(), c.taus.len());
    }

    #[test]
    fn tau_b_and_empty_input_are_errors() {
        let s = PackedScores::new(&[1.0, 2.0], &[1.0, 2.0], 2).unwrap();
        let all = PairSampling::All;
        assert!(kendall_with_ties_opt(&s, Grouping::None, KendallVariant::B, all).is_err());
        assert!(kendall_with_ties_opt(&s, Grouping::Sys, KendallVariant::Acc23, all).is_err());
        let bad = PairSampling::Sampled { rate: 0.0, seed: 1 };
        assert!(kendall_with_ties_opt(&s, Grouping::None, KendallVariant::Acc23, bad).is_err());
    }
}
