//! `hauser newsmet`: NewsMet (Joseph et al. 2023) metaphor detection evaluation from prediction
//! files, the headline families of the `*_goldplus.csv` files (the paper's Table 2 and
//! candidate statistics), candidate generation, metaphoricity and diversity. docs/TASKS.md
//! gives the protocol.
//!
//! `candidates` is `hauser newsmet candidates`.

pub(crate) mod candidates;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::json;

use figlang_tasks::newsmet::{self, FamilyStats, Headline, SampleType};

use crate::error::CliError;
use crate::io::files;

/// Arguments of `hauser newsmet`.
#[derive(Debug, Clone, Args)]
pub struct NewsmetArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: NewsmetCommand,
}

/// Subcommands of `hauser newsmet`.
#[derive(Debug, Clone, Subcommand)]
pub enum NewsmetCommand {
    /// Accuracy, per-class P/R/F1, macro F1 of a prediction file; with --pred2, McNemar and
    /// Cohen's kappa; with --pred-more, Fleiss' kappa of all the files (JSON).
    Eval(EvalArgs),
    /// Gold counts, accepted candidates and families of *_goldplus.csv files (JSON).
    Families(FamiliesArgs),
    /// Diversity of candidates: Lesk senses clustered by LCH similarity (JSONL, one record per line).
    Diversity(DiversityArgs),
    /// Metaphoricity of candidates, min(cos(subject, c), cos(object, c)) (JSONL, one record per line).
    Metaphoricity(MetaphoricityArgs),
    /// Candidate replacements of the focus verb: masked-LM fillers, filtered, split by a
    /// metaphor detector (JSONL, one record per line).
    Candidates(candidates::CandidatesArgs),
}

/// Arguments of `hauser newsmet metaphoricity`.
#[derive(Debug, Clone, Args)]
pub struct MetaphoricityArgs {
    /// JSONL, one headline per line: `{"subject": "...", "object": "...", "candidates": [...]}`
    /// (subject or object may be missing or null); `-` for stdin.
    #[arg(long, short)]
    pub input: PathBuf,
    /// Word vectors: word2vec binary or text, or GloVe text (the paper: GloVe-300d).
    #[arg(long, value_name = "FILE")]
    pub vectors: PathBuf,
    /// Keep only the first N vectors of the file (gensim's `limit`).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::flags::count)]
    pub vocab_limit: Option<usize>,
}

/// Arguments of `hauser newsmet diversity`.
#[derive(Debug, Clone, Args)]
pub struct DiversityArgs {
    /// JSONL, one headline per line: `{"headline": "...", "focus": 3 | "verb", "candidates": [...]}`
    /// (`focus`: the index of the whitespace token to replace, or the token itself); `-` for stdin.
    #[arg(long, short)]
    pub input: PathBuf,
    /// WordNet 3.0 database directory.
    #[arg(long, value_name = "DIR", default_value = figlang_metrics::text::wordnet::DEFAULT_WORDNET_DIR)]
    pub wordnet: PathBuf,
    /// NLTK release to follow. Lesk's tie rule: `3.4.5` (largest synset name, NLTK up to
    /// 3.9.1; the paper's numbers) or `current` (first sense, NLTK 3.9.2 and later); with
    /// `--tokenize treebank`, also that release's `word_tokenize` (3.4.5 or 3.10.4).
    #[arg(long, default_value = "3.4.5", value_parser = ["3.4.5", "current"])]
    pub nltk: String,
    /// Lesk's context: the headline's `whitespace` tokens, or NLTK's `treebank` word tokens
    /// (`word_tokenize`: Punkt, then the Treebank tokenizer) of the headline with the candidate
    /// in place of the focus token.
    #[arg(long, default_value = "whitespace", value_parser = ["whitespace", "treebank"])]
    pub tokenize: String,
    /// Similarity threshold (LCH; a finite number of at least 0).
    #[arg(long, default_value_t = newsmet::LCH_THRESHOLD, allow_negative_numbers = true, value_parser = crate::flags::non_negative)]
    pub threshold: f64,
}

/// Arguments of `hauser newsmet eval`.
#[derive(Debug, Clone, Args)]
pub struct EvalArgs {
    /// Predictions: one label (0 or 1) per line, aligned with the data rows.
    #[arg(long, value_name = "FILE")]
    pub pred: PathBuf,
    /// Data CSV (`Text,label[,sample_type]`, or the test sets' `id,Text,label`).
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// A second system's (or annotator's) predictions: McNemar and Cohen's kappa.
    #[arg(long, value_name = "FILE")]
    pub pred2: Option<PathBuf>,
    /// More prediction files: Fleiss' kappa over --pred, --pred2 and these (`--pred-more A B`
    /// or `--pred-more A --pred-more B`).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "pred2")]
    pub pred_more: Vec<PathBuf>,
    /// Score only the gold rows of a *_goldplus.csv file (default: every row).
    #[arg(long)]
    pub gold_only: bool,
}

/// Arguments of `hauser newsmet families`.
#[derive(Debug, Clone, Args)]
pub struct FamiliesArgs {
    /// *_goldplus.csv files (e.g. train, val and test together for the paper's totals).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
}

/// Runs `hauser newsmet`.
///
/// # Errors
/// Unreadable or malformed inputs, mismatched lengths.
pub fn run(args: &NewsmetArgs, out: &mut dyn Write) -> Result<bool, CliError> {
    declared_files(&args.command).check()?;
    let v = match &args.command {
        NewsmetCommand::Eval(a) => eval(a)?,
        NewsmetCommand::Families(a) => families(a)?,
        NewsmetCommand::Diversity(a) => return diversity(a, out),
        NewsmetCommand::Metaphoricity(a) => return metaphoricity(a, out),
        NewsmetCommand::Candidates(a) => return candidates::run(a, out),
    };
    writeln!(out, "{v}").map_err(|e| CliError::io("stdout", e))?;
    Ok(true)
}

/// Every file a subcommand reads, checked before any is read or a model loaded (results go
/// to standard output).
fn declared_files(command: &NewsmetCommand) -> files::RunFiles {
    let files = files::RunFiles::new();
    match command {
        NewsmetCommand::Eval(a) => files
            .input("--pred", &a.pred)
            .input("--data", &a.data)
            .inputs("--pred2", &a.pred2)
            .inputs("--pred-more", &a.pred_more),
        NewsmetCommand::Families(a) => files.inputs("--data", &a.data),
        NewsmetCommand::Diversity(a) => files
            .input("--input", &a.input)
            .dir("--wordnet", Some(&a.wordnet)),
        NewsmetCommand::Metaphoricity(a) => files.input("--input", &a.input).file_input(
            "--vectors",
            Some(&a.vectors),
            files::VECTORS_FROM_A_FILE,
        ),
        NewsmetCommand::Candidates(a) => files
            .input("--input", &a.input)
            .model("--mlm", Some(&a.mlm))
            .model("--detector", a.detector.as_deref())
            .dir("--wordnet", Some(&a.wordnet)),
    }
}

fn read_data(path: &Path) -> Result<Vec<Headline>, CliError> {
    Ok(newsmet::parse_csv(
        &files::read_to_string_keeping_bom(path)?,
        path,
    )?)
}

fn read_preds(path: &Path) -> Result<Vec<u8>, CliError> {
    Ok(newsmet::parse_labels(
        &files::read_to_string_keeping_bom(path)?,
        path,
    )?)
}

/// Refuses a prediction file whose length differs from the data's, naming both files.
fn check_count(pred: &Path, n: usize, gold: usize, data: &Path) -> Result<(), CliError> {
    if n == gold {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "{}: {n} predictions for {gold} data rows of {} (one label per row, in order)",
        pred.display(),
        data.display()
    )))
}

fn eval(a: &EvalArgs) -> Result<serde_json::Value, CliError> {
    let rows = read_data(&a.data)?;
    let gold: Vec<u8> = rows
        .iter()
        .filter(|r| !a.gold_only || r.sample_type == SampleType::Gold)
        .map(|r| r.label)
        .collect();
    let pred = read_preds(&a.pred)?;
    check_count(&a.pred, pred.len(), gold.len(), &a.data)?;
    let report = newsmet::evaluate(&pred, &gold)?;
    let mut v = serde_json::to_value(&report).unwrap_or_default();
    if let Some(p2) = &a.pred2 {
        let second = read_preds(p2)?;
        check_count(p2, second.len(), gold.len(), &a.data)?;
        v["mcnemar"] =
            serde_json::to_value(newsmet::compare(&pred, &second, &gold)?).unwrap_or_default();
        if !a.pred_more.is_empty() {
            let mut all = vec![pred, second];
            for p in &a.pred_more {
                let more = read_preds(p)?;
                check_count(p, more.len(), gold.len(), &a.data)?;
                all.push(more);
            }
            v["fleiss_kappa"] = json!(newsmet::fleiss(&all)?);
            v["raters"] = json!(all.len());
        }
    }
    Ok(v)
}

fn families(a: &FamiliesArgs) -> Result<serde_json::Value, CliError> {
    let mut stats = FamilyStats::default();
    for path in &a.data {
        let rows = read_data(path)?;
        let fams = newsmet::families(&rows)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
        stats.add(&rows, &fams);
    }
    let mut v = serde_json::to_value(&stats).unwrap_or_default();
    v["total"] = json!(stats.total());
    Ok(v)
}

fn diversity(a: &DiversityArgs, out: &mut dyn Write) -> Result<bool, CliError> {
    use figlang_metrics::text::tokenize::NltkTokenizer;
    use figlang_metrics::text::wordnet::WordNet;
    use figlang_metrics::text::wordnet_sim::LeskTies;
    let wn = WordNet::open(&a.wordnet).map_err(|e| CliError::Usage(format!("--wordnet: {e}")))?;
    let current = a.nltk == "current";
    let cfg = newsmet::DiversityConfig {
        threshold: a.threshold,
        ties: if current {
            LeskTies::First
        } else {
            LeskTies::LargestName
        },
        tokens: match (a.tokenize.as_str(), current) {
            ("treebank", true) => newsmet::HeadlineTokens::Nltk(NltkTokenizer::Current),
            ("treebank", false) => newsmet::HeadlineTokens::Nltk(NltkTokenizer::V345),
            _ => newsmet::HeadlineTokens::Whitespace,
        },
    };
    each_record(&a.input, out, |line| diversity_record(&wn, line, &cfg))
}

/// Answers every line of a JSONL input with one output line: `record`'s object with the
/// `line` number added, or `{"line", "error"}` naming the file and line (a blank line is such an
/// error record, as in `hauser score`); returns whether every line was answered without error.
fn each_record(
    input: &Path,
    out: &mut dyn Write,
    record: impl Fn(&str) -> Result<serde_json::Value, String>,
) -> Result<bool, CliError> {
    // Without its BOM: `files` drops it, once.
    let text = files::read_to_string(input)?;
    let mut failed = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        let result = if line.trim().is_empty() {
            Err(figlang_tasks::narratives::BLANK_LINE.to_string())
        } else {
            record(line)
        };
        let v = match result {
            Ok(mut v) => {
                v["line"] = json!(i + 1);
                v
            }
            Err(message) => {
                failed += 1;
                json!({"line": i + 1, "error": format!("{}:{}: {message}", input.display(), i + 1)})
            }
        };
        writeln!(out, "{v}").map_err(|e| CliError::io("stdout", e))?;
    }
    Ok(failed == 0)
}

fn diversity_record(
    wn: &figlang_metrics::text::wordnet::WordNet,
    line: &str,
    cfg: &newsmet::DiversityConfig,
) -> Result<serde_json::Value, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let headline = v["headline"].as_str().ok_or("no \"headline\" string")?;
    let tokens: Vec<&str> = headline.split_whitespace().collect();
    let focus = match &v["focus"] {
        serde_json::Value::Number(n) => n.as_u64().ok_or("focus: not a token index")? as usize,
        serde_json::Value::String(s) => tokens
            .iter()
            .position(|t| t == s)
            .ok_or_else(|| format!("focus {s:?} is not a token of the headline"))?,
        _ => return Err("no \"focus\" (token index or token)".into()),
    };
    let cands: Vec<&str> = v["candidates"]
        .as_array()
        .ok_or("no \"candidates\" list")?
        .iter()
        .map(|c| c.as_str().ok_or("a candidate is not a string"))
        .collect::<Result<_, _>>()?;
    let r = newsmet::diversity_with(wn, &tokens, focus, &cands, cfg).map_err(|e| e.to_string())?;
    Ok(serde_json::to_value(&r).unwrap_or_default())
}

fn metaphoricity(a: &MetaphoricityArgs, out: &mut dyn Write) -> Result<bool, CliError> {
    use figlang_metrics::wmd::WordVectors;
    let vectors = WordVectors::load(&a.vectors, None, a.vocab_limit)
        .map_err(|e| CliError::Usage(format!("cannot read the word vectors: {e}")))?;
    each_record(&a.input, out, |line| {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let cands = v["candidates"].as_array().ok_or("no \"candidates\" list")?;
        let scored = cands
            .iter()
            .map(|c| {
                let c = c.as_str().ok_or("a candidate is not a string")?;
                let m = newsmet::metaphoricity(&vectors, v["subject"].as_str(), v["object"].as_str(), c);
                Ok(json!({"candidate": c, "score": m.score, "subject_sim": m.subject_sim, "object_sim": m.object_sim}))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(json!({"candidates": scored}))
    })
}
