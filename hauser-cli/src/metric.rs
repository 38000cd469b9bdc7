//! `hauser metric NAME --hyp FILE --ref FILE [--ref FILE ...] [--sentence]`: text metrics of
//! line-aligned files.
//!
//! With `--sentence`: one score per hypothesis line on the 0-1 scale, full precision, nothing
//! else on stdout. Without: one JSON line with the corpus score and its signature. Empty lines,
//! mismatched line counts and invalid UTF-8 are errors naming the file and line.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use figlang_metrics::text::bleu_nltk::{NltkBleu, Smoothing};
use figlang_metrics::text::bleu_sacre::{SacreBleu, SacreSmoothing};
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::diversity::{Distinct, SelfBleu};
use figlang_metrics::text::meteor::{Meteor, MeteorVersion};
use figlang_metrics::text::rouge::{PltrdyRouge, PltrdyVersion, RougeScore, RougeType};
use figlang_metrics::text::tokenize::{NltkTokenizer, SacreTokenizer};
use figlang_metrics::text::{MetricError, MetricScore};
use hauser_core::Signature;

use crate::error::CliError;
use crate::neural_metric::{self, NeuralMetricArgs};

/// The text metrics this subcommand knows (the neural ones are listed by `neural_metric`).
pub const TEXT_METRICS: [&str; 13] = [
    "bleu",
    "sentbleu",
    "chrf",
    "chrf++",
    "rouge1",
    "rouge2",
    "rougeL",
    "rougeLsum",
    "meteor",
    "distinct1",
    "distinct2",
    "selfbleu",
    "distinct3",
];

/// Arguments of `hauser metric`.
#[derive(Debug, Clone, Args)]
pub struct MetricArgs {
    /// Metric: bleu (sacreBLEU corpus), sentbleu (NLTK sentence BLEU), chrf, chrf++, rouge1,
    /// rouge2, rougeL, rougeLsum, meteor, distinct1, distinct2, selfbleu, or a neural metric
    /// (bertscore, perplexity, style).
    pub name: String,
    /// Hypotheses, one per line.
    #[arg(long, value_name = "FILE")]
    pub hyp: PathBuf,
    /// References, line-aligned with the hypotheses; repeat for several references.
    #[arg(long = "ref", value_name = "FILE")]
    pub refs: Vec<PathBuf>,
    /// One score per hypothesis (0-1 scale) instead of the corpus JSON line.
    #[arg(long)]
    pub sentence: bool,
    /// bleu: sacreBLEU tokenizer (13a, intl, none).
    #[arg(long, default_value = "13a")]
    pub tokenize: String,
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
    /// Neural metric options.
    #[command(flatten)]
    pub neural: NeuralMetricArgs,
}

/// Reads a line-aligned text file: one item per line, none empty, valid UTF-8.
///
/// # Errors
/// [`CliError::Io`] when unreadable; [`CliError::Input`] naming the line otherwise.
pub fn read_lines(path: &Path) -> Result<Vec<String>, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, e))?;
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

fn metric_err(e: MetricError) -> CliError {
    CliError::Usage(e.to_string())
}

/// What a metric produced: per-line scores (0-1) and the corpus value.
struct Outcome {
    per_line: Vec<f64>,
    corpus: f64,
    scale: &'static str,
    signature: Signature,
}

impl Outcome {
    /// A 0-1 sentence-level metric whose corpus value is the mean of its lines.
    fn averaged(per_line: Vec<f64>, signature: Signature) -> Self {
        Self {
            corpus: mean(&per_line),
            per_line,
            scale: "0-1",
            signature,
        }
    }
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn per_line_refs(refs: &[Vec<String>], i: usize) -> Vec<&str> {
    refs.iter().map(|r| r[i].as_str()).collect()
}

/// Each hypothesis scored against its own references by `score`, in line order.
fn line_scores(
    hyps: &[String],
    per_refs: &[Vec<&str>],
    score: impl Fn(&str, &[&str]) -> Result<MetricScore, MetricError>,
) -> Result<Vec<f64>, CliError> {
    hyps.iter()
        .zip(per_refs)
        .map(|(h, r)| score(h, r).map(|s| s.score))
        .collect::<Result<_, _>>()
        .map_err(metric_err)
}

fn require_refs(name: &str, refs: &[Vec<String>]) -> Result<(), CliError> {
    if refs.is_empty() {
        return Err(CliError::Usage(format!(
            "{name} needs at least one --ref file"
        )));
    }
    Ok(())
}

fn compute(args: &MetricArgs, hyps: &[String], refs: &[Vec<String>]) -> Result<Outcome, CliError> {
    let name = args.name.as_str();
    let nltk_tok: NltkTokenizer = args.nltk_tokenizer.parse().map_err(metric_err)?;
    let per_refs: Vec<Vec<&str>> = (0..hyps.len()).map(|i| per_line_refs(refs, i)).collect();
    match name {
        "bleu" => {
            require_refs(name, refs)?;
            let smoothing: SacreSmoothing = args
                .smooth
                .as_deref()
                .unwrap_or("exp")
                .parse()
                .map_err(metric_err)?;
            let tokenizer: SacreTokenizer = args.tokenize.parse().map_err(metric_err)?;
            let corpus_cfg = SacreBleu {
                tokenizer,
                lowercase: args.lowercase,
                smoothing,
                ..SacreBleu::default()
            };
            let sent_cfg = SacreBleu {
                effective_order: true,
                ..corpus_cfg.clone()
            };
            let corpus = corpus_cfg.corpus(hyps, &per_refs).map_err(metric_err)?;
            let per_line = if args.sentence {
                line_scores(hyps, &per_refs, |h, r| sent_cfg.sentence(h, r))?
                    .into_iter()
                    .map(|x| x / 100.0)
                    .collect()
            } else {
                Vec::new()
            };
            Ok(Outcome {
                per_line,
                corpus: corpus.score,
                scale: "0-100",
                signature: corpus.signature,
            })
        }
        "sentbleu" => {
            require_refs(name, refs)?;
            let smoothing: Smoothing = args
                .smooth
                .as_deref()
                .unwrap_or("method1")
                .parse()
                .map_err(metric_err)?;
            let cfg = NltkBleu {
                smoothing,
                tokenizer: nltk_tok,
                ..NltkBleu::default()
            };
            let per_line: Vec<f64> = line_scores(hyps, &per_refs, |h, r| cfg.sentence(h, r))?;
            let sig = cfg.signature(refs.len()).with("agg", "mean");
            Ok(Outcome::averaged(per_line, sig))
        }
        "chrf" | "chrf++" => {
            require_refs(name, refs)?;
            let base = if name == "chrf" {
                Chrf::default()
            } else {
                Chrf::plus_plus()
            };
            let cfg = Chrf {
                lowercase: args.lowercase,
                ..base
            };
            let corpus = cfg.corpus(hyps, &per_refs).map_err(metric_err)?;
            let per_line = line_scores(hyps, &per_refs, |h, r| cfg.sentence_unit(h, r))?;
            Ok(Outcome {
                per_line,
                corpus: corpus.score,
                scale: "0-100",
                signature: corpus.signature,
            })
        }
        "rouge1" | "rouge2" | "rougeL" | "rougeLsum" => {
            require_refs(name, refs)?;
            let kind: RougeType = name.parse().map_err(metric_err)?;
            let (per_line, sig) = match args.rouge_impl.as_str() {
                "rouge-score" => {
                    let cfg = RougeScore::default();
                    let v: Vec<f64> =
                        line_scores(hyps, &per_refs, |h, r| cfg.sentence(kind, h, r))?;
                    (v, cfg.signature(kind, refs.len()))
                }
                imp @ ("pltrdy" | "pltrdy-0.3.2") => {
                    let version = if imp == "pltrdy" {
                        PltrdyVersion::V1_0_1
                    } else {
                        PltrdyVersion::V0_3_2
                    };
                    let cfg = PltrdyRouge {
                        version,
                        pretokenize: args.rouge_pretokenize.then_some(nltk_tok),
                    };
                    let v: Vec<f64> =
                        line_scores(hyps, &per_refs, |h, r| cfg.sentence(kind, h, r))?;
                    (v, cfg.signature(kind, refs.len()))
                }
                other => {
                    return Err(CliError::Usage(format!(
                        "unknown --rouge-impl {other:?} (rouge-score, pltrdy, pltrdy-0.3.2)"
                    )))
                }
            };
            Ok(Outcome::averaged(per_line, sig.with("agg", "mean")))
        }
        "distinct1" | "distinct2" | "distinct3" => {
            let n = name[8..]
                .parse::<usize>()
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let cfg = Distinct {
                n,
                tokenizer: nltk_tok,
            };
            let corpus = cfg.corpus(hyps).map_err(metric_err)?;
            let per_line = hyps
                .iter()
                .map(|h| cfg.sentence(h).map(|s| s.score))
                .collect::<Result<_, _>>()
                .map_err(metric_err)?;
            Ok(Outcome {
                per_line,
                corpus: corpus.score,
                scale: "0-1",
                signature: corpus.signature,
            })
        }
        "selfbleu" => {
            let cfg = SelfBleu {
                bleu: NltkBleu {
                    tokenizer: nltk_tok,
                    ..NltkBleu::default()
                },
            };
            let per_line = cfg.per_text(hyps).map_err(metric_err)?;
            Ok(Outcome::averaged(per_line, cfg.signature(hyps.len())))
        }
        "meteor" => {
            require_refs(name, refs)?;
            let mut m = Meteor::new(&args.wordnet).map_err(metric_err)?;
            m.tokenizer = nltk_tok;
            if nltk_tok == NltkTokenizer::V345 {
                m.version = MeteorVersion::V345;
            }
            let per_line: Vec<f64> = line_scores(hyps, &per_refs, |h, r| m.sentence(h, r))?;
            let sig = m.signature(refs.len()).with("agg", "mean");
            Ok(Outcome::averaged(per_line, sig))
        }
        other => Err(CliError::Usage(format!(
            "unknown metric {other:?}; text metrics: {}; neural: bertscore, perplexity, style",
            TEXT_METRICS[..12].join(", ")
        ))),
    }
}

/// Runs `hauser metric`, writing to `out`.
///
/// # Errors
/// Unreadable or malformed inputs, mismatched line counts, bad options, metric failures.
pub fn run(args: &MetricArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let hyps = read_lines(&args.hyp)?;
    let mut refs = Vec::with_capacity(args.refs.len());
    for path in &args.refs {
        let r = read_lines(path)?;
        if r.len() != hyps.len() {
            let line = r.len().min(hyps.len()) + 1;
            return Err(CliError::Input {
                path: path.clone(),
                line,
                message: format!(
                    "{} lines, but {} has {} (files must be line-aligned)",
                    r.len(),
                    args.hyp.display(),
                    hyps.len()
                ),
            });
        }
        refs.push(r);
    }
    if neural_metric::run(&args.name, &args.neural, &hyps, &refs, args.sentence, out)? {
        return Ok(());
    }
    let o = compute(args, &hyps, &refs)?;
    let io = |e| CliError::io("<stdout>", e);
    if args.sentence {
        for s in &o.per_line {
            writeln!(out, "{s}").map_err(io)?;
        }
    } else {
        let line = json!({
            "metric": args.name,
            "score": o.corpus,
            "scale": o.scale,
            "n": hyps.len(),
            "signature": o.signature.to_string(),
        });
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}
