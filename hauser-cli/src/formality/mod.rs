//! `hauser formality reproduce --data DIR [--json]`: the correlation tables of the
//! formality-transfer meta-evaluation (Lai et al., HumEval 2022) from its released files, in
//! one command.
//!
//! The data directory is the authors' `data/outputs` layout (../shared/data/formality), read
//! and checked by `data`: per system `NAME.human.txt`, `NAME.reg.pt16.txt`,
//! `NAME.cls.pt16.txt`, `NAME.cls.xformal.txt`, `NAME.content.ref.txt` and, when released,
//! `NAME.ppl.txt`. `REF` (the human reference) is left out of the correlations, as in the
//! paper.
//!
//! Every correlation follows the authors' scripts (`cal_corr_*.py`, `cal_iaa.py`): the human
//! score of an output is the mean of its two ratings; system level is the Pearson correlation
//! of per-system means; segment level is the WMT17 Kendall-like tau over the systems' outputs
//! of one source (pairs tied on the human score skipped, metric ties discordant), averaged over
//! the sources where it is defined. Metric values are used as released: WMD is a distance and
//! perplexity a cost, so their correlations are negative when they agree with humans (the
//! `direction` column says so). The style classifiers' probabilities of "formal" are flipped
//! (1 - p) for the formal->informal lines, as the paper does.
//!
//! Next to the released content columns, the command recomputes the metrics this project has
//! (`live`) and reports how many rows agree with the released values.

pub(crate) mod data;
pub(crate) mod live;
pub(crate) mod wmt;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use figlang_metrics::stats::pearson;

use crate::error::CliError;
use data::{correlate, read_dir, CorrRow};
use figlang_tasks::formality::{
    Line, Released, SystemFiles, CONTENT_COLUMNS, FIRST_DIRECTION, SEGMENTS,
};
use live::LiveArgs;

/// Arguments of `hauser formality`.
#[derive(Debug, Clone, Args)]
pub struct FormalityArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: FormalityCommand,
}

/// Subcommands of `hauser formality`.
#[derive(Debug, Clone, Subcommand)]
pub enum FormalityCommand {
    /// Print the paper's correlation tables from the released files.
    Reproduce(ReproduceArgs),
}

/// Arguments of `hauser formality reproduce`.
#[derive(Debug, Clone, Args)]
pub struct ReproduceArgs {
    /// The released outputs directory (the authors' data/outputs).
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
    /// One JSON object instead of the text tables.
    #[arg(long)]
    pub json: bool,
    /// Also the WMT metrics task's statistics of the style and content tables (pairwise
    /// accuracy, SPA, acc_eq, acc*_eq, correlations, intervals and significance clusters of
    /// the metrics, as `hauser meta-eval --wmt` with its defaults).
    #[arg(long)]
    pub wmt: bool,
    /// Live metrics.
    #[command(flatten)]
    pub live: LiveArgs,
}

/// Values the paper (and the data's README) reports, checked by the tests:
/// (table, row, system Pearson, segment tau).
pub const PAPER: [(&str, &str, f64, f64); 3] = [
    ("style", "reg.pt16", 0.928, 0.330),
    ("style", "cls.pt16", 0.929, 0.390),
    ("style", "cls.xformal", 0.967, 0.420),
];
/// Inter-annotator Pearson over the 640 system outputs, as the paper reports it.
pub const PAPER_IAA: [(&str, f64); 3] = [("content", 0.85), ("style", 0.52), ("fluency", 0.66)];

/// Per-system human scores and metric values, in the same order.
type Paired = (Vec<Vec<f64>>, Vec<Vec<f64>>);

/// The systems that enter the correlations (REF excluded).
fn systems(data: &BTreeMap<String, SystemFiles>) -> Vec<&String> {
    data.keys().filter(|n| n.as_str() != "REF").collect()
}

/// Per-system (human aspect `aspect`, metric) vectors of file `kind`, lines in `range`.
fn columns(
    data: &BTreeMap<String, SystemFiles>,
    kind: &str,
    aspect: usize,
    range: std::ops::Range<usize>,
    metric: impl Fn(usize, &Line) -> Option<f64>,
) -> Option<Paired> {
    let (mut h, mut m) = (Vec::new(), Vec::new());
    for s in systems(data) {
        let lines = data[s].get(kind)?;
        h.push(
            lines[range.clone()]
                .iter()
                .map(|l| l.human(aspect))
                .collect(),
        );
        m.push(
            lines[range.clone()]
                .iter()
                .enumerate()
                .map(|(i, l)| metric(i + range.start, l))
                .collect::<Option<Vec<f64>>>()?,
        );
    }
    Some((h, m))
}

fn row(
    metric: &str,
    direction: &'static str,
    cols: Paired,
    paper: Option<[f64; 2]>,
) -> Result<CorrRow, CliError> {
    let (r, tau, segments) = correlate(&cols.0, &cols.1)?;
    Ok(CorrRow {
        metric: metric.to_string(),
        direction,
        system_pearson: r,
        segment_tau: tau,
        segments,
        paper,
        note: None,
    })
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Systems correlated (REF excluded).
    pub systems: Vec<String>,
    /// Style strength against the human style scores.
    pub style: Vec<CorrRow>,
    /// Content preservation (released columns against the reference) against human content.
    pub content: Vec<CorrRow>,
    /// Live recomputation of the metrics this project has, against human content.
    pub content_live: Vec<CorrRow>,
    /// Fluency (perplexity) per transfer direction, when `*.ppl.txt` are released.
    pub fluency: Vec<CorrRow>,
    /// Why a table is empty.
    pub notes: Vec<String>,
    /// Inter-annotator Pearson per aspect over all system outputs: (aspect, r, paper).
    pub inter_annotator: Vec<(String, f64, Option<f64>)>,
    /// With `--wmt`: the WMT statistics of the style and content tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wmt: Option<wmt::WmtTables>,
}

/// Computes the report.
///
/// # Errors
/// Unreadable or malformed files; live metric failures.
pub fn reproduce(args: &ReproduceArgs) -> Result<Report, CliError> {
    live::check(&args.live)?;
    let Released {
        systems: data,
        ignored,
    } = read_dir(&args.data)?;
    let names: Vec<String> = systems(&data).into_iter().cloned().collect();
    if names.len() < 3 {
        return Err(CliError::Usage(format!(
            "{}: {} systems besides REF; correlations need at least 3",
            args.data.display(),
            names.len()
        )));
    }
    let mut notes = Vec::new();
    if !ignored.is_empty() {
        notes.push(format!(
            "not read (not NAME.KIND.txt files): {}",
            ignored.join(", ")
        ));
    }
    if data.values().any(|f| f.contains_key("content.src")) {
        notes.push(
            "NAME.content.src.txt files were checked but are not correlated (the tables use the scores against the reference, content.ref)".into(),
        );
    }
    let mut style = Vec::new();
    for kind in ["reg.pt16", "cls.pt16", "cls.xformal"] {
        let flip = kind.starts_with("cls.");
        let paper = PAPER.iter().find(|p| p.1 == kind).map(|p| [p.2, p.3]);
        let metric = |i: usize, l: &Line| {
            let p = *l.metrics.last()?;
            Some(if flip && i >= FIRST_DIRECTION {
                1.0 - p
            } else {
                p
            })
        };
        match columns(&data, kind, 1, 0..SEGMENTS, metric) {
            Some(c) => style.push(row(kind, "higher", c, paper)?),
            None => notes.push(format!(
                "style {kind}: the released files have no NAME.{kind}.txt scores"
            )),
        }
    }
    let mut content = Vec::new();
    for (k, name) in CONTENT_COLUMNS.iter().enumerate() {
        // read_dir checked that every content.ref line has the 11 columns.
        let metric = |_: usize, l: &Line| l.metrics.get(k).copied();
        match columns(&data, "content.ref", 0, 0..SEGMENTS, metric) {
            Some(c) => {
                let dir = if *name == "WMD" { "lower" } else { "higher" };
                content.push(row(name, dir, c, None)?);
            }
            None => {
                notes
                    .push("content: the released files have no NAME.content.ref.txt scores".into());
                break;
            }
        }
    }
    let mut fluency = Vec::new();
    for (label, range) in [
        ("perplexity (informal->formal)", 0..FIRST_DIRECTION),
        ("perplexity (formal->informal)", FIRST_DIRECTION..SEGMENTS),
    ] {
        match columns(&data, "ppl", 2, range, |_, l| l.metrics.last().copied()) {
            Some(c) => fluency.push(row(label, "lower", c, None)?),
            None => {
                notes.push("fluency: the released files have no NAME.ppl.txt perplexities".into());
                break;
            }
        }
    }
    let mut inter_annotator = Vec::new();
    for (k, aspect) in ["content", "style", "fluency"].iter().enumerate() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for s in &names {
            if let Some(lines) = data[s].get("human") {
                a.extend(lines.iter().map(|l| l.ratings[k]));
                b.extend(lines.iter().map(|l| l.ratings[k + 3]));
            }
        }
        let r = pearson(&a, &b)
            .map_err(|e| CliError::Usage(e.to_string()))?
            .statistic;
        let paper = PAPER_IAA.iter().find(|p| p.0 == *aspect).map(|p| p.1);
        inter_annotator.push((aspect.to_string(), r, paper));
    }
    let content_live = live::rows(&args.live, &data, &mut notes)?;
    let wmt = if args.wmt {
        Some(wmt::tables(&data, &names)?)
    } else {
        None
    };
    Ok(Report {
        wmt,
        systems: names,
        style,
        content,
        content_live,
        fluency,
        notes,
        inter_annotator,
    })
}

fn table(out: &mut dyn Write, title: &str, rows: &[CorrRow]) -> std::io::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(out, "{title}")?;
    writeln!(
        out,
        "  {:<32} {:>9} {:>10} {:>11} {:>13}  note",
        "metric", "better", "system r", "segment tau", "paper r / tau"
    )?;
    for r in rows {
        let paper = r
            .paper
            .map_or(String::new(), |p| format!("{:.3} / {:.3}", p[0], p[1]));
        writeln!(
            out,
            "  {:<32} {:>9} {:>10.4} {:>11.4} {:>13}  {}",
            r.metric,
            r.direction,
            r.system_pearson,
            r.segment_tau,
            paper,
            r.note.as_deref().unwrap_or("")
        )?;
    }
    writeln!(out)
}

/// Runs `hauser formality`.
///
/// # Errors
/// As [`reproduce`]; an unwritable output.
pub fn run(args: &FormalityArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let FormalityCommand::Reproduce(args) = &args.command;
    crate::io::files::RunFiles::new()
        .dir("--data", Some(&args.data))
        .dir("--wordnet", Some(&args.live.wordnet))
        .model("--bertscore-model", args.live.bertscore_model.as_deref())
        .inputs("--bertscore-baseline", &args.live.bertscore_baseline)
        .check()?;
    let report = reproduce(args)?;
    let io = |e| CliError::io("<stdout>", e);
    if args.json {
        let v = serde_json::to_string(&report).map_err(|e| CliError::Usage(e.to_string()))?;
        return writeln!(out, "{v}").map_err(io);
    }
    let n = report.systems.len();
    writeln!(
        out,
        "Formality transfer meta-evaluation (Lai et al. 2022): {n} systems ({}), 80 sources; system r = Pearson of system means, segment tau = WMT17 Kendall-like tau per source, averaged\n",
        report.systems.join(", ")
    )
    .map_err(io)?;
    table(out, "Style strength vs human style", &report.style).map_err(io)?;
    table(
        out,
        "Content preservation vs human content (released scores against the reference)",
        &report.content,
    )
    .map_err(io)?;
    table(
        out,
        "Content preservation recomputed by hauser (against the reference)",
        &report.content_live,
    )
    .map_err(io)?;
    table(out, "Fluency vs human fluency", &report.fluency).map_err(io)?;
    writeln!(
        out,
        "Inter-annotator agreement (Pearson between the two raters, {} outputs)",
        n * SEGMENTS
    )
    .map_err(io)?;
    for (aspect, r, paper) in &report.inter_annotator {
        let p = paper.map_or(String::new(), |p| format!("   paper {p:.2}"));
        writeln!(out, "  {aspect:<10} {r:.4}{p}").map_err(io)?;
    }
    if let Some(w) = &report.wmt {
        for (title, r) in [
            ("Style strength vs human style", &w.style),
            (
                "Content preservation vs human content (released scores; WMD negated)",
                &w.content,
            ),
        ] {
            if let Some(r) = r {
                writeln!(out, "\n{title}, WMT statistics").map_err(io)?;
                crate::meta_eval::table::write_text(out, r).map_err(io)?;
            }
        }
    }
    for note in &report.notes {
        writeln!(out, "note: {note}").map_err(io)?;
    }
    Ok(())
}
