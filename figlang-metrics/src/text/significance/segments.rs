//! sacreBLEU's significance options for metrics scored segment by segment (the learned metrics:
//! COMET, BLEURT, BERTScore, perplexity, style strength), whose corpus score is the mean of the
//! segments' scores. sacreBLEU has no such metric; its tests are applied unchanged to statistics
//! rows `[score, 1]` (a non-finite score `[0, 0]`, left out of the mean as the corpus score leaves
//! it out) scored as `sum(score) / sum(count)`: the same seeds, resample indices, `float32` sums,
//! CI half-widths and p-values as `--paired-bs` / `--paired-ar` / `--confidence` of BLEU.
//!
//! ```
//! use figlang_metrics::text::significance::{segment_paired_records, PairedTest, Resampling};
//! use hauser_core::Signature;
//!
//! let base = [0.1, 0.4, 0.3, 0.2];
//! let better = [0.9, 0.8, 0.7, 0.9];
//! let sig = Signature::new("comet", "1.0");
//! let r = Resampling::bootstrap();
//! let recs = segment_paired_records("comet", &base, &[better.to_vec()], &sig, PairedTest::Bootstrap, &r)?;
//! assert_eq!(recs.len(), 2);
//! assert!(recs[1]["p_value"].as_f64().unwrap() < 0.05);
//! # Ok::<(), figlang_metrics::text::MetricError>(())
//! ```

use hauser_core::Signature;
use serde_json::{json, Map, Value};

use super::report::{paired_lines, seed_field, seed_text};
use super::{bootstrap_ci, paired_ar, paired_bootstrap, PairedTest, Resampling};
use crate::text::MetricError;

/// The statistics row of one segment's score: `[score, 1]`, or `[0, 0]` when it is not finite.
fn row(score: f64) -> [f64; 2] {
    if score.is_finite() {
        [score, 1.0]
    } else {
        [0.0, 0.0]
    }
}

fn rows(scores: &[f64]) -> Vec<[f64; 2]> {
    scores.iter().map(|&s| row(s)).collect()
}

/// The mean of the finite scores, from a summed row (NaN when none is finite).
fn mean(sums: &[f64]) -> f64 {
    if sums[1] > 0.0 {
        sums[0] / sums[1]
    } else {
        f64::NAN
    }
}

/// `--confidence` for a segment-scored metric: the record of
/// [`confidence_record`](super::confidence_record) (`metric`, `score`, `n`, `signature` with `bs`
/// and `seed`, `confidence_n`, `seed`, `confidence_mean`, `confidence_var`, `confidence`), the
/// text with four decimals (these metrics are not on a 0-100 scale).
///
/// # Errors
/// No segments; a sample count of 0 or above the maximum.
pub fn segment_confidence_record(
    name: &str,
    scores: &[f64],
    signature: &Signature,
    r: &Resampling,
) -> Result<Map<String, Value>, MetricError> {
    let ci = bootstrap_ci(&rows(scores), &mean, r)?;
    let sig = signature
        .clone()
        .with("bs", r.n_samples)
        .with("seed", seed_text(r));
    let mut line = Map::new();
    line.insert("metric".into(), json!(name));
    // json! writes NaN (no finite score in a resample) and infinities as null.
    line.insert("score".into(), json!(ci.score));
    line.insert("n".into(), json!(scores.len()));
    line.insert("signature".into(), json!(sig.to_string()));
    line.insert("confidence_n".into(), json!(r.n_samples));
    line.insert("seed".into(), seed_field(r));
    line.insert("confidence_mean".into(), json!(ci.mean));
    line.insert("confidence_var".into(), json!(ci.ci));
    line.insert(
        "confidence".into(),
        json!(format!("μ = {:.4} ± {:.4}", ci.mean, ci.ci)),
    );
    Ok(line)
}

/// `--paired-bs` / `--paired-ar` for a segment-scored metric: one record per system, the
/// baseline first, with the fields of [`paired_records`](super::paired_records) (`metric`,
/// `score`, `p_value`, `mean`, `ci`, `test`, `n`, `seed`, `signature`).
///
/// # Errors
/// No segments; systems of another length than the baseline; a sample count out of range.
pub fn segment_paired_records(
    name: &str,
    baseline: &[f64],
    systems: &[Vec<f64>],
    signature: &Signature,
    test: PairedTest,
    r: &Resampling,
) -> Result<Vec<Map<String, Value>>, MetricError> {
    let base_rows = rows(baseline);
    let sys_rows: Vec<Vec<[f64; 2]>> = systems.iter().map(|s| rows(s)).collect();
    let views: Vec<&[[f64; 2]]> = sys_rows.iter().map(Vec::as_slice).collect();
    let results = match test {
        PairedTest::Bootstrap => paired_bootstrap(&base_rows, &views, &mean, r)?,
        PairedTest::ApproximateRandomization => paired_ar(&base_rows, &views, &mean, r, None)?,
    };
    Ok(paired_lines(name, results, test, r, signature.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r() -> Resampling {
        Resampling::bootstrap()
    }

    #[test]
    fn the_score_is_the_mean_of_the_finite_segments() {
        let sig = Signature::new("m", "1");
        let mut scores = vec![2.0; 40];
        scores[3] = f64::NAN;
        scores[7] = 4.0;
        let line = segment_confidence_record("m", &scores, &sig, &r()).unwrap();
        assert_eq!(line["score"], json!(80.0 / 39.0));
        assert_eq!(line["n"], json!(40));
        let m = line["confidence_mean"].as_f64().unwrap();
        assert!((2.0..=2.1).contains(&m), "{m}");
        assert!(line["signature"].as_str().unwrap().contains("bs:1000"));
        // No finite score: NaN, written as null.
        let line = segment_confidence_record("m", &[f64::NAN; 3], &sig, &r()).unwrap();
        assert_eq!(line["score"], Value::Null);
        assert_eq!(line["confidence_mean"], Value::Null);
    }

    #[test]
    fn small_differences_are_not_significant_and_large_ones_are() {
        let a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3, 0.7, 0.6];
        // +0.05 and -0.04 in turn: the means differ by 0.005, far less than the noise.
        let close: Vec<f64> = a
            .iter()
            .enumerate()
            .map(|(i, x)| x + if i % 2 == 0 { 0.05 } else { -0.04 })
            .collect();
        let far: Vec<f64> = a.iter().map(|x| x + 0.3).collect();
        let sig = Signature::new("m", "1");
        for (test, rr) in [
            (PairedTest::Bootstrap, Resampling::bootstrap()),
            (
                PairedTest::ApproximateRandomization,
                Resampling::approximate_randomization(),
            ),
        ] {
            let recs =
                segment_paired_records("m", &a, &[close.clone(), far.clone()], &sig, test, &rr)
                    .unwrap();
            assert_eq!(recs[0]["p_value"], Value::Null);
            let p = |i: usize| recs[i]["p_value"].as_f64().unwrap();
            assert!(p(1) > 0.05, "{test:?}: {}", p(1));
            assert!(p(2) < 0.05, "{test:?}: {}", p(2));
            assert_eq!(recs[2]["test"], json!(test.name()));
        }
    }

    #[test]
    fn seeded_results_repeat_and_lengths_are_checked() {
        let a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.6];
        let b = [0.3, 0.5, 0.3, 0.9, 0.4, 0.7];
        let sig = Signature::new("m", "1");
        let t = PairedTest::Bootstrap;
        let one = segment_paired_records("m", &a, &[b.to_vec()], &sig, t, &r()).unwrap();
        let two = segment_paired_records("m", &a, &[b.to_vec()], &sig, t, &r()).unwrap();
        assert_eq!(one, two);
        assert!(segment_paired_records("m", &a, &[b[..5].to_vec()], &sig, t, &r()).is_err());
        assert!(segment_confidence_record("m", &[], &sig, &r()).is_err());
    }
}
