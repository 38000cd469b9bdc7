//! sacreBLEU's significance options on `hauser metric`: `--confidence` (bootstrap interval of a
//! corpus score; for ROUGE, rouge-score's `BootstrapAggregator`), and paired tests of systems
//! against a baseline, `--paired-bs` and `--paired-ar`, with sacreBLEU's defaults, seed
//! (`SACREBLEU_SEED`, default 12345) and numbers (figlang-metrics `text::significance`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{json, Value};

use figlang_metrics::text::rouge::Prf;
use figlang_metrics::text::significance::{
    bootstrap_ci, paired_ar, paired_bootstrap, rouge_bootstrap, Resampling, ROUGE_CONFIDENCE,
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
    #[arg(long, default_value_t = 1000, value_parser = samples)]
    pub confidence_n: usize,
    /// Paired bootstrap resampling of every --system against --hyp (the baseline), as
    /// sacreBLEU's `--paired-bs` (bleu, chrf, ter).
    #[arg(long, conflicts_with = "paired_ar", requires = "systems")]
    pub paired_bs: bool,
    /// Resamples of --paired-bs.
    #[arg(long, default_value_t = 1000, value_parser = samples)]
    pub paired_bs_n: usize,
    /// Paired approximate randomization of every --system against --hyp, as sacreBLEU's
    /// `--paired-ar` (bleu, chrf, ter).
    #[arg(long, requires = "systems")]
    pub paired_ar: bool,
    /// Trials of --paired-ar.
    #[arg(long, default_value_t = 10000, value_parser = samples)]
    pub paired_ar_n: usize,
    /// A system compared with the baseline --hyp, line-aligned with it; repeat for several.
    #[arg(long = "system", value_name = "FILE")]
    pub systems: Vec<PathBuf>,
}

fn samples(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!("{s:?}: a number of samples from 1 to 1000000")),
    }
}

impl SignificanceFlags {
    /// Whether a significance option was given.
    pub fn wanted(&self) -> bool {
        self.confidence || self.paired_bs || self.paired_ar
    }
}

fn err(e: MetricError) -> CliError {
    CliError::Usage(e.to_string())
}

fn resampling(n: usize) -> Result<Resampling, CliError> {
    Resampling::from_env(n).map_err(err)
}

fn seed_field(r: &Resampling) -> Value {
    r.seed.map_or(Value::String("None".into()), |s| json!(s))
}

/// `--confidence`: the corpus line with the interval, its sample count and seed.
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
    let corpus = metric.corpus_score(hyps, refs).map_err(err)?;
    let sig = corpus
        .signature
        .clone()
        .with("bs", r.n_samples)
        .with("seed", r.seed.map_or("None".to_string(), |s| s.to_string()));
    let mut line = json!({
        "metric": name,
        "score": corpus.score,
        "scale": metric.scale().as_str(),
        "n": hyps.len(),
        "signature": sig.to_string(),
        "confidence_n": r.n_samples,
        "seed": seed_field(&r),
    });
    if let Some(res) = metric.resampled() {
        let rows = res.stats_rows(hyps, refs).map_err(err)?;
        let ci = bootstrap_ci(&rows, res, &r).map_err(err)?;
        line["confidence_mean"] = json!(ci.mean);
        line["confidence_var"] = json!(ci.ci);
        line["confidence"] = json!(format!("μ = {:.2} ± {:.2}", ci.mean, ci.ci));
    } else if name.starts_with("rouge") {
        let prf: Vec<Prf> = metric
            .sentence_details(hyps, refs)
            .map_err(err)?
            .iter()
            .map(|d| {
                let f = |k: &str| d.get(k).and_then(Value::as_f64).unwrap_or(0.0);
                Prf {
                    precision: f("precision"),
                    recall: f("recall"),
                    fmeasure: f("fmeasure"),
                }
            })
            .collect();
        // rouge-score seeds NumPy's legacy generator, whose seeds are 32-bit.
        let seed = match r.seed {
            Some(s) => Some(u32::try_from(s).map_err(|_| {
                CliError::Usage(format!(
                    "SACREBLEU_SEED={s}: ROUGE's bootstrap (NumPy's legacy generator) takes seeds below 2^32"
                ))
            })?),
            None => None,
        };
        let agg = rouge_bootstrap(&prf, r.n_samples, ROUGE_CONFIDENCE, seed).map_err(err)?;
        let prf_json =
            |p: Prf| json!({"precision": p.precision, "recall": p.recall, "fmeasure": p.fmeasure});
        line["low"] = prf_json(agg.low);
        line["mid"] = prf_json(agg.mid);
        line["high"] = prf_json(agg.high);
    } else {
        return Err(unsupported(name, "--confidence"));
    }
    writeln!(out, "{line}").map_err(|e| CliError::io("<stdout>", e))
}

fn unsupported(name: &str, flag: &str) -> CliError {
    CliError::Usage(format!(
        "{flag} is sacreBLEU's resampling test, for bleu, chrf, chrf++ and ter{}; {name} has none",
        if flag == "--confidence" {
            " (and ROUGE's bootstrap aggregate)"
        } else {
            ""
        }
    ))
}

/// `--paired-bs` / `--paired-ar`: one JSON line per system, the baseline first (sacreBLEU's
/// `Result` fields `score`, `p_value`, `mean`, `ci`).
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
    let flag = if flags.paired_bs {
        "--paired-bs"
    } else {
        "--paired-ar"
    };
    let res = metric.resampled().ok_or_else(|| unsupported(name, flag))?;
    let base_rows = res.stats_rows(hyps, refs).map_err(err)?;
    let sys_rows = systems
        .iter()
        .map(|s| res.stats_rows(s, refs))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let views: Vec<&[Vec<f64>]> = sys_rows.iter().map(Vec::as_slice).collect();
    let (r, results, test) = if flags.paired_bs {
        let r = resampling(flags.paired_bs_n)?;
        let res = paired_bootstrap(&base_rows, &views, res, &r).map_err(err)?;
        (r, res, "paired-bs")
    } else {
        let r = resampling(flags.paired_ar_n)?;
        let res = paired_ar(&base_rows, &views, res, &r, None).map_err(err)?;
        (r, res, "paired-ar")
    };
    let sig = metric
        .signature(hyps.len(), refs.len())
        .with(if flags.paired_bs { "bs" } else { "ar" }, r.n_samples)
        .with("seed", r.seed.map_or("None".to_string(), |s| s.to_string()))
        .to_string();
    let names = std::iter::once(format!("Baseline: {}", baseline.display()))
        .chain(flags.systems.iter().map(|p| p.display().to_string()));
    for (system, result) in names.zip(results) {
        let line = json!({
            "system": system,
            "metric": name,
            "score": result.score,
            "p_value": result.p_value,
            "mean": result.mean,
            "ci": result.ci,
            "test": test,
            "n": r.n_samples,
            "seed": seed_field(&r),
            "signature": sig,
        });
        writeln!(out, "{line}").map_err(|e| CliError::io("<stdout>", e))?;
    }
    Ok(())
}
