//! `hauser metric NAME --hyp FILE --ref FILE [--ref FILE ...] [--sentence]`: text metrics of
//! line-aligned files.
//!
//! With `--sentence`: one score per hypothesis line on the 0-1 scale, full precision, nothing
//! else on stdout. Without: one JSON line with the corpus score and its signature. Empty lines,
//! mismatched line counts and invalid UTF-8 are errors naming the file and line (a blank line
//! in a line-aligned file is almost always a misalignment, which would silently shift every
//! score after it). Inputs go through [`crate::files`]: `-` is standard input, a byte-order
//! mark is ignored, CRLF is accepted.
//!
//! The text metrics come from figlang-metrics' registry (`metric_by_name`), configured by the
//! command-line flags; the neural ones (bertscore, bleurt, comet, perplexity, style) from
//! `neural_metric`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use figlang_metrics::text::{metric_by_name, MetricError, TextMetric, TextMetricOptions};

use crate::error::CliError;
use crate::files;
use crate::neural_metric::{self, NeuralMetricArgs};
use crate::wmd_metric::{self, WmdArgs};

/// The text metrics this subcommand knows (the neural ones are listed by `neural_metric`):
/// those of figlang-metrics' registry.
pub const TEXT_METRICS: [&str; 13] = figlang_metrics::text::NAMES;

/// Arguments of `hauser metric`.
#[derive(Debug, Clone, Args)]
pub struct MetricArgs {
    /// Metric: bleu (sacreBLEU corpus), sentbleu (NLTK sentence BLEU), chrf, chrf++, rouge1,
    /// rouge2, rougeL, rougeLsum, meteor, distinct1, distinct2, selfbleu, wmd (Word Mover's
    /// Distance, needs --vectors), or a neural metric (bertscore, bleurt, comet, perplexity, style).
    pub name: String,
    /// Hypotheses, one per line (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub hyp: PathBuf,
    /// References, line-aligned with the hypotheses; repeat for several references (`-` for
    /// stdin, for at most one input of the run).
    #[arg(long = "ref", value_name = "FILE")]
    pub refs: Vec<PathBuf>,
    /// One score per hypothesis (0-1 scale) instead of the corpus JSON line.
    #[arg(long)]
    pub sentence: bool,
    /// bleu: sacreBLEU tokenizer (13a, intl, none; default 13a). wmd: nltk (NLTK
    /// word_tokenize, the default, as the formality paper) or none (pre-tokenised text, split
    /// on white space).
    #[arg(long)]
    pub tokenize: Option<String>,
    /// bleu: exp, floor, add-k, none; sentbleu: method0..method7 (default method1).
    #[arg(long)]
    pub smooth: Option<String>,
    /// bleu, chrf: lowercase first.
    #[arg(long)]
    pub lowercase: bool,
    /// sentbleu, meteor, selfbleu, distinct, pltrdy ROUGE: NLTK release to reproduce
    /// (current = 3.10.4, or 3.4.5 as in the formality paper: its word_tokenize, and for
    /// meteor its whole algorithm).
    #[arg(long, default_value = "current")]
    pub nltk_tokenizer: String,
    /// ROUGE implementation: rouge-score (Google), pltrdy (rouge 1.0.1) or pltrdy-0.3.2.
    #[arg(long, default_value = "rouge-score")]
    pub rouge_impl: String,
    /// pltrdy ROUGE: tokenize with NLTK word_tokenize first (as the formality paper did).
    #[arg(long)]
    pub rouge_pretokenize: bool,
    /// meteor: WordNet 3.0 database directory (Debian's wordnet-base installs it here).
    #[arg(long, value_name = "DIR", default_value = "/usr/share/wordnet")]
    pub wordnet: PathBuf,
    /// Word Mover's Distance options.
    #[command(flatten)]
    pub wmd: WmdArgs,
    /// Neural metric options.
    #[command(flatten)]
    pub neural: NeuralMetricArgs,
}

/// Reads a line-aligned text file (`-` for standard input): one item per line, none empty,
/// valid UTF-8; a byte-order mark is ignored and CRLF endings are accepted.
///
/// # Errors
/// [`CliError::Io`] when unreadable; [`CliError::TooLarge`] above the in-memory limit;
/// [`CliError::Input`] naming the line otherwise.
pub fn read_lines(path: &Path) -> Result<Vec<String>, CliError> {
    let bytes = files::read_all(path)?;
    let mut out = Vec::new();
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    if body.is_empty() {
        return Err(CliError::Input {
            path: path.to_path_buf(),
            line: 1,
            message: "file is empty".into(),
        });
    }
    for (i, raw) in body.split(|&b| b == b'\n').enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let text = std::str::from_utf8(raw).map_err(|e| CliError::Input {
            path: path.to_path_buf(),
            line: i + 1,
            message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        })?;
        if text.trim().is_empty() {
            return Err(CliError::Input {
                path: path.to_path_buf(),
                line: i + 1,
                message: "empty line (every line must hold a segment)".into(),
            });
        }
        out.push(text.to_string());
    }
    Ok(out)
}

/// [`read_lines`] for a file that must be line-aligned with the `n` hypotheses of `hyp`.
fn read_aligned(path: &Path, hyp: &Path, n: usize) -> Result<Vec<String>, CliError> {
    let r = read_lines(path)?;
    if r.len() != n {
        return Err(CliError::Input {
            path: path.to_path_buf(),
            line: r.len().min(n) + 1,
            message: format!(
                "{} lines, but {} has {n} (files must be line-aligned)",
                r.len(),
                hyp.display(),
            ),
        });
    }
    Ok(r)
}

fn metric_err(e: MetricError) -> CliError {
    CliError::Usage(e.to_string())
}

/// The registry's settings from the command line.
fn options(args: &MetricArgs) -> Result<TextMetricOptions, CliError> {
    Ok(TextMetricOptions {
        sacre_tokenizer: args.tokenize.clone().unwrap_or_else(|| "13a".into()),
        smoothing: args.smooth.clone(),
        lowercase: args.lowercase,
        nltk: args.nltk_tokenizer.parse().map_err(metric_err)?,
        rouge_impl: args.rouge_impl.clone(),
        rouge_pretokenize: args.rouge_pretokenize,
        wordnet: args.wordnet.clone(),
    })
}

/// The text metric named on the command line.
fn text_metric(args: &MetricArgs, refs: &[Vec<String>]) -> Result<Box<dyn TextMetric>, CliError> {
    let name = args.name.as_str();
    if !TEXT_METRICS.contains(&name) {
        return Err(CliError::Usage(format!(
            "unknown metric {name:?}; text metrics: {}, wmd; neural: bertscore, bleurt, comet, perplexity, style",
            TEXT_METRICS[..12].join(", ")
        )));
    }
    let metric = metric_by_name(name, &options(args)?).map_err(metric_err)?;
    if metric.needs_references() && refs.is_empty() {
        return Err(CliError::Usage(format!(
            "{name} needs at least one --ref file"
        )));
    }
    Ok(metric)
}

/// Runs `hauser metric`, writing to `out`.
///
/// # Errors
/// Unreadable or malformed inputs, mismatched line counts, bad options, metric failures.
pub fn run(args: &MetricArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mut inputs = vec![("--hyp", args.hyp.as_path())];
    inputs.extend(args.refs.iter().map(|r| ("--ref", r.as_path())));
    inputs.extend(
        args.neural
            .baseline
            .iter()
            .map(|b| ("--baseline", b.as_path())),
    );
    inputs.extend(args.neural.src.iter().map(|s| ("--src", s.as_path())));
    files::check_single_stdin(&inputs)?;
    let hyps = read_lines(&args.hyp)?;
    let mut refs = Vec::with_capacity(args.refs.len());
    for path in &args.refs {
        refs.push(read_aligned(path, &args.hyp, hyps.len())?);
    }
    let src = match &args.neural.src {
        Some(path) => Some(read_aligned(path, &args.hyp, hyps.len())?),
        None => None,
    };
    let texts = neural_metric::Texts {
        hyps: &hyps,
        refs: &refs,
        src: src.as_deref(),
    };
    if neural_metric::run(&args.name, &args.neural, &texts, args.sentence, out)? {
        return Ok(());
    }
    if args.name == "wmd" {
        return wmd_metric::run(args, &hyps, &refs, out);
    }
    let metric = text_metric(args, &refs)?;
    let io = |e| CliError::io("<stdout>", e);
    if args.sentence {
        let per_line = metric.sentence_scores(&hyps, &refs).map_err(metric_err)?;
        for s in &per_line {
            writeln!(out, "{s}").map_err(io)?;
        }
    } else {
        let corpus = metric.corpus_score(&hyps, &refs).map_err(metric_err)?;
        let line = json!({
            "metric": args.name,
            "score": corpus.score,
            "scale": metric.scale().as_str(),
            "n": hyps.len(),
            "signature": corpus.signature.to_string(),
        });
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}
