//! Permutation tests with SciPy's `permutation_test` conventions: exact enumeration when the
//! number of distinct permutations does not exceed the requested resamples, Monte Carlo
//! otherwise; two-sided p = 2 min(P(null <= obs), P(null >= obs)), clipped to 1.

use rayon::prelude::*;
use serde::Serialize;

use super::correlation::{pearson_r, spearman};
use super::error::{check_paired, StatsError, StatsResult};
use super::kendall::{kendall_tau, TauVariant};
use super::rng::SplitMix64;

/// Which correlation a permutation test compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum CorrelationKind {
    /// Pearson's r.
    Pearson,
    /// Spearman's rho.
    Spearman,
    /// Kendall's tau-b.
    KendallB,
}

fn corr(kind: CorrelationKind, x: &[f64], y: &[f64]) -> f64 {
    match kind {
        CorrelationKind::Pearson => pearson_r(x, y),
        CorrelationKind::Spearman => spearman(x, y).map_or(f64::NAN, |c| c.statistic),
        CorrelationKind::KendallB => {
            kendall_tau(x, y, TauVariant::B).map_or(f64::NAN, |c| c.statistic)
        }
    }
}

/// Result of a permutation test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PermutationResult {
    /// The observed statistic.
    pub statistic: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// Number of null-distribution values: every permutation when `exact`, else the resamples.
    pub resamples: usize,
    /// Whether the null distribution was enumerated exactly.
    pub exact: bool,
}

/// SciPy's two-sided p-value: counts within a relative 100 eps of the observed value are
/// extreme; Monte Carlo counts get +1 in numerator and denominator.
fn two_sided_p(observed: f64, null: &[f64], exact: bool) -> f64 {
    let gamma = (f64::EPSILON * 100.0 * observed).abs();
    let adj = usize::from(!exact);
    let less = null.iter().filter(|&&d| d <= observed + gamma).count();
    let greater = null.iter().filter(|&&d| d >= observed - gamma).count();
    let denom = (null.len() + adj) as f64;
    (2.0 * (less.min(greater) + adj) as f64 / denom).min(1.0)
}

fn check_resamples(what: &'static str, resamples: usize) -> StatsResult<()> {
    if resamples == 0 {
        return Err(StatsError::InvalidArgument {
            what,
            message: "resamples must be at least 1".into(),
        });
    }
    Ok(())
}

/// All permutations of 0..n (Heap's algorithm).
fn all_permutations(n: usize) -> Vec<Vec<usize>> {
    let mut p: Vec<usize> = (0..n).collect();
    let mut c = vec![0usize; n];
    let mut out = vec![p.clone()];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i);
            } else {
                p.swap(c[i], i);
            }
            out.push(p.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// Number of permutations of n items, if it is at most `limit`.
fn factorial_at_most(n: usize, limit: usize) -> Option<usize> {
    (2..=n).try_fold(1usize, |acc, k| acc.checked_mul(k).filter(|&v| v <= limit))
}

/// Permutation test of one correlation against no association, pairing `x` with permutations
/// of `y` (`scipy.stats.permutation_test(..., permutation_type="pairings")`): exact over all
/// n! permutations when n! <= `resamples`, else `resamples` seeded random shuffles.
///
/// ```
/// use figlang_metrics::stats::{permutation_test, CorrelationKind};
/// let x: Vec<f64> = (0..30).map(f64::from).collect();
/// let y: Vec<f64> = x.iter().map(|v| v * 2.0 + (v * 7.0) % 5.0).collect();
/// let t = permutation_test(&x, &y, CorrelationKind::Pearson, 500, 3).unwrap();
/// assert!(!t.exact && t.p_value < 0.01);
/// ```
pub fn permutation_test(
    x: &[f64],
    y: &[f64],
    kind: CorrelationKind,
    resamples: usize,
    seed: u64,
) -> StatsResult<PermutationResult> {
    check_paired("permutation_test", x, y, 3)?;
    check_resamples("permutation_test", resamples)?;
    let observed = corr(kind, x, y);
    let (null, exact): (Vec<f64>, bool) = match factorial_at_most(y.len(), resamples) {
        Some(_) => {
            let null = all_permutations(y.len())
                .par_iter()
                .map(|perm| {
                    let py: Vec<f64> = perm.iter().map(|&i| y[i]).collect();
                    corr(kind, x, &py)
                })
                .collect();
            (null, true)
        }
        None => {
            let null = (0..resamples)
                .into_par_iter()
                .map(|r| {
                    let mut rng = SplitMix64::for_resample(seed, r as u64);
                    let mut py = y.to_vec();
                    for i in (1..py.len()).rev() {
                        py.swap(i, rng.below(i + 1));
                    }
                    corr(kind, x, &py)
                })
                .collect();
            (null, false)
        }
    };
    Ok(PermutationResult {
        statistic: observed,
        p_value: two_sided_p(observed, &null, exact),
        resamples: null.len(),
        exact,
    })
}

/// Paired permutation test of `corr(human, a) - corr(human, b)` for two metrics scored on the
/// same items: the (z-standardised, so that scales do not matter) scores of `a` and `b` are
/// swapped item by item (`scipy.stats.permutation_test(..., permutation_type="samples")` on the
/// standardised scores). Exact over all 2^n swap patterns when 2^n <= `resamples`.
pub fn permutation_test_paired(
    human: &[f64],
    a: &[f64],
    b: &[f64],
    kind: CorrelationKind,
    resamples: usize,
    seed: u64,
) -> StatsResult<PermutationResult> {
    check_paired("permutation_test_paired", human, a, 3)?;
    check_paired("permutation_test_paired", human, b, 3)?;
    check_resamples("permutation_test_paired", resamples)?;
    let (za, zb) = (z_standardise(a), z_standardise(b));
    let stat = |swap: &dyn Fn(usize) -> bool| {
        let mut pa = za.clone();
        let mut pb = zb.clone();
        for i in 0..pa.len() {
            if swap(i) {
                std::mem::swap(&mut pa[i], &mut pb[i]);
            }
        }
        corr(kind, human, &pa) - corr(kind, human, &pb)
    };
    let observed = stat(&|_| false);
    let n = human.len();
    let exact = n < usize::BITS as usize && (1usize << n) <= resamples;
    let null: Vec<f64> = if exact {
        (0..1usize << n)
            .into_par_iter()
            .map(|mask| stat(&|i| mask >> i & 1 == 1))
            .collect()
    } else {
        (0..resamples)
            .into_par_iter()
            .map(|r| {
                let mut rng = SplitMix64::for_resample(seed, r as u64);
                let swaps: Vec<bool> = (0..n).map(|_| rng.coin()).collect();
                stat(&|i| swaps[i])
            })
            .collect()
    };
    Ok(PermutationResult {
        statistic: observed,
        p_value: two_sided_p(observed, &null, exact),
        resamples: null.len(),
        exact,
    })
}

fn z_standardise(x: &[f64]) -> Vec<f64> {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let sd = (x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
    if sd == 0.0 {
        return vec![0.0; x.len()];
    }
    x.iter().map(|v| (v - mean) / sd).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_enumerates_every_permutation_once() {
        let mut all = all_permutations(4);
        assert_eq!(all.len(), 24);
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 24);
        assert_eq!(factorial_at_most(5, 120), Some(120));
        assert_eq!(factorial_at_most(5, 119), None);
    }

    #[test]
    fn identical_metrics_are_not_significant() {
        let h: Vec<f64> = (0..20).map(|i| f64::from(i % 7)).collect();
        let a: Vec<f64> = (0..20).map(|i| f64::from((i * 3) % 11)).collect();
        let t = permutation_test_paired(&h, &a, &a, CorrelationKind::Spearman, 200, 5).unwrap();
        assert_eq!(t.statistic, 0.0);
        assert_eq!(t.p_value, 1.0);
        assert!(!t.exact);
        assert!(permutation_test(&h, &a, CorrelationKind::Pearson, 0, 1).is_err());
    }
}
