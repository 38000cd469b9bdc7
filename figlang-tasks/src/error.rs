//! Typed errors of the task harnesses, each with the file and line or the model it concerns.

use std::path::PathBuf;

use thiserror::Error;

/// An error of a task harness.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TaskError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A record of a data or prediction file is malformed.
    #[error("{path}:{line}: {message}")]
    Record {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Inputs that do not fit together (prediction and data files of different lengths, a
    /// split without labels asked for its accuracy...).
    #[error("{0}")]
    Input(String),
    /// Loading or running a model failed.
    #[error(transparent)]
    Model(#[from] hauser_nli::NliError),
    /// A neural metric failed.
    #[error(transparent)]
    Neural(#[from] figlang_metrics::neural::NeuralError),
    /// A text metric refused its input.
    #[error(transparent)]
    Text(#[from] figlang_metrics::text::MetricError),
    /// A statistic could not be computed.
    #[error(transparent)]
    Stats(#[from] figlang_metrics::stats::StatsError),
}

/// Result alias of the harnesses.
pub type TaskResult<T> = std::result::Result<T, TaskError>;
