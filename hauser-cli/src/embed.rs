//! `hauser embed`: mean-pooled sentence embeddings, one JSON array of floats per input line, or
//! one row per input line of a NumPy `.npy` float32 matrix (`--format npy`).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::json;

use hauser_nli::{Embedder, ModelSource};

use crate::error::CliError;
use crate::flags;
use crate::io::files::{self, OutputFile};
use crate::io::npy::NpyWriter;

/// What `hauser embed` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum EmbedFormat {
    /// One JSON array per input line (an error record `{"line", "error"}` for a line that is
    /// not UTF-8).
    #[default]
    Jsonl,
    /// A NumPy float32 matrix, one row per input line (a row of NaN for a line that is not
    /// UTF-8, whose error record goes to standard error): no text to format or parse.
    Npy,
}

/// Options of `hauser embed`.
#[derive(Debug, Clone, Args)]
pub struct EmbedArgs {
    /// Encoder model: a hub id (`org/name[@revision]`) or a local directory.
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// Hidden-state layer to pool: 0 = embeddings, negative counts from the end (default: last).
    #[arg(long, allow_negative_numbers = true, value_parser = flags::layer)]
    pub layer: Option<isize>,
    /// L2-normalise each embedding.
    #[arg(long)]
    pub normalize: bool,
    /// Input text file, one sentence per line (`-` for stdin); a blank line is embedded as the
    /// empty text, so output line N always answers input line N.
    #[arg(long, short)]
    pub input: PathBuf,
    /// Output file (default: stdout; `--format npy` needs a regular file).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Output format: `jsonl` (one JSON array per line) or `npy` (a NumPy float32 matrix of one
    /// row per input line, for `numpy.load`).
    #[arg(long, value_enum, default_value_t = EmbedFormat::Jsonl)]
    pub format: EmbedFormat,
    /// Sentences per forward pass.
    #[arg(long, default_value_t = 32, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision of the model.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// Lines read per call of the model: large enough for length bucketing to pay off, small
/// enough to bound memory on big files.
const CHUNK_LINES: usize = 2048;

/// What a run produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct EmbedSummary {
    /// Embeddings written (blank lines included: they are embedded as the empty text).
    pub embedded: usize,
    /// Error records written (lines that are not UTF-8).
    pub failed: usize,
}

/// Runs `hauser embed`: one output line per input line, an embedding or an error record
/// `{"line", "error"}`.
///
/// # Errors
/// An unloadable model, an unreadable input, an unwritable output, or an inference failure.
pub fn run(args: &EmbedArgs, log: &mut dyn Write) -> Result<EmbedSummary, CliError> {
    if args.batch_size == 0 {
        return Err(CliError::Usage("--batch-size: must be at least 1".into()));
    }
    // Every file checked before the model is loaded.
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .model("--model", Some(&args.model))
        .output("--output", args.output.as_deref())
        .check()?;
    // The output is opened before the model loads, so that an npy output that cannot be
    // rewritten in place is refused before any work.
    let mut out = OutputFile::create(args.output.as_deref(), &checked)?;
    let mut npy = match args.format {
        EmbedFormat::Npy => Some(NpyWriter::begin(&mut out, "--format")?),
        EmbedFormat::Jsonl => None,
    };
    let opts = args.device.load_options(args.batch_size);
    let embedder = Embedder::load(&ModelSource::parse(&args.model), &opts)?;
    let reader = files::open(&args.input)?;
    let out_path = out.path().to_path_buf();
    let werr = |e| CliError::io(&out_path, e);
    let mut summary = EmbedSummary::default();
    let mut truncated = 0usize;
    let mut lines = files::lines(reader);
    loop {
        let mut chunk = Vec::with_capacity(CHUNK_LINES);
        for line in lines.by_ref().take(CHUNK_LINES) {
            chunk.push(line.map_err(|e| CliError::io(&args.input, e))?);
        }
        if chunk.is_empty() {
            break;
        }
        let texts: Vec<&str> = chunk
            .iter()
            .filter_map(|l| l.text.as_deref().ok())
            .collect();
        let emb = embedder.embed(&texts, args.layer, args.normalize)?;
        truncated += emb.truncated;
        let mut vectors = emb.vectors.iter();
        if let Some(npy) = npy.as_mut() {
            write_npy_rows(npy, &mut out, &chunk, &mut vectors, &mut summary, log)?;
            continue;
        }
        for line in &chunk {
            let record = match (
                &line.text,
                line.text.is_ok().then(|| vectors.next()).flatten(),
            ) {
                (Ok(_), Some(v)) => {
                    summary.embedded += 1;
                    serde_json::to_string(v).map_err(|e| CliError::Usage(e.to_string()))?
                }
                (Ok(_), None) => {
                    summary.failed += 1;
                    json!({"line": line.number, "error": "internal: no embedding returned"})
                        .to_string()
                }
                (Err(message), _) => {
                    summary.failed += 1;
                    json!({"line": line.number, "error": message}).to_string()
                }
            };
            writeln!(out, "{record}").map_err(werr)?;
        }
    }
    if let Some(npy) = npy {
        npy.finish(&mut out, embedder.model().hidden_size())?;
    }
    out.commit()?;
    if truncated > 0 {
        writeln!(
            log,
            "hauser: {truncated} input(s) truncated to {} tokens",
            embedder.model().text_encoder().max_len()
        )
        .map_err(|e| CliError::io("-", e))?;
    }
    if summary.failed > 0 {
        writeln!(
            log,
            "hauser: {} line(s) embedded, {} error record(s)",
            summary.embedded, summary.failed
        )
        .map_err(|e| CliError::io("-", e))?;
    }
    Ok(summary)
}

/// One `.npy` row per line of `chunk`: its embedding, or NaN with the line's error record on
/// `log` (the rows keep the lines' order, so row N always answers input line N).
fn write_npy_rows<'a>(
    npy: &mut NpyWriter,
    out: &mut OutputFile,
    chunk: &[files::Line],
    vectors: &mut impl Iterator<Item = &'a Vec<f32>>,
    summary: &mut EmbedSummary,
    log: &mut dyn Write,
) -> Result<(), CliError> {
    let lerr = |e| CliError::io("-", e);
    for line in chunk {
        let error = match (
            &line.text,
            line.text.is_ok().then(|| vectors.next()).flatten(),
        ) {
            (Ok(_), Some(v)) => {
                npy.row(out, v)?;
                summary.embedded += 1;
                continue;
            }
            (Ok(_), None) => "internal: no embedding returned".to_string(),
            (Err(message), _) => message.clone(),
        };
        summary.failed += 1;
        npy.nan_row(out)?;
        writeln!(log, "{}", json!({"line": line.number, "error": error})).map_err(lerr)?;
    }
    Ok(())
}
