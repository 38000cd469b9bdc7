//! `hauser metric NAME --hyp FILE --ref FILE [--ref FILE ...] [--sentence]`: text metrics of
//! line-aligned files.
//!
//! With `--sentence`: one score per hypothesis line on the 0-1 scale, full precision, nothing
//! else on stdout (`--format jsonl`: one object per line with the statistics). Without: one
//! JSON line with the corpus score and its signature (`--format json`: and the statistics).
//! An empty line is an empty segment, scored as the reference tools score it (0 for BLEU,
//! chrF, ROUGE); mismatched line counts and invalid UTF-8 are errors naming the file and line.
//! Inputs go through [`crate::io::files`]: `-` is standard input, a byte-order mark is ignored,
//! CRLF is accepted. `--input` reads JSONL records instead (`crate::io::metric_input`).
//!
//! The text metrics come from figlang-metrics' registry (`metric_by_name`), configured by the
//! command-line flags; the neural ones (bertscore, bleurt, comet, metricx, perplexity, style) from
//! `neural`.
//!
//! The subcommand's parts, one module each: [`flags`] (the text metrics' options under
//! sacreBLEU's, rouge-score's and NLTK's names), `significance` (confidence intervals and
//! paired tests), `neural` (the neural metrics), `wmd` (Word Mover's Distance) and `output`
//! (the formats of the metrics that are not registry text metrics).

pub mod flags;
pub(crate) mod neural;
pub(crate) mod output;
pub(crate) mod significance;
pub(crate) mod wmd;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use figlang_metrics::text::{metric_by_name, MetricError, TextMetric};

use crate::error::CliError;
use crate::io::files;
use flags::TextFlags;
use neural::NeuralMetricArgs;
use significance::{SignificanceFlags, SignificanceRun};
use wmd::WmdArgs;

/// The text metrics this subcommand knows (the neural ones are listed by `neural`):
/// those of figlang-metrics' registry.
pub const TEXT_METRICS: &[&str] = &figlang_metrics::text::NAMES;

/// The help of the metric argument, listing the registry's names (so that a new metric
/// appears without a second list to keep).
fn name_help() -> String {
    format!(
        "Metric: a text metric ({}: bleu is sacreBLEU's corpus BLEU, sentbleu NLTK's sentence \
         BLEU), wmd (Word Mover's Distance, needs --vectors), or a neural metric ({})",
        TEXT_METRICS.join(", "),
        neural::NAMES.join(", ")
    )
}

/// Arguments of `hauser metric`.
#[derive(Debug, Clone, Args)]
pub struct MetricArgs {
    /// Metric: a text metric of figlang-metrics' registry, wmd (Word Mover's Distance, needs
    /// --vectors), or a neural metric; `--help` lists them.
    #[arg(help = name_help())]
    pub name: String,
    /// Hypotheses, one per line (`-` for stdin).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "input",
        conflicts_with = "input"
    )]
    pub hyp: Option<PathBuf>,
    /// References, line-aligned with the hypotheses; repeat for several references (`-` for
    /// stdin, for at most one input of the run).
    #[arg(long = "ref", value_name = "FILE", conflicts_with = "input")]
    pub refs: Vec<PathBuf>,
    /// JSONL instead of --hyp/--ref: `{"hyp": "...", "refs": ["...", ...]}` per line
    /// (newlines allowed inside, e.g. rougeLsum's sentences; every line the same number of
    /// references). `-` for stdin.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// One score per hypothesis instead of the corpus score, on the 0-1 scale (sacreBLEU's
    /// divided by 100; TER, an edit rate, has no upper bound).
    #[arg(long)]
    pub sentence: bool,
    /// Output: `plain` (the corpus JSON line with score and signature, or one number per
    /// line with --sentence), `json` (the corpus line with every statistic: BLEU counts,
    /// totals, precisions, bp, ratio, sys_len, ref_len; chrF stats; ROUGE precision, recall,
    /// fmeasure...), `jsonl` (with --sentence: one such object per hypothesis, WMD and the
    /// neural metrics included; a non-finite value is null); also -f.
    #[arg(long, default_value = "plain", value_parser = ["plain", "text", "json", "jsonl"])]
    pub format: String,
    /// Text-metric options (sacreBLEU, rouge-score and NLTK names).
    #[command(flatten)]
    pub text: TextFlags,
    /// Confidence intervals and paired significance tests (sacreBLEU's).
    #[command(flatten)]
    pub significance: SignificanceFlags,
    /// Word Mover's Distance options.
    #[command(flatten)]
    pub wmd: WmdArgs,
    /// Neural metric options.
    #[command(flatten)]
    pub neural: NeuralMetricArgs,
}

/// Reads a line-aligned text file (`-` for standard input): one segment per line, valid
/// UTF-8; a byte-order mark is ignored and CRLF endings are accepted. An empty line is an empty
/// segment (data, scored as the reference tools score it); a file without bytes holds none.
///
/// # Errors
/// [`CliError::Io`] when unreadable; [`CliError::TooLarge`] above the in-memory limit;
/// [`CliError::Input`] naming the line of invalid UTF-8.
pub fn read_lines(path: &Path) -> Result<Vec<String>, CliError> {
    let bytes = files::read_all(path)?;
    // `files` drops a byte-order mark; a file with nothing else holds no segment.
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    body.split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, raw)| {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            std::str::from_utf8(raw)
                .map(str::to_string)
                .map_err(|e| CliError::Input {
                    path: path.to_path_buf(),
                    line: i + 1,
                    message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
                })
        })
        .collect()
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

fn unknown_metric(name: &str) -> CliError {
    CliError::Usage(format!(
        "unknown metric {name:?}; text metrics: {}, wmd; neural: {}",
        TEXT_METRICS.join(", "),
        neural::NAMES.join(", ")
    ))
}

/// The text metric named on the command line.
fn text_metric(args: &MetricArgs, refs: &[Vec<String>]) -> Result<Box<dyn TextMetric>, CliError> {
    let name = args.name.as_str();
    if !TEXT_METRICS.contains(&name) {
        return Err(unknown_metric(name));
    }
    let metric = metric_by_name(name, &args.text.options(name)?).map_err(metric_err)?;
    if metric.needs_references() && refs.is_empty() {
        return Err(CliError::Usage(format!(
            "{name} needs at least one --ref file"
        )));
    }
    Ok(metric)
}

/// The hypotheses and reference lists of the run: from --hyp/--ref files or a JSONL --input.
fn read_texts(args: &MetricArgs) -> Result<(Vec<String>, Vec<Vec<String>>), CliError> {
    if let Some(input) = &args.input {
        return crate::io::metric_input::read_jsonl(input);
    }
    let hyp = args
        .hyp
        .as_deref()
        .ok_or_else(|| CliError::Usage("give --hyp (and --ref) or --input".into()))?;
    let hyps = read_lines(hyp)?;
    let mut refs = Vec::with_capacity(args.refs.len());
    for path in &args.refs {
        refs.push(read_aligned(path, hyp, hyps.len())?);
    }
    Ok((hyps, refs))
}

/// Refuses, before any input is read or model loaded, the options the metric named would not
/// use: the significance options for `wmd` (sacreBLEU's resampling tests run on the text
/// metrics' statistics and on the neural metrics' line scores), `--system` without a test that
/// compares systems, `--comet-compare` outside the neural metrics, and `--lowercase`, which is
/// BLEU's only (as in sacreBLEU's command line, where chrF has `--chrf-lowercase` and TER
/// `--ter-case-sensitive`), and `--sentence` with a significance test (whose records are corpus
/// records). The `-n` variants need their test (clap's `requires`).
fn check_options(args: &MetricArgs) -> Result<(), CliError> {
    let name = args.name.as_str();
    if !(TEXT_METRICS.contains(&name) || name == "wmd" || neural::NAMES.contains(&name)) {
        return Err(unknown_metric(name));
    }
    let sig = &args.significance;
    if !sig.compares_systems() && !sig.systems.is_empty() {
        return Err(CliError::Usage(
            "--system needs --paired-bs, --paired-ar or --comet-compare".into(),
        ));
    }
    if sig.comet_compare && !neural::NAMES.contains(&name) {
        return Err(CliError::Usage(format!(
            "--comet-compare is unbabel-comet's comparison of line scores, for the neural metrics ({}); {name} has none (use --paired-bs or --paired-ar)",
            neural::NAMES.join(", ")
        )));
    }
    if args.sentence && sig.wanted() {
        return Err(CliError::Usage(
            "--sentence: the significance tests (--confidence, --paired-bs, --paired-ar) give corpus records only; drop --sentence".into(),
        ));
    }
    if name == "wmd" {
        let tests = [
            ("--confidence", sig.confidence),
            ("--paired-bs", sig.paired_bs),
            ("--paired-ar", sig.paired_ar),
        ];
        if let Some((flag, _)) = tests.iter().find(|(_, given)| *given) {
            return Err(CliError::Usage(format!(
                "{flag} is sacreBLEU's resampling test, for the text metrics bleu, chrf, chrf++ and ter{} and the neural metrics ({}); wmd has none yet (its --sentence scores can be resampled outside)",
                if *flag == "--confidence" {
                    " (and ROUGE's bootstrap aggregate)"
                } else {
                    ""
                },
                neural::NAMES.join(", ")
            )));
        }
    }
    if let Some((flag, readers)) = args.text.unread(name) {
        return Err(CliError::Usage(format!(
            "{flag} is not read by {name} (it is for {readers})"
        )));
    }
    if let Some((flag, readers)) = unread_model_flag(args) {
        return Err(CliError::Usage(format!(
            "{flag} is not read by {name} (it is for {readers})"
        )));
    }
    if args.text.lowercase && name != "bleu" {
        return Err(CliError::Usage(format!(
            "--lowercase/-lc lowercases BLEU only (as sacreBLEU's command line); {name} does not read it{}",
            match name {
                "chrf" | "chrf++" => ": use --chrf-lowercase",
                "ter" => ": TER ignores case unless --ter-case-sensitive",
                _ => "",
            }
        )));
    }
    Ok(())
}

/// The first WMD or neural-metric flag given (a value other than its default) that the metric
/// named does not read, with the metrics that do.
fn unread_model_flag(args: &MetricArgs) -> Option<(&'static str, &'static str)> {
    let name = args.name.as_str();
    let (w, n) = (&args.wmd, &args.neural);
    let neural = neural::NAMES.contains(&name);
    let flags: [(&'static str, bool, bool, &'static str); 4] = [
        ("--vectors", w.vectors.is_some(), name == "wmd", "wmd"),
        (
            "--binary",
            w.binary != wmd::BinaryArg::Auto,
            name == "wmd",
            "wmd",
        ),
        (
            "--vocab-limit",
            w.vocab_limit.is_some(),
            name == "wmd",
            "wmd",
        ),
        ("--no-norm", w.no_norm, name == "wmd", "wmd"),
    ];
    flags
        .into_iter()
        .chain(neural::flag_table(n, name, neural))
        .find(|(_, given, read, _)| *given && !*read)
        .map(|(flag, _, _, readers)| (flag, readers))
}

/// Runs `hauser metric`, writing to `out`.
///
/// # Errors
/// Unreadable or malformed inputs, mismatched line counts, bad options, metric failures.
pub fn run(args: &MetricArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_options(args)?;
    files::RunFiles::new()
        .inputs("--hyp", &args.hyp)
        .inputs("--input", &args.input)
        .inputs("--ref", &args.refs)
        .inputs("--system", &args.significance.systems)
        .inputs("--baseline", &args.neural.baseline)
        .inputs("--src", &args.neural.src)
        .file_input(
            "--vectors",
            args.wmd.vectors.as_deref(),
            files::VECTORS_FROM_A_FILE,
        )
        .dir("--wordnet", Some(&args.text.wordnet))
        .model("--model", args.neural.model.as_deref())
        .model("--tokenizer", args.neural.tokenizer.as_deref())
        .check()?;
    let (hyps, refs) = read_texts(args)?;
    let src = match &args.neural.src {
        Some(path) => Some(read_aligned(
            path,
            args.hyp
                .as_deref()
                .or(args.input.as_deref())
                .unwrap_or(path),
            hyps.len(),
        )?),
        None => None,
    };
    let sig = &args.significance;
    let systems = if sig.compares_systems() {
        let baseline = args.hyp.as_deref().ok_or_else(|| {
            CliError::Usage(
                "the paired tests compare --system files with the baseline --hyp".into(),
            )
        })?;
        sig.systems
            .iter()
            .map(|p| read_aligned(p, baseline, hyps.len()))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let texts = neural::Texts {
        hyps: &hyps,
        systems: &systems,
        refs: &refs,
        src: src.as_deref(),
    };
    let output = (args.sentence, args.format.as_str());
    let tests = SignificanceRun::new(sig, args.hyp.as_deref());
    if neural::run(&args.name, &args.neural, &texts, output, &tests, out)? {
        return Ok(());
    }
    if args.name == "wmd" {
        let tok = wmd::Tokenization {
            tokenize: args.text.tokenize.as_deref(),
            nltk: &args.text.nltk_tokenizer,
        };
        return wmd::run(&args.wmd, tok, output, &hyps, &refs, out);
    }
    let metric = text_metric(args, &refs)?;
    if let (true, Some(baseline)) = (sig.paired_bs || sig.paired_ar, args.hyp.as_deref()) {
        return significance::paired(
            &args.name,
            metric.as_ref(),
            sig,
            baseline,
            &hyps,
            &systems,
            &refs,
            out,
        );
    }
    if sig.confidence {
        return significance::confidence(&args.name, metric.as_ref(), sig, &hyps, &refs, out);
    }
    let io = |e| CliError::io("<stdout>", e);
    let detailed = output::detailed(&args.format);
    if args.sentence && detailed {
        let signature = metric
            .sentence_signature(hyps.len(), refs.len())
            .to_string();
        for mut d in metric.sentence_details(&hyps, &refs).map_err(metric_err)? {
            d.insert("signature".into(), json!(signature));
            writeln!(out, "{}", serde_json::Value::Object(d)).map_err(io)?;
        }
    } else if args.sentence {
        let per_line = metric.sentence_scores(&hyps, &refs).map_err(metric_err)?;
        for s in &per_line {
            writeln!(out, "{s}").map_err(io)?;
        }
    } else {
        let (corpus, details) = if detailed {
            metric.corpus_details(&hyps, &refs).map_err(metric_err)?
        } else {
            let c = metric.corpus_score(&hyps, &refs).map_err(metric_err)?;
            (c, Default::default())
        };
        let mut line = json!({
            "metric": args.name,
            "score": corpus.score,
            "scale": metric.scale().as_str(),
            "n": hyps.len(),
            "signature": corpus.signature.to_string(),
        });
        for (k, v) in details {
            if k != "score" {
                line[k] = v;
            }
        }
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}
