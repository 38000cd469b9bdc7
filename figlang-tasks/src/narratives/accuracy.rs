//! Accuracy of discriminative predictions with a bootstrap interval, and McNemar's test between
//! two systems on the same items.

use serde::Serialize;

use figlang_metrics::stats::{
    bootstrap_mean, mcnemar, BootstrapConfig, BootstrapInterval, McNemar, McNemarMethod,
};

use super::data::Choice;
use crate::error::{TaskError, TaskResult};

/// Accuracy of one prediction list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccuracyReport {
    /// Fraction of items predicted right, with its percentile bootstrap interval.
    pub accuracy: BootstrapInterval,
    /// Items predicted right.
    pub correct: usize,
    /// Items.
    pub n: usize,
}

fn check(pred: &[Choice], gold: &[Choice]) -> TaskResult<()> {
    if pred.len() != gold.len() {
        return Err(TaskError::Input(format!(
            "{} predictions for {} labelled items",
            pred.len(),
            gold.len()
        )));
    }
    if gold.is_empty() {
        return Err(TaskError::Input("no items to score".into()));
    }
    Ok(())
}

/// Accuracy of `pred` against `gold`, with a seeded bootstrap interval over items.
///
/// # Errors
/// [`TaskError::Input`] for lists of different lengths or no items; a bad bootstrap setting.
pub fn accuracy(
    pred: &[Choice],
    gold: &[Choice],
    bootstrap: &BootstrapConfig,
) -> TaskResult<AccuracyReport> {
    check(pred, gold)?;
    let hits: Vec<f64> = pred
        .iter()
        .zip(gold)
        .map(|(p, g)| f64::from(u8::from(p == g)))
        .collect();
    Ok(AccuracyReport {
        accuracy: bootstrap_mean(&hits, bootstrap)?,
        correct: hits.iter().filter(|&&h| h > 0.0).count(),
        n: gold.len(),
    })
}

/// McNemar's test between two systems' predictions on the same items: the 2x2 table of
/// right/wrong pairs (`[[both right, only a right], [only b right, both wrong]]`) and the
/// exact (binomial) test, as statsmodels' `mcnemar(table, exact=True)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedComparison {
    /// The contingency table.
    pub table: [[u64; 2]; 2],
    /// The exact test.
    pub exact: McNemar,
    /// The chi-square test with continuity correction (`exact=False, correction=True`).
    pub chi2_corrected: McNemar,
}

/// Compares two prediction lists against the same labels.
///
/// # Errors
/// [`TaskError::Input`] when the three lists differ in length or are empty.
pub fn compare(a: &[Choice], b: &[Choice], gold: &[Choice]) -> TaskResult<PairedComparison> {
    check(a, gold)?;
    check(b, gold)?;
    let mut table = [[0u64; 2]; 2];
    for ((x, y), g) in a.iter().zip(b).zip(gold) {
        table[usize::from(x != g)][usize::from(y != g)] += 1;
    }
    Ok(PairedComparison {
        table,
        exact: mcnemar(table, McNemarMethod::Exact),
        chi2_corrected: mcnemar(table, McNemarMethod::ChiSquareCorrected),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Choice::{Option1 as A, Option2 as B};

    #[test]
    fn accuracy_and_mcnemar_table() {
        let gold = [A, B, A, B, A, B];
        let p = [A, B, A, A, B, B];
        let r = accuracy(&p, &gold, &BootstrapConfig::default()).unwrap();
        assert_eq!((r.correct, r.n), (4, 6));
        assert!((r.accuracy.estimate - 4.0 / 6.0).abs() < 1e-15);
        let q = [A, A, A, B, A, A];
        let c = compare(&p, &q, &gold).unwrap();
        // p is right on items 0, 1, 2, 5 and q on 0, 2, 3, 4: both on 0 and 2, only p on 1
        // and 5, only q on 3 and 4, neither on none.
        assert_eq!(c.table, [[2, 2], [2, 0]]);
        assert_eq!(c.exact.p_value, 1.0);
        assert!(accuracy(&p[..2], &gold, &BootstrapConfig::default()).is_err());
    }
}
