//! Significance of metric differences as the WMT metrics task tests them: mt-metrics-eval's
//! PERM-BOTH permutation test (`stats.PermutationSigDiff`, Deutsch et al. 2021) on the global
//! legacy NumPy stream, and the significance clusters (`data.AssignRanks`).

use serde::Serialize;

use super::error::{StatsError, StatsResult};
use super::grouping::{Grouping, PackedScores};
use super::numpy_rng::{legacy_random_sample, Mt19937};

/// Settings of [`permutation_sig_diff`] (mt-metrics-eval's `k` and
/// `PermutationSigDiffParams`, plus the seed of its random stream).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PermSigDiffConfig {
    /// Resampling runs at most (`k`, 1000 in WMT).
    pub resamples: usize,
    /// Early-stopping check every this many runs (1000).
    pub block_size: usize,
    /// Stop early when the p-value at a check is below this (0.02).
    pub early_min: f64,
    /// Stop early when the p-value at a check is above this (0.5).
    pub early_max: f64,
    /// Count a NaN group correlation as 0 instead of leaving it out.
    pub replace_nans_with_zeros: bool,
    /// `np.random.seed(seed)` before the test: the draws are then NumPy's.
    pub seed: u32,
}

impl PermSigDiffConfig {
    /// mt-metrics-eval's early stop after `run` runs of which `hits` reached the observed
    /// difference: at a block boundary, a p-value below `early_min` or above `early_max`.
    /// Where the check stands is each test's own, as in the reference: PERM-BOTH checks after
    /// every run, pair swapping only after a run that counted.
    pub(crate) fn stops_early(&self, hits: usize, run: usize) -> bool {
        run.is_multiple_of(self.block_size) && {
            let p = hits as f64 / run as f64;
            p < self.early_min || p > self.early_max
        }
    }

    /// mt-metrics-eval's defaults with the given seed.
    pub fn new(seed: u32) -> Self {
        Self {
            resamples: 1000,
            block_size: 1000,
            early_min: 0.02,
            early_max: 0.5,
            replace_nans_with_zeros: false,
            seed,
        }
    }
}

/// Outcome of [`permutation_sig_diff`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PermSigDiff {
    /// One-sided p-value that the second metric correlates better than the first.
    pub p_value: f64,
    /// Correlation of the second minus that of the first, on z-scored metric scores.
    pub delta: f64,
    /// Runs performed (fewer than asked when stopped early).
    pub resamples_used: usize,
}

/// The PERM-BOTH test of mt-metrics-eval's `stats.PermutationSigDiff(first, second, corr,
/// average_by, k, params)`: both metrics' scores are z-scored (over all scored items); each run
/// swaps every item's two z-scores with probability 1/2, recomputes both grouped correlations
/// and counts the runs whose difference reaches the observed one.
///
/// `corr` is a correlation of one group's (human, metric) vectors, as for
/// [`crate::average_correlation`]; groups with fewer than two scored items count as NaN. The
/// grouped value is the NumPy mean (pairwise summation, reproduced) of the non-NaN group values,
/// 0 when there is none.
///
/// Draws: run r takes one `np.random.binomial(1, 0.5, n)` over the n scored items from the
/// legacy global stream seeded with `config.seed`: the same swaps as mt-metrics-eval after
/// `np.random.seed(seed)`, so with a correlation that matches it bit for bit (the Kendall
/// variants) the p-value is the reference's exactly.
///
/// Errors: different human scores or system counts, `resamples` or `block_size` 0, whatever
/// `corr` returns.
pub fn permutation_sig_diff<F>(
    first: &PackedScores<'_>,
    second: &PackedScores<'_>,
    grouping: Grouping,
    config: &PermSigDiffConfig,
    mut corr: F,
) -> StatsResult<PermSigDiff>
where
    F: FnMut(&[f64], &[f64]) -> StatsResult<f64>,
{
    let mut rng = Mt19937::seed(config.seed);
    // binomial(1, 0.5) is 1 exactly when the uniform draw exceeds 0.5.
    let mut keep = |_run: usize, _item: usize| legacy_random_sample(&mut rng) > 0.5;
    sig_diff_with(first, second, grouping, config, &mut corr, &mut keep)
}

/// The test with its draws from `keep(run, item)` (0-based run; called in run order, then item
/// order): whether item `item` keeps each metric's own score in run `run`.
pub(crate) fn sig_diff_with<F>(
    first: &PackedScores<'_>,
    second: &PackedScores<'_>,
    grouping: Grouping,
    config: &PermSigDiffConfig,
    corr: &mut F,
    keep: &mut dyn FnMut(usize, usize) -> bool,
) -> StatsResult<PermSigDiff>
where
    F: FnMut(&[f64], &[f64]) -> StatsResult<f64>,
{
    let Scored {
        bounds,
        human,
        m1,
        m2,
    } = Scored::new("permutation_sig_diff", first, second, grouping, config)?;
    let (z1, z2) = (numpy_zscore(&m1), numpy_zscore(&m2));
    let nan_zero = config.replace_nans_with_zeros;
    let mut grouped = |scores: &[f64]| -> StatsResult<f64> {
        let mut vals = Vec::with_capacity(bounds.len());
        for &(b, e) in &bounds {
            let v = if e - b < 2 {
                f64::NAN
            } else {
                corr(&human[b..e], &scores[b..e])?
            };
            if !v.is_nan() {
                vals.push(v);
            } else if nan_zero {
                vals.push(0.0);
            }
        }
        Ok(if vals.is_empty() {
            0.0
        } else {
            numpy_pairwise_sum(&vals) / vals.len() as f64
        })
    };
    let delta = grouped(&z2)? - grouped(&z1)?;
    let (mut hits, mut used) = (0usize, 0usize);
    let (mut s1, mut s2) = (vec![0.0; z1.len()], vec![0.0; z1.len()]);
    for run in 1..=config.resamples {
        for i in 0..z1.len() {
            (s1[i], s2[i]) = if keep(run - 1, i) {
                (z1[i], z2[i])
            } else {
                (z2[i], z1[i])
            };
        }
        let (c1, c2) = (grouped(&s1)?, grouped(&s2)?);
        if c2 - c1 >= delta {
            hits += 1;
        }
        used = run;
        if config.stops_early(hits, run) {
            break;
        }
    }
    Ok(PermSigDiff {
        p_value: hits as f64 / used as f64,
        delta,
        resamples_used: used,
    })
}

/// The scored items of two metrics' non-empty groups, concatenated as mt-metrics-eval's
/// `_ReshapeAndFilter` does (a group keeps its items with a human score; groups left empty go).
pub(crate) struct Scored {
    pub(crate) bounds: Vec<(usize, usize)>,
    pub(crate) human: Vec<f64>,
    pub(crate) m1: Vec<f64>,
    pub(crate) m2: Vec<f64>,
}

impl Scored {
    pub(crate) fn new(
        what: &'static str,
        first: &PackedScores<'_>,
        second: &PackedScores<'_>,
        grouping: Grouping,
        config: &PermSigDiffConfig,
    ) -> StatsResult<Self> {
        let same_human = first.num_sys() == second.num_sys()
            && first.human().len() == second.human().len()
            && first
                .human()
                .iter()
                .zip(second.human())
                .all(|(a, b)| a.to_bits() == b.to_bits());
        if !same_human {
            return Err(StatsError::InvalidArgument {
                what,
                message: "the two metrics must be scored against the same human scores".into(),
            });
        }
        if config.resamples == 0 || config.block_size == 0 {
            return Err(StatsError::InvalidArgument {
                what,
                message: "resamples and block_size must be positive".into(),
            });
        }
        let mut s = Self {
            bounds: Vec::new(),
            human: Vec::new(),
            m1: Vec::new(),
            m2: Vec::new(),
        };
        for idx in first.group_indexes(grouping) {
            let start = s.human.len();
            for k in idx.into_iter().filter(|&k| !first.human()[k].is_nan()) {
                s.human.push(first.human()[k]);
                s.m1.push(first.metric()[k]);
                s.m2.push(second.metric()[k]);
            }
            if s.human.len() > start {
                s.bounds.push((start, s.human.len()));
            }
        }
        Ok(s)
    }
}

/// NumPy's pairwise summation of a contiguous f64 array (`np.sum`, `np.mean`): plain below 8
/// values, eight interleaved partial sums up to 128, halves (cut at a multiple of 8) above.
/// Reproduced so that grouped means round as the reference's, which the test's `>=` can see.
pub(crate) fn numpy_pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(0.0, |s, v| s + v)
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for (j, rj) in r.iter_mut().enumerate() {
                *rj += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for v in &a[i..] {
            res += v;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        numpy_pairwise_sum(&a[..n2]) + numpy_pairwise_sum(&a[n2..])
    }
}

/// `scipy.stats.zscore(a)` (ddof 0) with NumPy's summation order.
pub(crate) fn numpy_zscore(a: &[f64]) -> Vec<f64> {
    let n = a.len() as f64;
    let mean = numpy_pairwise_sum(a) / n;
    let dev: Vec<f64> = a.iter().map(|v| v - mean).collect();
    let sq: Vec<f64> = dev.iter().map(|d| d * d).collect();
    let sd = (numpy_pairwise_sum(&sq) / n).sqrt();
    dev.iter().map(|d| d / sd).collect()
}

/// Ranks of significance clusters from a matrix of p-values, as mt-metrics-eval's
/// `data.AssignRanks(sig_matrix, pval)`: metrics sorted by decreasing correlation,
/// `p_values[i][j]` (j > i) the p-value that metric j is not worse than metric i. A metric
/// opens a new cluster (rank + 1) when some metric of the current cluster above it beats it
/// significantly (p <= `alpha`).
///
/// Errors: a matrix that is not square.
///
/// ```
/// use figlang_stats::significance_clusters;
/// let nan = f64::NAN;
/// let p = vec![
///     vec![nan, 0.20, 0.01],
///     vec![nan, nan, 0.30],
///     vec![nan, nan, nan],
/// ];
/// assert_eq!(significance_clusters(&p, 0.05).unwrap(), vec![1, 1, 2]);
/// ```
pub fn significance_clusters(p_values: &[Vec<f64>], alpha: f64) -> StatsResult<Vec<usize>> {
    let n = p_values.len();
    if let Some(row) = p_values.iter().find(|r| r.len() != n) {
        return Err(StatsError::LengthMismatch {
            what: "significance_clusters",
            left: n,
            right: row.len(),
        });
    }
    // Metric i (column i) against the metrics of the current cluster above it (rows start..i).
    let (mut rank, mut start) = (1, 0);
    Ok((0..n)
        .map(|i| {
            if p_values[start..i].iter().any(|row| row[i] <= alpha) {
                rank += 1;
                start = i;
            }
            rank
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_sum_is_the_exact_sum_on_integers() {
        let a: Vec<f64> = (0..300).map(f64::from).collect();
        assert_eq!(numpy_pairwise_sum(&a), 299.0 * 300.0 / 2.0);
        assert_eq!(numpy_pairwise_sum(&[]), 0.0);
    }

    #[test]
    fn identical_metrics_are_never_significant() {
        let h = [1.0, 2.0, 3.0, 4.0, 2.0, 1.0, 4.0, 3.0];
        let m = [0.1, 0.4, 0.2, 0.9, 0.3, 0.1, 0.8, 0.2];
        let s = PackedScores::new(&h, &m, 2).unwrap();
        let cfg = PermSigDiffConfig {
            resamples: 50,
            ..PermSigDiffConfig::new(3)
        };
        let r = permutation_sig_diff(&s, &s, Grouping::Sys, &cfg, |h, m| {
            crate::kendall_variant(h, m, crate::KendallVariant::Acc23, 0.0)
        })
        .unwrap();
        assert_eq!((r.p_value, r.delta, r.resamples_used), (1.0, 0.0, 50));
    }

    #[test]
    fn clusters_refuse_ragged_matrices() {
        assert!(significance_clusters(&[vec![0.0, 1.0], vec![0.0]], 0.05).is_err());
        assert_eq!(
            significance_clusters(&[], 0.05).unwrap(),
            Vec::<usize>::new()
        );
    }
}
