//! `hauser extract`: simile components (topic, vehicle, event) of every input line.
//!
//! Input lines are JSON objects with `simile` (or `text`) and an optional `literal`, or plain
//! text (a line that does not start with `{`). Output: one JSON object per input line, in
//! order, with `components` as a list of `[topic, vehicle, event]` (null for a part not found);
//! a blank line gives the empty record `{"simile": "", "components": []}`, and a line that
//! cannot be read gives `{"line", "error"}` instead and the run goes on, so that output line N
//! always answers input line N.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;
use serde_json::{json, Value};

use hauser_core::ComponentExtractor;
use hauser_extract::{Comparator, RuleExtractor};

use crate::error::CliError;
use crate::io::files::{self, OutputFile};
use crate::io::output::components_json;

/// Options of `hauser extract`.
#[derive(Debug, Clone, Args)]
pub struct ExtractArgs {
    /// Input: JSONL with `simile` and optional `literal`, or plain text lines (`-` for stdin).
    #[arg(long, short)]
    pub input: PathBuf,
    /// Output JSONL file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Recognise only "like" comparisons, as the original HAUSER tool does.
    #[arg(long)]
    pub like_only: bool,
}

/// What a run produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ExtractSummary {
    /// Lines with components written (possibly an empty list).
    pub extracted: usize,
    /// Error records written.
    pub failed: usize,
}

#[derive(Deserialize)]
struct Record {
    #[serde(alias = "text")]
    simile: String,
    #[serde(default, alias = "origin_sentence")]
    literal: Option<String>,
    #[serde(default)]
    id: Option<Value>,
}

/// The extractor the options ask for.
pub fn extractor(args: &ExtractArgs) -> RuleExtractor {
    if args.like_only {
        RuleExtractor::new().with_comparators(&[Comparator::Like])
    } else {
        RuleExtractor::new()
    }
}

/// The output record of one input line.
pub fn extract_line(x: &dyn ComponentExtractor, line: &str, line_no: usize) -> Value {
    let trimmed = line.trim();
    let (simile, literal, id) = if trimmed.starts_with('{') {
        match serde_json::from_str::<Record>(trimmed) {
            Ok(r) => (r.simile, r.literal, r.id),
            Err(e) => {
                return json!({"line": line_no, "error": format!("invalid record: {e}")});
            }
        }
    } else {
        (trimmed.to_string(), None, None)
    };
    match x.extract(&simile, literal.as_deref()) {
        Ok(components) => {
            let mut v = json!({
                "simile": simile,
                "components": components_json(Some(&components)),
            });
            if let Some(id) = id {
                v["id"] = id;
            }
            v
        }
        Err(e) => json!({"line": line_no, "error": e.to_string()}),
    }
}

/// The record answering a blank line: no simile, so no components. Empty rather than an error,
/// so that plain-text inputs with paragraph breaks keep their line alignment and exit 0.
pub fn blank_record() -> Value {
    json!({"simile": "", "components": []})
}

/// Runs `hauser extract`, writing records to the output and a summary to `log`.
///
/// # Errors
/// An unreadable input or an unwritable output.
pub fn run(args: &ExtractArgs, log: &mut dyn Write) -> Result<ExtractSummary, CliError> {
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .output("--output", args.output.as_deref())
        .check()?;
    let mut out = OutputFile::create(args.output.as_deref(), &checked)?;
    let reader = files::open(&args.input)?;
    let out_path = out.path().to_path_buf();
    let x = extractor(args);
    let summary = extract_lines(reader, &args.input, &x, &mut out, &out_path)?;
    out.commit()?;
    writeln!(
        log,
        "hauser: {} line(s) extracted, {} error record(s); {}",
        summary.extracted,
        summary.failed,
        x.signature()
    )
    .map_err(|e| CliError::io(&out_path, e))?;
    Ok(summary)
}

/// The body of [`run`] without its files: one record per line of `reader` (opened with
/// [`files::open`] or [`files::buffered`], which drop the BOM) written to `out`. `input` and `out_path` name the two ends in
/// errors.
///
/// # Errors
/// An unreadable input or an unwritable output.
pub fn extract_lines<R: BufRead>(
    reader: R,
    input: &Path,
    x: &dyn ComponentExtractor,
    out: &mut dyn Write,
    out_path: &Path,
) -> Result<ExtractSummary, CliError> {
    let mut summary = ExtractSummary::default();
    for line in files::lines(reader) {
        let line = line.map_err(|e| CliError::io(input, e))?;
        let record = match &line.text {
            Ok(text) if text.trim().is_empty() => blank_record(),
            Ok(text) => extract_line(x, text, line.number),
            Err(message) => json!({"line": line.number, "error": message}),
        };
        if record.get("error").is_some() {
            summary.failed += 1;
        } else {
            summary.extracted += 1;
        }
        writeln!(out, "{record}").map_err(|e| CliError::io(out_path, e))?;
    }
    Ok(summary)
}
