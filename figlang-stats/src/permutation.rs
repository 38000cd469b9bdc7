//! Permutation tests with SciPy's `permutation_test` conventions: exact enumeration when the
//! number of distinct permutations does not exceed the requested resamples, Monte Carlo
//! otherwise; two-sided p = 2 min(P(null <= obs), P(null >= obs)), clipped to 1.

use hauser_core::limits::{Monitor, Unmonitored};
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

/// How many null statistics fell at or below, and at or above, the observed value (SciPy's
/// tolerance of a relative 100 eps), out of how many. The null distribution is tallied as it
/// is drawn rather than stored, so a test needs no memory in proportion to its resamples.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    less: u64,
    greater: u64,
    n: u64,
}

impl Tally {
    fn of(observed: f64, d: f64) -> Self {
        let gamma = (f64::EPSILON * 100.0 * observed).abs();
        Self {
            less: u64::from(d <= observed + gamma),
            greater: u64::from(d >= observed - gamma),
            n: 1,
        }
    }

    fn add(self, o: Self) -> Self {
        Self {
            less: self.less + o.less,
            greater: self.greater + o.greater,
            n: self.n + o.n,
        }
    }

    /// SciPy's two-sided p-value; Monte Carlo counts get +1 in numerator and denominator.
    fn two_sided_p(&self, exact: bool) -> f64 {
        let adj = u64::from(!exact);
        let denom = (self.n + adj) as f64;
        (2.0 * (self.less.min(self.greater) + adj) as f64 / denom).min(1.0)
    }
}

/// Null statistics polled between two checks of the monitor.
const BLOCK: usize = 4096;

/// Tallies `stat(i)` for i in 0..count against `observed`, in parallel, block by block,
/// advancing `monitor` by one per statistic and stopping when it cancels.
fn tally_null(
    what: &'static str,
    count: usize,
    observed: f64,
    stat: impl Fn(usize) -> f64 + Sync,
    monitor: &dyn Monitor,
) -> StatsResult<Tally> {
    let mut total = Tally::default();
    let mut start = 0usize;
    while start < count {
        if monitor.is_cancelled() {
            return Err(StatsError::Cancelled { what });
        }
        let end = start.saturating_add(BLOCK).min(count);
        let t = (start..end)
            .into_par_iter()
            .map(|i| Tally::of(observed, stat(i)))
            .reduce(Tally::default, Tally::add);
        total = total.add(t);
        monitor.advance((end - start) as u64);
        start = end;
    }
    Ok(total)
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

/// The `k`-th permutation of 0..n in lexicographic order (`k < n!`, `factorials[i] = i!`), so
/// that the exact null distribution is enumerated in parallel without materialising it.
fn nth_permutation(mut k: usize, n: usize, factorials: &[usize]) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n);
    for i in (0..n).rev() {
        let f = factorials[i];
        out.push(pool.remove(k / f));
        k %= f;
    }
    out
}

/// 0!, 1!, ..., n! (callers check that n! fits).
fn factorials(n: usize) -> Vec<usize> {
    let mut acc = 1usize;
    std::iter::once(1)
        .chain((1..=n).map(|i| {
            acc = acc.saturating_mul(i);
            acc
        }))
        .collect()
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
/// use figlang_stats::{permutation_test, CorrelationKind};
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
    permutation_test_monitored(x, y, kind, resamples, seed, &Unmonitored)
}

/// [`permutation_test`] with progress and cancellation: `monitor` advances by one per null
/// statistic (n! when exact, else `resamples`) and is polled between blocks of them; the test
/// returns [`StatsError::Cancelled`] once it cancels. Memory does not grow with `resamples`.
///
/// # Errors
/// As [`permutation_test`], plus [`StatsError::Cancelled`].
pub fn permutation_test_monitored(
    x: &[f64],
    y: &[f64],
    kind: CorrelationKind,
    resamples: usize,
    seed: u64,
    monitor: &dyn Monitor,
) -> StatsResult<PermutationResult> {
    let what = "permutation_test";
    check_paired(what, x, y, 3)?;
    check_resamples(what, resamples)?;
    let observed = corr(kind, x, y);
    let (tally, exact) = match factorial_at_most(y.len(), resamples) {
        Some(count) => {
            let f = factorials(y.len());
            let stat = |k: usize| {
                let py: Vec<f64> = nth_permutation(k, y.len(), &f)
                    .iter()
                    .map(|&i| y[i])
                    .collect();
                corr(kind, x, &py)
            };
            (tally_null(what, count, observed, stat, monitor)?, true)
        }
        None => {
            let stat = |r: usize| {
                let mut rng = SplitMix64::for_resample(seed, r as u64);
                let mut py = y.to_vec();
                for i in (1..py.len()).rev() {
                    py.swap(i, rng.below(i + 1));
                }
                corr(kind, x, &py)
            };
            (tally_null(what, resamples, observed, stat, monitor)?, false)
        }
    };
    Ok(PermutationResult {
        statistic: observed,
        p_value: tally.two_sided_p(exact),
        resamples: tally.n as usize,
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
    permutation_test_paired_monitored(human, a, b, kind, resamples, seed, &Unmonitored)
}

/// [`permutation_test_paired`] with progress and cancellation, as
/// [`permutation_test_monitored`].
///
/// # Errors
/// As [`permutation_test_paired`], plus [`StatsError::Cancelled`].
pub fn permutation_test_paired_monitored(
    human: &[f64],
    a: &[f64],
    b: &[f64],
    kind: CorrelationKind,
    resamples: usize,
    seed: u64,
    monitor: &dyn Monitor,
) -> StatsResult<PermutationResult> {
    let what = "permutation_test_paired";
    check_paired(what, human, a, 3)?;
    check_paired(what, human, b, 3)?;
    check_resamples(what, resamples)?;
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
    let tally = if exact {
        let by_mask = |mask: usize| stat(&|i| mask >> i & 1 == 1);
        tally_null(what, 1usize << n, observed, by_mask, monitor)?
    } else {
        let by_draw = |r: usize| {
            let mut rng = SplitMix64::for_resample(seed, r as u64);
            let swaps: Vec<bool> = (0..n).map(|_| rng.coin()).collect();
            stat(&|i| swaps[i])
        };
        tally_null(what, resamples, observed, by_draw, monitor)?
    };
    Ok(PermutationResult {
        statistic: observed,
        p_value: tally.two_sided_p(exact),
        resamples: tally.n as usize,
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
    fn indexed_enumeration_gives_every_permutation_once() {
        let f = factorials(4);
        let mut all: Vec<Vec<usize>> = (0..24).map(|k| nth_permutation(k, 4, &f)).collect();
        assert_eq!(all[0], vec![0, 1, 2, 3]);
        assert_eq!(all[23], vec![3, 2, 1, 0]);
        assert_eq!(all.len(), 24);
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 24);
        assert_eq!(factorial_at_most(5, 120), Some(120));
        assert_eq!(factorial_at_most(5, 119), None);
    }

    struct CancelAfter(std::sync::atomic::AtomicU64, u64);

    impl Monitor for CancelAfter {
        fn advance(&self, n: u64) {
            self.0.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
        fn is_cancelled(&self) -> bool {
            self.0.load(std::sync::atomic::Ordering::Relaxed) >= self.1
        }
    }

    #[test]
    fn huge_resample_counts_need_no_memory_and_can_be_cancelled() {
        let x: Vec<f64> = (0..40).map(f64::from).collect();
        let y: Vec<f64> = x.iter().map(|v| (v * 7.0) % 11.0).collect();
        // 10^15 resamples would be 8 PB of stored null statistics; tallied, they cost nothing
        // but time, and the monitor stops them after the first blocks.
        let m = CancelAfter(Default::default(), 3 * BLOCK as u64);
        let e = permutation_test_monitored(&x, &y, CorrelationKind::Pearson, 1e15 as usize, 1, &m);
        assert_eq!(
            e,
            Err(StatsError::Cancelled {
                what: "permutation_test"
            })
        );
        assert_eq!(
            m.0.load(std::sync::atomic::Ordering::Relaxed),
            3 * BLOCK as u64
        );
        let m = CancelAfter(Default::default(), BLOCK as u64);
        let e = permutation_test_paired_monitored(
            &x,
            &y,
            &x,
            CorrelationKind::Spearman,
            usize::MAX,
            1,
            &m,
        );
        assert!(matches!(e, Err(StatsError::Cancelled { .. })), "{e:?}");
    }

    #[test]
    fn monitor_sees_every_null_statistic() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        let y = [2.0, 1.0, 4.0, 3.0, 5.0];
        let m = CancelAfter(Default::default(), u64::MAX);
        let t = permutation_test_monitored(&x, &y, CorrelationKind::KendallB, 1000, 0, &m).unwrap();
        assert!(t.exact);
        assert_eq!(t.resamples, 120);
        assert_eq!(m.0.load(std::sync::atomic::Ordering::Relaxed), 120);
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
