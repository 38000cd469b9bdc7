//! Typed errors of the knowledge base.

use std::path::PathBuf;

use thiserror::Error;

/// Errors raised while ingesting, building, opening or querying a knowledge base.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum KbError {
    /// A file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// An input row is malformed (wrong number of fields, bad number, missing column...).
    #[error("{path}:{line}: {message}")]
    BadRow {
        /// The input file (or the name given for a reader).
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The input as a whole cannot be read in the requested format (e.g. a required column is absent).
    #[error("{path}: {message}")]
    BadInput {
        /// The input file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An index file is not a knowledge base, was written by an incompatible version, is
    /// truncated or its checksum does not match.
    #[error("{path}: corrupt or incompatible knowledge base: {message}")]
    Corrupt {
        /// The index file (`<memory>` for in-memory bytes).
        path: PathBuf,
        /// What check failed.
        message: String,
    },
    /// The knowledge base would exceed a format limit (2^32 - 1 strings, triplets or pairs).
    #[error("knowledge base too large: {0}")]
    TooLarge(String),
    /// The work would need more memory than the machine allows (checked before allocating,
    /// see [`hauser_core::limits`]).
    #[error(transparent)]
    Limit(#[from] hauser_core::limits::LimitError),
    /// The caller's [`hauser_core::limits::Monitor`] asked the work to stop.
    #[error("{0}: cancelled")]
    Cancelled(&'static str),
    /// A component extractor failed while ingesting plain similes.
    #[error("{path}:{line}: component extraction failed: {source}")]
    Extraction {
        /// The input file.
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// The extractor's error.
        #[source]
        source: hauser_core::CoreError,
    },
}

impl KbError {
    /// Wraps an I/O error with the file it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn corrupt(path: &std::path::Path, message: impl Into<String>) -> Self {
        Self::Corrupt {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// Result alias for the knowledge-base crate.
pub type Result<T, E = KbError> = std::result::Result<T, E>;
