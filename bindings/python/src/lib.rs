//! `hauser._hauser`, the extension module of the `hauser` Python package: the engine of the
//! `hauser` CLI (figlang-metrics, hauser-kb, hauser-extract, hauser-core and, with the `neural`
//! feature, hauser-nli) behind PyO3's stable ABI.
//!
//! The Python package (`python/hauser/`) gives the API its users know (sacreBLEU-style metric
//! functions, SciPy-shaped statistics, NumPy results) on top of the plain functions and classes
//! here. Conventions kept by every binding:
//!
//! - inputs are read and checked while the interpreter is attached, then the interpreter is
//!   released for the whole computation (`interrupt::run`); long calls answer Ctrl-C;
//! - errors are Python exceptions carrying the library's message (module `errors`): `ValueError`
//!   for bad input, `OSError` for files, never a panic or a crash;
//! - results are the CLI's: the same library calls, the same signatures and record fields.

mod convert;
mod errors;
mod extract;
mod interrupt;
mod kb;
#[cfg(feature = "neural")]
mod learned;
mod metrics;
#[cfg(feature = "neural")]
mod neural;
mod scoring;
mod stats;
mod texts;
mod wmt_stats;

use pyo3::prelude::*;

/// The engine of the `hauser` package; use the package (`import hauser`), not this module.
#[pymodule]
fn _hauser(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The version figlang-metrics puts in signatures (`hauser corr`'s is built from it).
    m.add("METRICS_VERSION", figlang_metrics::VERSION)?;
    m.add("NEURAL", cfg!(feature = "neural"))?;
    m.add_class::<texts::ArrowStrings>()?;
    m.add_class::<metrics::PyTextMetric>()?;
    m.add_function(wrap_pyfunction!(metrics::metric_names, m)?)?;
    m.add_function(wrap_pyfunction!(metrics::rouge_tokens, m)?)?;
    stats::register(m)?;
    wmt_stats::register(m)?;
    m.add_class::<kb::KnowledgeBase>()?;
    m.add_function(wrap_pyfunction!(extract::extract, m)?)?;
    m.add_class::<scoring::Hauser>()?;
    #[cfg(feature = "neural")]
    neural::register(m)?;
    #[cfg(feature = "neural")]
    learned::register(m)?;
    Ok(())
}
