//! `hauser extract`: simile components (topic, vehicle, event) of every input line.
//!
//! Input lines are JSON objects with `simile` (or `text`) and an optional `literal`, or plain
//! text (a line that does not start with `{`). Output: one JSON object per input line, in
//! order, with `components` as a list of `[topic, vehicle, event]` (null for a part not found);
//! a line that cannot be read gives `{"line", "error"}` instead and the run goes on.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Deserialize;
use serde_json::{json, Value};

use hauser_core::ComponentExtractor;
use hauser_extract::{Comparator, RuleExtractor};

use crate::error::CliError;
use crate::output::components_json;

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

/// Runs `hauser extract`, writing records to the output and a summary to `log`.
///
/// # Errors
/// An unreadable input or an unwritable output.
pub fn run(args: &ExtractArgs, log: &mut dyn Write) -> Result<ExtractSummary, CliError> {
    let reader: Box<dyn Read> = if args.input.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(File::open(&args.input).map_err(|e| CliError::io(&args.input, e))?)
    };
    let out_path = args.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).map_err(|e| CliError::io(p, e))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let x = extractor(args);
    let mut summary = ExtractSummary::default();
    for (i, line) in BufReader::new(reader).split(b'\n').enumerate() {
        let bytes = line.map_err(|e| CliError::io(&args.input, e))?;
        let line_no = i + 1;
        let record = match std::str::from_utf8(&bytes) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => extract_line(&x, text, line_no),
            Err(e) => {
                json!({"line": line_no, "error": format!("invalid UTF-8 at byte {}", e.valid_up_to())})
            }
        };
        if record.get("error").is_some() {
            summary.failed += 1;
        } else {
            summary.extracted += 1;
        }
        writeln!(out, "{record}").map_err(|e| CliError::io(&out_path, e))?;
    }
    out.flush().map_err(|e| CliError::io(&out_path, e))?;
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
