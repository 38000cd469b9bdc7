//! `hauser classify`: any sequence classifier's predicted class for each row of a file: the
//! `Text` column of a CSV (NewsMet's layout; `--column` picks another) or each line of a text
//! file. One class index per line (what `hauser newsmet eval --pred` reads), or JSON records
//! with the label name and probabilities with `--json`. A line of a text file that is not UTF-8
//! is answered, in either format, with an error record `{"line", "error"}` and the run goes on
//! (exit status 1), as in the other per-line commands.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use hauser_nli::{ModelSource, SequenceClassifier};

use crate::error::CliError;
use crate::flags;
use crate::io::files::{self, OutputFile};

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

/// One row of the input: its line and its text, or why that line cannot be read (a line of a
/// text file that is not UTF-8), answered with an error record.
type Row = (usize, Result<String, String>);

/// Every row of the input: the lines of a text file, read one by one (a line that is not UTF-8
/// is a row of its own, answered with an error record), or the column of a CSV, read whole (a
/// file that is not UTF-8 is refused, naming its line, as every whole-file reader does).
fn rows(args: &ClassifyArgs) -> Result<Vec<Row>, CliError> {
    let is_csv = args.csv
        || args
            .input
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if !is_csv {
        // Without its BOM: `files` drops it, once.
        return files::lines(files::open(&args.input)?)
            .map(|l| {
                l.map(|l| (l.number, l.text))
                    .map_err(|e| CliError::io(&args.input, e))
            })
            .collect();
    }
    let text = files::read_to_string(&args.input)?;
    Ok(
        figlang_tasks::newsmet::csv_column(&text, &args.input, &args.column)?
            .into_iter()
            .map(|(line, t)| (line, Ok(t)))
            .collect(),
    )
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
    let rows = rows(args)?;
    let clf = SequenceClassifier::load(
        &ModelSource::parse(&args.model),
        &args.device.load_options(args.batch_size),
    )?;
    let mut out = OutputFile::create(args.output.as_deref(), &checked)?;
    let out_path = out.path().to_path_buf();
    let chunk = args.batch_size.saturating_mul(flags::STREAM_BATCHES);
    let failed = stream(
        &rows,
        chunk,
        &mut out,
        &out_path,
        |texts| {
            let inputs: Vec<(&str, Option<&str>)> = texts.iter().map(|t| (*t, None)).collect();
            Ok(clf.predict(&inputs)?.probs)
        },
        |line, probs| {
            // The first maximum, as argmax.
            let index = probs
                .iter()
                .enumerate()
                .fold(0, |best, (i, &p)| if p > probs[best] { i } else { best });
            if args.json {
                json!({"line": line, "index": index, "label": clf.labels()[index], "probs": probs})
                    .to_string()
            } else {
                index.to_string()
            }
        },
    )?;
    out.commit()?;
    Ok(failed == 0)
}

/// Writes one record per row, `chunk` rows at a time: the texts of a chunk are classified by
/// `predict`, and their records (`record` of the line and probabilities; `{"line", "error"}` for
/// a row that could not be read) written and flushed before the next chunk runs, so that records
/// stream out as they are computed. Returns the number of error records.
fn stream(
    rows: &[Row],
    chunk: usize,
    out: &mut dyn Write,
    out_path: &Path,
    mut predict: impl FnMut(&[&str]) -> Result<Vec<Vec<f32>>, CliError>,
    record: impl Fn(usize, &[f32]) -> String,
) -> Result<usize, CliError> {
    let werr = |e| CliError::io(out_path, e);
    let mut failed = 0;
    for part in rows.chunks(chunk.max(1)) {
        let texts: Vec<&str> = part.iter().filter_map(|(_, t)| t.as_deref().ok()).collect();
        let probs = if texts.is_empty() {
            Vec::new()
        } else {
            predict(&texts)?
        };
        let mut probs = probs.iter();
        for (line, text) in part {
            let rec = match (text, text.is_ok().then(|| probs.next()).flatten()) {
                (Ok(_), Some(p)) => record(*line, p),
                (Ok(_), None) => {
                    failed += 1;
                    json!({"line": line, "error": "internal: no prediction returned"}).to_string()
                }
                (Err(message), _) => {
                    failed += 1;
                    json!({"line": line, "error": message}).to_string()
                }
            };
            writeln!(out, "{rec}").map_err(werr)?;
        }
        out.flush().map_err(werr)?;
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Shared;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn records_are_written_chunk_by_chunk_before_the_next_chunk_runs() {
        // Issue 29: classify ran every row before writing anything.
        let rows: Vec<Row> = (1..=5).map(|i| (i, Ok(format!("text {i}")))).collect();
        let buf = Rc::new(RefCell::new(Vec::new()));
        let mut out = Shared(Rc::clone(&buf));
        let mut seen_before = Vec::new();
        stream(
            &rows,
            2,
            &mut out,
            Path::new("-"),
            |texts| {
                seen_before.push(buf.borrow().iter().filter(|&&b| b == b'\n').count());
                Ok(texts.iter().map(|_| vec![0.25, 0.75]).collect())
            },
            |line, p| format!("{line}:{}", p[1]),
        )
        .unwrap();
        assert_eq!(seen_before, vec![0, 2, 4]);
        let text = String::from_utf8(buf.borrow().clone()).unwrap();
        assert_eq!(text, "1:0.75\n2:0.75\n3:0.75\n4:0.75\n5:0.75\n");
    }
}
