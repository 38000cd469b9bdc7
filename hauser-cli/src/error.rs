//! Errors of the command-line tool.

use std::path::PathBuf;

use thiserror::Error;

/// An error that stops a subcommand (per-record problems are reported as error records instead).
#[derive(Debug, Error)]
pub enum CliError {
    /// A file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The input as a whole is unusable (e.g. a JSON array with a syntax error).
    #[error("{path}:{line}: {message}")]
    Input {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An output names the same file as an input (path, link, or redirected standard input).
    #[error("{output}: the output is the same file as the input {input}; refusing to overwrite an input (write elsewhere, then rename)")]
    SameFile {
        /// The output as given.
        output: PathBuf,
        /// The input it is the same file as.
        input: PathBuf,
    },
    /// An output cannot be written where it is asked for (a missing or read-only directory, a
    /// directory or socket in its place...); found before any work is done.
    #[error("{flag} {path}: {message}")]
    Output {
        /// The flag naming it.
        flag: String,
        /// The output as given.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An input to be read whole into memory is larger than the limit or than what can be
    /// reserved.
    #[error("{path}: input too large to read into memory ({reason}{}; limit {limit} bytes, set HAUSER_MAX_INPUT_BYTES to change it)", .size.map_or_else(String::new, |s| format!(": {s} bytes")))]
    TooLarge {
        /// The input.
        path: PathBuf,
        /// Its size when known before reading.
        size: Option<u64>,
        /// The limit in force.
        limit: u64,
        /// Why it was refused.
        reason: String,
    },
    /// A command-line option has an invalid value.
    #[error("invalid option: {0}")]
    Usage(String),
    /// A library error.
    #[error(transparent)]
    Core(#[from] hauser_core::CoreError),
    /// A knowledge-base error (ingestion, corrupt index...).
    #[error(transparent)]
    Kb(#[from] hauser_kb::KbError),
    /// A model could not be loaded or run.
    #[error(transparent)]
    Model(#[from] hauser_nli::NliError),
    /// A neural metric (BERTScore, perplexity, style strength) failed.
    #[error(transparent)]
    Neural(#[from] figlang_metrics::neural::NeuralError),
    /// A task harness failed (figurative narratives, NewsMet).
    #[error(transparent)]
    Task(#[from] figlang_tasks::TaskError),
    /// The run was stopped by Ctrl-C (exit status 130); its output file was not written.
    #[error("interrupted")]
    Interrupted,
    /// A size taken from a flag or a file needs more memory than the machine allows; refused
    /// before allocating.
    #[error(transparent)]
    Limit(#[from] hauser_core::limits::LimitError),
    /// A statistic could not be computed from an input file (too few items, duplicates...).
    #[error("{path}: {source}")]
    Stats {
        /// The input file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: figlang_metrics::stats::StatsError,
    },
}

impl CliError {
    /// Wraps an I/O error with the file it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    /// An output that cannot be written, named with its flag.
    pub fn output(flag: &str, path: &std::path::Path, message: impl Into<String>) -> Self {
        Self::Output {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// Whether the error means "stopped by Ctrl-C", wherever the cancellation surfaced (a
    /// library's `Cancelled` error or the command's own check).
    pub fn is_interrupted(&self) -> bool {
        match self {
            Self::Interrupted => true,
            Self::Kb(hauser_kb::KbError::Cancelled(_)) => true,
            Self::Stats { source, .. } => {
                matches!(source, figlang_metrics::stats::StatsError::Cancelled { .. })
            }
            _ => false,
        }
    }

    /// The process exit status for this error: 130 after Ctrl-C (the shell convention for
    /// SIGINT), 2 for every other error.
    pub fn exit_code(&self) -> u8 {
        if self.is_interrupted() {
            130
        } else {
            2
        }
    }
}
