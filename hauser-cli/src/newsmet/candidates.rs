//! `hauser newsmet candidates`: metaphorical and literal replacements of a headline's focus
//! verb (masked-LM fillers, the paper's filters, a metaphor detector). docs/TASKS.md gives the
//! protocol.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use figlang_metrics::text::wordnet::WordNet;
use figlang_tasks::newsmet::{self, CandidateConfig, CandidateInput, FocusVerb, Masking};
use hauser_nli::PackedCpu;
use hauser_nli::{MaskedLm, ModelSource, SequenceClassifier};

use crate::error::CliError;
use crate::{flags, io::files};

/// Arguments of `hauser newsmet candidates`.
#[derive(Debug, Clone, Args)]
pub struct CandidatesArgs {
    /// JSONL, one headline per line: `{"headline": "...", "focus": 3 | "verb"}`; without
    /// `focus` the focus verb is found by the documented rule. `-` for stdin.
    #[arg(long, short)]
    pub input: PathBuf,
    /// Masked LM (the paper: albert-xxlarge-v2): a hub id (`org/name[@revision]`) or a
    /// local directory.
    #[arg(long, value_name = "MODEL")]
    pub mlm: String,
    /// Metaphor detector, a sequence classifier (the paper: a fine-tuned roberta-base); without
    /// it the filtered fillers are listed unsplit.
    #[arg(long, value_name = "MODEL")]
    pub detector: Option<String>,
    /// The detector's class index that means metaphorical.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = flags::count)]
    pub metaphorical_class: usize,
    /// Fillers taken from the masked LM.
    #[arg(long, default_value_t = newsmet::candidates::TOP_K, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub top_k: usize,
    /// Candidates kept per side.
    #[arg(long, default_value_t = newsmet::candidates::KEEP, allow_negative_numbers = true, value_parser = flags::count)]
    pub keep: usize,
    /// What is masked: `token` (the focus verb in its token) or `substring` (the authors'
    /// notebook: every case-insensitive occurrence of the verb, inside other words too).
    #[arg(long, default_value = "token", value_parser = ["token", "substring"])]
    pub masking: String,
    /// WordNet 3.0 database directory (verb filter, lemmas, focus rule).
    #[arg(long, value_name = "DIR", default_value = figlang_metrics::text::wordnet::DEFAULT_WORDNET_DIR)]
    pub wordnet: PathBuf,
    /// Inputs per forward pass.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub batch_size: usize,
    /// Device and precision.
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// Runs `hauser newsmet candidates`: one output line per input line, the candidates or an
/// error naming the file and line (a blank line is an error record).
///
/// # Errors
/// Unreadable input, WordNet or models.
pub fn run(a: &CandidatesArgs, out: &mut dyn Write) -> Result<bool, CliError> {
    let wn = WordNet::open(&a.wordnet).map_err(|e| CliError::Usage(format!("--wordnet: {e}")))?;
    // Without its BOM: `files` drops it, once.
    let text = files::read_to_string(&a.input)?;
    let mut records: Vec<(usize, Result<Parsed, String>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        let parsed = if line.trim().is_empty() {
            Err(figlang_tasks::narratives::BLANK_LINE.to_string())
        } else {
            parse(&wn, line)
        };
        records.push((i + 1, parsed));
    }
    let opts = a.device.load_options(a.batch_size);
    let mlm = MaskedLm::load(&ModelSource::parse(&a.mlm), &opts)?;
    let detector = match &a.detector {
        Some(d) => Some(SequenceClassifier::load(&ModelSource::parse(d), &opts)?),
        None => None,
    };
    let cfg = CandidateConfig {
        top_k: a.top_k,
        keep: a.keep,
        masking: if a.masking == "substring" {
            Masking::Substring
        } else {
            Masking::Token
        },
        metaphorical_class: a.metaphorical_class,
    };
    let signature = signature(a, &mlm, detector.as_ref());
    let werr = |e| CliError::io("stdout", e);
    let mut failed = 0;
    // Streamed: the records of `batch_size` x STREAM_BATCHES lines at a time are computed,
    // written and flushed before the next lines run (a constant, as in `classify`, so the
    // batches, and with them the numbers, do not depend on the thread count).
    let chunk = a.batch_size.saturating_mul(flags::STREAM_BATCHES).max(1);
    for part in records.chunks(chunk) {
        let inputs: Vec<CandidateInput<'_>> = part
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok())
            .map(|(h, f, _)| CandidateInput {
                headline: h,
                focus: f.clone(),
            })
            .collect();
        let mut sets = newsmet::generate(&inputs, &mlm, detector.as_ref(), &wn, &cfg)?.into_iter();
        for (line, r) in part {
            let result = match r {
                Ok((headline, _, from)) => sets
                    .next()
                    .unwrap_or_else(|| Err("no result".into()))
                    .map(|s| {
                        let mut v = serde_json::to_value(&s).unwrap_or_default();
                        v["headline"] = json!(headline);
                        v["focus_from"] = json!(from);
                        v
                    }),
                Err(e) => Err(e.clone()),
            };
            let v = match result {
                Ok(mut v) => {
                    v["line"] = json!(line);
                    v["signature"] = json!(signature);
                    v
                }
                Err(message) => {
                    failed += 1;
                    json!({"line": line, "error": format!("{}:{line}: {message}", a.input.display())})
                }
            };
            writeln!(out, "{v}").map_err(werr)?;
        }
        out.flush().map_err(werr)?;
    }
    Ok(failed == 0)
}

/// A record's headline, its focus verb and where that came from (given: `"input"`, else
/// found: `"rule"`).
type Parsed = (String, FocusVerb, &'static str);

/// A record's headline and focus verb.
fn parse(wn: &WordNet, line: &str) -> Result<Parsed, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let headline = v["headline"]
        .as_str()
        .ok_or("no \"headline\" string")?
        .to_string();
    match v.get("focus").filter(|f| !f.is_null()) {
        Some(f) => Ok((
            headline.clone(),
            newsmet::given_focus(&headline, f)?,
            "input",
        )),
        None => {
            let f = newsmet::find_focus_verb(wn, &headline)
                .ok_or("no word of the headline is a verb in WordNet; give \"focus\"")?;
            Ok((headline, f, "rule"))
        }
    }
}

fn signature(a: &CandidatesArgs, mlm: &MaskedLm, det: Option<&SequenceClassifier>) -> String {
    format!(
        "newsmet-candidates|mlm:{}|detector:{}|metaphorical_class:{}|top_k:{}|keep:{}|masking:{}|wordnet:3.0|batch:{}|kernels:{}|version:{}",
        mlm.model().source().name(),
        det.map_or("none".to_string(), |d| d.model().source().name()),
        a.metaphorical_class,
        a.top_k,
        a.keep,
        a.masking,
        a.batch_size,
        mlm.model().kernels(),
        env!("CARGO_PKG_VERSION"),
    )
}
