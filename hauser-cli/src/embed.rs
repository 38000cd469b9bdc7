//! `hauser embed`: mean-pooled sentence embeddings, one JSON array of floats per input line.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;

use hauser_nli::{Batching, Embedder, LoadOptions, ModelSource};

use crate::error::CliError;

/// Options of `hauser embed`.
#[derive(Debug, Clone, Args)]
pub struct EmbedArgs {
    /// Encoder model: a hub id (`org/name[@revision]`) or a local directory.
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// Hidden-state layer to pool: 0 = embeddings, negative counts from the end (default: last).
    #[arg(long, allow_hyphen_values = true)]
    pub layer: Option<isize>,
    /// L2-normalise each embedding.
    #[arg(long)]
    pub normalize: bool,
    /// Input text file, one sentence per line (`-` for stdin).
    #[arg(long, short)]
    pub input: PathBuf,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Sentences per forward pass.
    #[arg(long, default_value_t = 32)]
    pub batch_size: usize,
}

/// Lines read per call of the model: large enough for length bucketing to pay off, small
/// enough to bound memory on big files.
const CHUNK_LINES: usize = 2048;

/// Runs `hauser embed`; returns the number of embeddings written.
///
/// # Errors
/// An unloadable model, an unreadable input, an unwritable output, or an inference failure.
pub fn run(args: &EmbedArgs, log: &mut dyn Write) -> Result<usize, CliError> {
    if args.batch_size == 0 {
        return Err(CliError::Usage("--batch-size must be at least 1".into()));
    }
    let opts = LoadOptions {
        batching: Batching {
            batch_size: args.batch_size,
            bucketed: true,
        },
        ..LoadOptions::default()
    };
    let embedder = Embedder::load(&ModelSource::parse(&args.model), &opts)?;
    let reader: Box<dyn BufRead> = if args.input.as_os_str() == "-" {
        Box::new(BufReader::new(std::io::stdin().lock()))
    } else {
        Box::new(BufReader::new(
            File::open(&args.input).map_err(|e| CliError::io(&args.input, e))?,
        ))
    };
    let out_path = args.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).map_err(|e| CliError::io(p, e))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let (mut written, mut truncated) = (0usize, 0usize);
    let mut lines = reader.lines();
    loop {
        let mut chunk = Vec::with_capacity(CHUNK_LINES);
        for line in lines.by_ref().take(CHUNK_LINES) {
            chunk.push(line.map_err(|e| CliError::io(&args.input, e))?);
        }
        if chunk.is_empty() {
            break;
        }
        let texts: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let emb = embedder.embed(&texts, args.layer, args.normalize)?;
        truncated += emb.truncated;
        for v in &emb.vectors {
            let json = serde_json::to_string(v).map_err(|e| CliError::Usage(e.to_string()))?;
            writeln!(out, "{json}").map_err(|e| CliError::io(&out_path, e))?;
            written += 1;
        }
    }
    out.flush().map_err(|e| CliError::io(&out_path, e))?;
    if truncated > 0 {
        writeln!(
            log,
            "hauser: {truncated} input(s) truncated to {} tokens",
            embedder.model().text_encoder().max_len()
        )
        .map_err(|e| CliError::io("-", e))?;
    }
    Ok(written)
}
