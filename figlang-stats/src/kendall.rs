//! Kendall's tau-b and tau-c with SciPy's p-values, and the WMT17 Kendall-like tau.

use serde::Serialize;

use super::correlation::Correlation;
use super::dist;
use super::error::{check_paired, StatsResult};
use super::rank::{dense_ranks, tie_groups};

/// Which normalisation of Kendall's tau to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum TauVariant {
    /// Tau-b: adjusted for ties in either variable (`scipy.stats.kendalltau` default).
    B,
    /// Tau-c (Stuart's): for rectangular contingency tables.
    C,
}

/// Pair counts of two paired samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PairCounts {
    /// Pairs ordered the same way in both.
    concordant: u64,
    /// Pairs ordered oppositely.
    discordant: u64,
}

fn count_pairs(x: &[f64], y: &[f64]) -> PairCounts {
    let mut c = PairCounts {
        concordant: 0,
        discordant: 0,
    };
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let s = (x[i] - x[j]) * (y[i] - y[j]);
            if s > 0.0 {
                c.concordant += 1;
            } else if s < 0.0 {
                c.discordant += 1;
            }
        }
    }
    c
}

/// Tie statistics of one variable, as SciPy's `count_rank_tie`:
/// (tied pairs, sum t(t-1)(t-2), sum t(t-1)(2t+5)) over the groups of t tied values.
fn tie_stats(x: &[f64]) -> (u64, f64, f64) {
    let mut pairs = 0u64;
    let (mut v0, mut v1) = (0.0, 0.0);
    for t in tie_groups(x).into_iter().filter(|&t| t > 1) {
        let t64 = t as u64;
        pairs += t64 * (t64 - 1) / 2;
        let tf = t as f64;
        v0 += tf * (tf - 1.0) * (tf - 2.0);
        v1 += tf * (tf - 1.0) * (2.0 * tf + 5.0);
    }
    (pairs, v0, v1)
}

/// Kendall's tau (b or c) with the two-sided p-value of `scipy.stats.kendalltau(method="auto")`:
/// the exact null distribution when neither variable has ties and n <= 33 (or when at most one
/// pair is discordant, or concordant), the normal approximation with SciPy's tie-corrected
/// variance otherwise. The p-value is the same for both variants.
///
/// Errors: different lengths, fewer than 2 items, non-finite values. A variable with all values
/// tied gives NaN statistic and p-value, as in SciPy.
///
/// ```
/// use figlang_stats::{kendall_tau, TauVariant};
/// let c = kendall_tau(&[12.0, 2.0, 1.0, 12.0, 2.0], &[1.0, 4.0, 7.0, 1.0, 0.0], TauVariant::B).unwrap();
/// assert!((c.statistic - (-0.4714045207910316)).abs() < 1e-12);
/// assert!((c.p_value - 0.2827454599327748).abs() < 1e-9 * 0.28);
/// ```
pub fn kendall_tau(x: &[f64], y: &[f64], variant: TauVariant) -> StatsResult<Correlation> {
    check_paired("kendall_tau", x, y, 2)?;
    let n = x.len();
    let n64 = n as u64;
    let tot = n64 * (n64 - 1) / 2;
    let (xtie, x0, x1) = tie_stats(x);
    let (ytie, y0, y1) = tie_stats(y);
    if xtie == tot || ytie == tot {
        return Ok(Correlation::nan(n));
    }
    let pairs = count_pairs(x, y);
    let con_minus_dis = pairs.concordant as f64 - pairs.discordant as f64;
    let tau = tau_b_or_c(variant, con_minus_dis, tot, xtie, ytie, x, y).clamp(-1.0, 1.0);

    let dis = pairs.discordant;
    let exact = xtie == 0 && ytie == 0 && (n <= 33 || dis.min(tot - dis) <= 1);
    let p_value = if exact {
        kendall_p_exact(n64, tot - dis)
    } else {
        let m = n as f64 * (n as f64 - 1.0);
        let nf = n as f64;
        let var = (m * (2.0 * nf + 5.0) - x1 - y1) / 18.0
            + (2.0 * xtie as f64 * ytie as f64) / m
            + x0 * y0 / (9.0 * m * (nf - 2.0));
        dist::normal_two_sided(con_minus_dis / var.sqrt())
    };
    Ok(Correlation {
        statistic: tau,
        p_value,
        n,
    })
}

/// Tau-b or tau-c from the pair counts of `x` and `y` (n items, `tot` pairs, `xtie` / `ytie`
/// pairs tied in x / y, joint ties included), unclamped. Shared with the mt-metrics-eval variants
/// (`kendall_variants`), which pass the metric as `x`: the divisions then happen in the same
/// order as in `stats.KendallVariants`, so the two agree to the last bit where they can.
/// The caller has ruled out `xtie == tot` and `ytie == tot` (NaN cases).
pub(crate) fn tau_b_or_c(
    variant: TauVariant,
    con_minus_dis: f64,
    tot: u64,
    xtie: u64,
    ytie: u64,
    x: &[f64],
    y: &[f64],
) -> f64 {
    match variant {
        TauVariant::B => {
            con_minus_dis / ((tot - xtie) as f64).sqrt() / ((tot - ytie) as f64).sqrt()
        }
        TauVariant::C => {
            let n64 = x.len() as u64;
            let min_classes = dense_ranks(x).1.min(dense_ranks(y).1) as u64;
            let denom = (n64 * n64 * (min_classes - 1)) as f64 / min_classes as f64;
            2.0 * con_minus_dis / denom
        }
    }
}

/// Exact two-sided p-value of Kendall's statistic with `c` concordant pairs among n untied items
/// (Kendall 1970, as SciPy's `_kendall_p_exact`): twice the lower tail of the number of
/// permutations with at most `min(c, tot - c)` inversions.
fn kendall_p_exact(n: u64, c: u64) -> f64 {
    let tot = n * (n - 1) / 2;
    let c = c.min(tot - c);
    let p = if n <= 2 || 4 * c == n * (n - 1) {
        1.0
    } else if c == 0 {
        if n < 171 {
            2.0 / factorial(n)
        } else {
            0.0
        }
    } else if c == 1 {
        if n < 172 {
            2.0 / factorial(n - 1)
        } else {
            0.0
        }
    } else {
        let c = c as usize;
        let scaled = n >= 171;
        // counts[k]: permutations of j items with exactly k inversions, for k <= c
        // (divided by j! along the way when n! overflows).
        let mut counts = vec![0.0f64; c + 1];
        counts[0] = 1.0;
        counts[1] = 1.0;
        for j in 3..=n as usize {
            let mut acc = 0.0;
            for v in counts.iter_mut() {
                acc += *v;
                *v = if scaled { acc / j as f64 } else { acc };
            }
            if j <= c {
                // Subtract the prefix sums shifted by j (windows longer than j inversions).
                let prev: Vec<f64> = counts[..=c - j].to_vec();
                for (k, p) in prev.into_iter().enumerate() {
                    counts[j + k] -= p;
                }
            }
        }
        let sum: f64 = counts.iter().sum();
        if scaled {
            sum
        } else {
            2.0 * sum / factorial(n)
        }
    };
    p.clamp(0.0, 1.0)
}

fn factorial(n: u64) -> f64 {
    (2..=n).fold(1.0, |acc, k| acc * k as f64)
}

/// Pair counts and value of the WMT17 Kendall-like tau.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WmtTau {
    /// `(concordant - discordant) / (concordant + discordant)`; NaN when no pair is usable.
    pub tau: f64,
    /// Pairs ordered the same way by human and metric.
    pub concordant: u64,
    /// Pairs ordered oppositely, or tied by the metric only.
    pub discordant: u64,
}

/// The WMT17 segment-level Kendall-like tau (Bojar et al. 2017), used by the formality-transfer
/// meta-evaluation: pairs tied on the human score are skipped; a pair the metric ties but the
/// human does not counts as discordant.
///
/// Errors: different lengths or non-finite values. Fewer than two items, or all human scores
/// tied, give `tau` NaN.
///
/// ```
/// use figlang_stats::wmt_kendall_tau;
/// // The pair tied on the human score (items 2 and 3) is skipped.
/// let t = wmt_kendall_tau(&[1.0, 2.0, 3.0, 3.0], &[0.1, 0.3, 0.2, 0.2]).unwrap();
/// assert_eq!((t.concordant, t.discordant), (3, 2));
/// assert!((t.tau - 0.2).abs() < 1e-15);
/// ```
pub fn wmt_kendall_tau(human: &[f64], metric: &[f64]) -> StatsResult<WmtTau> {
    check_paired("wmt_kendall_tau", human, metric, 0)?;
    let (mut concordant, mut discordant) = (0u64, 0u64);
    for i in 0..human.len() {
        for j in i + 1..human.len() {
            let dh = human[i] - human[j];
            if dh == 0.0 {
                continue;
            }
            if dh * (metric[i] - metric[j]) > 0.0 {
                concordant += 1;
            } else {
                discordant += 1;
            }
        }
    }
    let total = concordant + discordant;
    let tau = if total == 0 {
        f64::NAN
    } else {
        (concordant as f64 - discordant as f64) / total as f64
    };
    Ok(WmtTau {
        tau,
        concordant,
        discordant,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_distribution_sums_to_one_and_is_symmetric() {
        // n = 4: inversion counts 0..6 have 1,3,5,6,5,3,1 permutations (24 in all).
        assert!((kendall_p_exact(4, 0) - 2.0 / 24.0).abs() < 1e-15);
        assert!((kendall_p_exact(4, 2) - 2.0 * 9.0 / 24.0).abs() < 1e-15);
        assert!((kendall_p_exact(4, 4) - 2.0 * 9.0 / 24.0).abs() < 1e-15);
        assert_eq!(kendall_p_exact(4, 3), 1.0);
    }

    #[test]
    fn all_tied_variable_is_nan() {
        let c = kendall_tau(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0], TauVariant::C).unwrap();
        assert!(c.statistic.is_nan() && c.p_value.is_nan());
        let w = wmt_kendall_tau(&[2.0, 2.0], &[1.0, 3.0]).unwrap();
        assert!(w.tau.is_nan());
    }

    #[test]
    fn metric_ties_count_as_discordant() {
        let w = wmt_kendall_tau(&[1.0, 2.0], &[5.0, 5.0]).unwrap();
        assert_eq!((w.concordant, w.discordant), (0, 1));
        assert_eq!(w.tau, -1.0);
    }
}
