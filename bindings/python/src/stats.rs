//! `figlang_metrics::stats`: correlations with SciPy's p-values, the meta-evaluation of
//! `hauser meta-eval`, bootstrap, permutation and Williams tests, agreement.
//!
//! Numbers arrive as float64 bytes (the Python layer's `numpy.ascontiguousarray(...).tobytes()`)
//! and results leave as plain tuples; `hauser/stats.py` wraps them in SciPy-shaped results.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use figlang_metrics::stats::{
    self, BootstrapConfig, CorrelationKind, KappaWeights, Level, McNemarMethod, MetaEvalData,
    TauVariant,
};

use crate::errors::{self, value_error};
use crate::interrupt::{self, LONG};
use crate::texts::floats;

fn f64s(b: &Bound<'_, PyBytes>, what: &str) -> PyResult<Vec<f64>> {
    floats(b.as_bytes(), what)
}

fn kind(name: &str) -> PyResult<CorrelationKind> {
    match name {
        "pearson" => Ok(CorrelationKind::Pearson),
        "spearman" => Ok(CorrelationKind::Spearman),
        "kendall" => Ok(CorrelationKind::KendallB),
        other => Err(value_error(format!(
            "unknown correlation {other:?} (pearson, spearman, kendall)"
        ))),
    }
}

/// `correlation` of two float64 columns, with the interpreter released: (statistic, p-value).
fn correlate(
    py: Python<'_>,
    x: &Bound<'_, PyBytes>,
    y: &Bound<'_, PyBytes>,
    correlation: fn(&[f64], &[f64]) -> stats::StatsResult<stats::Correlation>,
) -> PyResult<(f64, f64)> {
    let (x, y) = (f64s(x, "x")?, f64s(y, "y")?);
    let c = py.detach(|| correlation(&x, &y)).map_err(errors::stats)?;
    Ok((c.statistic, c.p_value))
}

/// Pearson's r and SciPy's two-sided p-value.
#[pyfunction]
pub(crate) fn pearson(
    py: Python<'_>,
    x: &Bound<'_, PyBytes>,
    y: &Bound<'_, PyBytes>,
) -> PyResult<(f64, f64)> {
    correlate(py, x, y, stats::pearson)
}

/// Spearman's rho and SciPy's two-sided p-value.
#[pyfunction]
pub(crate) fn spearman(
    py: Python<'_>,
    x: &Bound<'_, PyBytes>,
    y: &Bound<'_, PyBytes>,
) -> PyResult<(f64, f64)> {
    correlate(py, x, y, stats::spearman)
}

/// Kendall's tau (`variant` `b` or `c`) and SciPy's two-sided p-value.
#[pyfunction]
pub(crate) fn kendall(
    py: Python<'_>,
    x: &Bound<'_, PyBytes>,
    y: &Bound<'_, PyBytes>,
    variant: &str,
) -> PyResult<(f64, f64)> {
    let variant = match variant {
        "b" => TauVariant::B,
        "c" => TauVariant::C,
        other => return Err(value_error(format!("unknown variant {other:?} (b or c)"))),
    };
    let (x, y) = (f64s(x, "x")?, f64s(y, "y")?);
    // Quadratic in n: released, and interruptible from a few thousand items.
    let long = x.len() >= 5_000;
    let c = interrupt::run(py, long, move |_| stats::kendall_tau(&x, &y, variant))?
        .map_err(errors::stats)?;
    Ok((c.statistic, c.p_value))
}

/// The WMT17 Kendall-like tau: (tau, concordant, discordant).
#[pyfunction]
pub(crate) fn wmt_kendall(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    metric: &Bound<'_, PyBytes>,
) -> PyResult<(f64, u64, u64)> {
    let (h, m) = (f64s(human, "human")?, f64s(metric, "metric")?);
    let long = h.len() >= 5_000;
    let t = interrupt::run(py, long, move |_| stats::wmt_kendall_tau(&h, &m))?
        .map_err(errors::stats)?;
    Ok((t.tau, t.concordant, t.discordant))
}

/// SciPy's Fisher-z interval of Pearson's r over n pairs: (low, high).
#[pyfunction]
pub(crate) fn fisher_z_interval(r: f64, n: usize, level: f64) -> PyResult<(f64, f64)> {
    let ci = stats::fisher_z_interval(r, n, level).map_err(errors::stats)?;
    Ok((ci.low, ci.high))
}

/// `hauser meta-eval` on columns: the dict of its JSON line (NaN where it prints `null`).
#[pyfunction]
#[pyo3(signature = (systems, segments, human, metric, bootstrap=0, seed=0))]
pub(crate) fn meta_eval<'py>(
    py: Python<'py>,
    systems: Vec<String>,
    segments: Vec<String>,
    human: &Bound<'py, PyBytes>,
    metric: &Bound<'py, PyBytes>,
    bootstrap: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let (human, metric) = (f64s(human, "human")?, f64s(metric, "metric")?);
    let n = systems.len();
    if segments.len() != n || human.len() != n || metric.len() != n {
        return Err(value_error(format!(
            "meta_eval: columns of different lengths (system {n}, segment {}, human {}, metric {})",
            segments.len(),
            human.len(),
            metric.len()
        )));
    }
    let rows = systems
        .into_iter()
        .zip(segments)
        .zip(human.into_iter().zip(metric))
        .map(|((s, g), (h, m))| (s, g, h, m));
    let data = MetaEvalData::from_rows(rows).map_err(errors::stats)?;
    let long = bootstrap.saturating_mul(n) >= LONG * 10;
    let (report, top, boot) = interrupt::run(py, long, move |cancel| {
        let report = stats::meta_evaluate(&data)?;
        let top = if report.n_systems >= 3 {
            Some(stats::top_n_analysis(&data)?)
        } else {
            None
        };
        let boot = if bootstrap > 0 {
            let config = BootstrapConfig {
                resamples: bootstrap,
                seed,
                level: 0.95,
            };
            Some(stats::bootstrap_meta_eval_monitored(
                &data, &config, cancel,
            )?)
        } else {
            None
        };
        Ok::<_, stats::StatsError>((report, top, boot))
    })?
    .map_err(errors::stats)?;
    // The keys and order of the CLI's JSON line.
    let d = PyDict::new(py);
    d.set_item("system_pearson", report.system_pearson.statistic)?;
    d.set_item("system_pearson_p", report.system_pearson.p_value)?;
    d.set_item(
        "system_pearson_ci95",
        [report.system_pearson_ci.low, report.system_pearson_ci.high],
    )?;
    d.set_item("system_spearman", report.system_spearman.statistic)?;
    d.set_item("system_spearman_p", report.system_spearman.p_value)?;
    d.set_item("system_kendall", report.system_kendall.statistic)?;
    d.set_item("system_kendall_p", report.system_kendall.p_value)?;
    d.set_item("segment_kendall_wmt", report.segment_kendall_wmt)?;
    d.set_item(
        "segment_kendall_wmt_segments",
        report.segment_kendall_segments,
    )?;
    d.set_item("segment_pearson", report.segment_pearson.statistic)?;
    d.set_item("segment_pearson_p", report.segment_pearson.p_value)?;
    d.set_item("n_systems", report.n_systems)?;
    d.set_item("n_segments", report.n_segments)?;
    d.set_item("n_items", report.n_items)?;
    d.set_item("signature", report.signature.to_string())?;
    if let Some(top) = top {
        let list = PyList::empty(py);
        for t in top {
            let e = PyDict::new(py);
            e.set_item("n", t.n)?;
            e.set_item("pearson", t.pearson.statistic)?;
            e.set_item("p", t.pearson.p_value)?;
            list.append(e)?;
        }
        d.set_item("system_pearson_top_n", list)?;
    }
    if let Some(b) = boot {
        let e = PyDict::new(py);
        e.set_item("resamples", bootstrap)?;
        e.set_item("seed", seed)?;
        e.set_item(
            "system_pearson_ci95",
            [b.system_pearson.low, b.system_pearson.high],
        )?;
        e.set_item(
            "segment_kendall_wmt_ci95",
            [b.segment_kendall_wmt.low, b.segment_kendall_wmt.high],
        )?;
        e.set_item(
            "segment_pearson_ci95",
            [b.segment_pearson.low, b.segment_pearson.high],
        )?;
        d.set_item("bootstrap", e)?;
    }
    Ok(d)
}

/// Percentile bootstrap of the mean: (estimate, low, high, valid resamples).
#[pyfunction]
pub(crate) fn bootstrap_mean(
    py: Python<'_>,
    values: &Bound<'_, PyBytes>,
    resamples: usize,
    seed: u64,
    level: f64,
) -> PyResult<(f64, f64, f64, usize)> {
    let values = f64s(values, "values")?;
    let long = resamples.saturating_mul(values.len()) >= LONG * 100;
    let config = BootstrapConfig {
        resamples,
        seed,
        level,
    };
    let b = interrupt::run(py, long, move |_| stats::bootstrap_mean(&values, &config))?
        .map_err(errors::stats)?;
    Ok((b.estimate, b.low, b.high, b.valid))
}

/// Williams' test of corr(human, a) > corr(human, b): (t, one-sided p, df).
#[pyfunction]
pub(crate) fn williams(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    a: &Bound<'_, PyBytes>,
    b: &Bound<'_, PyBytes>,
) -> PyResult<(f64, f64, f64)> {
    let (h, a, b) = (f64s(human, "human")?, f64s(a, "a")?, f64s(b, "b")?);
    let w = py
        .detach(|| stats::williams_test(&h, &a, &b))
        .map_err(errors::stats)?;
    Ok((w.t, w.p_value, w.df))
}

/// Williams' test from the three correlations over n items: (t, one-sided p, df).
#[pyfunction]
pub(crate) fn williams_from_r(r12: f64, r13: f64, r23: f64, n: usize) -> PyResult<(f64, f64, f64)> {
    let w = stats::williams_test_from_r(r12, r13, r23, n).map_err(errors::stats)?;
    Ok((w.t, w.p_value, w.df))
}

/// Permutation test of a correlation: (statistic, p, null values, exact).
#[pyfunction]
pub(crate) fn permutation_test(
    py: Python<'_>,
    x: &Bound<'_, PyBytes>,
    y: &Bound<'_, PyBytes>,
    correlation: &str,
    resamples: usize,
    seed: u64,
) -> PyResult<(f64, f64, usize, bool)> {
    let (x, y, kind) = (f64s(x, "x")?, f64s(y, "y")?, kind(correlation)?);
    let long = resamples.saturating_mul(x.len()) >= LONG * 10;
    let r = interrupt::run(py, long, move |cancel| {
        stats::permutation_test_monitored(&x, &y, kind, resamples, seed, cancel)
    })?
    .map_err(errors::stats)?;
    Ok((r.statistic, r.p_value, r.resamples, r.exact))
}

/// Paired permutation test of corr(human, a) - corr(human, b): (statistic, p, null values,
/// exact).
#[pyfunction]
pub(crate) fn permutation_test_paired(
    py: Python<'_>,
    human: &Bound<'_, PyBytes>,
    a: &Bound<'_, PyBytes>,
    b: &Bound<'_, PyBytes>,
    correlation: &str,
    resamples: usize,
    seed: u64,
) -> PyResult<(f64, f64, usize, bool)> {
    let (h, a, b) = (f64s(human, "human")?, f64s(a, "a")?, f64s(b, "b")?);
    let kind = kind(correlation)?;
    let long = resamples.saturating_mul(h.len()) >= LONG * 10;
    let r = interrupt::run(py, long, move |cancel| {
        stats::permutation_test_paired_monitored(&h, &a, &b, kind, resamples, seed, cancel)
    })?
    .map_err(errors::stats)?;
    Ok((r.statistic, r.p_value, r.resamples, r.exact))
}

/// Cohen's kappa of two raters' integer labels; `weights` `none`, `linear` or `quadratic`.
#[pyfunction]
pub(crate) fn cohen_kappa(
    py: Python<'_>,
    a: Vec<i64>,
    b: Vec<i64>,
    weights: &str,
) -> PyResult<f64> {
    let w = match weights {
        "none" => KappaWeights::Unweighted,
        "linear" => KappaWeights::Linear,
        "quadratic" => KappaWeights::Quadratic,
        other => {
            return Err(value_error(format!(
                "unknown weights {other:?} (None, linear, quadratic)"
            )))
        }
    };
    py.detach(|| stats::cohen_kappa(&a, &b, w))
        .map_err(errors::stats)
}

/// Fleiss' kappa of a subjects x categories table of counts.
#[pyfunction]
pub(crate) fn fleiss_kappa(py: Python<'_>, table: Vec<Vec<u64>>) -> PyResult<f64> {
    py.detach(|| stats::fleiss_kappa(&table))
        .map_err(errors::stats)
}

/// Krippendorff's alpha of `data[rater][unit]` (NaN = missing) at a level of measurement.
#[pyfunction]
pub(crate) fn krippendorff_alpha(
    py: Python<'_>,
    data: Vec<Vec<f64>>,
    level: &str,
) -> PyResult<f64> {
    let level = match level {
        "nominal" => Level::Nominal,
        "ordinal" => Level::Ordinal,
        "interval" => Level::Interval,
        "ratio" => Level::Ratio,
        other => {
            return Err(value_error(format!(
                "unknown level of measurement {other:?} (nominal, ordinal, interval, ratio)"
            )))
        }
    };
    py.detach(|| stats::krippendorff_alpha(&data, level))
        .map_err(errors::stats)
}

/// McNemar's test on a 2x2 table: (statistic, p); `method` `exact`, `chi2` or `chi2-corrected`.
#[pyfunction]
pub(crate) fn mcnemar(table: [[u64; 2]; 2], method: &str) -> PyResult<(f64, f64)> {
    let m = match method {
        "exact" => McNemarMethod::Exact,
        "chi2" => McNemarMethod::ChiSquare,
        "chi2-corrected" => McNemarMethod::ChiSquareCorrected,
        other => {
            return Err(value_error(format!(
                "unknown method {other:?} (exact, chi2, chi2-corrected)"
            )))
        }
    };
    let t = stats::mcnemar(table, m);
    Ok((t.statistic, t.p_value))
}

/// Registers the functions of this module on `m`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pearson, m)?)?;
    m.add_function(wrap_pyfunction!(spearman, m)?)?;
    m.add_function(wrap_pyfunction!(kendall, m)?)?;
    m.add_function(wrap_pyfunction!(wmt_kendall, m)?)?;
    m.add_function(wrap_pyfunction!(fisher_z_interval, m)?)?;
    m.add_function(wrap_pyfunction!(meta_eval, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_mean, m)?)?;
    m.add_function(wrap_pyfunction!(williams, m)?)?;
    m.add_function(wrap_pyfunction!(williams_from_r, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_test, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_test_paired, m)?)?;
    m.add_function(wrap_pyfunction!(cohen_kappa, m)?)?;
    m.add_function(wrap_pyfunction!(fleiss_kappa, m)?)?;
    m.add_function(wrap_pyfunction!(krippendorff_alpha, m)?)?;
    m.add_function(wrap_pyfunction!(mcnemar, m)?)?;
    Ok(())
}
