//! `hauser meta-eval` (system- and segment-level correlation of a metric with human scores) and
//! `hauser corr` (Pearson, Spearman and Kendall of two columns), both on headed TSV files.
//!
//! `plot` draws `--plot`'s figures; with several metric columns (or `--wmt`) `wmt` computes the
//! WMT metrics task's statistics and significance clusters, `table` prints them and
//! `cluster_plot` draws the clusters.

pub(crate) mod cluster_plot;
pub(crate) mod plot;
pub(crate) mod table;
pub(crate) mod wmt;
mod wmt_cli;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use figlang_metrics::stats::{
    bootstrap_meta_eval_monitored, kendall_tau, meta_evaluate, pearson, spearman, top_n_analysis,
    BootstrapConfig, MetaEvalData, StatsError, TauVariant,
};

use crate::error::CliError;
use crate::{flags, io::files};

/// Options of `hauser meta-eval`.
#[derive(Debug, Clone, Args)]
pub struct MetaEvalArgs {
    /// Headed TSV, one row per system output (`-` for stdin).
    #[arg(long)]
    pub input: PathBuf,
    /// Column holding the system name.
    #[arg(long, default_value = "system")]
    pub system_col: String,
    /// Column holding the segment (source sentence) id.
    #[arg(long, default_value = "segment")]
    pub segment_col: String,
    /// Column holding the human score.
    #[arg(long, default_value = "human")]
    pub human_col: String,
    /// Column holding the metric score; repeat the flag for several metrics, which gives the
    /// WMT report (every metric, its statistics and significance clusters).
    #[arg(long, default_value = "metric", value_name = "COL")]
    pub metric_col: Vec<String>,
    /// The WMT report even for one metric: pairwise accuracy, SPA, acc_eq, acc*_eq and the
    /// correlations at system and segment level, intervals and significance clusters.
    #[arg(long)]
    pub wmt: bool,
    /// Output format: json (default), or, for the WMT report only, text or latex (the
    /// findings-style table).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// WMT report: permutation runs of each significance test between two metrics
    /// (default 1000; 0: no tests and no clusters).
    #[arg(long, allow_negative_numbers = true, value_parser = flags::count)]
    pub resamples: Option<usize>,
    /// WMT report: significance level of the clusters (default 0.05).
    #[arg(long, allow_negative_numbers = true, value_parser = flags::confidence)]
    pub alpha: Option<f64>,
    /// Percentile bootstrap 95% intervals from this many segment resamples (default: 0, none;
    /// in the WMT report 1000; 0 turns them off).
    #[arg(long, allow_negative_numbers = true, value_parser = flags::count)]
    pub bootstrap: Option<usize>,
    /// Seed of the bootstrap (and, in the WMT report, of the permutation tests' NumPy stream:
    /// at most 4294967295).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = flags::seed)]
    pub seed: u64,
    /// Also draw into this directory: the metric against the human scores, system.svg/.png (one
    /// labelled point per system, fitted line) and segment.svg/.png (every output); in the WMT
    /// report, clusters.svg/.png (each statistic's metrics with intervals, by cluster).
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object.
    Json,
    /// Aligned text tables (WMT report).
    Text,
    /// A LaTeX tabular of the findings-style table (WMT report).
    Latex,
}

/// Options of `hauser corr`.
#[derive(Debug, Clone, Args)]
pub struct CorrArgs {
    /// Headed TSV file (`-` for stdin).
    #[arg(long)]
    pub input: PathBuf,
    /// First column.
    #[arg(long)]
    pub x: String,
    /// Second column.
    #[arg(long)]
    pub y: String,
}

/// A headed TSV held in memory: header names and rows of cells with their 1-based line.
struct Table {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<(usize, Vec<String>)>,
}

impl Table {
    /// Reads a headed TSV (`-` for standard input) through [`files`]: byte-order mark
    /// ignored, CRLF accepted, size checked before it is held in memory.
    fn read(path: &Path) -> Result<Self, CliError> {
        let bytes = files::read_all(path)?;
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(b'\t')
            .quoting(false)
            .flexible(true)
            .from_reader(bytes.as_slice());
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| csv_error(path, e))?
            .iter()
            .map(|h| h.trim().to_string())
            .collect();
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| csv_error(path, e))?;
            let line = record.position().map_or(0, |p| p.line() as usize);
            if record.iter().all(|c| c.trim().is_empty()) {
                continue;
            }
            rows.push((line, record.iter().map(str::to_string).collect()));
        }
        Ok(Self {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    fn column(&self, name: &str) -> Result<usize, CliError> {
        self.header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| CliError::Input {
                path: self.path.clone(),
                line: 1,
                message: format!(
                    "no column {name:?} in the header (columns: {})",
                    self.header.join(", ")
                ),
            })
    }

    fn cell<'a>(&self, line: usize, row: &'a [String], col: usize) -> Result<&'a str, CliError> {
        row.get(col)
            .map(|c| c.trim())
            .ok_or_else(|| CliError::Input {
                path: self.path.clone(),
                line,
                message: format!(
                    "row has {} cells, column {:?} is number {}",
                    row.len(),
                    self.header[col],
                    col + 1
                ),
            })
    }

    fn number(&self, line: usize, row: &[String], col: usize) -> Result<f64, CliError> {
        let cell = self.cell(line, row, col)?;
        match cell.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(CliError::Input {
                path: self.path.clone(),
                line,
                message: format!(
                    "column {:?}: {cell:?} is not a finite number",
                    self.header[col]
                ),
            }),
        }
    }
}

fn csv_error(path: &Path, e: csv::Error) -> CliError {
    let line = e.position().map_or(0, |p| p.line() as usize);
    match e.into_kind() {
        csv::ErrorKind::Io(source) => CliError::io(path, source),
        other => CliError::Input {
            path: path.to_path_buf(),
            line,
            message: format!("{other:?}"),
        },
    }
}

fn stats_error(path: &Path, e: StatsError) -> CliError {
    match e {
        StatsError::Cancelled { .. } => CliError::Interrupted,
        // A size limit concerns the run's options as much as the file: reported as is.
        StatsError::Limit(l) => CliError::Limit(l),
        e => CliError::Stats {
            path: path.to_path_buf(),
            source: e,
        },
    }
}

/// Runs `hauser meta-eval`, writing one JSON object (and a newline) to `out`, or, for the WMT
/// report, the format asked for.
pub fn run_meta_eval(args: &MetaEvalArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    if args.wmt || args.metric_col.len() > 1 {
        return wmt_cli::run_wmt(args, out);
    }
    let wmt_only = [
        ("--format text", args.format == Some(Format::Text)),
        ("--format latex", args.format == Some(Format::Latex)),
        ("--resamples", args.resamples.is_some()),
        ("--alpha", args.alpha.is_some()),
    ];
    if let Some((flag, _)) = wmt_only.iter().find(|(_, given)| *given) {
        return Err(CliError::Usage(format!(
            "{flag} is read by the WMT report only: add --wmt, or give several --metric-col"
        )));
    }
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .plot_dir("--plot", args.plot.as_deref(), &plot::FILES)
        .check()?;
    let table = Table::read(&args.input)?;
    let cols = [
        table.column(&args.system_col)?,
        table.column(&args.segment_col)?,
        table.column(&args.human_col)?,
        table.column(&args.metric_col[0])?,
    ];
    let mut rows = Vec::with_capacity(table.rows.len());
    for (line, row) in &table.rows {
        rows.push((
            table.cell(*line, row, cols[0])?.to_string(),
            table.cell(*line, row, cols[1])?.to_string(),
            table.number(*line, row, cols[2])?,
            table.number(*line, row, cols[3])?,
        ));
    }
    let path = &args.input;
    let data = MetaEvalData::from_rows(rows).map_err(|e| stats_error(path, e))?;
    let report = meta_evaluate(&data).map_err(|e| stats_error(path, e))?;
    let mut value = json!({
        "system_pearson": report.system_pearson.statistic,
        "system_pearson_p": report.system_pearson.p_value,
        "system_pearson_ci95": [report.system_pearson_ci.low, report.system_pearson_ci.high],
        "system_spearman": report.system_spearman.statistic,
        "system_spearman_p": report.system_spearman.p_value,
        "system_kendall": report.system_kendall.statistic,
        "system_kendall_p": report.system_kendall.p_value,
        "segment_kendall_wmt": report.segment_kendall_wmt,
        "segment_kendall_wmt_segments": report.segment_kendall_segments,
        "segment_pearson": report.segment_pearson.statistic,
        "segment_pearson_p": report.segment_pearson.p_value,
        "n_systems": report.n_systems,
        "n_segments": report.n_segments,
        "n_items": report.n_items,
        "signature": report.signature.to_string(),
    });
    if report.n_systems >= 3 {
        let top = top_n_analysis(&data).map_err(|e| stats_error(path, e))?;
        value["system_pearson_top_n"] = top
            .iter()
            .map(|t| json!({"n": t.n, "pearson": t.pearson.statistic, "p": t.pearson.p_value}))
            .collect();
    }
    // Drawn now, written only once the bootstrap has succeeded too.
    let mut rendered = None;
    if let Some(dir) = &args.plot {
        let (human_means, metric_means) = data.system_means();
        let (pooled_human, pooled_metric) = data.pooled();
        let plot = plot::MetaEvalPlot {
            metric: &args.metric_col[0],
            systems: data
                .systems()
                .iter()
                .cloned()
                .zip(metric_means)
                .zip(human_means)
                .map(|((s, m), h)| (s, m, h))
                .collect(),
            segments: pooled_metric.into_iter().zip(pooled_human).collect(),
            system_pearson: report.system_pearson.statistic,
            segment_pearson: report.segment_pearson.statistic,
            segment_kendall_wmt: report.segment_kendall_wmt,
        };
        rendered = Some((dir, plot::render(&plot)?));
    }
    let bootstrap = args.bootstrap.unwrap_or(0);
    if bootstrap > 0 {
        let config = BootstrapConfig {
            resamples: bootstrap,
            seed: args.seed,
            level: 0.95,
        };
        let monitor =
            crate::io::interrupt::CliMonitor::new(Some(config.resamples as u64), "bootstrap");
        let b = bootstrap_meta_eval_monitored(&data, &config, &monitor)
            .map_err(|e| stats_error(path, e))?;
        drop(monitor);
        value["bootstrap"] = json!({
            "resamples": config.resamples,
            "seed": config.seed,
            "system_pearson_ci95": [b.system_pearson.low, b.system_pearson.high],
            "segment_kendall_wmt_ci95": [b.segment_kendall_wmt.low, b.segment_kendall_wmt.high],
            "segment_pearson_ci95": [b.segment_pearson.low, b.segment_pearson.high],
        });
    }
    if let Some((dir, rendered)) = rendered {
        let written = plot::write_plots(dir, &rendered, &checked)?;
        value["plots"] = written
            .iter()
            .map(|p| Value::String(p.display().to_string()))
            .collect();
        for note in &rendered.notes {
            eprintln!("hauser: note: {note}");
        }
        if !rendered.notes.is_empty() {
            value["plot_notes"] = json!(rendered.notes);
        }
    }
    writeln!(out, "{value}").map_err(|e| CliError::io("<stdout>", e))?;
    Ok(value)
}

/// Runs `hauser corr`, writing one JSON object (and a newline) to `out`. NaN (constant column)
/// is written as `null`.
pub fn run_corr(args: &CorrArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    files::RunFiles::new()
        .input("--input", &args.input)
        .check()?;
    let table = Table::read(&args.input)?;
    let (cx, cy) = (table.column(&args.x)?, table.column(&args.y)?);
    let mut x = Vec::with_capacity(table.rows.len());
    let mut y = Vec::with_capacity(table.rows.len());
    for (line, row) in &table.rows {
        x.push(table.number(*line, row, cx)?);
        y.push(table.number(*line, row, cy)?);
    }
    let path = &args.input;
    let p = pearson(&x, &y).map_err(|e| stats_error(path, e))?;
    let s = spearman(&x, &y).map_err(|e| stats_error(path, e))?;
    let k = kendall_tau(&x, &y, TauVariant::B).map_err(|e| stats_error(path, e))?;
    let value = json!({
        "n": p.n,
        "pearson": p.statistic,
        "pearson_p": p.p_value,
        "spearman": s.statistic,
        "spearman_p": s.p_value,
        "kendall": k.statistic,
        "kendall_p": k.p_value,
        "kendall_variant": "b",
        "signature": format!("corr|p:scipy-1.17|version:{}", figlang_metrics::VERSION),
    });
    writeln!(out, "{value}").map_err(|e| CliError::io("<stdout>", e))?;
    Ok(value)
}
