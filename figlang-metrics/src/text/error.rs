//! Typed errors of the text metrics.

use std::path::PathBuf;

use thiserror::Error;

/// Errors raised by the text metrics and their data loaders.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MetricError {
    /// A data file (Punkt model, WordNet database) could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A data file is malformed.
    #[error("{source_name}:{line}: {message}")]
    Data {
        /// The file or resource.
        source_name: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The WordNet database directory is missing or incomplete.
    #[error(
        "WordNet database not found at {path}: {reason} (install Debian's `wordnet-base`, \
         which provides /usr/share/wordnet, or point the METEOR scorer at a WordNet 3.0 `dict` directory)"
    )]
    WordNetMissing {
        /// The directory that was tried.
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// A metric option is invalid.
    #[error("invalid {metric} option: {message}")]
    InvalidOption {
        /// The metric.
        metric: String,
        /// What is wrong.
        message: String,
    },
    /// No text metric has this name.
    #[error("unknown metric {name:?}; known: {known}")]
    UnknownMetric {
        /// The name asked for.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// The inputs do not fit the metric (e.g. no references, mismatched lengths).
    #[error("{metric}: {message}")]
    InvalidInput {
        /// The metric.
        metric: String,
        /// What is wrong.
        message: String,
    },
}

impl MetricError {
    /// Wraps an I/O error with the file it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn input(metric: &str, message: impl Into<String>) -> Self {
        Self::InvalidInput {
            metric: metric.into(),
            message: message.into(),
        }
    }

    pub(crate) fn option(metric: &str, message: impl Into<String>) -> Self {
        Self::InvalidOption {
            metric: metric.into(),
            message: message.into(),
        }
    }
}
