//! The WMT metrics task's meta-evaluation statistics (figlang-stats, equal to mt-metrics-eval's
//! own functions): Kendall variants, grouped (averaged) correlations and their bootstrap
//! intervals, tie-calibrated pairwise accuracy, system-level and soft pairwise accuracy, the
//! PERM-BOTH and pair-swapping permutation tests between two metrics and their all-pairs p-value
//! matrices, significance clusters. `hauser/stats.py` wraps them with NumPy arrays and
//! signatures.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use figlang_metrics::stats::{
    self, AverageOptions, BootstrapConfig, Grouping, KendallVariant, PackedScores, PairSampling,
    PermSigDiffConfig, StatsError, StatsResult, TauVariant,
};

use crate::errors::{self, value_error};
use crate::interrupt::{self, Cancel};
use crate::texts::floats;

fn variant(name: &str) -> PyResult<KendallVariant> {
    match name {
        "b" => Ok(KendallVariant::B),
        "c" => Ok(KendallVariant::C),
        "23" => Ok(KendallVariant::Tau23),
        "acc23" => Ok(KendallVariant::Acc23),
        other => Err(value_error(format!(
            "unknown variant {other:?} (b, c, 23, acc23)"
        ))),
    }
}

fn grouping(name: &str) -> PyResult<Grouping> {
    match name {
        "none" => Ok(Grouping::None),
        "item" => Ok(Grouping::Item),
        "sys" => Ok(Grouping::Sys),
        other => Err(value_error(format!(
            "unknown grouping {other:?} (none, item, sys)"
        ))),
    }
}

/// The correlation of one group's (human, metric) vectors: mt-metrics-eval's `corr_fcn` with
/// its arguments (`scipy.stats.pearsonr`, `spearmanr`, `kendalltau` with `variant` b or c, or
/// `KendallVariants` with `variant` and `epsilon`).
#[derive(Debug, Clone, Copy)]
enum Corr {
    Pearson,
    Spearman,
    Kendall(TauVariant),
    Variant(KendallVariant, f64),
}

impl Corr {
    fn parse(name: &str, variant_name: Option<&str>, epsilon: f64) -> PyResult<Self> {
        let no_variant = |c: Corr| match variant_name {
            None => Ok(c),
            Some(v) => Err(value_error(format!(
                "{name} takes no variant (got {v:?}; variants are for kendall and kendall_variants)"
            ))),
        };
        if name != "kendall_variants" && epsilon != 0.0 {
            return Err(value_error(format!(
                "epsilon is for kendall_variants, not {name}"
            )));
        }
        match name {
            "pearson" => no_variant(Corr::Pearson),
            "spearman" => no_variant(Corr::Spearman),
            "kendall" => match variant_name.unwrap_or("b") {
                "b" => Ok(Corr::Kendall(TauVariant::B)),
                "c" => Ok(Corr::Kendall(TauVariant::C)),
                other => Err(value_error(format!(
                    "unknown kendall variant {other:?} (b, c)"
                ))),
            },
            "kendall_variants" => Ok(Corr::Variant(
                variant(variant_name.unwrap_or("acc23"))?,
                epsilon,
            )),
            other => Err(value_error(format!(
                "unknown correlation {other:?} (pearson, spearman, kendall, kendall_variants)"
            ))),
        }
    }

    /// [`Corr::call`] that fails with `Cancelled` once the caller pressed Ctrl-C: the grouped
    /// statistics call it per group, so a long test stops within one run.
    fn call_or_stop(self, cancel: &Cancel, h: &[f64], m: &[f64]) -> StatsResult<f64> {
        if cancel.cancelled() {
            return Err(StatsError::Cancelled {
                what: "hauser.stats",
            });
        }
        self.call(h, m)
    }

    fn call(self, h: &[f64], m: &[f64]) -> StatsResult<f64> {
        match self {
            Corr::Pearson => Ok(stats::pearson(h, m)?.statistic),
            Corr::Spearman => Ok(stats::spearman(h, m)?.statistic),
            Corr::Kendall(v) => Ok(stats::kendall_tau(h, m, v)?.statistic),
            Corr::Variant(v, e) => stats::kendall_variant(h, m, v, e),
        }
    }
}

/// A correlation as `hauser/stats.py` passes it (its `_Corr` tuple): the name, the variant and
/// epsilon of [`Corr::parse`].
#[derive(FromPyObject)]
pub(crate) struct CorrArgs(String, Option<String>, f64);

impl CorrArgs {
    fn parse(&self) -> PyResult<Corr> {
        Corr::parse(&self.0, self.1.as_deref(), self.2)
    }
}

/// mt-metrics-eval's `PermutationSigDiffParams` with `k` and the seed of `np.random.seed`, as
/// `hauser/stats.py` passes them (its `_Perm` tuple): k, seed, block size, early_min,
/// early_max, replace_nans_with_zeros.
#[derive(FromPyObject)]
pub(crate) struct PermArgs(usize, u32, usize, f64, f64, bool);

impl From<PermArgs> for PermSigDiffConfig {
    fn from(a: PermArgs) -> Self {
        let PermArgs(k, seed, block_size, early_min, early_max, replace_nans_with_zeros) = a;
        PermSigDiffConfig {
            resamples: k,
            block_size,
            early_min,
            early_max,
            replace_nans_with_zeros,
            seed,
        }
    }
}

/// `n_metrics` packed metric vectors of the human vector's length, one after the other.
fn metric_rows(bytes: &[u8], n_metrics: usize, len: usize) -> PyResult<Vec<Vec<f64>>> {
    let all = floats(bytes, "metrics")?;
    if all.len() != n_metrics * len {
        return Err(value_error(format!(
            "metrics: {} scores are not {n_metrics} metrics of {len}",
            all.len()
        )));
    }
    if len == 0 {
        return Ok(vec![Vec::new(); n_metrics]);
    }
    Ok(all.chunks(len).map(<[f64]>::to_vec).collect())
}

/// mt-metrics-eval's `KendallVariants(human, metric, variant, epsilon)`.
#[pyfunction]
pub(crate) fn kendall_variant(
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
    variant_name: &str,
    epsilon: f64,
) -> PyResult<f64> {
    let (h, m) = (
        floats(human.as_bytes(), "human")?,
        floats(metric.as_bytes(), "metric")?,
    );
    stats::kendall_variant(&h, &m, variant(variant_name)?, epsilon).map_err(errors::stats)
}

/// mt-metrics-eval's `KendallWithTiesOpt`: (tau, epsilon, thresholds, taus).
#[pyfunction]
#[pyo3(signature = (human, metric, num_sys, grouping_name, variant_name, sample_rate, seed))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tie_calibration(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
    num_sys: usize,
    grouping_name: &str,
    variant_name: &str,
    sample_rate: f64,
    seed: u32,
) -> PyResult<(f64, f64, Vec<f64>, Vec<f64>)> {
    let (h, m) = (
        floats(human.as_bytes(), "human")?,
        floats(metric.as_bytes(), "metric")?,
    );
    let (g, v) = (grouping(grouping_name)?, variant(variant_name)?);
    let sampling = if sample_rate >= 1.0 {
        PairSampling::All
    } else {
        PairSampling::Sampled {
            rate: sample_rate,
            seed,
        }
    };
    let t = py
        .detach(|| {
            let scores = PackedScores::new(&h, &m, num_sys)?;
            stats::kendall_with_ties_opt(&scores, g, v, sampling)
        })
        .map_err(errors::stats)?;
    Ok((t.tau, t.epsilon, t.thresholds, t.taus))
}

/// System-level pairwise accuracy (Kocmi et al. 2021): (agreeing pairs, pairs).
#[pyfunction]
pub(crate) fn pairwise_accuracy(
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
) -> PyResult<(u64, u64)> {
    let (h, m) = (
        floats(human.as_bytes(), "human")?,
        floats(metric.as_bytes(), "metric")?,
    );
    let a = stats::pairwise_accuracy(&h, &m).map_err(errors::stats)?;
    Ok((a.agree, a.pairs))
}

/// Soft pairwise accuracy (Thompson et al. 2024) of packed segment scores.
#[pyfunction]
pub(crate) fn soft_pairwise_accuracy(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
    num_sys: usize,
    permutations: usize,
    seed: u64,
) -> PyResult<f64> {
    let (h, m) = (
        floats(human.as_bytes(), "human")?,
        floats(metric.as_bytes(), "metric")?,
    );
    py.detach(|| {
        let scores = PackedScores::new(&h, &m, num_sys)?;
        stats::soft_pairwise_accuracy(&scores, permutations, seed)
    })
    .map_err(errors::stats)
}

/// The significance clusters (mt-metrics-eval's `AssignRanks`) of metrics sorted best first,
/// from their matrix of pairwise p-values.
#[pyfunction]
pub(crate) fn significance_clusters(p_values: Vec<Vec<f64>>, alpha: f64) -> PyResult<Vec<usize>> {
    stats::significance_clusters(&p_values, alpha).map_err(errors::stats)
}

/// mt-metrics-eval's `AverageCorrelation`: (value, groups or items counted).
#[pyfunction]
#[pyo3(signature = (human, metric, num_sys, corr, grouping_name, replace_nans_with_zeros, macro_))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn average_correlation(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
    num_sys: usize,
    corr: CorrArgs,
    grouping_name: &str,
    replace_nans_with_zeros: bool,
    macro_: bool,
) -> PyResult<(f64, usize)> {
    let (h, m) = (
        floats(human.as_bytes(), "human")?,
        floats(metric.as_bytes(), "metric")?,
    );
    let (c, g) = (corr.parse()?, grouping(grouping_name)?);
    let options = AverageOptions {
        replace_nans_with_zeros,
        weighted: !macro_,
    };
    let r = py
        .detach(|| {
            let scores = PackedScores::new(&h, &m, num_sys)?;
            stats::average_correlation(&scores, g, options, |h, m| c.call(h, m))
        })
        .map_err(errors::stats)?;
    Ok((r.value, r.weight))
}

/// Percentile bootstrap interval of [`average_correlation`] over items (segments: the columns,
/// drawn with replacement, every system's score with its item): (estimate, low, high, valid).
#[pyfunction]
#[pyo3(signature = (human, metric, num_sys, corr, grouping_name, replace_nans_with_zeros, macro_, resamples, seed, level))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn bootstrap_average_correlation(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
    num_sys: usize,
    corr: CorrArgs,
    grouping_name: &str,
    replace_nans_with_zeros: bool,
    macro_: bool,
    resamples: usize,
    seed: u64,
    level: f64,
) -> PyResult<(f64, f64, f64, usize)> {
    let (h, m) = (
        floats(human.as_bytes(), "human")?,
        floats(metric.as_bytes(), "metric")?,
    );
    let (c, g) = (corr.parse()?, grouping(grouping_name)?);
    let options = AverageOptions {
        replace_nans_with_zeros,
        weighted: !macro_,
    };
    let config = BootstrapConfig {
        resamples,
        seed,
        level,
    };
    let iv = interrupt::run(py, true, move |cancel| {
        let scores = PackedScores::new(&h, &m, num_sys)?;
        let ni = scores.num_items();
        let estimate = stats::average_correlation(&scores, g, options, |h, m| c.call(h, m))?;
        // A resample: each item's column repeated as often as it was drawn. A correlation
        // error (there is none on valid packed scores) counts as an undefined statistic; after
        // Ctrl-C the remaining resamples are skipped and the result dropped.
        let stat = |w: &[f64]| -> Vec<f64> {
            if cancel.cancelled() {
                return vec![f64::NAN];
            }
            let (mut rh, mut rm) = (Vec::with_capacity(h.len()), Vec::with_capacity(h.len()));
            for s in 0..num_sys {
                for (i, &wi) in w.iter().enumerate() {
                    for _ in 0..(wi as usize) {
                        rh.push(h[s * ni + i]);
                        rm.push(m[s * ni + i]);
                    }
                }
            }
            let value = PackedScores::new(&rh, &rm, num_sys)
                .and_then(|r| stats::average_correlation(&r, g, options, |h, m| c.call(h, m)));
            vec![value.map_or(f64::NAN, |v| v.value)]
        };
        let iv = stats::bootstrap_items(ni, &[estimate.value], &config, stat)?;
        if cancel.cancelled() {
            return Err(StatsError::Cancelled {
                what: "hauser.stats",
            });
        }
        Ok(iv)
    })?
    .map_err(errors::stats)?;
    let b = iv[0];
    Ok((b.estimate, b.low, b.high, b.valid))
}

/// mt-metrics-eval's `PermutationSigDiff` (PERM-BOTH): (p-value, delta, runs used).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn permutation_sig_diff(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric1: &Bound<'_, PyBytes>,
    metric2: &Bound<'_, PyBytes>,
    num_sys: usize,
    corr: CorrArgs,
    grouping_name: &str,
    perm: PermArgs,
) -> PyResult<(f64, f64, usize)> {
    let (h, m1, m2) = (
        floats(human.as_bytes(), "human")?,
        floats(metric1.as_bytes(), "metric1")?,
        floats(metric2.as_bytes(), "metric2")?,
    );
    let (c, g) = (corr.parse()?, grouping(grouping_name)?);
    let config = PermSigDiffConfig::from(perm);
    let r = interrupt::run(py, true, move |cancel| {
        let first = PackedScores::new(&h, &m1, num_sys)?;
        let second = PackedScores::new(&h, &m2, num_sys)?;
        stats::permutation_sig_diff(&first, &second, g, &config, |h, m| {
            c.call_or_stop(cancel, h, m)
        })
    })?
    .map_err(errors::stats)?;
    Ok((r.p_value, r.delta, r.resamples_used))
}

/// mt-metrics-eval's `PairwisePermutationSigDiff` (pair swapping): (p-value, delta, runs used).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn pairwise_permutation_sig_diff(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric1: &Bound<'_, PyBytes>,
    metric2: &Bound<'_, PyBytes>,
    num_sys: usize,
    variant_name: &str,
    grouping_name: &str,
    epsilons: (Option<f64>, Option<f64>),
    perm: PermArgs,
) -> PyResult<(f64, f64, usize)> {
    let (h, m1, m2) = (
        floats(human.as_bytes(), "human")?,
        floats(metric1.as_bytes(), "metric1")?,
        floats(metric2.as_bytes(), "metric2")?,
    );
    let (v, g) = (variant(variant_name)?, grouping(grouping_name)?);
    let config = PermSigDiffConfig::from(perm);
    // No correlation callback to stop it: on Ctrl-C it finishes in the background.
    let r = interrupt::run(py, true, move |_| {
        let first = PackedScores::new(&h, &m1, num_sys)?;
        let second = PackedScores::new(&h, &m2, num_sys)?;
        stats::pairwise_permutation_sig_diff(&first, &second, g, v, epsilons, &config)
    })?
    .map_err(errors::stats)?;
    Ok((r.p_value, r.delta, r.resamples_used))
}

/// The PERM-BOTH p-value matrix of metrics in the given order (best first), as
/// `data.ComputeSigMatrix`: `[i][j]`, `j > i`, tests metric `j` against metric `i`; NaN elsewhere.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn perm_both_matrix(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metrics: &Bound<'_, PyBytes>,
    n_metrics: usize,
    num_sys: usize,
    corr: CorrArgs,
    grouping_name: &str,
    perm: PermArgs,
) -> PyResult<Vec<Vec<f64>>> {
    let h = floats(human.as_bytes(), "human")?;
    let rows = metric_rows(metrics.as_bytes(), n_metrics, h.len())?;
    let (c, g) = (corr.parse()?, grouping(grouping_name)?);
    let config = PermSigDiffConfig::from(perm);
    interrupt::run(py, true, move |cancel| {
        let packed = rows
            .iter()
            .map(|m| PackedScores::new(&h, m, num_sys))
            .collect::<StatsResult<Vec<_>>>()?;
        stats::perm_both_matrix(&packed, g, &config, |h, m| c.call_or_stop(cancel, h, m))
    })?
    .map_err(errors::stats)
}

/// The pair-swapping p-value matrix (tau_23, acc_23) of metrics in the given order, as
/// [`perm_both_matrix`]; `epsilons` None calibrates each metric's threshold on all pairs:
/// (matrix, epsilons used).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn pairwise_permutation_matrix(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metrics: &Bound<'_, PyBytes>,
    n_metrics: usize,
    num_sys: usize,
    variant_name: &str,
    grouping_name: &str,
    epsilons: Option<Vec<f64>>,
    perm: PermArgs,
) -> PyResult<(Vec<Vec<f64>>, Vec<f64>)> {
    let h = floats(human.as_bytes(), "human")?;
    let rows = metric_rows(metrics.as_bytes(), n_metrics, h.len())?;
    let (v, g) = (variant(variant_name)?, grouping(grouping_name)?);
    let config = PermSigDiffConfig::from(perm);
    // No correlation callback to stop it: on Ctrl-C it finishes in the background.
    interrupt::run(py, true, move |_| {
        let packed = rows
            .iter()
            .map(|m| PackedScores::new(&h, m, num_sys))
            .collect::<StatsResult<Vec<_>>>()?;
        let eps = match epsilons {
            Some(e) => e,
            None => packed
                .iter()
                .map(|s| Ok(stats::kendall_with_ties_opt(s, g, v, PairSampling::All)?.epsilon))
                .collect::<StatsResult<Vec<f64>>>()?,
        };
        let p = stats::pairwise_permutation_matrix(&packed, g, v, &eps, &config)?;
        Ok((p, eps))
    })?
    .map_err(errors::stats)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kendall_variant, m)?)?;
    m.add_function(wrap_pyfunction!(tie_calibration, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_accuracy, m)?)?;
    m.add_function(wrap_pyfunction!(soft_pairwise_accuracy, m)?)?;
    m.add_function(wrap_pyfunction!(significance_clusters, m)?)?;
    m.add_function(wrap_pyfunction!(average_correlation, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_average_correlation, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_sig_diff, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_permutation_sig_diff, m)?)?;
    m.add_function(wrap_pyfunction!(perm_both_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_permutation_matrix, m)?)?;
    Ok(())
}
