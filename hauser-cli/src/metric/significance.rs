//! sacreBLEU's significance options on `hauser metric`: `--confidence` (bootstrap interval of a
//! corpus score; for ROUGE, rouge-score's `BootstrapAggregator`), and paired tests of systems
//! against a baseline, `--paired-bs` and `--paired-ar`, with sacreBLEU's defaults, seed
//! (`SACREBLEU_SEED`, default 12345) and numbers (figlang-metrics `text::significance`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{json, Map, Value};

use figlang_metrics::neural::{comet_compare, CometCompare};
use figlang_metrics::stats::Alternative;
use figlang_metrics::text::significance::{
    confidence_record, paired_records, segment_confidence_record, segment_paired_records,
    PairedTest, Resampling, MAX_SAMPLES,
};
use figlang_metrics::text::{MetricError, TextMetric};

use crate::error::CliError;

/// The significance options of `hauser metric`.
#[derive(Debug, Clone, Args)]
pub struct SignificanceFlags {
    /// bleu, chrf, ter: the corpus score's 95% bootstrap interval (sacreBLEU's `--confidence`:
    /// `confidence_mean`, `confidence_var`); ROUGE: rouge-score's BootstrapAggregator
    /// (`low`, `mid`, `high`). The seed is SACREBLEU_SEED's (default 12345).
    #[arg(long, conflicts_with_all = ["paired_bs", "paired_ar"])]
    pub confidence: bool,
    /// Bootstrap samples of --confidence.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = samples, requires = "confidence", conflicts_with_all = ["paired_bs", "paired_ar"])]
    pub confidence_n: usize,
    /// Paired bootstrap resampling of every --system against --hyp (the baseline), as
    /// sacreBLEU's `--paired-bs` (bleu, chrf, ter).
    #[arg(long, conflicts_with = "paired_ar", requires = "systems")]
    pub paired_bs: bool,
    /// Resamples of --paired-bs.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = samples, requires = "paired_bs", conflicts_with_all = ["confidence", "paired_ar"])]
    pub paired_bs_n: usize,
    /// Paired approximate randomization of every --system against --hyp, as sacreBLEU's
    /// `--paired-ar` (bleu, chrf, ter).
    #[arg(long, requires = "systems")]
    pub paired_ar: bool,
    /// Trials of --paired-ar.
    #[arg(long, default_value_t = 10000, allow_negative_numbers = true, value_parser = samples, requires = "paired_ar", conflicts_with_all = ["confidence", "paired_bs"])]
    pub paired_ar_n: usize,
    /// A system compared with the baseline --hyp, line-aligned with it; repeat for several.
    #[arg(long = "system", value_name = "FILE")]
    pub systems: Vec<PathBuf>,
    /// The neural metrics: unbabel-comet's `comet-compare` statistics of --hyp and every
    /// --system, pair by pair (bootstrap resampling of system means, wins and ties; SciPy's
    /// paired t-test), one JSON line per pair.
    #[arg(long, requires = "systems", conflicts_with_all = ["confidence", "paired_bs", "paired_ar"])]
    pub comet_compare: bool,
    /// Bootstrap partitions of --comet-compare (comet-compare's --num_splits).
    #[arg(long, default_value_t = 300, allow_negative_numbers = true, value_parser = samples, requires = "comet_compare")]
    pub num_splits: usize,
    /// Share of the lines in each partition of --comet-compare (its --sample_ratio).
    #[arg(long, default_value_t = 0.4, allow_negative_numbers = true, value_parser = sample_ratio, requires = "comet_compare")]
    pub sample_ratio: f64,
    /// The t-test's alternative of --comet-compare (its --t_test_alternative).
    #[arg(long, default_value = "two-sided", value_parser = ["two-sided", "less", "greater"], requires = "comet_compare")]
    pub t_test_alternative: String,
}

fn sample_ratio(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(r),
        _ => Err(format!("{s:?}: a positive number (a share of the lines)")),
    }
}

fn samples(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_SAMPLES).contains(&n) => Ok(n),
        _ => Err(format!(
            "{s:?}: a number of samples from 1 to {MAX_SAMPLES}"
        )),
    }
}

impl SignificanceFlags {
    /// Whether a significance option was given.
    pub fn wanted(&self) -> bool {
        self.confidence || self.paired_bs || self.paired_ar || self.comet_compare
    }

    /// Whether a test compares --system files with --hyp.
    pub fn compares_systems(&self) -> bool {
        self.paired_bs || self.paired_ar || self.comet_compare
    }
}

fn err(e: MetricError) -> CliError {
    CliError::Usage(e.to_string())
}

/// `n` resamples seeded as sacreBLEU seeds them: the program reads `SACREBLEU_SEED`, the
/// library parses it.
fn resampling(n: usize) -> Result<Resampling, CliError> {
    let value = std::env::var("SACREBLEU_SEED").ok();
    Resampling::with_sacrebleu_seed(n, value.as_deref()).map_err(err)
}

/// `--confidence`: the corpus line with the interval, its sample count and seed
/// ([`confidence_record`]).
///
/// # Errors
/// A metric without resampling statistics; metric failures.
pub fn confidence(
    name: &str,
    metric: &dyn TextMetric,
    flags: &SignificanceFlags,
    hyps: &[String],
    refs: &[Vec<String>],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let r = resampling(flags.confidence_n)?;
    let line = confidence_record(name, metric, hyps, refs, &r).map_err(err)?;
    writeln!(out, "{}", Value::Object(line)).map_err(|e| CliError::io("<stdout>", e))
}

/// `--paired-bs` / `--paired-ar`: one JSON line per system, the baseline first
/// ([`paired_records`], named by `system`).
///
/// # Errors
/// A metric without resampling statistics; unreadable or misaligned systems; metric failures.
#[allow(clippy::too_many_arguments)]
pub fn paired(
    name: &str,
    metric: &dyn TextMetric,
    flags: &SignificanceFlags,
    baseline: &Path,
    hyps: &[String],
    systems: &[Vec<String>],
    refs: &[Vec<String>],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (test, n) = if flags.paired_bs {
        (PairedTest::Bootstrap, flags.paired_bs_n)
    } else {
        (PairedTest::ApproximateRandomization, flags.paired_ar_n)
    };
    let r = resampling(n)?;
    let records = paired_records(name, metric, hyps, systems, refs, test, &r).map_err(err)?;
    write_named(Some(baseline), &flags.systems, records, out)
}

/// The names of the compared files: the baseline's path first (`-` when it is standard
/// input), then each system's.
fn file_names(baseline: Option<&Path>, systems: &[PathBuf]) -> Vec<String> {
    std::iter::once(baseline.map_or("-".into(), |p| p.display().to_string()))
        .chain(systems.iter().map(|p| p.display().to_string()))
        .collect()
}

/// Writes the records of a paired test, one JSON line each, named by `system`: `Baseline: `
/// and the baseline's name first, then each system's ([`file_names`]).
fn write_named(
    baseline: Option<&Path>,
    systems: &[PathBuf],
    records: Vec<Map<String, Value>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut names = file_names(baseline, systems);
    names[0] = format!("Baseline: {}", names[0]);
    for (system, record) in names.into_iter().zip(records) {
        let mut line = Map::new();
        line.insert("system".into(), Value::String(system));
        line.extend(record);
        writeln!(out, "{}", Value::Object(line)).map_err(|e| CliError::io("<stdout>", e))?;
    }
    Ok(())
}

/// The significance test asked of a metric scored line by line (the neural metrics): its corpus
/// score is the mean of the lines' scores, and sacreBLEU's tests run on those scores
/// (figlang-metrics `segment_confidence_record`, `segment_paired_records`).
#[derive(Debug, Clone, Copy)]
pub struct SignificanceRun<'a> {
    flags: &'a SignificanceFlags,
    baseline: Option<&'a Path>,
}

impl<'a> SignificanceRun<'a> {
    /// The test `flags` ask for; `baseline` is the `--hyp` file that a paired test names.
    pub fn new(flags: &'a SignificanceFlags, baseline: Option<&'a Path>) -> Self {
        Self { flags, baseline }
    }

    /// Writes the records of the test asked for, one JSON line each: `--confidence` the corpus
    /// record with its interval; a paired test one record per system, the baseline first
    /// (named by `system`, as for the text metrics). Returns `false`, writing nothing, when no
    /// test was asked for.
    ///
    /// # Errors
    /// Systems of another length than the baseline; an unwritable output.
    pub fn write(
        &self,
        name: &str,
        scores: &[f64],
        systems: &[Vec<f64>],
        signature: &hauser_core::Signature,
        out: &mut dyn Write,
    ) -> Result<bool, CliError> {
        let flags = self.flags;
        let io = |e| CliError::io("<stdout>", e);
        if flags.comet_compare {
            return self.comet_compare(name, scores, systems, signature, out);
        }
        if flags.confidence {
            let r = resampling(flags.confidence_n)?;
            let line = segment_confidence_record(name, scores, signature, &r).map_err(err)?;
            writeln!(out, "{}", Value::Object(line)).map_err(io)?;
            return Ok(true);
        }
        if !(flags.paired_bs || flags.paired_ar) {
            return Ok(false);
        }
        let (test, n) = if flags.paired_bs {
            (PairedTest::Bootstrap, flags.paired_bs_n)
        } else {
            (PairedTest::ApproximateRandomization, flags.paired_ar_n)
        };
        let r = resampling(n)?;
        let records =
            segment_paired_records(name, scores, systems, signature, test, &r).map_err(err)?;
        write_named(self.baseline, &flags.systems, records, out)?;
        Ok(true)
    }

    /// `--comet-compare`: one JSON line per pair of systems (--hyp first, then each --system),
    /// with comet-compare's `x_name`, `y_name`, `bootstrap_resampling` (`x-mean`, `y-mean`,
    /// `ties (%)`, `x_wins (%)`, `y_wins (%)`) and `paired_t-test` (`statistic`, `p_value`).
    fn comet_compare(
        &self,
        name: &str,
        scores: &[f64],
        systems: &[Vec<f64>],
        signature: &hauser_core::Signature,
        out: &mut dyn Write,
    ) -> Result<bool, CliError> {
        let flags = self.flags;
        let cfg = CometCompare {
            num_splits: flags.num_splits,
            sample_ratio: flags.sample_ratio,
            alternative: Alternative::parse(&flags.t_test_alternative).unwrap_or_default(),
            ..CometCompare::default()
        };
        let all: Vec<Vec<f64>> = std::iter::once(scores.to_vec())
            .chain(systems.iter().cloned())
            .collect();
        let pairs = comet_compare(&all, &cfg).map_err(err)?;
        let names = file_names(self.baseline, &flags.systems);
        let sig = signature
            .clone()
            .with("compare", "comet-compare")
            .with("splits", cfg.num_splits)
            .with("ratio", cfg.sample_ratio)
            .with("alternative", cfg.alternative.as_str())
            .with("seed", cfg.seed)
            .to_string();
        // json! writes a non-finite number (a t-test without variance) as null.
        for p in pairs {
            let line = json!({
                "metric": name,
                "x_name": names[p.x],
                "y_name": names[p.y],
                "bootstrap_resampling": {
                    "x-mean": p.x_mean,
                    "y-mean": p.y_mean,
                    "ties (%)": p.ties,
                    "x_wins (%)": p.x_wins,
                    "y_wins (%)": p.y_wins,
                },
                "paired_t-test": {
                    "statistic": p.t_test.statistic,
                    "p_value": p.t_test.p_value,
                },
                "signature": sig,
            });
            writeln!(out, "{line}").map_err(|e| CliError::io("<stdout>", e))?;
        }
        Ok(true)
    }
}
