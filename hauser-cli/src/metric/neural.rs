//! The neural metrics of `hauser metric`: `bertscore`, `bleurt`, `comet`, `metricx`,
//! `perplexity` and `style`.
//!
//! Inputs arrive already read and validated (line-aligned, non-empty, UTF-8) by the `metric`
//! subcommand; this module loads the model, scores, and prints either one number per line
//! (`--sentence`; `--format jsonl`: one object per line with the signature) or one JSON object
//! with the system score and the signature (`crate::metric::output`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use figlang_metrics::neural::{
    default_layer, Baseline, BaselineError, BertScore, BertScoreOptions, Bleurt, BosMode, Comet,
    MetricX, Perplexity, StyleStrength,
};
use hauser_nli::{
    CausalLm, CometModel, Embedder, LoadOptions, MetricxModel, MetricxVersion, ModelSource,
    SequenceClassifier,
};

use crate::error::CliError;
use crate::metric::output::{self, Scored};
use crate::metric::significance::SignificanceRun;
use crate::{flags, io::files};

/// Options of the neural metrics.
#[derive(Debug, Clone, Default, Args)]
pub struct NeuralMetricArgs {
    /// Model: a hub id (`org/name[@revision]`, through the local cache) or a directory.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// BERTScore: hidden-state layer (0 = embeddings, negative counts from the end as in
    /// `hauser embed`); default: bert_score's layer for the model.
    #[arg(long, allow_negative_numbers = true, value_parser = flags::layer)]
    pub layer: Option<isize>,
    /// BERTScore: weight tokens by IDF computed from the references.
    #[arg(long)]
    pub idf: bool,
    /// BERTScore: rescale with a baseline file in bert_score's format (LAYER,P,R,F rows).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// BERTScore: put a space before each text (`yes`/`no`); default: what bert_score does for
    /// the model (yes for RoBERTa and DeBERTa v1; `no` reproduces DeBERTa v1 runs on
    /// transformers >= 4.24 and any run on transformers 5).
    #[arg(long, value_name = "yes|no", value_parser = parse_yes_no)]
    pub prefix_space: Option<bool>,
    /// COMET, MetricX: sources, line-aligned with the hypotheses (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub src: Option<PathBuf>,
    /// MetricX: the release whose input template to build, `24` (`source: S candidate: H
    /// reference: R`, or without --ref `source: S candidate: H`) or `23` (`candidate: H
    /// reference: R`, or for its QE models `candidate: H source: S`).
    #[arg(long, value_name = "24|23", default_value = "24", allow_negative_numbers = true, value_parser = ["24", "23"])]
    pub metricx_version: String,
    /// MetricX: the mT5 tokenizer (hub id or directory); default: the model's own
    /// `tokenizer.json` or `spiece.model`, else google/mt5-xl as the repository's README runs it.
    #[arg(long, value_name = "MODEL")]
    pub tokenizer: Option<String>,
    /// MetricX: inputs are cut to this many tokens (predict.py's --max_input_length); default
    /// 1536 for MetricX-24, 1024 for MetricX-23, the lengths the models were trained with.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = max_input_length)]
    pub max_input_length: Option<usize>,
    /// COMET: score with every source empty (the formality paper's "COMET-w"); for the
    /// unified models (CometKiwi, XCOMET), score without the source.
    #[arg(long, conflicts_with = "src")]
    pub no_src: bool,
    /// Perplexity: prepend `<|endoftext|>` so that the first token is scored too.
    #[arg(long)]
    pub prepend_bos: bool,
    /// Style: the target label whose probability is the style strength (e.g. `formal`).
    #[arg(long)]
    pub label: Option<String>,
    /// Style: 1-based line ranges transferred in the opposite direction, scored 1 - p
    /// (e.g. `41-80` or `3,7-9`).
    #[arg(long, value_name = "LINES")]
    pub flip: Option<String>,
    /// Inputs per forward pass.
    #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision of the model.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

fn max_input_length(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 2 => Ok(n),
        _ => Err(format!(
            "expected a number of tokens of at least 2 (the </s> predict.py removes, and one more), got {s:?}"
        )),
    }
}

fn parse_yes_no(s: &str) -> Result<bool, String> {
    match s {
        "yes" => Ok(true),
        "no" => Ok(false),
        other => Err(format!("expected yes or no, got {other:?}")),
    }
}

/// The load options (device, precision, batch size) the flags give.
pub(crate) fn load_options(args: &NeuralMetricArgs) -> LoadOptions {
    args.device.load_options(args.batch_size)
}

/// The `--model` source and its id (without `@revision`), which `metric` needs.
pub(crate) fn model(
    args: &NeuralMetricArgs,
    metric: &str,
) -> Result<(ModelSource, String), CliError> {
    let spec = args
        .model
        .as_deref()
        .ok_or_else(|| CliError::Usage(format!("{metric} needs --model (hub id or directory)")))?;
    let source = ModelSource::parse(spec);
    let id = spec.split('@').next().unwrap_or(spec).to_string();
    Ok((source, id))
}

/// Loads BERTScore from `spec` (hub id or directory, `@revision` allowed): the layer given
/// (negative counts from the end, as `hauser embed` does) or bert_score's default for the model
/// id, and a baseline file (read before the slow model load, so that a missing file fails at
/// once). `options` carries the other settings; its layer, baseline and batch size (`opts`'s)
/// are set here. `layer_flag` is the option of the calling command that sets the layer, named
/// when a layer is needed and bert_score knows none for the model.
///
/// # Errors
/// An unreadable or malformed baseline, an unloadable model, a layer out of range, or no layer
/// for a model bert_score has no default for when a baseline needs one.
pub fn load_bertscore(
    spec: &str,
    opts: &LoadOptions,
    layer: Option<isize>,
    layer_flag: &str,
    baseline: Option<&Path>,
    options: BertScoreOptions,
) -> Result<BertScore, CliError> {
    let source = ModelSource::parse(spec);
    let id = spec.split('@').next().unwrap_or(spec).to_string();
    // The whole file is checked before the slow model load; the layer's row is taken after.
    let baseline_rows = match baseline {
        Some(path) => Some((path, read_baseline(path)?)),
        None => None,
    };
    let embedder = Embedder::load(&source, opts)?;
    let layer = match layer {
        Some(l) => Some(flags::resolve_layer(l, embedder.layers())?),
        None => default_layer(&id),
    };
    let no_layer = || {
        CliError::Usage(format!(
            "no default BERTScore layer is known for model {id}; give one with {layer_flag}"
        ))
    };
    if layer.is_none() {
        return Err(no_layer());
    }
    let baseline = match baseline_rows {
        Some((path, text)) => {
            let l = layer.ok_or_else(no_layer)?;
            let b = Baseline::parse(&text, l).map_err(|e| baseline_error(path, e))?;
            Some((path.display().to_string(), b))
        }
        None => None,
    };
    // The batch size the pairs are run with is the one given, and the signature says so.
    let options = BertScoreOptions {
        layer,
        baseline,
        batch_size: opts.batching.batch_size,
        ..options
    };
    Ok(BertScore::new(embedder, &id, options)?)
}

/// Reads a BERTScore baseline file and checks every row (`Baseline::parse_all`).
///
/// # Errors
/// An unreadable file; a malformed one as [`CliError::Input`] with its line.
pub fn read_baseline(path: &Path) -> Result<String, CliError> {
    let text = files::read_to_string(path)?;
    Baseline::parse_all(&text).map_err(|e| baseline_error(path, e))?;
    Ok(text)
}

/// A baseline file's error with its path and line.
pub fn baseline_error(path: &Path, e: BaselineError) -> CliError {
    CliError::Input {
        path: path.to_path_buf(),
        line: e.line,
        message: format!("BERTScore baseline: {}", e.message),
    }
}

/// Parses `--flip` ranges into a per-line flag (`true` = towards the label).
///
/// # Errors
/// [`CliError::Usage`] on a malformed range or one outside `1..=n`.
pub fn parse_flip(spec: Option<&str>, n: usize) -> Result<Vec<bool>, CliError> {
    let mut towards = vec![true; n];
    let Some(spec) = spec else { return Ok(towards) };
    let bad = || {
        CliError::Usage(format!(
            "--flip expects 1-based line ranges like 41-80, got {spec:?}"
        ))
    };
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let a: usize = a.trim().parse().map_err(|_| bad())?;
        let b: usize = b.trim().parse().map_err(|_| bad())?;
        if a > b {
            return Err(CliError::Usage(format!(
                "--flip range {part} is reversed: write the first line first ({b}-{a})"
            )));
        }
        if a == 0 || b > n {
            return Err(CliError::Usage(format!(
                "--flip range {part} is outside lines 1-{n}"
            )));
        }
        towards[a - 1..b].iter_mut().for_each(|t| *t = false);
    }
    Ok(towards)
}

/// The line-aligned texts a neural metric reads.
#[derive(Debug, Clone, Copy)]
pub struct Texts<'a> {
    /// Hypotheses (the baseline of a paired test).
    pub hyps: &'a [String],
    /// The systems of a paired test (`--system`), scored by the same model; empty otherwise.
    pub systems: &'a [Vec<String>],
    /// One list per reference file (unused by perplexity and style).
    pub refs: &'a [Vec<String>],
    /// Sources (COMET, MetricX).
    pub src: Option<&'a [String]>,
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Per-line scores of the hypotheses, per-line scores of each `--system`, the signature, and
/// per-line details for `--sentence --format jsonl`.
type DetailedScores = (
    Vec<f64>,
    Vec<Vec<f64>>,
    hauser_core::Signature,
    Vec<serde_json::Map<String, serde_json::Value>>,
);

/// COMET on the command's texts.
fn comet(
    args: &NeuralMetricArgs,
    opts: &LoadOptions,
    texts: &Texts<'_>,
) -> Result<DetailedScores, CliError> {
    let spec = args
        .model
        .as_deref()
        .ok_or_else(|| CliError::Usage("comet needs --model DIR (a COMET checkpoint directory: hparams.yaml, checkpoints/model.ckpt)".into()))?;
    let dir = std::path::Path::new(spec);
    let model = CometModel::load(dir, opts)?;
    check_comet_inputs(&model, args, texts)?;
    let id = dir
        .file_name()
        .map_or_else(|| spec.to_string(), |n| n.to_string_lossy().into_owned());
    let mut metric = Comet::new(model, &id);
    let src = texts.src.map(strs);
    let refs = texts.refs.first().map(|r| strs(r)).unwrap_or_default();
    let predictions = metric.predict(src.as_deref(), &strs(texts.hyps), &refs)?;
    let systems = texts
        .systems
        .iter()
        .map(|s| metric.score(src.as_deref(), &strs(s), &refs))
        .collect::<Result<Vec<_>, _>>()?;
    let scores = predictions.iter().map(|p| f64::from(p.score)).collect();
    // The word-level models' spans (and XCOMET's MQM score), as unbabel-comet's metadata.
    let details = predictions
        .iter()
        .map(|p| {
            let mut d = serde_json::Map::new();
            if let Some(spans) = &p.error_spans {
                d.insert("error_spans".into(), json!(spans));
            }
            if let Some(m) = p.mqm_score {
                d.insert("mqm_score".into(), json!(m));
            }
            d
        })
        .collect();
    Ok((scores, systems, metric.signature(), details))
}

/// The texts a COMET model takes: a source (or `--no-src`) for the estimator classes, at most
/// what `input_segments` names for the unified ones (whose `--no-src` means no source), and a
/// reference exactly when the model reads one (optional where the unified model can do
/// without).
fn check_comet_inputs(
    model: &CometModel,
    args: &NeuralMetricArgs,
    texts: &Texts<'_>,
) -> Result<(), CliError> {
    let class = model.hparams().class;
    if class.is_unified() {
        if texts.src.is_some() && !model.takes_sources() {
            return Err(CliError::Usage(format!(
                "comet: this {} model (input_segments [mt, ref]) takes no --src",
                class.identifier()
            )));
        }
    } else if texts.src.is_none() && !args.no_src {
        return Err(CliError::Usage(
            "comet needs --src FILE, or --no-src to score with empty sources (COMET-w)".into(),
        ));
    }
    let optional_ref = class.is_unified() && model.is_referenceless();
    match (model.takes_references(), texts.refs.len()) {
        (true, 1) | (false, 0) => Ok(()),
        (true, 0) if optional_ref => Ok(()),
        (true, _) if optional_ref => Err(CliError::Usage(
            "comet: this model takes at most one --ref file".into(),
        )),
        (true, _) => Err(CliError::Usage(format!(
            "comet: this {} model needs exactly one --ref file",
            if class.is_unified() {
                "unified"
            } else {
                "regression"
            }
        ))),
        (false, _) => Err(CliError::Usage(format!(
            "comet: this {} model takes no --ref",
            match class {
                hauser_nli::CometClass::Referenceless => {
                    "reference-free (quality estimation)".to_string()
                }
                c => format!("{} (input_segments [mt, src])", c.identifier()),
            }
        ))),
    }
}

/// MetricX on the command's texts, with the number of inputs cut to the maximum length.
fn metricx(
    args: &NeuralMetricArgs,
    opts: &LoadOptions,
    texts: &Texts<'_>,
) -> Result<(DetailedScores, usize), CliError> {
    let (source, id) = model(args, "metricx")?;
    let version = if args.metricx_version == "23" {
        MetricxVersion::V23
    } else {
        MetricxVersion::V24
    };
    let refs = match texts.refs {
        [] => None,
        [r] => Some(strs(r)),
        _ => {
            return Err(CliError::Usage(
                "metricx takes at most one --ref file".into(),
            ))
        }
    };
    match (version, texts.src.is_some(), refs.is_some()) {
        (_, false, false) => {
            return Err(CliError::Usage(
                "metricx needs --ref FILE, or --src FILE to score without references (quality estimation)".into(),
            ))
        }
        (MetricxVersion::V23, true, true) => {
            return Err(CliError::Usage(
                "metricx --metricx-version 23 takes --ref (reference-based models) or --src (QE models), not both".into(),
            ))
        }
        _ => {}
    }
    let tokenizer = match &args.tokenizer {
        Some(t) => ModelSource::parse(t),
        None => hauser_nli::metricx_default_tokenizer(&source)?,
    };
    let max_len = args
        .max_input_length
        .unwrap_or_else(|| version.default_max_input_length());
    let model = MetricxModel::load(&source, &tokenizer, opts, max_len)?;
    let mut metric = MetricX::new(model, &id, version);
    let src = texts.src.map(strs);
    let predictions = metric.predict(src.as_deref(), &strs(texts.hyps), refs.as_deref())?;
    let systems = texts
        .systems
        .iter()
        .map(|s| metric.score(src.as_deref(), &strs(s), refs.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let truncated = predictions.iter().filter(|p| p.truncated).count();
    let scores = predictions.iter().map(|p| f64::from(p.score)).collect();
    let details = predictions
        .iter()
        .map(|p| {
            let mut d = serde_json::Map::new();
            d.insert("truncated".into(), json!(p.truncated));
            d
        })
        .collect();
    Ok(((scores, systems, metric.signature(), details), truncated))
}

/// One row per neural-metric flag: the flag, whether it was given (a value other than its
/// default), whether the metric `name` reads it (`neural`: `name` is a neural metric), and the
/// metrics that do; `hauser metric` and `hauser rerank` refuse the first given and unread.
pub(crate) fn flag_table(
    n: &NeuralMetricArgs,
    name: &str,
    neural: bool,
) -> [(&'static str, bool, bool, &'static str); 15] {
    [
        ("--model", n.model.is_some(), neural, "the neural metrics"),
        (
            "--layer",
            n.layer.is_some(),
            name == "bertscore",
            "bertscore",
        ),
        ("--idf", n.idf, name == "bertscore", "bertscore"),
        (
            "--baseline",
            n.baseline.is_some(),
            name == "bertscore",
            "bertscore",
        ),
        (
            "--prefix-space",
            n.prefix_space.is_some(),
            name == "bertscore",
            "bertscore",
        ),
        (
            "--src",
            n.src.is_some(),
            matches!(name, "comet" | "metricx"),
            "comet and metricx",
        ),
        (
            "--metricx-version",
            n.metricx_version != "24",
            name == "metricx",
            "metricx",
        ),
        (
            "--tokenizer",
            n.tokenizer.is_some(),
            name == "metricx",
            "metricx",
        ),
        (
            "--max-input-length",
            n.max_input_length.is_some(),
            name == "metricx",
            "metricx",
        ),
        ("--no-src", n.no_src, name == "comet", "comet"),
        (
            "--prepend-bos",
            n.prepend_bos,
            name == "perplexity",
            "perplexity",
        ),
        ("--label", n.label.is_some(), name == "style", "style"),
        ("--flip", n.flip.is_some(), name == "style", "style"),
        (
            "--batch-size",
            n.batch_size != 64,
            neural,
            "the neural metrics",
        ),
        (
            "--device/--precision",
            n.device.device != hauser_nli::DeviceSpec::Cpu
                || n.device.precision != hauser_nli::Precision::F32,
            neural,
            "the neural metrics",
        ),
    ]
}

/// The mean of the scores (0 segments: NaN, which the outputs write as `null`).
fn mean(scores: &[f64]) -> f64 {
    scores.iter().sum::<f64>() / scores.len() as f64
}

/// The names of the neural metrics.
pub const NAMES: [&str; 6] = [
    "bertscore",
    "bleurt",
    "comet",
    "metricx",
    "perplexity",
    "style",
];

/// Runs a neural metric on line-aligned texts, writing as `sentence` and `format` ask
/// ([`output::write`]), or the records of the significance test `significance` asks
/// for, on the per-line scores ([`SignificanceRun::write`]). Returns `false` when
/// `name` is not a neural metric.
///
/// # Errors
/// Missing options, model loading or inference failures, an unwritable output.
pub fn run(
    name: &str,
    args: &NeuralMetricArgs,
    texts: &Texts<'_>,
    (sentence, format): (bool, &str),
    significance: &SignificanceRun<'_>,
    out: &mut dyn Write,
) -> Result<bool, CliError> {
    let (hyps, refs) = (texts.hyps, texts.refs);
    let opts = load_options(args);
    let mut details = Vec::new();
    let mut others: Vec<Vec<f64>> = Vec::new();
    let (scores, system, signature, extra) = match name {
        "bertscore" => {
            let spec = args.model.as_deref().ok_or_else(|| {
                CliError::Usage(format!("{name} needs --model (hub id or directory)"))
            })?;
            let options = BertScoreOptions {
                idf: args.idf,
                prefix_space: args.prefix_space,
                ..BertScoreOptions::default()
            };
            let metric = load_bertscore(
                spec,
                &opts,
                args.layer,
                "--layer",
                args.baseline.as_deref(),
                options,
            )?;
            let cands: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let per_line: Vec<Vec<&str>> = (0..hyps.len())
                .map(|i| refs.iter().map(|r| r[i].as_str()).collect())
                .collect();
            let s = metric.score(&cands, &per_line)?;
            for sys in texts.systems {
                let prf = metric.score(&strs(sys), &per_line)?;
                others.push(prf.iter().map(|p| p.f1).collect());
            }
            let n = s.len() as f64;
            let mean =
                |f: fn(&figlang_metrics::neural::Prf) -> f64| s.iter().map(f).sum::<f64>() / n;
            let extra = json!({
                "precision": mean(|p| p.precision),
                "recall": mean(|p| p.recall),
                "f1": mean(|p| p.f1),
            });
            let f1 = mean(|p| p.f1);
            details = s
                .iter()
                .map(|p| {
                    let mut d = serde_json::Map::new();
                    d.insert("precision".into(), json!(p.precision));
                    d.insert("recall".into(), json!(p.recall));
                    d.insert("f1".into(), json!(p.f1));
                    d
                })
                .collect();
            (
                s.iter().map(|p| p.f1).collect::<Vec<_>>(),
                f1,
                metric.signature(),
                extra,
            )
        }
        "bleurt" => {
            let (source, id) = model(args, name)?;
            if refs.len() != 1 {
                return Err(CliError::Usage(
                    "bleurt needs exactly one --ref file".into(),
                ));
            }
            let metric = Bleurt::new(SequenceClassifier::load(&source, &opts)?, &id)?;
            let scores = metric.score(&strs(hyps), &strs(&refs[0]))?;
            for sys in texts.systems {
                others.push(metric.score(&strs(sys), &strs(&refs[0]))?);
            }
            let system = mean(&scores);
            (scores, system, metric.signature(), json!({}))
        }
        "comet" => {
            let (scores, systems, signature, spans) = comet(args, &opts, texts)?;
            others = systems;
            details = spans;
            let system = mean(&scores);
            (scores, system, signature, json!({}))
        }
        "metricx" => {
            let ((scores, systems, signature, cut), truncated) = metricx(args, &opts, texts)?;
            others = systems;
            details = cut;
            let system = mean(&scores);
            (
                scores,
                system,
                signature,
                json!({"direction": "lower is better", "range": [0, 25], "truncated": truncated}),
            )
        }
        "perplexity" => {
            let (source, id) = model(args, name)?;
            let lm = CausalLm::load(&source, &opts)?;
            let bos = if args.prepend_bos {
                BosMode::Prepend
            } else {
                BosMode::None
            };
            let metric = Perplexity::new(lm, &id, bos)?;
            let scores = metric.score(&strs(hyps))?;
            for sys in texts.systems {
                others.push(metric.score(&strs(sys))?.perplexity);
            }
            if !scores.truncated.is_empty() {
                // A documented truncation rather than a failed run; the lines are named so
                // that nobody mistakes a cut text's score for the whole text's.
                let lines: Vec<String> = scores
                    .truncated
                    .iter()
                    .take(10)
                    .map(|i| (i + 1).to_string())
                    .collect();
                let more = if scores.truncated.len() > 10 {
                    ", ..."
                } else {
                    ""
                };
                eprintln!(
                    "hauser: perplexity: {} line(s) longer than the model's context of {} tokens were cut to it (line {}{more})",
                    scores.truncated.len(),
                    scores.context,
                    lines.join(", ")
                );
            }
            let ppl = scores.perplexity;
            let finite: Vec<f64> = ppl.iter().copied().filter(|p| p.is_finite()).collect();
            let system = finite.iter().sum::<f64>() / finite.len() as f64;
            (
                ppl,
                system,
                metric.signature(),
                json!({"scored": finite.len(), "truncated": scores.truncated.len()}),
            )
        }
        "style" => {
            let (source, id) = model(args, name)?;
            let label = args
                .label
                .as_deref()
                .ok_or_else(|| CliError::Usage("style needs --label (e.g. formal)".into()))?;
            let clf = SequenceClassifier::load(&source, &opts)?;
            let metric = StyleStrength::new(clf, &id, label)?;
            let towards = parse_flip(args.flip.as_deref(), hyps.len())?;
            for sys in texts.systems {
                others.push(metric.directional(&strs(sys), &towards)?);
            }
            let p = metric.directional(&strs(hyps), &towards)?;
            let system = p.iter().sum::<f64>() / p.len() as f64;
            let flipped = towards.iter().filter(|t| !**t).count();
            (
                p,
                system,
                metric.signature().with("flipped", flipped),
                json!({}),
            )
        }
        _ => return Ok(false),
    };
    if significance.write(name, &scores, &others, &signature, out)? {
        return Ok(true);
    }
    let mut corpus = json!({"metric": name, "score": system, "n": hyps.len()});
    if let (Some(obj), Some(more)) = (corpus.as_object_mut(), extra.as_object()) {
        obj.extend(more.clone());
        obj.insert("signature".into(), json!(signature.to_string()));
    }
    let scored = Scored {
        scores,
        details,
        corpus,
        signature: signature.to_string(),
    };
    output::write(&scored, sentence, format, out)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reversed_flip_range_is_called_reversed() {
        // Issue 37: `--flip 3-2` said "outside lines 1-5".
        let e = parse_flip(Some("3-2"), 5).unwrap_err().to_string();
        assert!(e.contains("reversed") && e.contains("3-2"), "{e}");
        assert!(!e.contains("outside"), "{e}");
        let e = parse_flip(Some("2-9"), 5).unwrap_err().to_string();
        assert!(e.contains("outside lines 1-5"), "{e}");
    }

    #[test]
    fn flip_ranges() {
        assert_eq!(
            parse_flip(Some("2-3"), 4).unwrap(),
            vec![true, false, false, true]
        );
        assert_eq!(
            parse_flip(Some("1, 4"), 4).unwrap(),
            vec![false, true, true, false]
        );
        assert_eq!(parse_flip(None, 2).unwrap(), vec![true, true]);
        for bad in ["0-1", "3-2", "1-5", "x"] {
            assert!(parse_flip(Some(bad), 4).is_err(), "{bad}");
        }
    }
}
