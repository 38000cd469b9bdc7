//! The records of sacreBLEU's significance options for a registry metric: what `hauser metric
//! --confidence` / `--paired-bs` / `--paired-ar` print, one JSON object per line, and what the
//! Python package returns as dicts. Field names are sacreBLEU's (`confidence_mean`,
//! `confidence_var`; `score`, `p_value`, `mean`, `ci`) and rouge-score's (`low`, `mid`, `high`).

use hauser_core::Signature;
use serde_json::{json, Map, Value};

use super::{
    bootstrap_ci, paired_ar, paired_bootstrap, rouge_bootstrap, PairedResult, Resampling,
    ROUGE_CONFIDENCE,
};
use crate::text::metrics::rouge::Prf;
use crate::text::{MetricError, TextMetric};

/// The most resamples or trials a caller may ask for (`--confidence-n`, `--paired-bs-n`,
/// `--paired-ar-n`): each resample costs a pass over the statistics rows.
pub const MAX_SAMPLES: usize = 1_000_000;

/// A paired significance test of systems against a baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairedTest {
    /// Paired bootstrap resampling (sacreBLEU's `--paired-bs`).
    Bootstrap,
    /// Paired approximate randomization (sacreBLEU's `--paired-ar`).
    ApproximateRandomization,
}

impl PairedTest {
    /// sacreBLEU's flag: `--paired-bs` or `--paired-ar`.
    pub fn flag(self) -> &'static str {
        match self {
            PairedTest::Bootstrap => "--paired-bs",
            PairedTest::ApproximateRandomization => "--paired-ar",
        }
    }

    /// The `test` field of the records: `paired-bs` or `paired-ar`.
    pub fn name(self) -> &'static str {
        &self.flag()[2..]
    }

    /// The signature field of the sample count: `bs` or `ar`.
    pub(super) fn signature_key(self) -> &'static str {
        &self.name()[7..]
    }
}

/// The `seed` field: the seed, or sacreBLEU's `"None"` for an unseeded run.
pub(super) fn seed_field(r: &Resampling) -> Value {
    r.seed.map_or(Value::String("None".into()), |s| json!(s))
}

pub(super) fn seed_text(r: &Resampling) -> String {
    r.seed.map_or("None".to_string(), |s| s.to_string())
}

fn unsupported(name: &str, flag: &str) -> MetricError {
    MetricError::input(
        name,
        format!(
            "{flag} is sacreBLEU's resampling test, for bleu, chrf, chrf++ and ter{}; {name} has none",
            if flag == "--confidence" {
                " (and ROUGE's bootstrap aggregate)"
            } else {
                ""
            }
        ),
    )
}

/// `--confidence`: the corpus record (`metric`, `score`, `scale`, `n`, `signature` with the
/// sample count and seed, `confidence_n`, `seed`) with the interval: sacreBLEU's
/// `confidence_mean`, `confidence_var` and its `confidence` text for BLEU, chrF and TER;
/// rouge-score's `BootstrapAggregator` `low`, `mid`, `high` (P/R/F each) for ROUGE.
///
/// # Errors
/// A metric with neither; metric failures; for ROUGE a seed of 2^32 or more (rouge-score seeds
/// NumPy's legacy generator).
pub fn confidence_record(
    name: &str,
    metric: &dyn TextMetric,
    hyps: &[String],
    refs: &[Vec<String>],
    r: &Resampling,
) -> Result<Map<String, Value>, MetricError> {
    let corpus = metric.corpus_score(hyps, refs)?;
    let sig = corpus
        .signature
        .with("bs", r.n_samples)
        .with("seed", seed_text(r));
    let mut line = Map::new();
    line.insert("metric".into(), json!(name));
    line.insert("score".into(), json!(corpus.score));
    line.insert("scale".into(), json!(metric.scale().as_str()));
    line.insert("n".into(), json!(hyps.len()));
    line.insert("signature".into(), json!(sig.to_string()));
    line.insert("confidence_n".into(), json!(r.n_samples));
    line.insert("seed".into(), seed_field(r));
    if let Some(res) = metric.resampled() {
        let rows = res.stats_rows(hyps, refs)?;
        let ci = bootstrap_ci(&rows, res.scorer(), r)?;
        line.insert("confidence_mean".into(), json!(ci.mean));
        line.insert("confidence_var".into(), json!(ci.ci));
        line.insert(
            "confidence".into(),
            json!(format!("μ = {:.2} ± {:.2}", ci.mean, ci.ci)),
        );
    } else if name.starts_with("rouge") {
        let prf: Vec<Prf> = metric
            .sentence_details(hyps, refs)?
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
        let seed = match r.seed {
            Some(s) => Some(u32::try_from(s).map_err(|_| {
                MetricError::option(
                    name,
                    format!(
                        "SACREBLEU_SEED={s}: ROUGE's bootstrap (NumPy's legacy generator) takes seeds below 2^32"
                    ),
                )
            })?),
            None => None,
        };
        let agg = rouge_bootstrap(&prf, r.n_samples, ROUGE_CONFIDENCE, seed)?;
        let prf_json =
            |p: Prf| json!({"precision": p.precision, "recall": p.recall, "fmeasure": p.fmeasure});
        line.insert("low".into(), prf_json(agg.low));
        line.insert("mid".into(), prf_json(agg.mid));
        line.insert("high".into(), prf_json(agg.high));
    } else {
        return Err(unsupported(name, "--confidence"));
    }
    Ok(line)
}

/// `--paired-bs` / `--paired-ar`: one record per system, the baseline first, each with
/// sacreBLEU's `Result` fields `score`, `p_value` (none for the baseline), `mean`, `ci`, and
/// `metric`, `test`, `n`, `seed` and the signature (with the sample count and seed).
///
/// # Errors
/// A metric without resampling statistics (BLEU, chrF and TER have them); systems not aligned
/// with the references; metric failures.
pub fn paired_records(
    name: &str,
    metric: &dyn TextMetric,
    baseline: &[String],
    systems: &[Vec<String>],
    refs: &[Vec<String>],
    test: PairedTest,
    r: &Resampling,
) -> Result<Vec<Map<String, Value>>, MetricError> {
    let res = metric
        .resampled()
        .ok_or_else(|| unsupported(name, test.flag()))?;
    let base_rows = res.stats_rows(baseline, refs)?;
    let sys_rows = systems
        .iter()
        .map(|s| res.stats_rows(s, refs))
        .collect::<Result<Vec<_>, _>>()?;
    let views: Vec<&[Vec<f64>]> = sys_rows.iter().map(Vec::as_slice).collect();
    let results = match test {
        PairedTest::Bootstrap => paired_bootstrap(&base_rows, &views, res.scorer(), r)?,
        PairedTest::ApproximateRandomization => {
            paired_ar(&base_rows, &views, res.scorer(), r, None)?
        }
    };
    let sig = metric.signature(baseline.len(), refs.len());
    Ok(paired_lines(name, results, test, r, sig))
}

/// The records of a paired test's results (see [`paired_records`]); `signature` gets the sample
/// count and the seed. A non-finite number is written `null` (serde_json's conversion).
pub(super) fn paired_lines(
    name: &str,
    results: Vec<PairedResult>,
    test: PairedTest,
    r: &Resampling,
    signature: Signature,
) -> Vec<Map<String, Value>> {
    let sig = signature
        .with(test.signature_key(), r.n_samples)
        .with("seed", seed_text(r))
        .to_string();
    results
        .into_iter()
        .map(|result| {
            let mut line = Map::new();
            line.insert("metric".into(), json!(name));
            line.insert("score".into(), json!(result.score));
            line.insert("p_value".into(), json!(result.p_value));
            line.insert("mean".into(), json!(result.mean));
            line.insert("ci".into(), json!(result.ci));
            line.insert("test".into(), json!(test.name()));
            line.insert("n".into(), json!(r.n_samples));
            line.insert("seed".into(), seed_field(r));
            line.insert("signature".into(), json!(sig));
            line
        })
        .collect()
}
