//! The libraries' typed errors as Python exceptions, carrying the Rust message.
//!
//! Bad input or options are `ValueError`; files that cannot be read or written are `OSError`
//! (`FileNotFoundError` / `PermissionError` where the cause says so); sizes the machine cannot
//! hold are `MemoryError`; a stop asked for by Ctrl-C is `KeyboardInterrupt`.

use std::io::ErrorKind;

use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyboardInterrupt, PyMemoryError, PyOSError, PyPermissionError,
    PyValueError,
};
use pyo3::PyErr;

use figlang_metrics::stats::StatsError;
use figlang_metrics::text::MetricError;
use hauser_core::limits::LimitError;
use hauser_core::CoreError;
use hauser_kb::KbError;

/// The `OSError` subclass for an I/O error of `kind`, with `message`.
pub(crate) fn os_error(kind: ErrorKind, message: String) -> PyErr {
    match kind {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// A `ValueError` with `message`.
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

fn limit(e: LimitError) -> PyErr {
    match e {
        LimitError::TooLarge { .. } | LimitError::Reserve { .. } => {
            PyMemoryError::new_err(e.to_string())
        }
        // A malformed HAUSER_MAX_MEMORY, or another refusal: the setting is the bad input.
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The exception of a text-metric error.
pub(crate) fn metric(e: MetricError) -> PyErr {
    match e {
        MetricError::Io { ref source, .. } => os_error(source.kind(), e.to_string()),
        MetricError::WordNetMissing { .. } => PyFileNotFoundError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The exception of a statistics error.
pub(crate) fn stats(e: StatsError) -> PyErr {
    match e {
        StatsError::Limit(l) => limit(l),
        StatsError::Cancelled { .. } => PyKeyboardInterrupt::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The exception of a knowledge-base error.
pub(crate) fn kb(e: KbError) -> PyErr {
    match e {
        KbError::Io { ref source, .. } => os_error(source.kind(), e.to_string()),
        KbError::Limit(l) => limit(l),
        KbError::Cancelled(_) => PyKeyboardInterrupt::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The exception of an error of the scoring core (weights, groups, components).
pub(crate) fn core(e: CoreError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The exception of a model error.
#[cfg(feature = "neural")]
pub(crate) fn nli(e: hauser_nli::NliError) -> PyErr {
    use hauser_nli::NliError;
    match e {
        NliError::Io { ref source, .. } => os_error(source.kind(), e.to_string()),
        NliError::MissingFile { .. } | NliError::NotADirectory { .. } => {
            PyFileNotFoundError::new_err(e.to_string())
        }
        NliError::Hub { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The exception of a neural-metric error.
#[cfg(feature = "neural")]
pub(crate) fn neural(e: figlang_metrics::neural::NeuralError) -> PyErr {
    use figlang_metrics::neural::NeuralError;
    match e {
        NeuralError::Model(m) => nli(m),
        _ => PyValueError::new_err(e.to_string()),
    }
}
