//! The WMT metrics task's meta-evaluation statistics (figlang-stats, equal to mt-metrics-eval's
//! own functions): Kendall variants, tie-calibrated pairwise accuracy, system-level and soft
//! pairwise accuracy, significance clusters. `hauser/stats.py` wraps them with NumPy arrays and
//! signatures.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use figlang_metrics::stats::{self, Grouping, KendallVariant, PackedScores, PairSampling};

use crate::errors::{self, value_error};
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

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kendall_variant, m)?)?;
    m.add_function(wrap_pyfunction!(tie_calibration, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_accuracy, m)?)?;
    m.add_function(wrap_pyfunction!(soft_pairwise_accuracy, m)?)?;
    m.add_function(wrap_pyfunction!(significance_clusters, m)?)?;
    Ok(())
}
