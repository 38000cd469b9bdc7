//! Bootstrap confidence intervals of a meta-evaluation and the Williams test.

use hauser_core::limits::{bytes_for, check_memory, try_vec, Monitor, Unmonitored};
use rayon::prelude::*;
use serde::Serialize;

use super::correlation::pearson_r;
use super::dist;
use super::error::{check_paired, StatsError, StatsResult};
use super::meta::{segment_taus, segment_wmt_tau, MetaEvalData};
use super::rng::SplitMix64;

/// Settings of a bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BootstrapConfig {
    /// Number of resamples.
    pub resamples: usize,
    /// Seed; the same seed gives the same intervals, whatever the number of threads.
    pub seed: u64,
    /// Confidence level in (0, 1).
    pub level: f64,
}

impl Default for BootstrapConfig {
    fn default() -> Self {
        Self {
            resamples: 1000,
            seed: 0,
            level: 0.95,
        }
    }
}

/// A percentile bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BootstrapInterval {
    /// The statistic on the original data.
    pub estimate: f64,
    /// Lower percentile, `(1 - level) / 2`.
    pub low: f64,
    /// Upper percentile, `(1 + level) / 2`.
    pub high: f64,
    /// Resamples where the statistic was defined (a resample can make a vector constant).
    pub valid: usize,
}

/// Bootstrap intervals of the three headline numbers of a meta-evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetaEvalBootstrap {
    /// System-level Pearson of the per-system means.
    pub system_pearson: BootstrapInterval,
    /// Mean WMT17 tau over segments.
    pub segment_kendall_wmt: BootstrapInterval,
    /// Pooled Pearson over all items.
    pub segment_pearson: BootstrapInterval,
    /// Number of resamples.
    pub resamples: usize,
    /// Confidence level.
    pub level: f64,
    /// Seed of the generator (`None` when the resampled segments were given).
    pub seed: Option<u64>,
}

/// Percentile of sorted data with linear interpolation (NumPy's default `np.percentile`).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn interval(estimate: f64, mut values: Vec<f64>, level: f64) -> BootstrapInterval {
    values.retain(|v| !v.is_nan());
    values.sort_by(f64::total_cmp);
    let tail = (1.0 - level) / 2.0;
    BootstrapInterval {
        estimate,
        low: percentile(&values, tail),
        high: percentile(&values, 1.0 - tail),
        valid: values.len(),
    }
}

/// Percentile bootstrap interval of the mean of `values` (e.g. per-item 0/1 correctness, for an
/// accuracy): `config.resamples` resamples of `values.len()` items drawn with replacement, each
/// from the seeded stream of its index, so the interval depends on the seed only.
///
/// # Errors
/// [`StatsError`] for no values, a non-finite value, no resample, or a level outside (0, 1).
/// [`StatsError::Limit`] when one mean per resample (8 bytes each) would not fit in memory.
///
/// ```
/// use figlang_stats::{bootstrap_mean, BootstrapConfig};
/// let correct = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0];
/// let ci = bootstrap_mean(&correct, &BootstrapConfig::default()).unwrap();
/// assert_eq!(ci.estimate, 0.75);
/// assert!(ci.low < 0.75 && 0.75 < ci.high && ci.valid == 1000);
/// ```
pub fn bootstrap_mean(values: &[f64], config: &BootstrapConfig) -> StatsResult<BootstrapInterval> {
    const WHAT: &str = "bootstrap_mean";
    if values.is_empty() {
        return Err(StatsError::TooFewItems {
            what: WHAT,
            needed: 1,
            got: 0,
        });
    }
    if let Some((index, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(StatsError::NonFinite {
            what: WHAT,
            index,
            value,
        });
    }
    if config.resamples == 0 || !(config.level > 0.0 && config.level < 1.0) {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: format!(
                "needs resamples > 0 and a level in (0, 1), got {} and {}",
                config.resamples, config.level
            ),
        });
    }
    check_memory("bootstrap means", bytes_for(config.resamples as u64, 8))?;
    let n = values.len();
    let estimate = values.iter().sum::<f64>() / n as f64;
    let means: Vec<f64> = (0..config.resamples)
        .into_par_iter()
        .map(|r| {
            let mut rng = SplitMix64::for_resample(config.seed, r as u64);
            (0..n).map(|_| values[rng.below(n)]).sum::<f64>() / n as f64
        })
        .collect();
    Ok(interval(estimate, means, config.level))
}

/// Percentile bootstrap intervals of several statistics of the same items (the segments of a
/// meta-evaluation, say): each of `config.resamples` resamples draws `n_items` items with
/// replacement, exactly as [`bootstrap_meta_eval`] draws its segments (resample r from the
/// seeded stream of `(seed, r)`), and calls `stats(weights)` with how many times each item was
/// drawn; `stats` returns one value per statistic, in the order of `estimates` (NaN where a
/// resample leaves a statistic undefined: counted out of that interval's `valid`). Resamples run
/// in parallel; the intervals depend on the seed only.
///
/// # Errors
/// No item, no resample, a level outside (0, 1), `stats` returning the wrong number of values;
/// [`StatsError::Limit`] when the resampled values (8 bytes per statistic and resample) would
/// not fit in memory.
///
/// ```
/// use figlang_stats::{bootstrap_items, BootstrapConfig};
/// let x = [1.0, 2.0, 3.0, 4.0];
/// let mean = |w: &[f64]| vec![w.iter().zip(&x).map(|(w, x)| w * x).sum::<f64>() / 4.0];
/// let ci = bootstrap_items(4, &[2.5], &BootstrapConfig::default(), mean).unwrap();
/// assert!(ci[0].low < 2.5 && 2.5 < ci[0].high);
/// ```
pub fn bootstrap_items<F>(
    n_items: usize,
    estimates: &[f64],
    config: &BootstrapConfig,
    stats: F,
) -> StatsResult<Vec<BootstrapInterval>>
where
    F: Fn(&[f64]) -> Vec<f64> + Sync,
{
    const WHAT: &str = "bootstrap_items";
    if n_items == 0 || config.resamples == 0 || !(config.level > 0.0 && config.level < 1.0) {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: format!(
                "needs items, resamples > 0 and a level in (0, 1), got {n_items}, {} and {}",
                config.resamples, config.level
            ),
        });
    }
    let k = estimates.len();
    check_memory(
        &format!(
            "a bootstrap of {} resamples x {k} statistics",
            config.resamples
        ),
        bytes_for(
            config.resamples as u64,
            8 * k as u64 + 8 * n_items as u64 / 64 + 8,
        ),
    )?;
    let values: Vec<Vec<f64>> = (0..config.resamples)
        .into_par_iter()
        .map(|r| {
            let mut rng = SplitMix64::for_resample(config.seed, r as u64);
            let mut counts = vec![0.0f64; n_items];
            for _ in 0..n_items {
                counts[rng.below(n_items)] += 1.0;
            }
            stats(&counts)
        })
        .collect();
    if let Some(v) = values.iter().find(|v| v.len() != k) {
        return Err(StatsError::LengthMismatch {
            what: WHAT,
            left: k,
            right: v.len(),
        });
    }
    Ok(estimates
        .iter()
        .enumerate()
        .map(|(s, &e)| interval(e, values.iter().map(|v| v[s]).collect(), config.level))
        .collect())
}

/// Sufficient statistics of the pooled Pearson for one segment, on globally centred values so
/// that the one-pass formula does not cancel catastrophically.
#[derive(Debug, Clone, Copy, Default)]
struct Moments {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    yy: f64,
    xy: f64,
}

impl Moments {
    fn add_scaled(&mut self, o: &Moments, w: f64) {
        self.n += w * o.n;
        self.x += w * o.x;
        self.y += w * o.y;
        self.xx += w * o.xx;
        self.yy += w * o.yy;
        self.xy += w * o.xy;
    }

    fn pearson(&self) -> f64 {
        let sxx = self.xx - self.x * self.x / self.n;
        let syy = self.yy - self.y * self.y / self.n;
        let sxy = self.xy - self.x * self.y / self.n;
        if sxx <= 0.0 || syy <= 0.0 {
            return f64::NAN;
        }
        (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0)
    }
}

/// Seeded percentile bootstrap of a meta-evaluation, resampling segments with replacement
/// (the systems stay fixed, as in WMT). Each resample recomputes the per-system means, the mean
/// WMT tau over the drawn segments (taus are per segment, so they are computed once) and the
/// pooled Pearson. Runs in parallel; resample `i` draws from a generator seeded by
/// `(seed, i)` only, so the result does not depend on the thread count.
///
/// ```
/// use figlang_stats::{bootstrap_meta_eval, BootstrapConfig, MetaEvalData};
/// let human = vec![vec![1.0, 2.0, 3.0], vec![2.0, 3.0, 5.0], vec![3.0, 5.0, 4.0]];
/// let metric = vec![vec![0.1, 0.3, 0.2], vec![0.2, 0.2, 0.5], vec![0.4, 0.6, 0.3]];
/// let data = MetaEvalData::from_matrices(&human, &metric).unwrap();
/// let config = BootstrapConfig { resamples: 200, seed: 1, level: 0.9 };
/// let b = bootstrap_meta_eval(&data, &config).unwrap();
/// assert!(b.segment_kendall_wmt.low <= b.segment_kendall_wmt.high);
/// ```
pub fn bootstrap_meta_eval(
    data: &MetaEvalData,
    config: &BootstrapConfig,
) -> StatsResult<MetaEvalBootstrap> {
    bootstrap_meta_eval_monitored(data, config, &Unmonitored)
}

/// [`bootstrap_meta_eval`] with progress and cancellation: `monitor` is advanced by one per
/// resample and polled between blocks of resamples; once it reports cancellation the function
/// returns [`StatsError::Cancelled`]. The memory the resamples need (32 bytes each) is checked
/// against the machine's before anything is allocated ([`StatsError::Limit`]).
///
/// # Errors
/// As [`bootstrap_meta_eval`], plus [`StatsError::Limit`] and [`StatsError::Cancelled`].
pub fn bootstrap_meta_eval_monitored(
    data: &MetaEvalData,
    config: &BootstrapConfig,
    monitor: &dyn Monitor,
) -> StatsResult<MetaEvalBootstrap> {
    let what = "bootstrap_meta_eval";
    if config.resamples == 0 || !(config.level > 0.0 && config.level < 1.0) {
        return Err(StatsError::InvalidArgument {
            what,
            message: format!(
                "need resamples >= 1 and level in (0, 1), got {} and {}",
                config.resamples, config.level
            ),
        });
    }
    let n_seg = data.segments().len();
    let draw = |r: usize| {
        let mut rng = SplitMix64::for_resample(config.seed, r as u64);
        let mut counts = vec![0.0f64; n_seg];
        for _ in 0..n_seg {
            counts[rng.below(n_seg)] += 1.0;
        }
        counts
    };
    let [system_pearson, segment_kendall_wmt, segment_pearson] =
        bootstrap_core(data, config.resamples, config.level, draw, monitor)?;
    Ok(MetaEvalBootstrap {
        system_pearson,
        segment_kendall_wmt,
        segment_pearson,
        resamples: config.resamples,
        level: config.level,
        seed: Some(config.seed),
    })
}

/// The same bootstrap on given resamples: `samples[r]` lists the segment indices (0-based, in
/// the order of [`MetaEvalData::segments`]) drawn in resample r. Lets results be compared with
/// another implementation on identical draws. Errors: no samples, an empty sample, an index out
/// of range, or a level outside (0, 1).
pub fn bootstrap_meta_eval_with_segments(
    data: &MetaEvalData,
    samples: &[Vec<usize>],
    level: f64,
) -> StatsResult<MetaEvalBootstrap> {
    let what = "bootstrap_meta_eval_with_segments";
    let n_seg = data.segments().len();
    if samples.is_empty() || samples.iter().any(Vec::is_empty) || !(level > 0.0 && level < 1.0) {
        return Err(StatsError::InvalidArgument {
            what,
            message: "need at least one non-empty sample and a level in (0, 1)".into(),
        });
    }
    if let Some(&bad) = samples.iter().flatten().find(|&&g| g >= n_seg) {
        return Err(StatsError::InvalidArgument {
            what,
            message: format!("segment index {bad} out of range (there are {n_seg})"),
        });
    }
    let draw = |r: usize| {
        let mut counts = vec![0.0f64; n_seg];
        for &g in &samples[r] {
            counts[g] += 1.0;
        }
        counts
    };
    let [system_pearson, segment_kendall_wmt, segment_pearson] =
        bootstrap_core(data, samples.len(), level, draw, &Unmonitored)?;
    Ok(MetaEvalBootstrap {
        system_pearson,
        segment_kendall_wmt,
        segment_pearson,
        resamples: samples.len(),
        level,
        seed: None,
    })
}

/// Resamples run between two polls of the monitor: large enough that rayon's fork-join
/// overhead is negligible, small enough that a cancellation is honoured within a fraction of a
/// second on large data.
const BLOCK: usize = 1024;

/// Bytes held per resample: its three statistics, then one column of them at a time.
const BYTES_PER_RESAMPLE: u64 = 32;

/// A zero-filled vector of `n` values, refused with an error rather than an abort when the
/// machine cannot hold it.
fn zeros(what: &str, n: usize) -> StatsResult<Vec<f64>> {
    let mut v = try_vec(what, n)?;
    v.resize(n, 0.0);
    Ok(v)
}

/// Shared body: `draw(r)` gives how many times each segment is drawn in resample r.
fn bootstrap_core(
    data: &MetaEvalData,
    resamples: usize,
    level: f64,
    draw: impl Fn(usize) -> Vec<f64> + Sync,
    monitor: &dyn Monitor,
) -> StatsResult<[BootstrapInterval; 3]> {
    let what = "bootstrap_meta_eval";
    let n_sys = data.systems().len();
    let n_seg = data.segments().len();
    if n_sys < 2 {
        return Err(StatsError::TooFewItems {
            what,
            needed: 2,
            got: n_sys,
        });
    }
    check_memory(
        &format!("a bootstrap of {resamples} resamples"),
        bytes_for(resamples as u64, BYTES_PER_RESAMPLE),
    )?;
    // Dense per-segment layout: cell (g, s) at g * n_sys + s, so one resample walks memory once.
    let cells = n_seg.saturating_mul(n_sys);
    let table = format!("the bootstrap table of {n_sys} systems x {n_seg} segments");
    let mut h = zeros(&table, cells)?;
    let mut m = zeros(&table, cells)?;
    let mut present = zeros(&table, cells)?;
    for s in 0..n_sys {
        for g in 0..n_seg {
            if let (Some(hv), Some(mv)) = (data.human()[s][g], data.metric()[s][g]) {
                let i = g * n_sys + s;
                h[i] = hv;
                m[i] = mv;
                present[i] = 1.0;
            }
        }
    }
    let (ph, pm) = data.pooled();
    let (mh, mm) = (
        ph.iter().sum::<f64>() / ph.len() as f64,
        pm.iter().sum::<f64>() / pm.len() as f64,
    );
    let moments: Vec<Moments> = (0..n_seg)
        .map(|g| {
            let mut mo = Moments::default();
            for s in 0..n_sys {
                let i = g * n_sys + s;
                if present[i] > 0.0 {
                    let (x, y) = (m[i] - mm, h[i] - mh);
                    mo.n += 1.0;
                    mo.x += x;
                    mo.y += y;
                    mo.xx += x * x;
                    mo.yy += y * y;
                    mo.xy += x * y;
                }
            }
            mo
        })
        .collect();
    let taus = segment_taus(data);

    let one = |r: usize| -> [f64; 3] {
        let counts = draw(r);
        let mut sum_h = vec![0.0; n_sys];
        let mut sum_m = vec![0.0; n_sys];
        let mut cnt = vec![0.0; n_sys];
        let mut pooled = Moments::default();
        let (mut tau_sum, mut tau_n) = (0.0, 0.0);
        for (g, &w) in counts.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let base = g * n_sys;
            for s in 0..n_sys {
                sum_h[s] += w * h[base + s];
                sum_m[s] += w * m[base + s];
                cnt[s] += w * present[base + s];
            }
            pooled.add_scaled(&moments[g], w);
            if !taus[g].is_nan() {
                tau_sum += w * taus[g];
                tau_n += w;
            }
        }
        let system = if cnt.contains(&0.0) {
            f64::NAN
        } else {
            let hs: Vec<f64> = sum_h.iter().zip(&cnt).map(|(a, c)| a / c).collect();
            let ms: Vec<f64> = sum_m.iter().zip(&cnt).map(|(a, c)| a / c).collect();
            pearson_r(&ms, &hs)
        };
        let tau = if tau_n > 0.0 {
            tau_sum / tau_n
        } else {
            f64::NAN
        };
        [system, tau, pooled.pearson()]
    };
    let mut draws: Vec<[f64; 3]> = try_vec("bootstrap resamples", resamples)?;
    for start in (0..resamples).step_by(BLOCK) {
        if monitor.is_cancelled() {
            return Err(StatsError::Cancelled { what });
        }
        let end = start.saturating_add(BLOCK).min(resamples);
        // Resample i depends on (seed, i) only, so blocks give the numbers one pass would.
        draws.par_extend((start..end).into_par_iter().map(&one));
        monitor.advance((end - start) as u64);
    }
    let column = |k: usize| -> StatsResult<Vec<f64>> {
        let mut c = try_vec("bootstrap statistics", draws.len())?;
        c.extend(draws.iter().map(|d| d[k]));
        Ok(c)
    };

    let (hs, ms) = data.system_means();
    Ok([
        interval(pearson_r(&ms, &hs), column(0)?, level),
        interval(segment_wmt_tau(data).0, column(1)?, level),
        interval(pearson_r(&pm, &ph), column(2)?, level),
    ])
}

/// Williams test for the difference between two dependent correlations sharing one variable.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WilliamsTest {
    /// t statistic, positive when `r_human_a > r_human_b`.
    pub t: f64,
    /// Degrees of freedom, n - 3.
    pub df: f64,
    /// One-sided p-value of "metric a correlates better than metric b".
    pub p_value: f64,
}

/// Williams test (Williams 1959; Graham & Baldwin 2014, as used by WMT) from the three
/// correlations: `r12` (human, a), `r13` (human, b), `r23` (a, b) over n items. Errors for
/// n <= 3 or correlations outside [-1, 1].
pub fn williams_test_from_r(r12: f64, r13: f64, r23: f64, n: usize) -> StatsResult<WilliamsTest> {
    let what = "williams_test";
    if n <= 3 {
        return Err(StatsError::TooFewItems {
            what,
            needed: 4,
            got: n,
        });
    }
    if [r12, r13, r23].iter().any(|r| !(-1.0..=1.0).contains(r)) {
        return Err(StatsError::InvalidArgument {
            what,
            message: format!("correlations must be in [-1, 1], got {r12}, {r13}, {r23}"),
        });
    }
    let nf = n as f64;
    let k = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23;
    let denom =
        2.0 * k * (nf - 1.0) / (nf - 3.0) + ((r12 + r13).powi(2) / 4.0) * (1.0 - r23).powi(3);
    let t = (r12 - r13) * ((nf - 1.0) * (1.0 + r23)).sqrt() / denom.sqrt();
    let df = nf - 3.0;
    Ok(WilliamsTest {
        t,
        df,
        p_value: dist::student_t_sf(t, df),
    })
}

/// Williams test from the scores: is `a` more correlated (Pearson) with `human` than `b`?
///
/// ```
/// use figlang_stats::williams_test;
/// let h = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let a = [1.1, 2.0, 2.9, 4.2, 5.0, 6.1];
/// let b = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0];
/// assert!(williams_test(&h, &a, &b).unwrap().t > 0.0);
/// ```
pub fn williams_test(human: &[f64], a: &[f64], b: &[f64]) -> StatsResult<WilliamsTest> {
    check_paired("williams_test", human, a, 4)?;
    check_paired("williams_test", human, b, 4)?;
    williams_test_from_r(
        pearson_r(human, a),
        pearson_r(human, b),
        pearson_r(a, b),
        human.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_percentile_interpolation() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&v, 0.5), 2.5);
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert!((percentile(&v, 0.025) - 1.075).abs() < 1e-12);
    }

    #[test]
    fn williams_needs_four_items() {
        assert!(williams_test_from_r(0.5, 0.4, 0.3, 3).is_err());
    }

    #[test]
    fn bootstrap_mean_is_seeded_and_checks_its_input() {
        let v: Vec<f64> = (0..200).map(|i| f64::from(u8::from(i % 3 != 0))).collect();
        let cfg = BootstrapConfig::default();
        let a = bootstrap_mean(&v, &cfg).unwrap();
        // Same seed, same interval, on any thread pool.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(pool.install(|| bootstrap_mean(&v, &cfg)).unwrap(), a);
        let other = bootstrap_mean(&v, &BootstrapConfig { seed: 7, ..cfg }).unwrap();
        assert_ne!(other, a);
        // A binomial proportion of 2/3 over 200 items: the 95% interval is about +-0.065.
        assert!((a.estimate - 133.0 / 200.0).abs() < 1e-12);
        assert!(
            a.low > 0.58 && a.low < 0.63 && a.high > 0.70 && a.high < 0.75,
            "{a:?}"
        );
        assert!(bootstrap_mean(&[], &cfg).is_err());
        assert!(bootstrap_mean(&[f64::NAN], &cfg).is_err());
        assert!(bootstrap_mean(&v, &BootstrapConfig { level: 1.0, ..cfg }).is_err());
        assert!(bootstrap_mean(
            &v,
            &BootstrapConfig {
                resamples: usize::MAX,
                ..cfg
            }
        )
        .is_err());
    }
}
