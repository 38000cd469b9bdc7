//! `hauser kb`: build, inspect and query simile knowledge bases; `--kb` support of `hauser score`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;

use hauser_core::{Criterion, Scorer};
use hauser_kb::ingest::{ingest_reader, IngestOptions, InputFormat};
use hauser_kb::{CreativityScorer, Kb, KbBuilder, KbError, Normalizer, RelevanceScorer};

use crate::error::CliError;
use crate::flags;
use crate::io::files::{self, OutputFile};
use crate::io::interrupt::{self, CliMonitor, MonitoredRead};

/// Options of `hauser kb`.
#[derive(Debug, Clone, Args)]
pub struct KbArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: KbCommand,
}

/// The `hauser kb` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum KbCommand {
    /// Build an index file from a simile corpus or triplet list.
    Build(BuildArgs),
    /// Query an index: relevance, counts and top properties of a topic-vehicle pair (JSON).
    Lookup(LookupArgs),
    /// Sizes and provenance of an index (JSON).
    Stats(StatsArgs),
    /// Write a synthetic MAPS-KB-format CSV (for benchmarks).
    Synth(SynthArgs),
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// MAPS-KB CSV with a header (topic/new_topic, property, vehicle/new_vehicle, count/frequency[, plausibility]).
    MapsKb,
    /// TSV: topic, property, vehicle[, count].
    Triplets,
    /// TSV: sentence, topic, property, vehicle (each row counts once).
    SimileTsv,
    /// One simile per line; components found by the rule-based extractor.
    Similes,
}

/// `--clean` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CleanArg {
    /// Exactly the reference implementation's `clean` (its punctuation pattern almost never matches).
    Reference,
    /// The reference's steps, also removing the punctuation characters it meant to remove.
    StripPunctuation,
}

/// Options of `hauser kb build`.
#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// Input file (`-` for stdin).
    #[arg(long, short)]
    pub input: PathBuf,
    /// Input format.
    #[arg(long, value_enum)]
    pub format: FormatArg,
    /// Index file to write. It is written to a temporary file and renamed, so an index that is
    /// open elsewhere is never modified in place.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Count and report malformed rows instead of stopping at the first one.
    #[arg(long)]
    pub skip_bad_rows: bool,
    /// Key normalisation.
    #[arg(long, value_enum, default_value = "reference")]
    pub clean: CleanArg,
}

/// Options of `hauser kb lookup`.
#[derive(Debug, Clone, Args)]
pub struct LookupArgs {
    /// Index file (`-` for stdin).
    pub index: PathBuf,
    /// Topic (raw; normalised like the index's keys).
    #[arg(long)]
    pub topic: String,
    /// Vehicle: report relevance, counts and the top properties of (topic, vehicle).
    #[arg(long)]
    pub vehicle: Option<String>,
    /// Property: report the top vehicles of (topic, property).
    #[arg(long)]
    pub property: Option<String>,
    /// How many properties or vehicles to list.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = flags::count)]
    pub top: usize,
}

/// Options of `hauser kb stats`.
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Index file (`-` for stdin).
    pub index: PathBuf,
}

/// Options of `hauser kb synth`.
#[derive(Debug, Clone, Args)]
pub struct SynthArgs {
    /// Rows to write.
    #[arg(long, allow_negative_numbers = true, value_parser = flags::count_u64)]
    pub triplets: u64,
    /// Random seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = flags::seed)]
    pub seed: u64,
    /// Output CSV (written to a temporary file and renamed when complete).
    #[arg(long, short)]
    pub out: PathBuf,
}

/// Runs `hauser kb`; JSON results go to `out`, progress messages to `log`.
///
/// # Errors
/// Unreadable or malformed inputs, corrupt indexes, unwritable outputs.
pub fn run(args: &KbArgs, out: &mut dyn Write, log: &mut dyn Write) -> Result<(), CliError> {
    let value = match &args.command {
        KbCommand::Build(a) => build(a, log)?,
        KbCommand::Lookup(a) => {
            files::RunFiles::new().input("INDEX", &a.index).check()?;
            lookup(a)?
        }
        KbCommand::Stats(a) => {
            files::RunFiles::new().input("INDEX", &a.index).check()?;
            serde_json::to_value(open_index(&a.index)?.stats())
                .map_err(|e| CliError::Usage(e.to_string()))?
        }
        KbCommand::Synth(a) => synth(a)?,
    };
    writeln!(out, "{value:#}").map_err(|e| CliError::io("-", e))
}

fn build(a: &BuildArgs, log: &mut dyn Write) -> Result<serde_json::Value, CliError> {
    let start = Instant::now();
    let normalizer = match a.clean {
        CleanArg::Reference => Normalizer::Reference,
        CleanArg::StripPunctuation => Normalizer::StripPunctuation,
    };
    let format = match a.format {
        FormatArg::MapsKb => InputFormat::MapsKb,
        FormatArg::Triplets => InputFormat::Triplets,
        FormatArg::SimileTsv => InputFormat::SimileTsv,
        FormatArg::Similes => InputFormat::Similes,
    };
    let extractor = hauser_extract::RuleExtractor::new();
    let mut builder = KbBuilder::new(normalizer);
    let opts = IngestOptions {
        skip_bad_rows: a.skip_bad_rows,
        // The same line limit as every other line reader of the CLI.
        max_line_bytes: files::max_input_bytes().min(files::MAX_LINE_BYTES),
    };
    // Refused before the (possibly long) ingestion.
    output_file_only("kb build", &a.out)?;
    let checked = files::RunFiles::new()
        .input("--input", &a.input)
        .regular_output(
            "--out",
            &a.out,
            "the index is written with seeks, then read back",
        )
        .check()?;
    let mut out = OutputFile::create(Some(&a.out), &checked)?;
    // Progress in bytes read; standard input has no known size.
    let size = if files::is_stdin(&a.input) {
        None
    } else {
        let meta = std::fs::metadata(&a.input).map_err(|e| CliError::io(&a.input, e))?;
        Some(meta.len())
    };
    let monitor = CliMonitor::bytes(size, "kb build: reading");
    let reader = std::io::BufReader::with_capacity(
        1 << 20,
        MonitoredRead::new(files::open(&a.input)?, &monitor),
    );
    // Once Ctrl-C is pressed, whatever error the interrupted read surfaces as is an interruption.
    let report = ingest_reader(
        reader,
        &a.input,
        format,
        &mut builder,
        opts,
        Some(&extractor),
    )
    .map_err(|e| interrupted_or(e.into()))?;
    interrupt::check()?;
    monitor.bar().set_message("kb build: writing the index");
    let ingest_s = start.elapsed().as_secs_f64();
    if let Some(file) = out.temp_file()? {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        builder.write_to(&mut w, &a.out)?;
        w.flush().map_err(|e| CliError::io(&a.out, e))?;
    }
    // Writing is not interruptible; a Ctrl-C during it still leaves no index behind (the
    // temporary file is removed when `out` is dropped uncommitted).
    interrupt::check()?;
    out.commit()?;
    drop(monitor);
    let stats = Kb::open(&a.out)?.stats();
    let log_err = |e| CliError::io("-", e);
    if report.bad_rows > 0 {
        writeln!(
            log,
            "hauser: kb: skipped {} malformed row(s):",
            report.bad_rows
        )
        .map_err(log_err)?;
        for m in &report.first_bad_rows {
            writeln!(log, "  {m}").map_err(log_err)?;
        }
    }
    writeln!(
        log,
        "hauser: kb: {} rows -> {} triplets in {:.2} s",
        report.rows_read,
        stats.triplets,
        start.elapsed().as_secs_f64()
    )
    .map_err(log_err)?;
    Ok(json!({
        "ingest": report,
        "ingest_seconds": ingest_s,
        "total_seconds": start.elapsed().as_secs_f64(),
        "index": stats,
    }))
}

/// The `kb` subcommands print their JSON report on standard output, so their `--out` must be a
/// file.
fn output_file_only(command: &str, out: &Path) -> Result<(), CliError> {
    if files::is_stdin(out) {
        return Err(CliError::Usage(format!(
            "{command} --out must be a file (its JSON report goes to standard output)"
        )));
    }
    Ok(())
}

/// Opens an index file, or reads one from standard input (`-`) within the in-memory limit.
fn open_index(path: &Path) -> Result<Kb, CliError> {
    if files::is_stdin(path) {
        Ok(Kb::from_bytes(files::read_all(path)?)?)
    } else {
        Ok(Kb::open(path)?)
    }
}

/// `CliError::Interrupted` when Ctrl-C was pressed, else `e`.
fn interrupted_or(e: CliError) -> CliError {
    if interrupt::interrupted() {
        CliError::Interrupted
    } else {
        e
    }
}

fn lookup(a: &LookupArgs) -> Result<serde_json::Value, CliError> {
    if a.vehicle.is_none() && a.property.is_none() {
        return Err(CliError::Usage(
            "kb lookup needs --vehicle (pair) or --property (top vehicles)".into(),
        ));
    }
    let kb = open_index(&a.index)?;
    let mut v = json!({
        "topic": a.topic,
        "topic_key": kb.key(&a.topic),
        "kb": kb.checksum(),
    });
    if let Some(vehicle) = &a.vehicle {
        let pair = kb.pair(&a.topic, vehicle);
        v["vehicle"] = json!(vehicle);
        v["vehicle_key"] = json!(kb.key(vehicle));
        v["relevance"] = json!(pair.map_or(0.0, |p| p.relevance));
        v["pair_count"] = json!(pair.map_or(0.0, |p| p.count));
        v["vehicle_count"] = json!(kb.vehicle_count(vehicle));
        v["top_properties"] = json!(kb.top_properties(&a.topic, vehicle, a.top));
    }
    if let Some(property) = &a.property {
        v["property"] = json!(property);
        v["top_vehicles"] = json!(kb.top_vehicles(&a.topic, property, a.top));
    }
    Ok(v)
}

fn synth(a: &SynthArgs) -> Result<serde_json::Value, CliError> {
    let start = Instant::now();
    output_file_only("kb synth", &a.out)?;
    // Refused before any file is created.
    hauser_kb::synth::check_size(a.triplets)?;
    let monitor = CliMonitor::new(Some(a.triplets), "kb synth: writing rows");
    let checked = files::RunFiles::new()
        .output("--out", Some(&a.out))
        .check()?;
    let mut out = OutputFile::create(Some(&a.out), &checked)?;
    let r = hauser_kb::synth::write_synthetic_monitored(&mut out, a.triplets, a.seed, &monitor)
        .map_err(|e| match e {
            KbError::Io { source, .. } => CliError::io(&a.out, source),
            other => other.into(),
        })
        .map_err(interrupted_or)?;
    interrupt::check()?;
    out.commit()?;
    drop(monitor);
    Ok(json!({
        "rows": r.rows,
        "topics": r.vocab[0],
        "properties": r.vocab[1],
        "vehicles": r.vocab[2],
        "seconds": start.elapsed().as_secs_f64(),
        "out": a.out.display().to_string(),
    }))
}

/// Adds the relevance and creativity scorers of `hauser score --kb INDEX`, or lists both
/// criteria as unavailable ("no --kb given") when no index is given.
///
/// # Errors
/// The index cannot be opened or is corrupt.
pub fn add_kb_scorers(
    index: Option<&Path>,
    scorers: &mut Vec<Box<dyn Scorer>>,
    unavailable: &mut Vec<(Criterion, String)>,
) -> Result<(), CliError> {
    match index {
        Some(path) => {
            let kb = Arc::new(open_index(path)?);
            scorers.push(Box::new(RelevanceScorer::new(kb.clone())));
            scorers.push(Box::new(CreativityScorer::new(kb)));
        }
        None => {
            for c in [Criterion::Relevance, Criterion::Creativity] {
                unavailable.push((c, "no --kb given".to_string()));
            }
        }
    }
    Ok(())
}
