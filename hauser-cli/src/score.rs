//! `hauser score`: evaluate simile candidates on every criterion that can run.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use hauser_core::{
    render_signatures, Criterion, Evaluator, InformativenessScorer, MissingPart, QualityWeights,
    RankSumReranker, Scorer,
};

use crate::error::CliError;
use crate::flags;
use crate::io::files::{self, OutputFile};
use crate::io::input::{open_input, InputRecord};
use crate::io::output::{candidate_record, error_record, group_label};
use crate::io::progress;

/// Options of `hauser score`.
#[derive(Debug, Clone, Args)]
pub struct ScoreArgs {
    /// Input: JSONL groups or the original HAUSER JSON array (`-` for stdin). Every JSONL line
    /// answers: a blank line gives an error record.
    #[arg(long, short)]
    pub input: PathBuf,
    /// Output JSONL file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Quality weights for relevance, logical and sentiment consistency ("a,b,c"; fractions allowed).
    // A list starting with a minus sign (`-0.5,1,1`) reaches the parser and is refused as out of
    // range; one value only, so the next flag is never taken for it.
    #[arg(long, default_value = "3/6,2/6,1/6", allow_hyphen_values = true, value_parser = quality_weights)]
    pub weights: String,
    /// When a quality part did not run: omit quality, or renormalise the weights of the parts that ran.
    #[arg(long, value_enum, default_value = "omit")]
    pub missing_part: MissingPartArg,
    /// Reranker weights for quality, creativity and informativeness ranks ("q:c:i").
    #[arg(long, default_value = "2:2:1", allow_hyphen_values = true, value_parser = rerank_weights)]
    pub rerank: String,
    /// Groups scored per batch (neural scorers batch across the groups of one batch).
    #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub chunk: usize,
    /// Knowledge-base index (from `hauser kb build`) for relevance and creativity.
    #[arg(long, value_name = "INDEX")]
    pub kb: Option<PathBuf>,
    /// NLI model for logical consistency: a hub id (`org/name[@revision]`, through the hub
    /// cache; honours HF_HOME and HF_HUB_OFFLINE) or a local directory. HAUSER used
    /// `mujeensung/roberta-base_mnli_bc`.
    #[arg(long, value_name = "MODEL")]
    pub nli: Option<String>,
    /// The NLI model's class names in order, comma-separated, replacing a `LABEL_0`-style
    /// id2label (e.g. `entailment,neutral,contradiction`).
    #[arg(long, value_name = "LABELS")]
    pub nli_labels: Option<String>,
    /// NLI input: the pair (literal, simile), or `concat` for `literal + " " + simile` as one
    /// sequence, as the original implementation does.
    #[arg(long, default_value = "pair", value_parser = ["pair", "concat"])]
    pub nli_input: String,
    /// Sentiment model for sentiment consistency (hub id or directory). HAUSER used
    /// `distilbert-base-uncased-finetuned-sst-2-english`.
    #[arg(long, value_name = "MODEL")]
    pub sentiment: Option<String>,
    /// Inputs per forward pass of the neural scorers (batches span groups).
    #[arg(long, default_value_t = 32, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub nli_batch_size: usize,
    /// Device and precision of the neural scorers.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
    /// Do not extract components of candidates that come without them (the rule-based
    /// extractor of `hauser extract` runs by default); criteria needing components are then
    /// skipped for such groups.
    #[arg(long)]
    pub no_extract: bool,
}

/// `--missing-part` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum MissingPartArg {
    /// Report no quality unless all weighted parts ran.
    Omit,
    /// Rescale the weights of the parts that ran.
    Renormalize,
}

/// What a run produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ScoreSummary {
    /// Candidate records written.
    pub scored: usize,
    /// Error records written.
    pub failed: usize,
}

/// The scorers a run uses, and the criteria that cannot run with the reason.
pub type ScorerSet = (Vec<Box<dyn Scorer>>, Vec<(Criterion, String)>);

/// Builds the scorers the options allow; criteria that cannot run are listed with the reason.
pub fn build_scorers(args: &ScoreArgs) -> Result<ScorerSet, CliError> {
    let mut scorers: Vec<Box<dyn Scorer>> = vec![Box::new(InformativenessScorer)];
    let mut unavailable = Vec::new();
    crate::kb::add_kb_scorers(args.kb.as_deref(), &mut scorers, &mut unavailable)?;
    let nli_opts = args.device.load_options(args.nli_batch_size);
    match &args.nli {
        Some(spec) => {
            let labels = args
                .nli_labels
                .as_deref()
                .map(|l| l.split(',').map(|x| x.trim().to_string()).collect());
            let input = hauser_nli::NliInput::parse(&args.nli_input).unwrap_or_default();
            let src = hauser_nli::ModelSource::parse(spec);
            let s = hauser_nli::LogicalConsistency::from_model(&src, &nli_opts, labels, input)?;
            scorers.push(Box::new(s));
        }
        None => unavailable.push((
            Criterion::LogicalConsistency,
            "no --nli model given".to_string(),
        )),
    }
    match &args.sentiment {
        Some(spec) => {
            let src = hauser_nli::ModelSource::parse(spec);
            let s = hauser_nli::SentimentConsistency::from_model(&src, &nli_opts)?;
            scorers.push(Box::new(s));
        }
        None => unavailable.push((
            Criterion::SentimentConsistency,
            "no --sentiment model given".to_string(),
        )),
    }
    Ok((scorers, unavailable))
}

/// Checks `--weights` when the command line is parsed (exit 2 naming the flag).
fn quality_weights(s: &str) -> Result<String, String> {
    QualityWeights::parse(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// Checks `--rerank` when the command line is parsed (exit 2 naming the flag).
fn rerank_weights(s: &str) -> Result<String, String> {
    RankSumReranker::parse(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// Runs `hauser score`, writing records to the output and messages to `log` (stderr).
///
/// # Errors
/// Invalid options, an unreadable input or an unwritable output. Per-record problems are
/// error records and counted in the summary instead.
pub fn run(args: &ScoreArgs, log: &mut dyn Write) -> Result<ScoreSummary, CliError> {
    let missing = match args.missing_part {
        MissingPartArg::Omit => MissingPart::Omit,
        MissingPartArg::Renormalize => MissingPart::Renormalize,
    };
    let quality = QualityWeights::parse(&args.weights)
        .map_err(|e| CliError::Usage(format!("--weights: {e}")))?
        .with_missing(missing);
    let reranker = RankSumReranker::parse(&args.rerank)
        .map_err(|e| CliError::Usage(format!("--rerank: {e}")))?;
    if args.chunk == 0 {
        return Err(CliError::Usage("--chunk: must be at least 1".into()));
    }
    // Refused before a model is loaded or anything is written.
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .inputs("--kb", args.kb.as_deref())
        .model("--nli", args.nli.as_deref())
        .model("--sentiment", args.sentiment.as_deref())
        .output("--output", args.output.as_deref())
        .check()?;
    let (scorers, unavailable) = build_scorers(args)?;
    let mut evaluator = Evaluator::new()
        .with_quality(quality)
        .with_reranker(reranker);
    for s in scorers {
        evaluator = evaluator.with_scorer(s);
    }
    if !args.no_extract {
        evaluator = evaluator.with_extractor(hauser_extract::RuleExtractor::new());
    }
    let mut out = OutputFile::create(args.output.as_deref(), &checked)?;
    let out_path = out.path().to_path_buf();
    let write_err = |e| CliError::io(&out_path, e);
    for (criterion, reason) in &unavailable {
        writeln!(log, "hauser: {criterion}: skipped ({reason})").map_err(write_err)?;
    }

    let input = open_input(&args.input)?;
    let signature = render_signatures(&evaluator.signatures());
    let pb = progress::bar(input.total, "scoring groups");
    let mut summary = ScoreSummary::default();
    let mut skipped: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut records = input.records.peekable();
    // Ctrl-C stops the run between chunks (exit 130), not in the middle of a record. Standard
    // input keeps the default Ctrl-C: a read waiting for more input would never reach the
    // check between chunks.
    if args.input.as_os_str() != "-" {
        crate::io::interrupt::install();
    }
    while records.peek().is_some() {
        if crate::io::interrupt::interrupted() {
            pb.finish_and_clear();
            return Err(CliError::Interrupted);
        }
        let chunk: Vec<InputRecord> = records.by_ref().take(args.chunk).collect();
        write_chunk(
            &evaluator,
            &chunk,
            &args.input,
            &signature,
            &mut out,
            &mut summary,
            &mut skipped,
        )
        .map_err(write_err)?;
        pb.inc(chunk.len() as u64);
    }
    pb.finish_and_clear();
    out.commit()?;
    for (criterion, (groups, reason)) in &skipped {
        writeln!(
            log,
            "hauser: {criterion}: skipped on {groups} group(s): {reason}"
        )
        .map_err(write_err)?;
    }
    writeln!(
        log,
        "hauser: {} candidate(s) scored, {} error record(s)",
        summary.scored, summary.failed
    )
    .map_err(write_err)?;
    Ok(summary)
}

fn write_chunk(
    evaluator: &Evaluator,
    chunk: &[InputRecord],
    file: &Path,
    signature: &str,
    out: &mut dyn Write,
    summary: &mut ScoreSummary,
    skipped: &mut BTreeMap<String, (usize, String)>,
) -> std::io::Result<()> {
    // Only parsed groups go to the evaluator; errors keep their place in the output order.
    let (indices, groups): (Vec<usize>, Vec<_>) = chunk
        .iter()
        .filter_map(|r| Some((r.index, r.group.as_ref().ok()?.clone())))
        .unzip();
    // Each group is reported (and named in its errors) by its input position.
    let mut outcomes = evaluator.evaluate_at(&groups, |k| indices[k]).into_iter();
    for rec in chunk {
        match &rec.group {
            Err(message) => {
                let v = error_record(group_label(None, rec.index), None, file, rec.line, message);
                writeln!(out, "{v}")?;
                summary.failed += 1;
            }
            Ok(group) => match outcomes.next() {
                Some(Ok(report)) => {
                    for s in &report.skipped {
                        let entry = skipped
                            .entry(s.criterion.to_string())
                            .or_insert((0, s.reason.clone()));
                        entry.0 += 1;
                    }
                    for cand in &report.candidates {
                        writeln!(out, "{}", candidate_record(&report, cand, signature))?;
                        summary.scored += 1;
                    }
                }
                Some(Err(failure)) => {
                    let label = group_label(group.id.as_deref(), rec.index);
                    let message = failure.error.to_string();
                    for c in failure.record_slots() {
                        writeln!(
                            out,
                            "{}",
                            error_record(label.clone(), c, file, rec.line, &message)
                        )?;
                        summary.failed += 1;
                    }
                }
                None => {
                    // The evaluator returns one outcome per group; never drop a record if not.
                    let label = group_label(group.id.as_deref(), rec.index);
                    let v = error_record(
                        label,
                        None,
                        file,
                        rec.line,
                        "internal: no outcome for group",
                    );
                    writeln!(out, "{v}")?;
                    summary.failed += 1;
                }
            },
        }
    }
    Ok(())
}
