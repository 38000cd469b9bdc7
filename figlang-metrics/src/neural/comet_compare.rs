//! The statistics of unbabel-comet 2.2.7's `comet-compare` on segment scores (next to the COMET
//! scorer, whose scores it compares; the resampling arithmetic is the text significance tests'): bootstrap
//! resampling of system means (`--num_splits` partitions of `--sample_ratio` of the segments,
//! drawn with replacement; wins and ties at a difference of 0.001) and SciPy's paired t-test
//! (`--t_test_alternative`), for every pair of systems in order.
//!
//! Parity: comet-compare scores in `float32` and seeds NumPy's global generator with
//! `seed_everything(1)`; the partitions here are the same draws (NumPy's legacy MT19937 and
//! `randint`'s masked rejection, as `np.random.choice(n, size=(sample_size, num_splits))`), the
//! partition means the same `float32` sums (segment by segment, as NumPy reduces the middle axis),
//! the overall means NumPy's pairwise `float32` sums. The t-test runs in `f64` on the `float32`
//! scores (SciPy keeps `float32`), so its statistic and p-value agree to about 1e-6.
//!
//! ```
//! use figlang_metrics::neural::{comet_compare, CometCompare};
//! let x: Vec<f64> = (0..50).map(|i| 0.6 + (i % 7) as f64 / 100.0).collect();
//! let y: Vec<f64> = x.iter().map(|v| v - 0.05).collect();
//! let pairs = comet_compare(&[x, y], &CometCompare::default())?;
//! assert_eq!(pairs[0].x_wins, 1.0);
//! assert!(pairs[0].t_test.p_value < 1e-6);
//! # Ok::<(), figlang_metrics::text::MetricError>(())
//! ```

use figlang_stats::numpy_rng::{bounded_fill, Bounded, Mt19937};
use figlang_stats::{ttest_rel, Alternative, TTest};
use hauser_core::limits;
use serde::Serialize;

use crate::text::significance::emulation::pairwise_sum_f32;
use crate::text::significance::{check_samples, NAME};
use crate::text::MetricError;

/// A difference of partition means below this is a tie (comet-compare's `EPS`).
pub const TIE_EPSILON: f32 = 0.001;

/// comet-compare's options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CometCompare {
    /// Bootstrap partitions (`--num_splits`, default 300).
    pub num_splits: usize,
    /// Share of the segments in each partition (`--sample_ratio`, default 0.4): any finite
    /// number; at least one segment is drawn, as comet's `max(int(n * ratio), 1)`.
    pub sample_ratio: f64,
    /// The t-test's alternative (`--t_test_alternative`, default two-sided).
    pub alternative: Alternative,
    /// The seed of NumPy's global generator (comet-compare's `seed_everything(1)`).
    pub seed: u32,
}

impl Default for CometCompare {
    fn default() -> Self {
        Self {
            num_splits: 300,
            sample_ratio: 0.4,
            alternative: Alternative::TwoSided,
            seed: 1,
        }
    }
}

/// One pair of systems (`x` before `y` in the input order), with comet-compare's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairComparison {
    /// Index of system x.
    pub x: usize,
    /// Index of system y.
    pub y: usize,
    /// Mean of x's partition means (`x-mean`).
    pub x_mean: f64,
    /// Mean of y's partition means (`y-mean`).
    pub y_mean: f64,
    /// Share of partitions whose means differ by less than [`TIE_EPSILON`] (`ties (%)`, a
    /// fraction as comet prints it).
    pub ties: f64,
    /// Share of partitions where x is ahead by at least [`TIE_EPSILON`] (`x_wins (%)`).
    pub x_wins: f64,
    /// Share of partitions where y is ahead by at least [`TIE_EPSILON`] (`y_wins (%)`).
    pub y_wins: f64,
    /// SciPy's `ttest_rel(x, y, alternative)` on the segment scores.
    pub t_test: TTest,
}

/// comet-compare's statistics for every pair of `systems` (segment scores, one list per system,
/// all of one length).
///
/// # Errors
/// Fewer than two systems, no segments, systems of different lengths, a partition count of 0
/// or above the maximum, a sample ratio that is not finite.
pub fn comet_compare(
    systems: &[Vec<f64>],
    cfg: &CometCompare,
) -> Result<Vec<PairComparison>, MetricError> {
    let bad = |m: String| MetricError::input(NAME, m);
    if systems.len() < 2 {
        return Err(bad(format!(
            "comet-compare compares at least 2 systems, got {}",
            systems.len()
        )));
    }
    let n = systems[0].len();
    if n == 0 {
        return Err(bad("comet-compare: no segments".into()));
    }
    if let Some(k) = systems.iter().position(|s| s.len() != n) {
        return Err(bad(format!(
            "comet-compare: system {} has {} segments, system 1 has {n}",
            k + 1,
            systems[k].len()
        )));
    }
    check_samples("num_splits", cfg.num_splits)?;
    if !cfg.sample_ratio.is_finite() {
        return Err(bad(format!(
            "comet-compare: the sample ratio must be a finite number, got {}",
            cfg.sample_ratio
        )));
    }
    // comet's `max(int(n * sample_ratio), 1)`: Python's int() truncates, and a ratio of 0 or
    // below draws one segment (the cast saturates a negative product to 0).
    let sample_size = ((n as f64 * cfg.sample_ratio) as usize).max(1);
    let splits = cfg.num_splits;
    let draws = sample_size
        .checked_mul(splits)
        .filter(|&d| d <= 1 << 31)
        .ok_or_else(|| bad("comet-compare: too many draws (sample size x splits)".into()))?;
    // Reserved fallibly against the memory limit: 2^31 draws would be 16 GB.
    let mut ids: Vec<u64> =
        limits::try_vec("comet-compare draws", draws).map_err(|e| bad(e.to_string()))?;
    ids.resize(draws, 0);
    bounded_fill(
        &mut Mt19937::seed(cfg.seed),
        n as u64,
        Bounded::Masked,
        &mut ids,
    );
    let scores32: Vec<Vec<f32>> = systems
        .iter()
        .map(|s| s.iter().map(|&v| v as f32).collect())
        .collect();
    // Partition means: row i of the (sample_size, splits) draws added to every partition's sum
    // in turn, in float32, then divided in float32, as np.mean over the middle axis.
    let means: Vec<Vec<f32>> = scores32
        .iter()
        .map(|seg| {
            let mut acc = vec![0f32; splits];
            for row in ids.chunks(splits) {
                for (a, &i) in acc.iter_mut().zip(row) {
                    *a += seg[i as usize];
                }
            }
            acc.iter().map(|a| a / sample_size as f32).collect()
        })
        .collect();
    let mut out = Vec::new();
    for x in 0..systems.len() {
        for y in x + 1..systems.len() {
            let (mx, my) = (&means[x], &means[y]);
            let mut ties = 0usize;
            let mut x_wins = 0usize;
            let mut y_wins = 0usize;
            for (a, b) in mx.iter().zip(my) {
                let delta = a - b;
                ties += usize::from(delta.abs() < TIE_EPSILON);
                x_wins += usize::from(delta >= TIE_EPSILON);
                y_wins += usize::from(delta <= -TIE_EPSILON);
            }
            let mean = |v: &[f32]| f64::from(pairwise_sum_f32(v) / splits as f32);
            let widen = |v: &[f32]| v.iter().map(|&s| f64::from(s)).collect::<Vec<f64>>();
            let t_test = ttest_rel(&widen(&scores32[x]), &widen(&scores32[y]), cfg.alternative)
                .map_err(|e| bad(e.to_string()))?;
            out.push(PairComparison {
                x,
                y,
                x_mean: mean(mx),
                y_mean: mean(my),
                ties: ties as f64 / splits as f64,
                x_wins: x_wins as f64 / splits as f64,
                y_wins: y_wins as f64 / splits as f64,
                t_test,
            });
        }
    }
    Ok(out)
}
