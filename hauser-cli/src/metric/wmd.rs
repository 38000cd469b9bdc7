//! `hauser metric wmd --vectors FILE --hyp F --ref F [--sentence]`: Word Mover's Distance with
//! gensim's semantics (`figlang_metrics::wmd`), as the formality-transfer paper computed it
//! (NLTK `word_tokenize` tokens, unit-normalised word2vec vectors).
//!
//! With `--sentence`: one distance per hypothesis line, `inf` where a side has no word with a
//! vector (as gensim); `--format jsonl`: one object per line, `null` for a non-finite distance
//! (`crate::metric::output`). Without: one JSON line with the mean distance (`null` when a line
//! is `inf`, since the mean is then infinite and JSON has no infinity), the mean over the finite
//! lines, the count of infinite ones, and the signature. Lower is better.
//!
//! The module reads only its own flags and the two tokenizer flags it shares with the text
//! metrics, so that `metric` depends on it and not the other way round.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use serde_json::json;

use figlang_metrics::wmd::{detect_format, VectorFormat, Wmd, WmdTokenizer, WordVectors};

use crate::error::CliError;
use crate::metric::output::{self, Scored};

/// Whether a vector file is binary (gensim's `binary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BinaryArg {
    /// Guess from the file's first bytes.
    Auto,
    /// word2vec binary.
    Yes,
    /// Text: word2vec text when the first line is `VOCAB DIM`, GloVe (no header) otherwise.
    No,
}

/// Options of `hauser metric wmd`.
#[derive(Debug, Clone, Args)]
pub struct WmdArgs {
    /// wmd: word vectors, word2vec binary or text, or GloVe text (e.g.
    /// GoogleNews-vectors-negative300.bin, as the formality paper).
    #[arg(long, value_name = "FILE")]
    pub vectors: Option<PathBuf>,
    /// wmd: whether --vectors is binary word2vec (auto: guess from its first bytes).
    #[arg(long, value_enum, default_value = "auto")]
    pub binary: BinaryArg,
    /// wmd: read only the first N vectors (gensim's `limit`).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::flags::count)]
    pub vocab_limit: Option<usize>,
    /// wmd: use the raw vectors instead of unit-normalised ones (gensim's `norm=False`).
    #[arg(long)]
    pub no_norm: bool,
}

fn vector_format(path: &Path, binary: BinaryArg) -> Result<VectorFormat, CliError> {
    let io = |e| CliError::io(path, e);
    let mut reader = crate::io::files::open(path)?;
    let detected = detect_format(&mut reader).map_err(io)?;
    Ok(match (binary, detected) {
        (BinaryArg::Auto, f) => f,
        (BinaryArg::Yes, _) => VectorFormat::Word2VecBinary,
        (BinaryArg::No, VectorFormat::GloveText) => VectorFormat::GloveText,
        (BinaryArg::No, _) => VectorFormat::Word2VecText,
    })
}

/// The flags of `hauser metric` that WMD reads besides its own.
#[derive(Debug, Clone, Copy)]
pub struct Tokenization<'a> {
    /// `--tokenize`: `nltk` (the default) or `none`.
    pub tokenize: Option<&'a str>,
    /// `--nltk-tokenizer`: the NLTK release of `word_tokenize`.
    pub nltk: &'a str,
}

/// Builds the scorer from the command line, loading the vectors.
///
/// # Errors
/// [`CliError::Usage`] without `--vectors` or with an unknown `--tokenize`; the vector file's
/// errors otherwise.
pub fn scorer(args: &WmdArgs, tok: Tokenization<'_>) -> Result<Wmd, CliError> {
    let path = args.vectors.as_deref().ok_or_else(|| {
        CliError::Usage("wmd needs --vectors FILE (word2vec binary or text, or GloVe)".into())
    })?;
    let tokenizer = match tok.tokenize {
        None | Some("nltk") => WmdTokenizer::Nltk(
            tok.nltk
                .parse()
                .map_err(|e: figlang_metrics::text::MetricError| CliError::Usage(e.to_string()))?,
        ),
        Some("none") => WmdTokenizer::Whitespace,
        Some(other) => {
            return Err(CliError::Usage(format!(
                "wmd: unknown --tokenize {other:?} (nltk or none)"
            )))
        }
    };
    if crate::io::files::is_stdin(path) {
        return Err(CliError::Usage(
            "wmd: --vectors must be a file (it is read twice: to detect its format, then to load it)"
                .into(),
        ));
    }
    let format = vector_format(path, args.binary)?;
    let vectors = WordVectors::load(path, Some(format), args.vocab_limit)
        .map_err(|e| CliError::Usage(format!("cannot read the word vectors: {e}")))?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Wmd {
        vectors: Arc::new(vectors),
        vectors_name: name,
        tokenizer,
        norm: !args.no_norm,
    })
}

/// Runs `hauser metric wmd` on read lines, writing to `out` as `sentence` and `format` ask.
///
/// # Errors
/// As [`scorer`]; reference lists that are not line-aligned.
pub fn run(
    args: &WmdArgs,
    tok: Tokenization<'_>,
    (sentence, format): (bool, &str),
    hyps: &[String],
    refs: &[Vec<String>],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if refs.is_empty() {
        return Err(CliError::Usage("wmd needs at least one --ref file".into()));
    }
    let wmd = scorer(args, tok)?;
    let scores = wmd
        .sentence_scores(hyps, refs)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let finite: Vec<f64> = scores.iter().copied().filter(|s| s.is_finite()).collect();
    let n_inf = scores.iter().filter(|s| s.is_infinite()).count();
    let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
    let mean_finite =
        (!finite.is_empty()).then(|| finite.iter().sum::<f64>() / finite.len() as f64);
    let signature = wmd.signature(refs.len()).to_string();
    let corpus = json!({
        "metric": "wmd",
        "score": mean.is_finite().then_some(mean),
        "mean_finite": mean_finite,
        "n_inf": n_inf,
        "n": hyps.len(),
        "direction": "lower is better",
        "signature": signature,
    });
    let scored = Scored {
        scores,
        details: Vec::new(),
        corpus,
        signature,
    };
    output::write(&scored, sentence, format, out)
}
