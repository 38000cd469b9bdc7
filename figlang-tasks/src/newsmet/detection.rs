//! Metaphor detection evaluated from prediction files: accuracy, per-class precision, recall
//! and F1 with support, macro F1 (scikit-learn's `classification_report`), Cohen's kappa and
//! McNemar's test between two systems or annotators (statsmodels' `mcnemar`, exact and
//! chi-square with continuity correction), Fleiss' kappa for several.

use std::collections::BTreeMap;

use serde::Serialize;

use figlang_metrics::stats::{
    classification_report, cohen_kappa, fleiss_kappa, mcnemar, KappaWeights, McNemar, McNemarMethod,
};

use crate::error::{TaskError, TaskResult};

/// Scores of one class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClassScores {
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F1.
    pub f1: f64,
    /// True occurrences.
    pub support: usize,
}

/// The evaluation of one prediction list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DetectionReport {
    /// Share of correct predictions.
    pub accuracy: f64,
    /// Unweighted mean of the per-class F1.
    pub macro_f1: f64,
    /// Per class (`"0"` literal, `"1"` metaphorical).
    pub per_class: BTreeMap<String, ClassScores>,
    /// Items.
    pub n: usize,
}

/// Two systems on the same items.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairReport {
    /// `[[both right, only the first right], [only the second right, both wrong]]`.
    pub table: [[u64; 2]; 2],
    /// Exact (binomial) McNemar test.
    pub exact: McNemar,
    /// Chi-square McNemar test with continuity correction.
    pub chi2_corrected: McNemar,
    /// Cohen's kappa between the two prediction lists.
    pub cohen_kappa: f64,
}

fn as_i64(x: &[u8]) -> Vec<i64> {
    x.iter().map(|&v| i64::from(v)).collect()
}

fn same_len(what: &str, a: usize, b: usize) -> TaskResult<()> {
    if a != b {
        return Err(TaskError::Input(format!(
            "{what}: {a} predictions for {b} data rows (one label per row, in order)"
        )));
    }
    Ok(())
}

/// Evaluates `pred` against `gold`.
///
/// # Errors
/// Different lengths; no items.
pub fn evaluate(pred: &[u8], gold: &[u8]) -> TaskResult<DetectionReport> {
    same_len("predictions", pred.len(), gold.len())?;
    let r = classification_report(&as_i64(gold), &as_i64(pred))?;
    let per_class = r
        .labels
        .iter()
        .zip(r.per_class.iter().zip(&r.support))
        .map(|(l, (p, &support))| {
            (
                l.to_string(),
                ClassScores {
                    precision: p.precision,
                    recall: p.recall,
                    f1: p.f1,
                    support,
                },
            )
        })
        .collect();
    Ok(DetectionReport {
        accuracy: r.accuracy,
        macro_f1: r.macro_avg.f1,
        per_class,
        n: gold.len(),
    })
}

/// Compares two prediction lists on the same gold labels.
///
/// # Errors
/// Different lengths; no items.
pub fn compare(a: &[u8], b: &[u8], gold: &[u8]) -> TaskResult<PairReport> {
    same_len("first predictions", a.len(), gold.len())?;
    same_len("second predictions", b.len(), gold.len())?;
    let mut table = [[0u64; 2]; 2];
    for ((x, y), g) in a.iter().zip(b).zip(gold) {
        table[usize::from(x != g)][usize::from(y != g)] += 1;
    }
    Ok(PairReport {
        table,
        exact: mcnemar(table, McNemarMethod::Exact),
        chi2_corrected: mcnemar(table, McNemarMethod::ChiSquareCorrected),
        cohen_kappa: cohen_kappa(&as_i64(a), &as_i64(b), KappaWeights::Unweighted)?,
    })
}

/// Fleiss' kappa of several raters' (or systems') labels of the same items.
///
/// # Errors
/// Fewer than two raters, lists of different lengths, no items.
pub fn fleiss(raters: &[Vec<u8>]) -> TaskResult<f64> {
    if raters.len() < 2 {
        return Err(TaskError::Input(
            "Fleiss' kappa needs at least two raters".into(),
        ));
    }
    let n = raters[0].len();
    for r in raters {
        same_len("rater", r.len(), n)?;
    }
    let table: Vec<Vec<u64>> = (0..n)
        .map(|i| {
            let ones = raters.iter().filter(|r| r[i] == 1).count() as u64;
            vec![raters.len() as u64 - ones, ones]
        })
        .collect();
    Ok(fleiss_kappa(&table)?)
}
