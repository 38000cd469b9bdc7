//! `hauser rerank --metric NAME --input F.jsonl [--mbr]`: rank the candidates of each source by
//! a metric, as `comet-mbr` and its `--rerank_top_k` do.
//!
//! Input: one group per line, `{"src": "...", "candidates": ["...", ...]}` (`src` optional
//! where the metric reads none). Output: one record per candidate, `{"line", "candidate",
//! "text", "score", "rank", "signature"}`, ranked by [`hauser_core::ScoreReranker`] (rank 1 =
//! best; equal scores: the earlier candidate first; no score: last). A line that cannot be
//! ranked (blank, not JSON, no candidates, a source the metric needs missing, a metric failure)
//! gives one error record `{"line", "error": "FILE:LINE: message"}`, as `hauser newsmet`'s
//! record commands do, and the run goes on; the exit status is then 1.
//!
//! Without `--mbr` each candidate is scored alone (quality estimation); with `--mbr` by minimum
//! Bayes risk (both in `metric`). The metrics' options are `hauser metric`'s flags,
//! shared through [`TextFlags`] and `NeuralMetricArgs`; a flag the metric named would not read
//! is refused (exit 2), never ignored.

pub(crate) mod metric;

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::{json, Value};

use hauser_core::{render_signatures, Criterion, Reranker, ScoreReranker, Signature};

use crate::error::CliError;
use crate::io::files::{self, OutputFile};
use crate::metric::flags::TextFlags;
use crate::metric::neural::NeuralMetricArgs;
use metric::RerankMetric;

/// Arguments of `hauser rerank`.
#[derive(Debug, Clone, Args)]
pub struct RerankArgs {
    /// Metric: without --mbr a reference-free one (comet with a reference-free or unified
    /// model such as CometKiwi, metricx, perplexity, style); with --mbr any metric that reads a
    /// reference (bleu, sentbleu, chrf, chrf++, ter, rouge1, rouge2, rougeL, rougeLsum, meteor,
    /// bertscore, bleurt, comet, metricx).
    #[arg(long, value_name = "NAME")]
    pub metric: String,
    /// JSONL, one group per line: `{"src": "...", "candidates": ["...", ...]}` (`src` optional
    /// where the metric reads none); `-` for stdin.
    #[arg(long, short)]
    pub input: PathBuf,
    /// Output JSONL file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Minimum Bayes risk as comet-mbr: a candidate's score is the mean of the metric over the
    /// other candidates of its group taken as references (a lone candidate: null).
    #[arg(long)]
    pub mbr: bool,
    /// Text-metric options (as for `hauser metric`).
    #[command(flatten)]
    pub text: TextFlags,
    /// Neural metric options (as for `hauser metric`).
    #[command(flatten)]
    pub neural: NeuralMetricArgs,
}

/// The first flag given that the metric named would not read under rerank, with why.
fn unread_flag(args: &RerankArgs) -> Option<String> {
    let name = args.metric.as_str();
    if let Some((flag, readers)) = args.text.unread(name) {
        return Some(format!(
            "{flag} is not read by {name} (it is for {readers})"
        ));
    }
    let t = &args.text;
    // rerank reads sentence scores only; these flags change a corpus score.
    for (flag, given, what) in [
        (
            "--effective-order",
            t.effective_order,
            "BLEU's corpus score (sentence scores always use effective order)",
        ),
        ("--corpus", t.corpus, "sentbleu's corpus score"),
    ] {
        if given {
            return Some(format!(
                "{flag} changes {what}; rerank uses sentence scores only"
            ));
        }
    }
    if t.lowercase && name != "bleu" {
        return Some(format!(
            "--lowercase/-lc lowercases BLEU only (as sacreBLEU's command line); {name} does not read it"
        ));
    }
    let n = &args.neural;
    let neural = metric::NEURAL.contains(&name);
    let never = |flag: &str, why: &str| format!("{flag} is not read by rerank: {why}");
    if n.src.is_some() {
        return Some(never(
            "--src",
            "the sources are the \"src\" fields of the input",
        ));
    }
    if n.idf {
        return Some(never(
            "--idf",
            "bertscore's IDF weights come from a reference list, and rerank's references are each group's candidates",
        ));
    }
    if n.flip.is_some() {
        return Some(never(
            "--flip",
            "it names lines of a --hyp file of hauser metric",
        ));
    }
    // --src, --idf and --flip are refused above for every metric; the others as `hauser
    // metric` refuses them.
    let flags = crate::metric::neural::flag_table(n, name, neural);
    flags
        .into_iter()
        .find(|(_, given, read, _)| *given && !*read)
        .map(|(flag, _, _, readers)| format!("{flag} is not read by {name} (it is for {readers})"))
}

/// One input group: its source and candidates.
struct Group<'a> {
    src: Option<&'a str>,
    candidates: Vec<&'a str>,
}

/// Parses one input line, or says what is wrong with it.
fn parse_group(v: &Value) -> Result<Group<'_>, String> {
    let obj = v
        .as_object()
        .ok_or("expected a JSON object {\"src\": ..., \"candidates\": [...]}")?;
    let src = match obj.get("src") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err("\"src\" must be a string".into()),
    };
    let candidates: Vec<&str> = match obj.get("candidates") {
        Some(Value::Array(a)) => a
            .iter()
            .map(Value::as_str)
            .collect::<Option<_>>()
            .ok_or("\"candidates\" must be a list of strings")?,
        Some(_) => return Err("\"candidates\" must be a list of strings".into()),
        None => return Err("no \"candidates\" list".into()),
    };
    if candidates.is_empty() {
        return Err("\"candidates\" is empty: nothing to rank".into());
    }
    Ok(Group { src, candidates })
}

/// Ranks one UTF-8 input line: its candidates and their scores, or what is wrong with it.
fn rank_line(line: &str, metric: &mut RerankMetric) -> Result<(Vec<String>, Vec<f64>), String> {
    if line.trim().is_empty() {
        return Err(figlang_tasks::narratives::BLANK_LINE.to_string());
    }
    let v = serde_json::from_str::<Value>(line).map_err(|e| e.to_string())?;
    let g = parse_group(&v)?;
    let scores = metric.group_scores(g.src, &g.candidates)?;
    Ok((g.candidates.iter().map(|c| c.to_string()).collect(), scores))
}

/// The mode's part of the signature.
fn mode_signature(mbr: bool) -> Signature {
    let version = env!("CARGO_PKG_VERSION");
    if mbr {
        // As comet-mbr's mbr_decoding: the mean over the other candidates k != j of
        // utility(hyp = c_j, ref = c_k).
        Signature::new("mbr", version)
            .with("utility", "mean-over-other-candidates")
            .with("single", "null")
    } else {
        Signature::new("qe", version).with("ref", "none")
    }
}

/// What a run produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RerankSummary {
    /// Groups ranked.
    pub groups: usize,
    /// Candidate records written.
    pub ranked: usize,
    /// Error records written.
    pub failed: usize,
}

/// Runs `hauser rerank`, writing records to the output and its summary to `log` (stderr).
/// Returns whether every line was ranked.
///
/// # Errors
/// A metric or flag that cannot run (exit 2), an unreadable input, an unwritable output, a
/// model that cannot be loaded. A line that cannot be ranked is an error record instead.
pub fn run(args: &RerankArgs, log: &mut dyn Write) -> Result<bool, CliError> {
    let name = args.metric.as_str();
    if let Some(why) = metric::mode_refusal(name, args.mbr).or_else(|| unread_flag(args)) {
        return Err(CliError::Usage(why));
    }
    // Every file checked, the output's place included, before a model is loaded.
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .inputs("--baseline", &args.neural.baseline)
        .dir(
            "--wordnet",
            (name == "meteor").then_some(args.text.wordnet.as_path()),
        )
        .model("--model", args.neural.model.as_deref())
        .model("--tokenizer", args.neural.tokenizer.as_deref())
        .output("--output", args.output.as_deref())
        .check()?;
    let mut metric = RerankMetric::load(name, args.mbr, &args.text, &args.neural)?;
    let reranker = ScoreReranker::new(Criterion::Other(name.to_string()), metric.direction());
    let tail = [mode_signature(args.mbr), reranker.signature()];
    // Line by line, without its BOM (`files` drops it, once): a line that is not UTF-8 is an
    // error record, as in the other per-line commands.
    let reader = files::open(&args.input)?;
    let mut out = OutputFile::create(args.output.as_deref(), &checked)?;
    let out_path = out.path().to_path_buf();
    let werr = |e| CliError::io(&out_path, e);
    if !files::is_stdin(&args.input) {
        crate::io::interrupt::install();
    }
    let mut summary = RerankSummary::default();
    for read in files::lines(reader) {
        if crate::io::interrupt::interrupted() {
            return Err(CliError::Interrupted);
        }
        let read = read.map_err(|e| CliError::io(&args.input, e))?;
        let number = read.number;
        let ranked = match &read.text {
            Err(message) => Err(message.clone()),
            Ok(line) => rank_line(line, &mut metric),
        };
        match ranked {
            Ok((texts, scores)) => {
                let ranks = reranker.ranks(&scores);
                let mut sigs: Vec<Signature> = metric.signature().cloned().into_iter().collect();
                sigs.extend(tail.iter().cloned());
                let signature = render_signatures(&sigs);
                for (c, ((text, score), rank)) in texts.iter().zip(&scores).zip(&ranks).enumerate()
                {
                    let v = json!({
                        "line": number, "candidate": c, "text": text,
                        // NaN (no score) is written null.
                        "score": score, "rank": rank, "signature": signature,
                    });
                    writeln!(out, "{v}").map_err(werr)?;
                }
                summary.groups += 1;
                summary.ranked += texts.len();
            }
            Err(message) => {
                let v = json!({
                    "line": number,
                    "error": format!("{}:{number}: {message}", args.input.display()),
                });
                writeln!(out, "{v}").map_err(werr)?;
                summary.failed += 1;
            }
        }
        // Records stream out group by group.
        out.flush().map_err(werr)?;
    }
    out.commit()?;
    writeln!(
        log,
        "hauser: {} candidate(s) of {} group(s) ranked, {} error record(s)",
        summary.ranked, summary.groups, summary.failed
    )
    .map_err(|e| CliError::io("<stderr>", e))?;
    Ok(summary.failed == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_parsed_or_refused_with_a_reason() {
        let v: Value =
            serde_json::from_str(r#"{"src": "s", "candidates": ["a", "b"], "id": 3}"#).unwrap();
        let g = parse_group(&v).unwrap();
        assert_eq!((g.src, g.candidates), (Some("s"), vec!["a", "b"]));
        for (text, want) in [
            (r#"{"candidates": []}"#, "is empty"),
            (r#"{"src": "s"}"#, "no \"candidates\""),
            (r#"{"candidates": ["a", 1]}"#, "list of strings"),
            (r#"{"candidates": "a"}"#, "list of strings"),
            (r#"{"src": 1, "candidates": ["a"]}"#, "\"src\" must be"),
            (r#"["a"]"#, "expected a JSON object"),
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            let e = parse_group(&v).err().unwrap_or_default();
            assert!(e.contains(want), "{text}: {e}");
        }
        let v: Value = serde_json::from_str(r#"{"src": null, "candidates": ["a"]}"#).unwrap();
        assert_eq!(parse_group(&v).unwrap().src, None);
    }
}
