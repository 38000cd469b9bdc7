//! The released files of the formality-transfer meta-evaluation, read for `hauser formality
//! reproduce`: figlang-tasks' [`formality`](figlang_tasks::formality) checks the folder and
//! parses the files; this module reads them through the CLI's input layer (its size limit and
//! messages, as every command), and words the task's errors as the command always has (a folder
//! that is not the released layout, or a correlation that cannot be computed, is an invalid
//! `--data`: `invalid option: ...`).

use std::path::Path;

use serde::Serialize;

use figlang_tasks::formality::{self, Released};
use figlang_tasks::TaskError;

use crate::error::CliError;
use crate::io::files;

/// One correlation row of a table.
#[derive(Debug, Clone, Serialize)]
pub struct CorrRow {
    /// Metric name.
    pub metric: String,
    /// `higher` or `lower` (is better).
    pub direction: &'static str,
    /// System-level Pearson.
    pub system_pearson: f64,
    /// Segment-level WMT tau, averaged.
    pub segment_tau: f64,
    /// Sources where the tau is defined.
    pub segments: usize,
    /// The paper's values, where it reports them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper: Option<[f64; 2]>,
    /// Extra facts (live metrics: rows agreeing with the released column).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Reads every system's files in `dir` ([`Released`]).
///
/// # Errors
/// A missing directory or no `NAME.human.txt`; a `.txt` file that is not `NAME.KIND.txt`; a
/// system without a kind of file another system has; any file's errors, named with file and
/// line.
pub fn read_dir(dir: &Path) -> Result<Released, CliError> {
    formality::scan_dir(dir)
        .map_err(cli_error)?
        .read(|path, kind| {
            let text = files::read_to_string(path)?;
            formality::parse_file(&text, path, kind).map_err(cli_error)
        })
}

/// [`formality::correlate`], its errors worded as the command's.
///
/// # Errors
/// A correlation that cannot be computed.
pub fn correlate(human: &[Vec<f64>], metric: &[Vec<f64>]) -> Result<(f64, f64, usize), CliError> {
    formality::correlate(human, metric).map_err(cli_error)
}

/// The task's errors as the command words them: the folder's layout and the statistics are
/// `invalid option` errors (exit status 2); unreadable entries and malformed lines keep their
/// `FILE: ...` and `FILE:LINE: ...` messages.
fn cli_error(e: TaskError) -> CliError {
    match e {
        TaskError::Input(message) => CliError::Usage(message),
        TaskError::Stats(e) => CliError::Usage(e.to_string()),
        e => CliError::from(e),
    }
}
