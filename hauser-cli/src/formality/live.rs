//! The live column of `hauser formality reproduce`: the content metrics this project computes,
//! recomputed on the released outputs and references in the configuration that reproduces the
//! authors' columns (docs/METRICS.md), with the count of rows that agree with the released
//! value and their own correlations with the human content scores.
//!
//! | released column | recomputed as |
//! | --- | --- |
//! | chrF | sacreBLEU sentence chrF (0-1) |
//! | BLEU | NLTK sentence BLEU, method1, on NLTK 3.4.5 `word_tokenize` tokens |
//! | ROUGE-1/2/L | `rouge` 0.3.2 F on NLTK 3.4.5 tokens |
//! | METEOR | NLTK 3.4.5's METEOR (needs WordNet 3.0: `--wordnet`) |
//! | BERTScore | F1 with `--bertscore-model` (and `--bertscore-baseline` for the paper's rescaling), at `--bertscore-layer` (default: bert_score's for the model id), on `--device` in `--precision` |
//!
//! It reads the data through `formality::data`, and `formality` (the command) reads it: the
//! dependency goes one way.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use figlang_metrics::neural::{default_layer, BertScoreOptions};
use figlang_metrics::text::rouge::RougeImpl;
use figlang_metrics::text::tokenize::NltkTokenizer;
use figlang_metrics::text::{metric_by_name, TextMetricOptions};
use hauser_nli::{DeviceSpec, Precision};

use crate::error::CliError;
use crate::flags::{self, DeviceArgs};
use crate::formality::data::{correlate, CorrRow};
use crate::metric::neural::load_bertscore;
use figlang_tasks::formality::{SystemFiles, CONTENT_COLUMNS, SEGMENTS};

/// A live value agrees with a released one within this (the columns carry 4 decimals).
pub const AGREE: f64 = 1e-4;

/// Options of the live metrics.
#[derive(Debug, Clone, Args)]
pub struct LiveArgs {
    /// METEOR: WordNet 3.0 database directory (Debian's wordnet-base installs it here); METEOR
    /// is left out, with a note, when it is missing.
    #[arg(long, value_name = "DIR", default_value = "/usr/share/wordnet")]
    pub wordnet: PathBuf,
    /// Recompute BERTScore F1 with this model (hub id or directory; the paper: roberta-large).
    #[arg(long, value_name = "MODEL")]
    pub bertscore_model: Option<String>,
    /// BERTScore baseline file for rescaling (bert_score's LAYER,P,R,F rows), as the paper.
    #[arg(long, value_name = "FILE", requires = "bertscore_model")]
    pub bertscore_baseline: Option<PathBuf>,
    /// BERTScore hidden-state layer (0 = embeddings, negative counts from the end, as
    /// `hauser metric bertscore --layer`); default: bert_score's layer for the model id, which
    /// a local directory needs this flag for.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = flags::layer, requires = "bertscore_model")]
    pub bertscore_layer: Option<isize>,
    /// BERTScore: inputs per forward pass.
    #[arg(long, value_name = "N", default_value_t = 64, allow_negative_numbers = true, value_parser = flags::batch_size, requires = "bertscore_model")]
    pub bertscore_batch_size: usize,
    /// Device and precision of the BERTScore model (used with --bertscore-model only).
    #[command(flatten)]
    pub device: DeviceArgs,
}

/// Refuses, before any file is read, the model settings given without `--bertscore-model`
/// (which nothing would use), and a BERTScore model without a known default layer when no
/// `--bertscore-layer` is given.
///
/// # Errors
/// [`CliError::Usage`] naming the flag.
pub fn check(args: &LiveArgs) -> Result<(), CliError> {
    match &args.bertscore_model {
        None => {
            if args.device.device != DeviceSpec::Cpu {
                return Err(CliError::Usage(
                    "--device applies to the BERTScore model: give --bertscore-model".into(),
                ));
            }
            if args.device.precision != Precision::F32 {
                return Err(CliError::Usage(
                    "--precision applies to the BERTScore model: give --bertscore-model".into(),
                ));
            }
        }
        Some(spec) => {
            let id = spec.split('@').next().unwrap_or(spec);
            if args.bertscore_layer.is_none() && default_layer(id).is_none() {
                return Err(CliError::Usage(format!(
                    "no default BERTScore layer is known for {id:?} (bert_score knows hub ids such as roberta-large); give --bertscore-layer N"
                )));
            }
        }
    }
    Ok(())
}

type Scorer = Box<dyn Fn(&[String], &[String]) -> Result<Vec<f64>, CliError>>;

fn text_scorer(name: &'static str, options: TextMetricOptions) -> Result<Scorer, CliError> {
    let metric = metric_by_name(name, &options).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(Box::new(move |hyps, refs| {
        metric
            .sentence_scores(hyps, &[refs.to_vec()])
            .map_err(|e| CliError::Usage(e.to_string()))
    }))
}

fn bertscore_scorer(args: &LiveArgs, spec: &str) -> Result<Scorer, CliError> {
    let opts = args.device.load_options(args.bertscore_batch_size);
    let metric = load_bertscore(
        spec,
        &opts,
        args.bertscore_layer,
        "--bertscore-layer",
        args.bertscore_baseline.as_deref(),
        BertScoreOptions::default(),
    )?;
    Ok(Box::new(move |hyps, refs| {
        let c: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let r: Vec<Vec<&str>> = refs.iter().map(|x| vec![x.as_str()]).collect();
        Ok(metric.score(&c, &r)?.iter().map(|p| p.f1).collect())
    }))
}

/// The live rows; metrics that cannot run here (no WordNet) are left out with a note.
///
/// # Errors
/// Metric failures; a BERTScore model that cannot be loaded.
pub fn rows(
    args: &LiveArgs,
    data: &BTreeMap<String, SystemFiles>,
    notes: &mut Vec<String>,
) -> Result<Vec<CorrRow>, CliError> {
    let v345 = |o: TextMetricOptions| TextMetricOptions {
        nltk: NltkTokenizer::V345,
        ..o
    };
    let rouge = || {
        v345(TextMetricOptions {
            rouge_impl: RougeImpl::Pltrdy032,
            rouge_pretokenize: true,
            ..TextMetricOptions::default()
        })
    };
    if !data.values().any(|f| f.contains_key("content.ref")) {
        notes.push("live content metrics left out: no NAME.content.ref.txt files".into());
        return Ok(Vec::new());
    }
    let mut metrics: Vec<(&str, Scorer)> = vec![
        ("chrF", text_scorer("chrf", TextMetricOptions::default())?),
        (
            "BLEU",
            text_scorer("sentbleu", v345(TextMetricOptions::default()))?,
        ),
        ("ROUGE-1", text_scorer("rouge1", rouge())?),
        ("ROUGE-2", text_scorer("rouge2", rouge())?),
        ("ROUGE-L", text_scorer("rougeL", rouge())?),
    ];
    let meteor = v345(TextMetricOptions {
        wordnet: args.wordnet.clone(),
        ..TextMetricOptions::default()
    });
    match text_scorer("meteor", meteor) {
        Ok(m) => metrics.insert(0, ("METEOR", m)),
        Err(e) => notes.push(format!("live METEOR left out: {e}")),
    }
    match &args.bertscore_model {
        Some(spec) => metrics.insert(0, ("BERTScore", bertscore_scorer(args, spec)?)),
        None => notes.push("live BERTScore left out: give --bertscore-model".into()),
    }
    let mut out = Vec::new();
    for (column, scorer) in metrics {
        let k = CONTENT_COLUMNS
            .iter()
            .position(|c| *c == column)
            .unwrap_or(0);
        let (mut agree, mut total) = (0usize, 0usize);
        let (mut human, mut live) = (Vec::new(), Vec::new());
        for (system, files) in data {
            let Some(lines) = files.get("content.ref") else {
                continue;
            };
            let hyps: Vec<String> = lines.iter().map(|l| l.output.clone()).collect();
            let refs: Vec<String> = lines.iter().map(|l| l.reference.clone()).collect();
            let scores = scorer(&hyps, &refs)?;
            // formality::data checked that every content.ref line has the 11 columns.
            for (l, s) in lines.iter().zip(&scores) {
                if let Some(released) = l.metrics.get(k) {
                    total += 1;
                    if (released - s).abs() <= AGREE {
                        agree += 1;
                    }
                }
            }
            if system != "REF" && scores.len() == SEGMENTS {
                human.push(lines.iter().map(|l| l.human(0)).collect::<Vec<f64>>());
                live.push(scores);
            }
        }
        let (r, tau, segments) = correlate(&human, &live)?;
        out.push(CorrRow {
            metric: column.to_string(),
            direction: "higher",
            system_pearson: r,
            segment_tau: tau,
            segments,
            paper: None,
            note: Some(format!(
                "{agree}/{total} rows agree with the released column (within {AGREE})"
            )),
        });
    }
    Ok(out)
}
