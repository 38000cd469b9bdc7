//! `hauser bert-score`: bert_score 0.3.13's `bert-score` command, with its arguments and its
//! printed lines (the settings hash with `P: R: F1:`, and with `-s` one `P\tR\tF1` line per
//! candidate), on local models. See docs/DROP-IN-COMET-BERTSCORE.md.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use figlang_metrics::neural::{default_layer, Baseline, BertScoreOptions};
use hauser_nli::Embedder;

use crate::drop_in::{fixed, python_lines};
use crate::error::CliError;
use crate::flags;
use crate::io::run_files::RunFiles;
use crate::metric::neural::{baseline_error, read_baseline};

/// The bert_score release whose hash the command prints (0.3.13 calls itself 0.3.12).
pub const BERT_SCORE_VERSION: &str = "0.3.12";

/// `hauser bert-score`.
#[derive(Debug, Clone, Args)]
pub struct BertScoreCliArgs {
    /// Two-letter language (or `en-sci`): picks bert_score's model for it when -m is not
    /// given, and is required by --rescale_with_baseline.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Model: a local directory, or a hub id (from the Hugging Face cache, fetched when
    /// missing unless HF_HUB_OFFLINE=1) (bert_score's `--model`; `--model_type` is accepted
    /// too).
    #[arg(
        short = 'm',
        long = "model",
        alias = "model_type",
        value_name = "MODEL"
    )]
    pub model: Option<String>,
    /// Use the first N layers (bert_score's default for a known model name).
    #[arg(short = 'l', long = "num_layers", value_name = "NUM_LAYERS", allow_negative_numbers = true, value_parser = flags::count)]
    pub num_layers: Option<usize>,
    /// Batch size (pairs matched together; padding takes part as bert_score's does).
    #[arg(short = 'b', long = "batch_size", default_value_t = 64, allow_negative_numbers = true, value_parser = flags::batch_size, value_name = "BATCH_SIZE")]
    pub batch_size: usize,
    /// CPU workers of bert_score's IDF count (accepted; no effect).
    #[arg(long, default_value_t = 4, value_name = "NTHREADS", allow_negative_numbers = true, value_parser = flags::count)]
    pub nthreads: usize,
    /// Weights tokens by IDF computed from the references.
    #[arg(long)]
    pub idf: bool,
    /// Rescales the scores with a baseline (needs --lang, and --baseline_path: hauser ships
    /// none of bert_score's baseline files).
    #[arg(long = "rescale_with_baseline")]
    pub rescale_with_baseline: bool,
    /// A baseline file in bert_score's format (LAYER,P,R,F rows; row N is layer N).
    #[arg(long = "baseline_path", value_name = "BASELINE_PATH")]
    pub baseline_path: Option<PathBuf>,
    /// As bert_score's flag (store_false): given, the hash loses `_fast-tokenizer`; hauser
    /// tokenizes with the model's tokenizer.json either way.
    #[arg(long = "use_fast_tokenizer")]
    pub use_fast_tokenizer: bool,
    /// Also prints each candidate's `P\tR\tF1`.
    #[arg(short = 's', long = "seg_level")]
    pub seg_level: bool,
    /// Accepted; hauser prints no progress.
    #[arg(short = 'v', long)]
    pub verbose: bool,
    /// Reference files (one or several, line-aligned with -c), or reference texts.
    #[arg(short = 'r', long = "ref", num_args = 1.., required = true, value_name = "REF")]
    pub refs: Vec<String>,
    /// Candidate file, or one candidate text.
    #[arg(short = 'c', long = "cand", required = true, value_name = "CAND")]
    pub cand: String,
    /// Device and precision of the model (hauser's options).
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// bert_score's model for a language (`lang2model`).
fn lang_model(lang: &str) -> &'static str {
    match lang {
        "en" => "roberta-large",
        "en-sci" => "allenai/scibert_scivocab_uncased",
        "zh" => "bert-base-chinese",
        "tr" => "dbmdz/bert-base-turkish-cased",
        _ => "bert-base-multilingual-cased",
    }
}

fn usage(m: impl Into<String>) -> CliError {
    CliError::Usage(m.into())
}

/// The candidates and, for each, its references.
fn texts(args: &BertScoreCliArgs) -> Result<(Vec<String>, Vec<Vec<String>>), CliError> {
    let cand = Path::new(&args.cand);
    if cand.is_file() {
        let cands = python_lines(cand)?;
        let mut per_file = Vec::new();
        for r in &args.refs {
            let p = Path::new(r);
            if !p.exists() {
                return Err(usage(format!("reference file {r} doesn't exist")));
            }
            let lines = python_lines(p)?;
            if lines.len() != cands.len() {
                return Err(usage(format!(
                    "# of sentences in {r} doesn't match the # of candidates"
                )));
            }
            per_file.push(lines);
        }
        let refs = (0..cands.len())
            .map(|i| per_file.iter().map(|f| f[i].clone()).collect())
            .collect();
        Ok((cands, refs))
    } else if Path::new(&args.refs[0]).is_file() {
        Err(usage(format!("candidate file {} doesn't exist", args.cand)))
    } else {
        if args.idf {
            return Err(usage(
                "do not support idf mode for a single pair of sentences",
            ));
        }
        Ok((vec![args.cand.clone()], vec![args.refs.clone()]))
    }
}

/// A torch `float32` mean: a sequential `float32` sum divided in `float32`.
fn mean32(v: &[f32]) -> f32 {
    v.iter().fold(0.0f32, |s, &x| s + x) / v.len() as f32
}

/// The model bert_score scores with (`-m`, else `--lang`'s), after the refusals that come
/// before any file is read: neither given, or `--rescale_with_baseline` without `--lang`.
///
/// # Errors
/// Those two refusals.
pub fn model_type(args: &BertScoreCliArgs) -> Result<String, CliError> {
    let model_type = match (&args.model, &args.lang) {
        (Some(m), _) => m.clone(),
        (None, Some(l)) => lang_model(&l.to_lowercase()).to_string(),
        (None, None) => return Err(usage("Either lang or model_type should be specified")),
    };
    if args.rescale_with_baseline && args.lang.is_none() {
        return Err(usage(
            "Need to specify Language when rescaling with baseline",
        ));
    }
    Ok(model_type)
}

/// Runs `hauser bert-score`.
///
/// # Errors
/// Missing or misaligned files, a model without a default layer and no -l, an unreadable
/// baseline, model failures.
pub fn run(args: &BertScoreCliArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let model_type = model_type(args)?;
    let baseline_file = args
        .baseline_path
        .as_deref()
        .filter(|_| args.rescale_with_baseline);
    // -c and -r name files or are the texts themselves (bert_score tells them apart by
    // whether the candidate is a file): the files are inputs, which standard output must
    // not be appended to.
    let files_of = |v: &[String]| -> Vec<PathBuf> {
        v.iter()
            .map(PathBuf::from)
            .filter(|p| p.is_file())
            .collect()
    };
    let _checked = RunFiles::new()
        .inputs("-c", files_of(std::slice::from_ref(&args.cand)))
        .inputs("-r", files_of(&args.refs))
        .model("-m", Some(&model_type))
        .file_input("--baseline_path", baseline_file, "read whole")
        .check()?;
    let (cands, refs) = texts(args)?;
    if cands.is_empty() {
        return Err(usage(format!("{}: no candidates", args.cand)));
    }
    let num_layers = match args.num_layers.or_else(|| default_layer(&model_type)) {
        Some(l) => l,
        None => {
            return Err(usage(format!(
                "bert_score knows no layer for model {model_type}: give -l/--num_layers"
            )))
        }
    };
    // The baseline is read and checked before the model is loaded.
    let baseline = match baseline_file {
        Some(p) => {
            let text = read_baseline(p)?;
            Some(Baseline::parse(&text, num_layers).map_err(|e| baseline_error(p, e))?)
        }
        None => None,
    };
    if args.rescale_with_baseline && baseline.is_none() {
        eprintln!(
            "Warning: Baseline not Found for {model_type} on {} (hauser ships no baseline files: give --baseline_path); the scores are not rescaled",
            args.lang.as_deref().unwrap_or("")
        );
    }
    let opts = args.device.load_options(args.batch_size);
    let source = hauser_nli::ModelSource::parse(&model_type);
    let embedder = Embedder::load(&source, &opts)?;
    if num_layers > embedder.layers().saturating_sub(1) {
        return Err(usage(format!(
            "-l/--num_layers {num_layers}: the model has {} layers",
            embedder.layers().saturating_sub(1)
        )));
    }
    let id = model_type
        .split('@')
        .next()
        .unwrap_or(&model_type)
        .to_string();
    let metric = figlang_metrics::neural::BertScore::new(
        embedder,
        &id,
        BertScoreOptions {
            layer: Some(num_layers),
            idf: args.idf,
            baseline: None,
            batch_size: args.batch_size,
            // The command's fast tokenizer (its default) gets no leading space on
            // transformers 4.57: what the recorded runs show for RoBERTa.
            prefix_space: (!args.use_fast_tokenizer).then_some(false),
            // The command runs on transformers 4.x, whose tokenizer class decides.
            empty_by_tokenizer_class: true,
        },
    )?;
    let c: Vec<&str> = cands.iter().map(String::as_str).collect();
    let r: Vec<Vec<&str>> = refs
        .iter()
        .map(|v| v.iter().map(String::as_str).collect())
        .collect();
    let scores = metric.score(&c, &r)?;
    // bert_score rescales in float32: (x - b) / (1 - b).
    let rescale = |x: f32, b: Option<f64>| -> f32 {
        match b {
            Some(b) => {
                let b = b as f32;
                (x - b) / (1.0 - b)
            }
            None => x,
        }
    };
    // bert_score's float32 values. NaN where its arithmetic gives 0/0 (with a tokenizer of
    // transformers' generic class, an empty candidate's precision and an empty reference's
    // recall; among several references it wins torch's max): the library reproduces those.
    // F1 is 2PR/(P+R) of the pair in float32, NaN read as 0.
    let mut ps = Vec::new();
    let mut rs = Vec::new();
    let mut fs = Vec::new();
    for (s, rf) in scores.iter().zip(&refs) {
        let (p, r) = (s.precision as f32, s.recall as f32);
        let f = if rf.len() == 1 {
            2.0 * p * r / (p + r)
        } else {
            s.f1 as f32
        };
        let f = if f.is_nan() { 0.0 } else { f };
        ps.push(rescale(p, baseline.map(|b| b.precision)));
        rs.push(rescale(r, baseline.map(|b| b.recall)));
        fs.push(rescale(f, baseline.map(|b| b.f1)));
    }
    let mut hash = format!(
        "{model_type}_L{num_layers}{}_version={BERT_SCORE_VERSION}(hug_trans=hauser-{})",
        if args.idf { "_idf" } else { "_no-idf" },
        env!("CARGO_PKG_VERSION")
    );
    if args.rescale_with_baseline {
        hash.push_str(if args.baseline_path.is_some() {
            "-custom-rescaled"
        } else {
            "-rescaled"
        });
    }
    if !args.use_fast_tokenizer {
        hash.push_str("_fast-tokenizer");
    }
    let io = |e| CliError::io("<stdout>", e);
    writeln!(
        out,
        "{hash} P: {} R: {} F1: {}",
        fixed(f64::from(mean32(&ps)), 6),
        fixed(f64::from(mean32(&rs)), 6),
        fixed(f64::from(mean32(&fs)), 6)
    )
    .map_err(io)?;
    if args.seg_level {
        for ((p, r), f) in ps.iter().zip(&rs).zip(&fs) {
            let [p, r, f] = [p, r, f].map(|x| fixed(f64::from(*x), 6));
            writeln!(out, "{p}\t{r}\t{f}").map_err(io)?;
        }
    }
    out.flush().map_err(io)
}
