//! Statistical significance of corpus scores as sacreBLEU 2.4.3 computes it
//! (`sacrebleu/significance.py`), and rouge-score 0.1.2's `scoring.BootstrapAggregator`.
//!
//! | function | sacreBLEU | what it gives |
//! | --- | --- | --- |
//! | [`bootstrap_ci`] | `--confidence`, `--confidence-n` (`corpus_score(n_bootstrap=...)`) | score, bootstrap mean, 95% CI half-width |
//! | [`paired_bootstrap`] | `--paired-bs`, `--paired-bs-n` | per system: score, mean, CI, p-value against the baseline |
//! | [`paired_ar`] | `--paired-ar`, `--paired-ar-n` | per system: score, p-value (two-sided approximate randomization) |
//! | [`rouge_bootstrap`] | rouge-score `BootstrapAggregator` | low / mid / high percentiles of P, R, F |
//!
//! The tests work on per-segment sufficient statistics (one row of numbers per segment) and a
//! [`StatsScorer`] that scores a summed row: [`SacreBleu`](crate::text::metrics::bleu_sacre::SacreBleu) and
//! [`Chrf`](crate::text::metrics::chrf::Chrf) implement it (rows from [`BleuStats::row`](crate::text::metrics::bleu_sacre::BleuStats::row) and
//! [`Chrf::segment_stats`](crate::text::metrics::chrf::Chrf::segment_stats)), and so does any
//! `Fn(&[f64]) -> f64 + Sync`.
//!
//! **Parity.** With a seed, results equal sacreBLEU's on the same statistics to the last bit:
//! resample indices come from NumPy's `default_rng(seed)` (SeedSequence, PCG64, Lemire's bounded
//! integers, reproduced in `stats::numpy_rng`); resampled statistics are summed in `float32` and
//! scored with NumPy 2's promotion rules; means are `ndarray.mean()`'s pairwise sums (paired
//! tests) or `statistics.mean`'s exactly rounded ones (`--confidence`). The CI half-width is
//! `(x[n - 1 - n/40] - x[n/40]) / 2` of the sorted resampled scores; p-values are
//! `(c + 1) / (n + 1)`, `c` counting resamples whose statistic exceeds the observed absolute
//! difference (paired bootstrap: `|sys - base|` centred on its mean; AR: `|a - b|` of the
//! shuffled pseudo-systems). Exactness assumes integer statistics (BLEU and chrF counts) whose
//! corpus sums stay below 2^24, which `float32` and `int64` then hold exactly; with fractional
//! statistics the AR sums may differ from NumPy's floating-point matrix products in the last
//! bits.
//! [`rouge_bootstrap`] equals rouge-score after `np.random.seed(seed)`: NumPy's legacy MT19937,
//! `randint`'s masked rejection sampling, column means summed row by row, linear percentiles.
//!
//! **Seeds.** As sacreBLEU: default 12345 ([`DEFAULT_SEED`]), `SACREBLEU_SEED` parsed by
//! [`sacrebleu_seed`], `None` meaning fresh entropy. One quirk is kept: the paired tests draw the
//! compared systems' resamples unseeded when the seed is 0 (sacreBLEU passes `seed or None`),
//! while the baseline's interval uses seed 0.
//!
//! Resamples are scored in parallel (rayon); the draws are sequential, so results do not depend
//! on the thread count.

pub(crate) mod emulation;
mod packed;
mod report;
mod segments;

use rayon::prelude::*;

use crate::text::error::MetricError;
use crate::text::metrics::rouge::Prf;
use figlang_stats::numpy_rng::{
    bounded_fill, bounded_fill_u32, BoolStream, Bounded, Mt19937, Pcg64,
};
use packed::Packed;
pub use report::{confidence_record, paired_records, PairedTest, MAX_SAMPLES};
pub use segments::{segment_confidence_record, segment_paired_records};

use emulation::{
    centred_abs_diff, estimate_ci_numpy, estimate_ci_statistics, p_value, pairwise_sum_f32,
    percentile_linear, sort_np, Scores,
};

/// sacreBLEU's default seed (`SACREBLEU_SEED` unset).
pub const DEFAULT_SEED: u64 = 12345;
/// sacreBLEU's default number of bootstrap resamples (`--confidence-n`, `--paired-bs-n`).
pub const DEFAULT_BOOTSTRAP_SAMPLES: usize = 1000;
/// sacreBLEU's default number of approximate-randomization trials (`--paired-ar-n`).
pub const DEFAULT_AR_TRIALS: usize = 10000;

pub(crate) const NAME: &str = "significance";

/// Number of resamples (or trials) and the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resampling {
    /// Bootstrap resamples or AR trials (at least 1).
    pub n_samples: usize,
    /// Seed of NumPy's `default_rng`; `None` draws fresh entropy (sacreBLEU's `SACREBLEU_SEED=None`).
    pub seed: Option<u64>,
}

impl Resampling {
    /// sacreBLEU's bootstrap defaults: 1000 resamples, seed 12345.
    pub fn bootstrap() -> Self {
        Self {
            n_samples: DEFAULT_BOOTSTRAP_SAMPLES,
            seed: Some(DEFAULT_SEED),
        }
    }

    /// sacreBLEU's approximate-randomization defaults: 10000 trials, seed 12345.
    pub fn approximate_randomization() -> Self {
        Self {
            n_samples: DEFAULT_AR_TRIALS,
            seed: Some(DEFAULT_SEED),
        }
    }

    /// `n_samples` with the seed sacreBLEU derives from a value of its `SACREBLEU_SEED`
    /// environment variable (`None`: unset), parsed by [`sacrebleu_seed`]. The library never
    /// reads the environment itself: the programs (the CLI, the Python package) pass the value in.
    ///
    /// # Errors
    /// [`MetricError::InvalidOption`] for a value sacreBLEU would refuse.
    pub fn with_sacrebleu_seed(n_samples: usize, value: Option<&str>) -> Result<Self, MetricError> {
        Ok(Self {
            n_samples,
            seed: sacrebleu_seed(value)?,
        })
    }
}

/// The seed sacreBLEU derives from the value of `SACREBLEU_SEED`: unset gives 12345, `none` (any
/// case) gives `None` (unseeded), anything else must be a non-negative integer as Python's
/// `int()` reads it (surrounding spaces, a `+`, `_` between digits). Seeds above `u64::MAX`,
/// which NumPy would accept, are refused.
pub fn sacrebleu_seed(value: Option<&str>) -> Result<Option<u64>, MetricError> {
    let Some(raw) = value else {
        return Ok(Some(DEFAULT_SEED));
    };
    let s = raw.trim();
    if s.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let digits = s.strip_prefix('+').unwrap_or(s);
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__");
    let parsed = well_formed
        .then(|| digits.replace('_', "").parse::<u64>().ok())
        .flatten();
    parsed.map(Some).ok_or_else(|| {
        MetricError::option(
            NAME,
            format!("SACREBLEU_SEED={raw:?} is not 'None' or a non-negative integer below 2^64"),
        )
    })
}

/// A resampled score as NumPy holds it: sacreBLEU's chrF yields `float32` scalars on `float32`
/// statistics, and the arrays, means and intervals built from them stay `float32`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ResampleScore {
    /// A double-precision score.
    F64(f64),
    /// A single-precision score.
    F32(f32),
}

/// A corpus metric scored from summed per-segment sufficient statistics.
pub trait StatsScorer: Sync {
    /// The score of exact sums (sacreBLEU's `_aggregate_and_compute` on Python lists): actual
    /// system scores.
    fn score(&self, sums: &[f64]) -> f64;

    /// The score of an approximate-randomization trial (a NumPy `int64` row). Defaults to
    /// [`score`](Self::score).
    fn score_trial(&self, sums: &[f64]) -> f64 {
        self.score(sums)
    }

    /// The score of a bootstrap resample, whose statistics sacreBLEU sums in `float32`. Defaults
    /// to [`score`](Self::score) of the widened sums.
    fn score_resample(&self, sums: &[f32]) -> ResampleScore {
        let wide: Vec<f64> = sums.iter().map(|&v| f64::from(v)).collect();
        ResampleScore::F64(self.score(&wide))
    }

    /// The row length the scorer needs, when it has one (checked before resampling).
    fn stats_len(&self) -> Option<usize> {
        None
    }
}

impl<F: Fn(&[f64]) -> f64 + Sync> StatsScorer for F {
    fn score(&self, sums: &[f64]) -> f64 {
        self(sums)
    }
}

/// sacreBLEU's `--confidence` result for one system (`μ = mean ± ci`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ConfidenceEstimate {
    /// The actual corpus score.
    pub score: f64,
    /// Mean of the bootstrap scores (`statistics.mean`).
    pub mean: f64,
    /// Half-width of the 95% interval of the bootstrap scores.
    pub ci: f64,
}

/// One system's row of sacreBLEU's paired-test table (its `Result`; JSON fields `score`,
/// `p_value`, `mean`, `ci`). The baseline comes first, without a p-value.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PairedResult {
    /// The actual corpus score.
    pub score: f64,
    /// p-value against the baseline (`None` for the baseline).
    pub p_value: Option<f64>,
    /// Bootstrap mean (paired bootstrap, or AR with a confidence sample count).
    pub mean: Option<f64>,
    /// 95% CI half-width around [`mean`](Self::mean).
    pub ci: Option<f64>,
}

/// Checked statistics: `n_seg` rows of `width` numbers, flattened.
struct Table {
    n_seg: usize,
    width: usize,
    data: Vec<f64>,
    data32: Vec<f32>,
}

impl Table {
    fn new<R: AsRef<[f64]>>(
        what: &str,
        rows: &[R],
        width: Option<usize>,
    ) -> Result<Self, MetricError> {
        let first = rows
            .first()
            .ok_or_else(|| MetricError::input(NAME, format!("{what}: no segment statistics")))?;
        let width = width.unwrap_or(first.as_ref().len());
        if width == 0 {
            return Err(MetricError::input(
                NAME,
                format!("{what}: empty statistics rows"),
            ));
        }
        if u32::try_from(rows.len()).is_err() {
            return Err(MetricError::input(
                NAME,
                format!("{what}: too many segments"),
            ));
        }
        let mut data = Vec::with_capacity(rows.len() * width);
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            if r.len() != width {
                return Err(MetricError::input(
                    NAME,
                    format!(
                        "{what}: segment {i} has {} statistics, expected {width}",
                        r.len()
                    ),
                ));
            }
            data.extend_from_slice(r);
        }
        let data32 = data.iter().map(|&v| v as f32).collect();
        Ok(Self {
            n_seg: rows.len(),
            width,
            data,
            data32,
        })
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// sacreBLEU's `sum_of_lists`: exact sums in segment order.
    fn sums(&self) -> Vec<f64> {
        let mut acc = vec![0.0; self.width];
        for i in 0..self.n_seg {
            acc.iter_mut().zip(self.row(i)).for_each(|(a, &v)| *a += v);
        }
        acc
    }

    /// `stats_np[idx].sum(0)` in `float32`: row by row, except that a single column is summed
    /// pairwise (NumPy then reduces one contiguous axis).
    fn resample_sums(&self, idx: &[u32], acc: &mut [f32], gather: &mut Vec<f32>) {
        if self.width == 1 {
            gather.clear();
            gather.extend(idx.iter().map(|&i| self.data32[i as usize]));
            acc[0] = pairwise_sum_f32(gather);
            return;
        }
        acc.fill(0.0);
        for &i in idx {
            let start = i as usize * self.width;
            let row = &self.data32[start..start + self.width];
            acc.iter_mut().zip(row).for_each(|(a, &v)| *a += v);
        }
    }

    /// Bootstrap scores for the index matrix `idx` (`n_samples` rows of `n_seg`).
    fn resample<S: StatsScorer + ?Sized>(&self, idx: &[u32], scorer: &S) -> Scores {
        let samples: Vec<ResampleScore> = idx
            .par_chunks(self.n_seg)
            .map_init(
                || (vec![0.0f32; self.width], Vec::new()),
                |(acc, gather), row| {
                    self.resample_sums(row, acc, gather);
                    scorer.score_resample(acc)
                },
            )
            .collect();
        Scores::from_samples(samples)
    }
}

pub(crate) fn check_samples(what: &str, n: usize) -> Result<(), MetricError> {
    if n == 0 {
        return Err(MetricError::option(
            NAME,
            format!("{what} must be at least 1"),
        ));
    }
    Ok(())
}

/// `default_rng(seed).choice(n_seg, size=(n_samples, n_seg))`, row-major.
fn bootstrap_indices(
    rng: &mut Pcg64,
    n_samples: usize,
    n_seg: usize,
) -> Result<Vec<u32>, MetricError> {
    let count = n_samples
        .checked_mul(n_seg)
        .ok_or_else(|| MetricError::option(NAME, "too many resamples for this corpus"))?;
    let mut out = vec![0u64; count];
    bounded_fill(rng, n_seg as u64, Bounded::Lemire, &mut out);
    Ok(out.into_iter().map(|v| v as u32).collect())
}

/// Resample indices drawn per batch (about 4 MB of them): what [`resample_tables`] holds at a
/// time, whatever the number of resamples.
const INDEX_BATCH: usize = 1 << 20;

/// Bootstrap scores of each of `tables` (the same segments) for the `n_samples` index rows of
/// `rng`'s `choice(n_seg, size=(n_samples, n_seg))`: every table resampled with the same rows,
/// as sacreBLEU resamples the baseline and the systems of a paired test. The rows are drawn in
/// batches of about [`INDEX_BATCH`] indices and each row is gathered once for all the tables;
/// the resamples of a batch are scored in parallel (rayon), and the results do not depend on
/// the number of threads.
fn resample_tables<S: StatsScorer + ?Sized>(
    tables: &[&Table],
    rng: &mut Pcg64,
    n_samples: usize,
    scorer: &S,
) -> Result<Vec<Scores>, MetricError> {
    let Some(first) = tables.first() else {
        return Ok(Vec::new());
    };
    let n_seg = first.n_seg;
    n_samples
        .checked_mul(n_seg)
        .ok_or_else(|| MetricError::option(NAME, "too many resamples for this corpus"))?;
    let k = tables.len();
    let packed = Packed::new(tables);
    let batch_rows = (INDEX_BATCH / n_seg).clamp(1, n_samples);
    let mut idx = vec![0u32; batch_rows * n_seg];
    let mut samples = vec![ResampleScore::F64(0.0); n_samples * k];
    let max_width = tables.iter().map(|t| t.width).max().unwrap_or(0);
    for out in samples.chunks_mut(batch_rows * k) {
        let rows = out.len() / k;
        let idx = &mut idx[..rows * n_seg];
        bounded_fill_u32(rng, n_seg as u64, Bounded::Lemire, idx);
        out.par_chunks_mut(k)
            .zip(idx.par_chunks(n_seg))
            .for_each_init(
                || (Vec::new(), vec![0.0f32; max_width], Vec::new()),
                |(acc, sums, gather), (dst, row)| match &packed {
                    Some(p) => {
                        p.sums(row, acc);
                        for (t, d) in dst.iter_mut().enumerate().take(p.tables()) {
                            p.table_sums(t, acc, sums);
                            *d = scorer.score_resample(sums);
                        }
                    }
                    None => {
                        for (t, d) in tables.iter().zip(dst.iter_mut()) {
                            let s = &mut sums[..t.width];
                            t.resample_sums(row, s, gather);
                            *d = scorer.score_resample(s);
                        }
                    }
                },
            );
    }
    Ok((0..k)
        .map(|t| Scores::from_samples(samples.iter().skip(t).step_by(k).copied().collect()))
        .collect())
}

/// [`resample_tables`] of one table.
fn resample_one<S: StatsScorer + ?Sized>(
    table: &Table,
    rng: &mut Pcg64,
    n_samples: usize,
    scorer: &S,
) -> Result<Scores, MetricError> {
    let mut scores = resample_tables(&[table], rng, n_samples, scorer)?;
    Ok(scores.pop().unwrap_or(Scores::F64(Vec::new())))
}

/// The single-system bootstrap of `sacrebleu --confidence --confidence-n N`: the actual score,
/// and the mean and 95% half-width of `cfg.n_samples` resampled scores. `stats` has one row
/// per segment.
pub fn bootstrap_ci<R, S>(
    stats: &[R],
    scorer: &S,
    cfg: &Resampling,
) -> Result<ConfidenceEstimate, MetricError>
where
    R: AsRef<[f64]>,
    S: StatsScorer + ?Sized,
{
    check_samples("n_samples", cfg.n_samples)?;
    let table = Table::new("system", stats, scorer.stats_len())?;
    let scores = resample_one(
        &table,
        &mut Pcg64::default_rng(cfg.seed),
        cfg.n_samples,
        scorer,
    )?;
    let (mean, ci) = estimate_ci_statistics(&scores);
    Ok(ConfidenceEstimate {
        score: scorer.score(&table.sums()),
        mean,
        ci,
    })
}

fn tables<R: AsRef<[f64]>>(
    baseline: &[R],
    systems: &[&[R]],
    width: Option<usize>,
) -> Result<(Table, Vec<Table>), MetricError> {
    let base = Table::new("baseline", baseline, width)?;
    let width = Some(base.width);
    let others = systems
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let t = Table::new(&format!("system {}", k + 1), s, width)?;
            if t.n_seg != base.n_seg {
                return Err(MetricError::input(
                    NAME,
                    format!(
                        "system {} has {} segments, the baseline {}",
                        k + 1,
                        t.n_seg,
                        base.n_seg
                    ),
                ));
            }
            Ok(t)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((base, others))
}

/// The seed of the compared systems' generators: sacreBLEU passes `seed or None`.
fn system_seed(seed: Option<u64>) -> Option<u64> {
    seed.filter(|&s| s != 0)
}

/// sacreBLEU's paired bootstrap resampling test (`--paired-bs --paired-bs-n N`, Koehn 2004 as
/// in Moses' `bootstrap-hypothesis-difference-significance.pl`). `baseline` and each of
/// `systems` have one statistics row per segment. Returns the baseline's result (score, mean,
/// CI) then each system's (score, mean, CI, p-value).
pub fn paired_bootstrap<R, S>(
    baseline: &[R],
    systems: &[&[R]],
    scorer: &S,
    cfg: &Resampling,
) -> Result<Vec<PairedResult>, MetricError>
where
    R: AsRef<[f64]> + Sync,
    S: StatsScorer + ?Sized,
{
    check_samples("n_samples", cfg.n_samples)?;
    let (base, others) = tables(baseline, systems, scorer.stats_len())?;
    let n = cfg.n_samples;
    let shared = system_seed(cfg.seed) == cfg.seed && cfg.seed.is_some();
    let mut base_rng = Pcg64::default_rng(cfg.seed);
    // With a shared seed every system is resampled with the baseline's rows: one pass serves
    // them all. Otherwise each system draws its own rows (the baseline resampled with them).
    let mut shared_scores = if shared {
        let all: Vec<&Table> = std::iter::once(&base).chain(&others).collect();
        resample_tables(&all, &mut base_rng, n, scorer)?
    } else {
        vec![resample_one(&base, &mut base_rng, n, scorer)?]
    }
    .into_iter();
    let base_scores = shared_scores.next().unwrap_or(Scores::F64(Vec::new()));
    let (mean, ci) = estimate_ci_numpy(&base_scores);
    let base_score = scorer.score(&base.sums());
    let mut out = vec![PairedResult {
        score: base_score,
        p_value: None,
        mean: Some(mean),
        ci: Some(ci),
    }];
    for sys in &others {
        let (bl, sys_scores) = if shared {
            (
                None,
                shared_scores.next().unwrap_or(Scores::F64(Vec::new())),
            )
        } else {
            let mut rng = Pcg64::default_rng(system_seed(cfg.seed));
            let mut pair = resample_tables(&[&base, sys], &mut rng, n, scorer)?.into_iter();
            let bl = pair.next().unwrap_or(Scores::F64(Vec::new()));
            (Some(bl), pair.next().unwrap_or(Scores::F64(Vec::new())))
        };
        let bl = bl.as_ref().unwrap_or(&base_scores);
        let score = scorer.score(&sys.sums());
        let (mean, ci) = estimate_ci_numpy(&sys_scores);
        let stats = centred_abs_diff(&sys_scores, bl);
        out.push(PairedResult {
            score,
            p_value: Some(p_value(&stats, (base_score - score).abs())),
            mean: Some(mean),
            ci: Some(ci),
        });
    }
    Ok(out)
}

/// sacreBLEU's paired approximate randomization test (`--paired-ar --paired-ar-n N`; Riezler &
/// Maxwell 2005, as in MultEval): each trial swaps every segment's statistics between the
/// baseline and the system with probability 1/2, and the p-value counts trials whose absolute
/// score difference exceeds the observed one.
///
/// `confidence_n` is sacreBLEU's `PairedTest(n_ar_confidence=...)` (not reachable from its
/// command line, which gives `None`): with `Some(n)`, every result also gets a bootstrap mean
/// and CI from `n` resamples (the systems' drawn after the coins from the same generator).
pub fn paired_ar<R, S>(
    baseline: &[R],
    systems: &[&[R]],
    scorer: &S,
    cfg: &Resampling,
    confidence_n: Option<usize>,
) -> Result<Vec<PairedResult>, MetricError>
where
    R: AsRef<[f64]> + Sync,
    S: StatsScorer + ?Sized,
{
    check_samples("n_samples", cfg.n_samples)?;
    if let Some(c) = confidence_n {
        check_samples("confidence_n", c)?;
    }
    let (base, others) = tables(baseline, systems, scorer.stats_len())?;
    let n_seg = base.n_seg;
    let base_score = scorer.score(&base.sums());
    let (mean, ci) = match confidence_n {
        Some(c) => {
            let idx = bootstrap_indices(&mut Pcg64::default_rng(cfg.seed), c, n_seg)?;
            let (m, ci) = estimate_ci_numpy(&base.resample(&idx, scorer));
            (Some(m), Some(ci))
        }
        None => (None, None),
    };
    let mut out = vec![PairedResult {
        score: base_score,
        p_value: None,
        mean,
        ci,
    }];
    let coin_count = cfg
        .n_samples
        .checked_mul(n_seg)
        .ok_or_else(|| MetricError::option(NAME, "too many trials for this corpus"))?;
    let draw = || -> Result<(BoolStream, Option<Vec<u32>>), MetricError> {
        let mut rng = Pcg64::default_rng(system_seed(cfg.seed));
        let coins = BoolStream::draw(&mut rng, coin_count);
        let idx = confidence_n
            .map(|c| bootstrap_indices(&mut rng, c, n_seg))
            .transpose()?;
        Ok((coins, idx))
    };
    let shared = if system_seed(cfg.seed).is_some() {
        Some(draw()?)
    } else {
        None
    };
    for sys in &others {
        let fresh;
        let (coins, idx) = match shared.as_ref() {
            Some(d) => (&d.0, &d.1),
            None => {
                fresh = draw()?;
                (&fresh.0, &fresh.1)
            }
        };
        let score = scorer.score(&sys.sums());
        let shift = Shift::new(&base, sys);
        let diffs: Vec<f64> = (0..cfg.n_samples)
            .into_par_iter()
            .map_init(
                || (vec![0.0f64; base.width], vec![0.0f64; base.width]),
                |(a, b), t| {
                    shuffled_sums(&shift, coins, t * n_seg, a, b);
                    (scorer.score_trial(a) - scorer.score_trial(b)).abs()
                },
            )
            .collect();
        let (mean, ci) = match idx {
            Some(idx) => {
                let (m, c) = estimate_ci_numpy(&sys.resample(idx, scorer));
                (Some(m), Some(c))
            }
            None => (None, None),
        };
        out.push(PairedResult {
            score,
            p_value: Some(p_value(&Scores::F64(diffs), (base_score - score).abs())),
            mean,
            ci,
        });
    }
    Ok(out)
}

/// One AR trial: `a = coins @ base + ~coins @ sys`, `b = ~coins @ base + coins @ sys`, as
/// `a = sum(sys) + sum_coins(base - sys)` and `b = sum(base) - sum_coins(base - sys)`: equal to
/// NumPy's `int64` products for integer statistics.
fn shuffled_sums(shift: &Shift, coins: &BoolStream, offset: usize, a: &mut [f64], b: &mut [f64]) {
    let w = a.len();
    a.fill(0.0);
    coins.for_each_set(offset, shift.n_seg, |i| {
        let row = &shift.diff[i * w..(i + 1) * w];
        a.iter_mut().zip(row).for_each(|(x, &d)| *x += d);
    });
    for j in 0..w {
        b[j] = shift.base_sums[j] - a[j];
        a[j] += shift.sys_sums[j];
    }
}

/// What one AR comparison needs: per-segment `base - sys` rows and both systems' sums.
struct Shift {
    n_seg: usize,
    diff: Vec<f64>,
    base_sums: Vec<f64>,
    sys_sums: Vec<f64>,
}

impl Shift {
    fn new(base: &Table, sys: &Table) -> Self {
        Self {
            n_seg: base.n_seg,
            diff: base
                .data
                .iter()
                .zip(&sys.data)
                .map(|(x, y)| x - y)
                .collect(),
            base_sums: base.sums(),
            sys_sums: sys.sums(),
        }
    }
}

/// rouge-score's default number of bootstrap samples.
pub const ROUGE_BOOTSTRAP_SAMPLES: usize = 1000;
/// rouge-score's default confidence.
pub const ROUGE_CONFIDENCE: f64 = 0.95;

/// rouge-score's `AggregateScore`: percentiles of the bootstrap means of precision, recall and
/// F-measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapAggregate {
    /// The `(1 - confidence) / 2` percentiles.
    pub low: Prf,
    /// The medians.
    pub mid: Prf,
    /// The `1 - (1 - confidence) / 2` percentiles.
    pub high: Prf,
}

/// rouge-score's `BootstrapAggregator(confidence_interval, n_samples).aggregate()` for one
/// ROUGE type: `n_samples` resamples (with replacement) of the per-pair scores, the mean of each,
/// and NumPy's linear percentiles of those means. rouge-score draws from NumPy's global legacy
/// generator: `seed` is what `np.random.seed(seed)` set before aggregating (`None`: fresh entropy).
pub fn rouge_bootstrap(
    scores: &[Prf],
    n_samples: usize,
    confidence: f64,
    seed: Option<u32>,
) -> Result<BootstrapAggregate, MetricError> {
    let mut all = rouge_bootstrap_types(&[scores], n_samples, confidence, seed)?;
    all.pop()
        .ok_or_else(|| MetricError::input(NAME, "no ROUGE scores"))
}

/// [`rouge_bootstrap`] for several ROUGE types aggregated in one `aggregate()` call, in the
/// aggregator's order (the order of the scorer's `rouge_types`): the legacy generator's stream
/// continues from one type to the next.
pub fn rouge_bootstrap_types(
    types: &[&[Prf]],
    n_samples: usize,
    confidence: f64,
    seed: Option<u32>,
) -> Result<Vec<BootstrapAggregate>, MetricError> {
    if !(0.0..=1.0).contains(&confidence) {
        return Err(MetricError::option(
            NAME,
            "confidence_interval must be in range [0, 1]",
        ));
    }
    check_samples("n_samples", n_samples)?;
    if types.iter().any(|t| t.is_empty()) {
        return Err(MetricError::input(NAME, "no ROUGE scores to aggregate"));
    }
    let mut rng = match seed {
        Some(s) => Mt19937::seed(s),
        None => Mt19937::from_fresh_entropy(),
    };
    let delta = (1.0 - confidence) / 2.0;
    let qs = [100.0 * delta, 100.0 * 0.5, 100.0 * (1.0 - delta)];
    let mut out = Vec::with_capacity(types.len());
    for scores in types {
        let m = scores.len();
        let mut idx = vec![0u64; m];
        let mut draws = Vec::with_capacity(n_samples * m);
        for _ in 0..n_samples {
            bounded_fill(&mut rng, m as u64, Bounded::Masked, &mut idx);
            draws.extend_from_slice(&idx);
        }
        let means: Vec<[f64; 3]> = draws
            .par_chunks(m)
            .map(|sample| {
                let mut acc = [0.0f64; 3];
                for &i in sample {
                    let s = &scores[i as usize];
                    acc[0] += s.precision;
                    acc[1] += s.recall;
                    acc[2] += s.fmeasure;
                }
                acc.map(|v| v / m as f64)
            })
            .collect();
        let mut pct = [[0.0f64; 3]; 3];
        for col in 0..3 {
            let mut v: Vec<f64> = means.iter().map(|r| r[col]).collect();
            sort_np(&mut v);
            for (row, &q) in qs.iter().enumerate() {
                pct[row][col] = percentile_linear(&v, q);
            }
        }
        let prf = |r: [f64; 3]| Prf {
            precision: r[0],
            recall: r[1],
            fmeasure: r[2],
        };
        out.push(BootstrapAggregate {
            low: prf(pct[0]),
            mid: prf(pct[1]),
            high: prf(pct[2]),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Vec<f64>> {
        (0..30)
            .map(|i| vec![f64::from(i % 7 + 1), f64::from(i % 5 + 2)])
            .collect()
    }

    fn ratio(s: &[f64]) -> f64 {
        100.0 * s[0] / s[1]
    }

    #[test]
    fn seeds_follow_sacrebleu() {
        assert_eq!(sacrebleu_seed(None).unwrap(), Some(12345));
        assert_eq!(sacrebleu_seed(Some("None")).unwrap(), None);
        assert_eq!(sacrebleu_seed(Some(" nOnE ")).unwrap(), None);
        assert_eq!(sacrebleu_seed(Some("+1_000")).unwrap(), Some(1000));
        assert_eq!(sacrebleu_seed(Some("007")).unwrap(), Some(7));
        for bad in [
            "",
            "-1",
            "1.5",
            "_1",
            "1__0",
            "abc",
            "99999999999999999999999",
        ] {
            assert!(sacrebleu_seed(Some(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let empty: Vec<Vec<f64>> = vec![];
        let cfg = Resampling::bootstrap();
        assert!(bootstrap_ci(&empty, &ratio, &cfg).is_err());
        assert!(bootstrap_ci(&[Vec::<f64>::new()], &ratio, &cfg).is_err());
        let zero = Resampling {
            n_samples: 0,
            seed: Some(1),
        };
        assert!(bootstrap_ci(&rows(), &ratio, &zero).is_err());
        let ragged = vec![vec![1.0, 2.0], vec![1.0]];
        assert!(bootstrap_ci(&ragged, &ratio, &cfg).is_err());
        let short: Vec<Vec<f64>> = rows()[..3].to_vec();
        let r = rows();
        assert!(paired_bootstrap(&r, &[&short], &ratio, &cfg).is_err());
        assert!(paired_ar(&r, &[&short], &ratio, &cfg, None).is_err());
        assert!(paired_ar(&r, &[&r], &ratio, &cfg, Some(0)).is_err());
        let bleu = crate::text::metrics::bleu_sacre::SacreBleu::default();
        assert!(bootstrap_ci(&r, &bleu, &cfg).is_err());
        assert!(rouge_bootstrap(&[], 10, 0.95, Some(1)).is_err());
        assert!(rouge_bootstrap(&[Prf::default()], 0, 0.95, Some(1)).is_err());
        assert!(rouge_bootstrap(&[Prf::default()], 10, 1.5, Some(1)).is_err());
    }

    #[test]
    fn one_segment_and_one_sample_work() {
        let one = vec![vec![3.0, 4.0]];
        let cfg = Resampling {
            n_samples: 1,
            seed: Some(5),
        };
        let ci = bootstrap_ci(&one, &ratio, &cfg).unwrap();
        assert_eq!((ci.score, ci.mean, ci.ci), (75.0, 75.0, 0.0));
        let res = paired_bootstrap(&one, &[&one], &ratio, &cfg).unwrap();
        assert_eq!(res[1].p_value, Some(0.5));
        let res = paired_ar(&one, &[&one], &ratio, &cfg, Some(1)).unwrap();
        assert_eq!(res[1].p_value, Some(0.5));
        let agg = rouge_bootstrap(&[Prf::default()], 1, 0.95, None).unwrap();
        assert_eq!(agg.mid, Prf::default());
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let r = rows();
        let other: Vec<Vec<f64>> = r.iter().map(|v| vec![v[0] + 1.0, v[1]]).collect();
        let cfg = Resampling {
            n_samples: 200,
            seed: Some(3),
        };
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    (
                        paired_bootstrap(&r, &[&other], &ratio, &cfg).unwrap(),
                        paired_ar(&r, &[&other], &ratio, &cfg, None).unwrap(),
                    )
                })
        };
        assert_eq!(run(1), run(3));
    }

    /// The packed integer sums and the batched draws give exactly the `float32` emulation's
    /// resampled scores of every table (BLEU rows of three systems; fractional rows, which
    /// stay on the `float32` path; one column).
    #[test]
    fn packed_resampling_equals_float32_rows() {
        let bleu = crate::text::metrics::bleu_sacre::SacreBleu::default();
        let system = |seed: u64| -> Vec<Vec<f64>> {
            (0..777u64)
                .map(|i| {
                    let h = (i * 2_654_435_761 + seed * 97) % 1000;
                    let len = (h % 40 + 1) as f64;
                    let c: Vec<f64> = (0..4)
                        .map(|n| ((h >> n) % 40).min(len as u64) as f64)
                        .collect();
                    let mut row = vec![len, ((h * 7) % 45 + 1) as f64];
                    row.extend(c.iter());
                    row.extend((0..4).map(|n| (len - n as f64).max(0.0)));
                    row
                })
                .collect()
        };
        let systems: Vec<Vec<Vec<f64>>> = (0..3).map(system).collect();
        let tables: Vec<Table> = systems
            .iter()
            .map(|s| Table::new("system", s, None).unwrap())
            .collect();
        let refs: Vec<&Table> = tables.iter().collect();
        assert!(Packed::new(&refs).is_some());
        for n in [1usize, 7, 300] {
            let got = resample_tables(&refs, &mut Pcg64::default_rng(Some(9)), n, &bleu).unwrap();
            let idx = bootstrap_indices(&mut Pcg64::default_rng(Some(9)), n, 777).unwrap();
            for (t, g) in tables.iter().zip(&got) {
                assert_eq!(
                    emulation::as_f64(g),
                    emulation::as_f64(&t.resample(&idx, &bleu))
                );
            }
        }
        // Fractional statistics and a single column keep the float32 sums.
        let frac: Vec<Vec<f64>> = (0..300)
            .map(|i| vec![f64::from(i) * 0.37 + 0.1, 3.0])
            .collect();
        let col: Vec<Vec<f64>> = (0..300).map(|i| vec![f64::from(i % 17)]).collect();
        let mean = |s: &[f64]| s[0] / 3.0;
        for rows in [&frac, &col] {
            let t = Table::new("system", rows, None).unwrap();
            assert_eq!(Packed::new(&[&t]).is_some(), rows[0].len() == 1);
            let got = resample_one(&t, &mut Pcg64::default_rng(Some(4)), 50, &mean).unwrap();
            let idx = bootstrap_indices(&mut Pcg64::default_rng(Some(4)), 50, 300).unwrap();
            assert_eq!(
                emulation::as_f64(&got),
                emulation::as_f64(&t.resample(&idx, &mean))
            );
        }
    }

    #[test]
    fn seed_zero_leaves_the_systems_unseeded() {
        let r = rows();
        let other: Vec<Vec<f64>> = r.iter().map(|v| vec![v[0] + 1.0, v[1]]).collect();
        let cfg = Resampling {
            n_samples: 50,
            seed: Some(0),
        };
        let a = paired_bootstrap(&r, &[&other], &ratio, &cfg).unwrap();
        let b = paired_bootstrap(&r, &[&other], &ratio, &cfg).unwrap();
        assert_eq!(a[0], b[0]);
        assert_ne!(a[1].mean, b[1].mean);
    }
}
