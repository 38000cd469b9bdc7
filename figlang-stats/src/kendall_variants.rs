//! The Kendall variants of the WMT metrics task (mt-metrics-eval's `stats.KendallVariants`):
//! tau-b, tau-c, and the tie-aware tau_23 and acc_23 of Deutsch, Foster and Freitag (2023),
//! "Ties Matter", with an optional tie threshold on the metric scores.

use serde::Serialize;

use super::error::{check_paired, StatsError, StatsResult};
use super::kendall::{tau_b_or_c, TauVariant};

/// Which Kendall variant [`kendall_variant`] computes (mt-metrics-eval's `variant` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum KendallVariant {
    /// Tau-b (`"b"`): ties in either variable shrink the denominator.
    B,
    /// Tau-c (`"c"`); no tie threshold.
    C,
    /// Tau_23 (`"23"`): a pair tied in both counts as concordant, a pair tied in one only as
    /// discordant, over all pairs.
    Tau23,
    /// Acc_23 (`"acc23"`): the share of pairs that are concordant or tied in both, the
    /// tie-calibrated pairwise accuracy acc_eq.
    Acc23,
}

/// How the pairs of two paired samples fall, with ties on the metric defined by a threshold
/// (mt-metrics-eval's `TauSufficientStats`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TauCounts {
    /// Ordered the same way by human and metric.
    pub concordant: u64,
    /// Ordered oppositely.
    pub discordant: u64,
    /// Tied on the human score only.
    pub ties_human: u64,
    /// Tied on the metric score only (|difference| <= epsilon).
    pub ties_metric: u64,
    /// Tied on both.
    pub ties_both: u64,
}

impl TauCounts {
    /// All pairs counted.
    pub fn pairs(&self) -> u64 {
        self.concordant + self.discordant + self.ties_human + self.ties_metric + self.ties_both
    }

    /// `(C + T_hm - D - T_h - T_m) / pairs`; NaN without pairs.
    pub fn tau_23(&self) -> f64 {
        // Integers first, one division: the same rounding as mt-metrics-eval's Python ints.
        let good = self.concordant + self.ties_both;
        let bad = self.discordant + self.ties_human + self.ties_metric;
        (good as f64 - bad as f64) / self.pairs() as f64
    }

    /// `(C + T_hm) / pairs`; NaN without pairs.
    pub fn acc_23(&self) -> f64 {
        (self.concordant + self.ties_both) as f64 / self.pairs() as f64
    }

    /// Adds the pair whose human and metric differences are `dh` and `dm`.
    pub(crate) fn add_pair(&mut self, dh: f64, dm: f64, epsilon: f64) {
        match (dh == 0.0, dm.abs() <= epsilon) {
            (true, true) => self.ties_both += 1,
            (true, false) => self.ties_human += 1,
            (false, true) => self.ties_metric += 1,
            (false, false) if (dh > 0.0) == (dm > 0.0) => self.concordant += 1,
            (false, false) => self.discordant += 1,
        }
    }
}

/// Checks a tie threshold: finite and non-negative.
pub(crate) fn check_epsilon(what: &'static str, epsilon: f64) -> StatsResult<()> {
    if epsilon.is_finite() && epsilon >= 0.0 {
        Ok(())
    } else {
        Err(StatsError::InvalidArgument {
            what,
            message: format!("the tie threshold epsilon must be finite and >= 0, got {epsilon}"),
        })
    }
}

/// Pair counts of `human` and `metric`; metric pairs within `epsilon` of each other are ties,
/// human pairs only when equal (mt-metrics-eval introduces ties into the metric only).
///
/// Errors: different lengths, non-finite values, a negative or non-finite `epsilon`.
pub fn tau_counts(human: &[f64], metric: &[f64], epsilon: f64) -> StatsResult<TauCounts> {
    check_paired("tau_counts", human, metric, 0)?;
    check_epsilon("tau_counts", epsilon)?;
    Ok(counts_unchecked(human, metric, epsilon))
}

/// [`tau_counts`] on input already checked. O(n^2) time, O(1) memory: WMT's groups are
/// segments or systems, small enough that a Fenwick tree does not pay.
pub(crate) fn counts_unchecked(human: &[f64], metric: &[f64], epsilon: f64) -> TauCounts {
    let mut c = TauCounts::default();
    for i in 0..human.len() {
        for j in i + 1..human.len() {
            c.add_pair(human[i] - human[j], metric[i] - metric[j], epsilon);
        }
    }
    c
}

/// A Kendall variant of human and metric scores as mt-metrics-eval's
/// `stats.KendallVariants(human, metric, variant, epsilon=epsilon)[0]`: metric differences of
/// at most `epsilon` count as ties. Tau-b and tau-c are NaN when either variable is all ties
/// (within epsilon for the metric); tau-b with epsilon 0 is `scipy.stats.kendalltau`'s.
///
/// Errors: different lengths, fewer than 2 items, non-finite values, a negative `epsilon`, or
/// tau-c with a positive epsilon (mt-metrics-eval leaves it undefined).
///
/// ```
/// use figlang_stats::{kendall_variant, KendallVariant};
/// let human = [1.0, 2.0, 2.0, 3.0];
/// let metric = [0.1, 0.5, 0.52, 0.9];
/// // With epsilon 0.05 the metric ties items 1 and 2 as the human does: every pair agrees.
/// assert_eq!(kendall_variant(&human, &metric, KendallVariant::Acc23, 0.05).unwrap(), 1.0);
/// assert_eq!(kendall_variant(&human, &metric, KendallVariant::Acc23, 0.0).unwrap(), 5.0 / 6.0);
/// ```
pub fn kendall_variant(
    human: &[f64],
    metric: &[f64],
    variant: KendallVariant,
    epsilon: f64,
) -> StatsResult<f64> {
    const WHAT: &str = "kendall_variant";
    check_paired(WHAT, human, metric, 2)?;
    check_epsilon(WHAT, epsilon)?;
    if variant == KendallVariant::C && epsilon > 0.0 {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: "tau-c takes no tie threshold (epsilon must be 0)".into(),
        });
    }
    Ok(variant_of_counts(
        &counts_unchecked(human, metric, epsilon),
        variant,
        human,
        metric,
    ))
}

/// The variant's value from the counts (`human` and `metric` only for tau-c's classes).
pub(crate) fn variant_of_counts(
    c: &TauCounts,
    variant: KendallVariant,
    human: &[f64],
    metric: &[f64],
) -> f64 {
    let tot = c.pairs();
    let metric_ties = c.ties_metric + c.ties_both;
    let human_ties = c.ties_human + c.ties_both;
    let tau_b_c = |v| {
        if metric_ties == tot || human_ties == tot {
            return f64::NAN;
        }
        let con_minus_dis = c.concordant as f64 - c.discordant as f64;
        // mt-metrics-eval puts the metric first (x) and the human second (y).
        tau_b_or_c(
            v,
            con_minus_dis,
            tot,
            metric_ties,
            human_ties,
            metric,
            human,
        )
    };
    match variant {
        KendallVariant::B => tau_b_c(TauVariant::B),
        KendallVariant::C => tau_b_c(TauVariant::C),
        KendallVariant::Tau23 => c.tau_23(),
        KendallVariant::Acc23 => c.acc_23(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kendall_tau;

    #[test]
    fn tau_b_without_threshold_is_scipys() {
        let h = [1.0, 2.0, 2.0, 3.0, 5.0, 4.0];
        let m = [0.3, 0.1, 0.4, 0.4, 0.9, 0.2];
        let ours = kendall_variant(&h, &m, KendallVariant::B, 0.0).unwrap();
        let scipy = kendall_tau(&h, &m, TauVariant::B).unwrap().statistic;
        assert!((ours - scipy).abs() < 1e-15);
    }

    #[test]
    fn counts_add_up_and_threshold_moves_pairs_to_ties() {
        let h = [1.0, 1.0, 2.0, 3.0];
        let m = [0.0, 0.1, 0.15, 1.0];
        let c0 = tau_counts(&h, &m, 0.0).unwrap();
        assert_eq!(c0.pairs(), 6);
        assert_eq!((c0.ties_human, c0.ties_both), (1, 0));
        let c1 = tau_counts(&h, &m, 0.1).unwrap();
        assert_eq!((c1.ties_human, c1.ties_both, c1.ties_metric), (0, 1, 1));
    }

    #[test]
    fn bad_thresholds_are_errors() {
        let (h, m) = ([1.0, 2.0], [1.0, 2.0]);
        assert!(kendall_variant(&h, &m, KendallVariant::Acc23, -0.1).is_err());
        assert!(kendall_variant(&h, &m, KendallVariant::C, 0.1).is_err());
        assert!(kendall_variant(&h, &m, KendallVariant::Acc23, f64::NAN).is_err());
        assert!(kendall_variant(&[1.0], &[1.0], KendallVariant::Acc23, 0.0).is_err());
    }
}
