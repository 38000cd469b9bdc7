//! `hauser narratives`: the figurative narratives benchmark (Chakrabarty, Choi, Shwartz 2022).
//! Zero-shot choice with a causal LM, supervised / knowledge-enhanced choice with a
//! multiple-choice model, accuracy and McNemar on prediction files, generation and its
//! evaluation. docs/TASKS.md gives the protocol.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use figlang_metrics::neural::BertScoreOptions;
use figlang_metrics::stats::BootstrapConfig;
use figlang_tasks::narratives::{
    self, eval_gen, generation, Choice, LabelStatus, NarrativeItem, PairOrder, Records,
    ZeroShotConfig, ZeroShotScore,
};
use figlang_tasks::TaskResult;
use hauser_nli::{CausalLm, Decoding, GenerateConfig, ModelSource, MultipleChoice};

use crate::error::CliError;
use crate::flags;
use crate::io::files::{self, Checked, OutputFile, RunFiles};

/// Arguments of `hauser narratives`.
#[derive(Debug, Clone, Args)]
pub struct NarrativesArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: NarrativesCommand,
}

/// Subcommands of `hauser narratives`.
#[derive(Debug, Clone, Subcommand)]
pub enum NarrativesCommand {
    /// Zero-shot choice with a causal LM (GPT-2 family): JSONL, one record per data line.
    Score(ScoreArgs),
    /// Choice with a multiple-choice model (RoBERTa/BERT), knowledge-enhanced when the data
    /// has inferences: JSONL, one record per data line.
    Choose(ChooseArgs),
    /// Accuracy of a prediction file with a bootstrap interval (JSON).
    Accuracy(AccuracyArgs),
    /// McNemar's test between two prediction files on the same items (JSON).
    Compare(CompareArgs),
    /// Generate continuations (JSONL in the released prediction format).
    Generate(GenerateArgs),
    /// ROUGE-L and BERTScore of generated continuations, as the authors' evaluator (JSON).
    EvalGen(EvalGenArgs),
}

/// Labels: from the data, or from a file when the data has upstream's test placeholder.
#[derive(Debug, Clone, Args)]
pub struct LabelArgs {
    /// Labels, one per data line (`option1`/`option2` or `1`/`2`), for test files whose
    /// labels upstream hides.
    #[arg(long, value_name = "FILE")]
    pub labels: Option<PathBuf>,
}

/// Arguments of `hauser narratives score`.
#[derive(Debug, Clone, Args)]
pub struct ScoreArgs {
    /// Data file (JSONL: narrative, option1, option2, correctanswer), `-` for stdin.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Causal LM: a hub id (`org/name[@revision]`) or a local directory.
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// The score that decides: lm (sum), tok_mean (per-token mean, the paper's
    /// length-normalised likelihood), dcpmi (domain-conditional PMI), pmi (PMI against the
    /// option after ":", surface-form-competition's unconditional PMI).
    #[arg(long, default_value = "tok_mean", value_parser = parse_score)]
    pub score: ZeroShotScore,
    /// Domain premise of dcpmi.
    #[arg(long, default_value = narratives::zero_shot::STORY_DOMAIN_PREMISE, allow_hyphen_values = true)]
    pub domain_premise: String,
    /// Keep upstream's <b>...</b> markup in the premise.
    #[arg(long)]
    pub keep_markup: bool,
    /// Keep a premise that does not end in `.` or `!` as it is (default: a `.` is appended,
    /// as surface-form-competition's StoryCloze loader does).
    #[arg(long)]
    pub no_premise_period: bool,
    /// Most tokens of premise plus option; the premise is cut from the left to fit
    /// (default: the model's context, n_positions; surface-form-competition uses 1024).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_max_length)]
    pub max_length: Option<usize>,
    /// Labels.
    #[command(flatten)]
    pub labels: LabelArgs,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Inputs per forward pass.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// Arguments of `hauser narratives choose`.
#[derive(Debug, Clone, Args)]
pub struct ChooseArgs {
    /// Data file (JSONL; `inferences` lists make it knowledge-enhanced), `-` for stdin.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Multiple-choice model (`RobertaForMultipleChoice`, `BertForMultipleChoice`).
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// Pair layout with inferences: code (`narrative </s> inference`, the released code) or
    /// paper (`inference </s> narrative`).
    #[arg(long, default_value = "code", value_parser = parse_order)]
    pub order: PairOrder,
    /// Labels.
    #[command(flatten)]
    pub labels: LabelArgs,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Inputs per forward pass.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// Bootstrap settings.
#[derive(Debug, Clone, Copy, Args)]
pub struct BootstrapArgs {
    /// Bootstrap resamples of the accuracy interval.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = flags::count)]
    pub n_bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = flags::seed)]
    pub seed: u64,
    /// Confidence level of the interval (strictly between 0 and 1).
    #[arg(long, default_value_t = 0.95, allow_negative_numbers = true, value_parser = flags::confidence)]
    pub confidence: f64,
}

/// Arguments of `hauser narratives accuracy`.
#[derive(Debug, Clone, Args)]
pub struct AccuracyArgs {
    /// Prediction file: JSONL with `prediction` (0/1, as released, or option1/option2).
    #[arg(long, value_name = "FILE")]
    pub pred: PathBuf,
    /// Data file whose labels are the gold (not a test file: its labels are a placeholder).
    #[arg(long, value_name = "FILE", required_unless_present = "labels")]
    pub data: Option<PathBuf>,
    /// Labels.
    #[command(flatten)]
    pub labels: LabelArgs,
    /// Bootstrap.
    #[command(flatten)]
    pub bootstrap: BootstrapArgs,
}

/// Arguments of `hauser narratives compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The two prediction files.
    #[arg(long, value_name = "FILE", num_args = 2, required = true)]
    pub pred: Vec<PathBuf>,
    /// Data file with the gold labels.
    #[arg(long, value_name = "FILE", required_unless_present = "labels")]
    pub data: Option<PathBuf>,
    /// Labels.
    #[command(flatten)]
    pub labels: LabelArgs,
}

/// Arguments of `hauser narratives generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Data file; with --knowledge, an `*_inferences_*` file.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Causal LM (GPT-2 family).
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// Knowledge-enhanced decoding: logits summed over one prompt per inference.
    #[arg(long)]
    pub knowledge: bool,
    /// Greedy decoding instead of top-k sampling.
    #[arg(long)]
    pub greedy: bool,
    /// Tokens kept by top-k sampling (at least 1).
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub top_k: usize,
    /// Sampling temperature (at least 1e-6: smaller values overflow the scaled logits; use
    /// --greedy for greedy decoding).
    #[arg(long, default_value_t = 0.7, allow_negative_numbers = true, value_parser = flags::temperature)]
    pub temperature: f32,
    /// Seed of the sampler.
    #[arg(long, default_value_t = 42, allow_negative_numbers = true, value_parser = flags::seed)]
    pub seed: u64,
    /// Most new tokens.
    #[arg(long, default_value_t = 20, allow_negative_numbers = true, value_parser = flags::count)]
    pub max_new_tokens: usize,
    /// transformers' no_repeat_ngram_size (0: off).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = flags::count)]
    pub no_repeat_ngram_size: usize,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Inputs per forward pass.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// Arguments of `hauser narratives eval-gen`.
#[derive(Debug, Clone, Args)]
pub struct EvalGenArgs {
    /// Prediction file (JSONL: `input` or `narrative`, `predictions`).
    #[arg(long, value_name = "FILE")]
    pub pred: PathBuf,
    /// Data file the gold continuations are rebuilt from (labelled: dev, or your own).
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// BERTScore model (the paper: microsoft/deberta-large-mnli); without it only ROUGE-L.
    #[arg(long, value_name = "MODEL")]
    pub bertscore_model: Option<String>,
    /// BERTScore layer (default: bert_score's layer for the model, 18 for deberta-large-mnli).
    #[arg(long, allow_negative_numbers = true, value_parser = flags::layer)]
    pub bertscore_layer: Option<isize>,
    /// Include the per-narrative scores.
    #[arg(long)]
    pub per_narrative: bool,
    /// Pairs per forward pass of BERTScore.
    #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

fn parse_score(s: &str) -> Result<ZeroShotScore, String> {
    ZeroShotScore::parse(s).ok_or_else(|| format!("expected lm, tok_mean, dcpmi or pmi, got {s:?}"))
}

fn parse_max_length(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("expected at least 1 token".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a number of tokens, got {s:?}")),
    }
}

fn parse_order(s: &str) -> Result<PairOrder, String> {
    match s {
        "code" => Ok(PairOrder::Code),
        "paper" => Ok(PairOrder::Paper),
        _ => Err(format!("expected code or paper, got {s:?}")),
    }
}

/// Runs `hauser narratives`; returns whether every record was scored.
///
/// # Errors
/// Unreadable inputs, unloadable models, inference failures, unwritable outputs.
pub fn run(
    args: &NarrativesArgs,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<bool, CliError> {
    // Every file checked before any is read or a model loaded.
    let checked = declared_files(&args.command).check()?;
    match &args.command {
        NarrativesCommand::Score(a) => score(a, &checked, log),
        NarrativesCommand::Choose(a) => choose(a, &checked, log),
        NarrativesCommand::Accuracy(a) => accuracy(a, out),
        NarrativesCommand::Compare(a) => compare(a, out),
        NarrativesCommand::Generate(a) => generate(a, &checked, log),
        NarrativesCommand::EvalGen(a) => eval_gen(a, out, log),
    }
}

/// Every file a subcommand reads and writes.
fn declared_files(command: &NarrativesCommand) -> RunFiles {
    let files = RunFiles::new();
    match command {
        NarrativesCommand::Score(a) => files
            .input("--data", &a.data)
            .inputs("--labels", &a.labels.labels)
            .model("--model", Some(&a.model))
            .output("--output", a.output.as_deref()),
        NarrativesCommand::Choose(a) => files
            .input("--data", &a.data)
            .inputs("--labels", &a.labels.labels)
            .model("--model", Some(&a.model))
            .output("--output", a.output.as_deref()),
        NarrativesCommand::Accuracy(a) => files
            .input("--pred", &a.pred)
            .inputs("--data", &a.data)
            .inputs("--labels", &a.labels.labels),
        NarrativesCommand::Compare(a) => files
            .inputs("--pred", &a.pred)
            .inputs("--data", &a.data)
            .inputs("--labels", &a.labels.labels),
        NarrativesCommand::Generate(a) => files
            .input("--data", &a.data)
            .model("--model", Some(&a.model))
            .output("--output", a.output.as_deref()),
        NarrativesCommand::EvalGen(a) => files
            .input("--pred", &a.pred)
            .input("--data", &a.data)
            .model("--bertscore-model", a.bertscore_model.as_deref()),
    }
}

/// The data's records: each line's parsed item, or its error (a blank line included).
fn read_records(path: &Path) -> Result<Records, CliError> {
    let text = files::read_to_string_keeping_bom(path)?;
    Ok(Records::parse(&text, path))
}

/// The gold labels of every record (one per line): from --labels, else from the data unless
/// they are the placeholder. `None` when there are none.
fn gold_of(
    labels: &LabelArgs,
    records: &Records,
    data: &Path,
) -> Result<Option<Vec<Option<Choice>>>, CliError> {
    let parsed = &records.parsed;
    if let Some(path) = &labels.labels {
        let text = files::read_to_string_keeping_bom(path)?;
        let l = narratives::parse_labels(&text, path, false)?;
        let n = records.blank.iter().filter(|b| !**b).count();
        if l.len() != n {
            return Err(CliError::Usage(format!(
                "--labels {}: {} labels for {n} data records of {} (one label per non-blank line)",
                path.display(),
                l.len(),
                data.display()
            )));
        }
        let mut l = l.into_iter();
        return Ok(Some(
            records
                .blank
                .iter()
                .map(|&b| if b { None } else { l.next() })
                .collect(),
        ));
    }
    let items: Vec<&NarrativeItem> = parsed.iter().filter_map(|r| r.as_ref().ok()).collect();
    if items.is_empty() || items.iter().all(|i| i.answer == Choice::Option1) {
        return Ok(None);
    }
    Ok(Some(
        parsed
            .iter()
            .map(|r| r.as_ref().ok().map(|i| i.answer))
            .collect(),
    ))
}

/// What a choice command returns for one batch of items: each item's choice and scores.
type ChoiceBatch = Vec<(Choice, Value)>;

/// Answers every record (line) of `records` with one JSONL line, `chunk` lines at a time:
/// the items of a chunk are scored by `score`, and their records written (and flushed) before
/// the next chunk is scored, so that records stream out as they are computed. Returns each
/// line's prediction (`None` for an error record).
fn stream_choices(
    records: &Records,
    chunk: usize,
    out: &mut dyn Write,
    out_path: &Path,
    mut score: impl FnMut(&[NarrativeItem]) -> Result<ChoiceBatch, CliError>,
) -> Result<Vec<Option<Choice>>, CliError> {
    let werr = |e| CliError::io(out_path, e);
    let mut preds = Vec::with_capacity(records.lines.len());
    let all: Vec<(&usize, &TaskResult<NarrativeItem>)> =
        records.lines.iter().zip(&records.parsed).collect();
    for part in all.chunks(chunk.max(1)) {
        let items: Vec<NarrativeItem> = part
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok().cloned())
            .collect();
        let results = if items.is_empty() {
            Vec::new()
        } else {
            score(&items)?
        };
        let mut results = results.into_iter();
        for (line, rec) in part {
            let v = match rec {
                Ok(_) => match results.next() {
                    Some((choice, scores)) => {
                        preds.push(Some(choice));
                        json!({"line": line, "prediction": choice.as_str(), "scores": scores})
                    }
                    None => {
                        preds.push(None);
                        json!({"line": line, "error": "internal: no result for this record"})
                    }
                },
                Err(e) => {
                    preds.push(None);
                    json!({"line": line, "error": e.to_string()})
                }
            };
            writeln!(out, "{v}").map_err(werr)?;
        }
        out.flush().map_err(werr)?;
    }
    Ok(preds)
}

/// Streams one record per data line (see [`stream_choices`]), then writes the accuracy
/// summary to `log`.
fn write_choices(
    records: &Records,
    gold: Option<Vec<Option<Choice>>>,
    output: Option<&Path>,
    files: &Checked,
    chunk: usize,
    log: &mut dyn Write,
    score: impl FnMut(&[NarrativeItem]) -> Result<ChoiceBatch, CliError>,
) -> Result<bool, CliError> {
    let mut out = OutputFile::create(output, files)?;
    let out_path = out.path().to_path_buf();
    let preds = stream_choices(records, chunk, &mut out, &out_path, score)?;
    out.commit()?;
    let failed = preds.iter().filter(|p| p.is_none()).count();
    let mut summary = json!({"records": records.lines.len(), "failed": failed});
    match gold {
        Some(gold) => {
            let (p, g): (Vec<Choice>, Vec<Choice>) = preds
                .iter()
                .zip(&gold)
                .filter_map(|(p, g)| Some(((*p)?, (*g)?)))
                .unzip();
            let r = narratives::accuracy(&p, &g, &BootstrapConfig::default())?;
            summary["accuracy"] = serde_json::to_value(&r).unwrap_or(Value::Null);
        }
        None => {
            summary["accuracy"] = Value::Null;
            summary["note"] = json!(
                "no labels: the data's correctanswer is upstream's test placeholder; give --labels"
            );
        }
    }
    writeln!(log, "{summary}").map_err(|e| CliError::io("stderr", e))?;
    Ok(failed == 0)
}

fn score(a: &ScoreArgs, files: &Checked, log: &mut dyn Write) -> Result<bool, CliError> {
    let records = read_records(&a.data)?;
    let gold = gold_of(&a.labels, &records, &a.data)?;
    let lm = CausalLm::load(
        &ModelSource::parse(&a.model),
        &a.device.load_options(a.batch_size),
    )?;
    let cfg = ZeroShotConfig {
        domain_premise: a.domain_premise.clone(),
        keep_markup: a.keep_markup,
        premise_period: !a.no_premise_period,
        max_length: a.max_length,
    };
    narratives::zero_shot::context_limit(&lm, &cfg)
        .map_err(|e| CliError::Usage(format!("--max-length: {e}")))?;
    write_choices(
        &records,
        gold,
        a.output.as_deref(),
        files,
        a.batch_size.saturating_mul(flags::STREAM_BATCHES),
        log,
        |items| {
            let scored = narratives::score_zero_shot(&lm, items, &cfg)?;
            Ok(scored
                .iter()
                .map(|r| {
                    let v = json!({
                        "option1": r.options[0], "option2": r.options[1],
                        "decided_by": a.score.as_str(), "truncated": r.truncated,
                    });
                    (r.choice(a.score), v)
                })
                .collect())
        },
    )
}

fn choose(a: &ChooseArgs, files: &Checked, log: &mut dyn Write) -> Result<bool, CliError> {
    let records = read_records(&a.data)?;
    let gold = gold_of(&a.labels, &records, &a.data)?;
    let mc = MultipleChoice::load(
        &ModelSource::parse(&a.model),
        &a.device.load_options(a.batch_size),
    )?;
    write_choices(
        &records,
        gold,
        a.output.as_deref(),
        files,
        a.batch_size.saturating_mul(flags::STREAM_BATCHES),
        log,
        |items| {
            let scored = narratives::score_choices(&mc, items, a.order)?;
            Ok(scored
                .iter()
                .map(|s| {
                    let v =
                        json!({"option1": s.scores[0], "option2": s.scores[1], "pairs": s.pairs});
                    (s.choice(), v)
                })
                .collect())
        },
    )
}

/// Gold labels for accuracy/compare: --labels, else a labelled --data.
fn gold_labels(data: Option<&Path>, labels: &LabelArgs) -> Result<Vec<Choice>, CliError> {
    if let Some(path) = &labels.labels {
        let text = files::read_to_string_keeping_bom(path)?;
        return Ok(narratives::parse_labels(&text, path, false)?);
    }
    let path = data.ok_or_else(|| CliError::Usage("give --data or --labels".into()))?;
    let split = narratives::parse_split(&files::read_to_string_keeping_bom(path)?, path)?;
    if split.labels == LabelStatus::Placeholder {
        return Err(CliError::Usage(format!(
            "{}: every correctanswer is option1, upstream's placeholder for hidden test labels; give --labels",
            path.display()
        )));
    }
    Ok(split.items.iter().map(|i| i.answer).collect())
}

fn read_choice_predictions(path: &Path) -> Result<Vec<Choice>, CliError> {
    let text = files::read_to_string_keeping_bom(path)?;
    narratives::parse_choice_predictions(&text, path)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::from)
}

/// Where the gold labels come from, for messages: `--labels FILE` or `--data FILE`.
fn gold_source(data: Option<&Path>, labels: &LabelArgs) -> String {
    match (&labels.labels, data) {
        (Some(l), _) => format!("--labels {}", l.display()),
        (None, Some(d)) => format!("--data {}", d.display()),
        (None, None) => "the gold labels".into(),
    }
}

/// Refuses a prediction file whose length differs from the gold's, naming both files.
fn check_count(pred: &Path, n: usize, gold: &[Choice], source: &str) -> Result<(), CliError> {
    if n == gold.len() {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "{}: {n} predictions for {} gold labels of {source} (one per item, in order)",
        pred.display(),
        gold.len()
    )))
}

fn accuracy(a: &AccuracyArgs, out: &mut dyn Write) -> Result<bool, CliError> {
    let gold = gold_labels(a.data.as_deref(), &a.labels)?;
    let pred = read_choice_predictions(&a.pred)?;
    let source = gold_source(a.data.as_deref(), &a.labels);
    check_count(&a.pred, pred.len(), &gold, &source)?;
    let cfg = BootstrapConfig {
        resamples: a.bootstrap.n_bootstrap,
        seed: a.bootstrap.seed,
        level: a.bootstrap.confidence,
    };
    let r = narratives::accuracy(&pred, &gold, &cfg)?;
    let v = json!({"accuracy": r.accuracy, "correct": r.correct, "n": r.n,
        "bootstrap": {"resamples": cfg.resamples, "seed": cfg.seed, "confidence": cfg.level}});
    writeln!(out, "{v}").map_err(|e| CliError::io("stdout", e))?;
    Ok(true)
}

fn compare(a: &CompareArgs, out: &mut dyn Write) -> Result<bool, CliError> {
    let gold = gold_labels(a.data.as_deref(), &a.labels)?;
    let x = read_choice_predictions(&a.pred[0])?;
    let y = read_choice_predictions(&a.pred[1])?;
    let source = gold_source(a.data.as_deref(), &a.labels);
    check_count(&a.pred[0], x.len(), &gold, &source)?;
    check_count(&a.pred[1], y.len(), &gold, &source)?;
    let c = narratives::compare(&x, &y, &gold)?;
    writeln!(out, "{}", serde_json::to_value(&c).unwrap_or(Value::Null))
        .map_err(|e| CliError::io("stdout", e))?;
    Ok(true)
}

fn generate(a: &GenerateArgs, files: &Checked, log: &mut dyn Write) -> Result<bool, CliError> {
    let text = files::read_to_string_keeping_bom(&a.data)?;
    let split = narratives::parse_split(&text, &a.data)?;
    let lm = CausalLm::load(
        &ModelSource::parse(&a.model),
        &a.device.load_options(a.batch_size),
    )?;
    let cfg = GenerateConfig {
        max_new_tokens: a.max_new_tokens,
        decoding: if a.greedy {
            Decoding::Greedy
        } else {
            Decoding::TopK {
                k: a.top_k,
                temperature: a.temperature,
                seed: a.seed,
            }
        },
        no_repeat_ngram_size: a.no_repeat_ngram_size,
        stop_at_eos: true,
    };
    cfg.validate().map_err(CliError::Usage)?;
    let records = generation::generate(&lm, &split, &cfg, a.knowledge)?;
    let mut out = OutputFile::create(a.output.as_deref(), files)?;
    let out_path = out.path().to_path_buf();
    for r in &records {
        let v = serde_json::to_value(r).unwrap_or(Value::Null);
        writeln!(out, "{v}").map_err(|e| CliError::io(&out_path, e))?;
    }
    out.commit()?;
    // The output has one line per narrative, not per data line: blank data lines are named in
    // the summary rather than skipped without a word.
    let blank = Records::parse(&text, &a.data).blank_lines();
    writeln!(
        log,
        "{}",
        json!({"narratives": records.len(), "rows": split.items.len(), "blank_lines": blank})
    )
    .map_err(|e| CliError::io("stderr", e))?;
    Ok(true)
}

fn eval_gen(a: &EvalGenArgs, out: &mut dyn Write, log: &mut dyn Write) -> Result<bool, CliError> {
    let data = files::read_to_string_keeping_bom(&a.data)?;
    let split = narratives::parse_split(&data, &a.data)?;
    let gold = narratives::gold_by_narrative(&split)?;
    let pred_text = files::read_to_string_keeping_bom(&a.pred)?;
    let lines = narratives::parse_predictions(&pred_text, &a.pred);
    let bertscore = match &a.bertscore_model {
        Some(spec) => Some(crate::metric::neural::load_bertscore(
            spec,
            &a.device.load_options(a.batch_size),
            a.bertscore_layer,
            "--bertscore-layer",
            None,
            BertScoreOptions::default(),
        )?),
        None => None,
    };
    let report = eval_gen::evaluate(lines, &gold, bertscore.as_ref())?;
    let mut v = json!({"rouge_l": report.rouge_l, "n": report.n});
    if let Some(b) = report.bertscore_f1 {
        v["bertscore_f1"] = json!(b);
    }
    if let Some(bs) = &bertscore {
        v["bertscore_signature"] = json!(bs.signature().to_string());
    }
    v["rouge_signature"] = json!(
        "rouge-l|compat:rouge-pltrdy-1.0.1|case:mixed|multiref:max-f|cut:last-period|scale:x100"
    );
    if !report.errors.is_empty() {
        v["errors"] = serde_json::to_value(&report.errors).unwrap_or(Value::Null);
        writeln!(
            log,
            "hauser: {} prediction lines not scored (see \"errors\")",
            report.errors.len()
        )
        .map_err(|e| CliError::io("stderr", e))?;
    }
    if a.per_narrative {
        v["per_narrative"] = serde_json::to_value(&report.per_narrative).unwrap_or(Value::Null);
    }
    writeln!(out, "{v}").map_err(|e| CliError::io("stdout", e))?;
    Ok(report.errors.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Shared;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn choices_stream_chunk_by_chunk_with_a_record_for_every_line() {
        // Issue 29: narratives score|choose wrote nothing until every item was scored, and a
        // blank data line had no record.
        let ok =
            r#"{"narrative": "n", "option1": "a", "option2": "b", "correctanswer": "option2"}"#;
        let text = format!("{ok}\n\n{ok}\n{{bad\n{ok}\n");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.jsonl");
        std::fs::write(&path, text).unwrap();
        let records = read_records(&path).unwrap();
        assert_eq!(records.lines, vec![1, 2, 3, 4, 5]);
        assert_eq!(records.blank, vec![false, true, false, false, false]);
        let buf = Rc::new(RefCell::new(Vec::new()));
        let mut out = Shared(Rc::clone(&buf));
        let mut seen_before = Vec::new();
        let preds = stream_choices(&records, 2, &mut out, Path::new("-"), |items| {
            seen_before.push(buf.borrow().iter().filter(|&&b| b == b'\n').count());
            Ok(items
                .iter()
                .map(|_| (Choice::Option2, json!([0.0, 1.0])))
                .collect())
        })
        .unwrap();
        // Lines 1-2 (one item), 3-4 (one item), 5 (one item): each written before the next.
        assert_eq!(seen_before, vec![0, 2, 4]);
        assert_eq!(preds.iter().filter(|p| p.is_some()).count(), 3);
        let text = String::from_utf8(buf.borrow().clone()).unwrap();
        let recs: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(recs.len(), 5);
        let blank = recs[1]["error"].as_str().unwrap();
        assert!(blank.ends_with(":2: blank line (no record)"), "{blank}");
        assert_eq!(recs[1]["line"], 2);
        assert!(recs[3]["error"].is_string());
        assert_eq!(recs[4]["prediction"], "option2");
        // --labels has one label per non-blank line.
        let labels = dir.path().join("l.txt");
        std::fs::write(&labels, "1\n2\n1\n2\n").unwrap();
        let args = LabelArgs {
            labels: Some(labels.clone()),
        };
        let gold = gold_of(&args, &records, &path).unwrap().unwrap();
        assert_eq!(gold[1], None);
        assert_eq!(gold[4], Some(Choice::Option2));
        std::fs::write(&labels, "1\n2\n").unwrap();
        let e = gold_of(&args, &records, &path).unwrap_err().to_string();
        assert!(e.contains("l.txt") && e.contains("d.jsonl"), "{e}");
    }
}
