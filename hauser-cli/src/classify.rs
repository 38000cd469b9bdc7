//! `hauser classify`: any sequence classifier's predicted class for each row of a file: the
//! `Text` column of a CSV (NewsMet's layout; `--column` picks another) or each line of a text
//! file. One class index per line (what `hauser newsmet eval --pred` reads), or JSON records
//! with the label name and probabilities with `--json`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use hauser_nli::{ModelSource, SequenceClassifier};

use crate::error::CliError;
use crate::files::{self, OutputFile};
use crate::flags;

/// Options of `hauser classify`.
#[derive(Debug, Clone, Args)]
pub struct ClassifyArgs {
    /// Sequence classifier: a hub id (`org/name[@revision]`) or a local directory.
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// Input: a CSV with a header (when the name ends in .csv) or one text per line; `-` for stdin.
    #[arg(long, short)]
    pub input: PathBuf,
    /// The CSV column holding the texts.
    #[arg(long, default_value = "Text")]
    pub column: String,
    /// Read the input as CSV whatever its name.
    #[arg(long)]
    pub csv: bool,
    /// JSON records (`line`, `index`, `label`, `probs`) instead of bare class indices.
    #[arg(long)]
    pub json: bool,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Texts per forward pass.
    #[arg(long, default_value_t = 32, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// (line, text) of every row of the input.
fn rows(args: &ClassifyArgs, text: &str) -> Result<Vec<(usize, String)>, CliError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_csv = args.csv
        || args
            .input
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if !is_csv {
        return Ok(text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r').to_string()))
            .collect());
    }
    Ok(figlang_tasks::newsmet::csv_column(
        text,
        &args.input,
        &args.column,
    )?)
}

/// Runs `hauser classify`.
///
/// # Errors
/// An unloadable model, an unreadable or malformed input, an unwritable output.
pub fn run(args: &ClassifyArgs) -> Result<bool, CliError> {
    // Every file checked before the model is loaded.
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .model("--model", Some(&args.model))
        .output("--output", args.output.as_deref())
        .check()?;
    let text = files::read_to_string(&args.input)?;
    let rows = rows(args, &text)?;
    let clf = SequenceClassifier::load(
        &ModelSource::parse(&args.model),
        &args.device.load_options(args.batch_size),
    )?;
    let inputs: Vec<(&str, Option<&str>)> = rows.iter().map(|(_, t)| (t.as_str(), None)).collect();
    let pred = clf.predict(&inputs)?;
    let mut out = OutputFile::create(args.output.as_deref(), &checked)?;
    let out_path = out.path().to_path_buf();
    for ((line, _), probs) in rows.iter().zip(&pred.probs) {
        // The first maximum, as argmax.
        let index = probs
            .iter()
            .enumerate()
            .fold(0, |best, (i, &p)| if p > probs[best] { i } else { best });
        let rec = if args.json {
            json!({"line": line, "index": index, "label": clf.labels()[index], "probs": probs})
                .to_string()
        } else {
            index.to_string()
        };
        writeln!(out, "{rec}").map_err(|e| CliError::io(&out_path, e))?;
    }
    out.commit()?;
    Ok(true)
}
