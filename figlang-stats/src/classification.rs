//! Classification measures and McNemar's test.

use serde::Serialize;

use super::dist;
use super::error::{StatsError, StatsResult};

/// Precision, recall and F1 of one class (or an average).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    /// TP / (TP + FP); 0 when nothing was predicted as the class.
    pub precision: f64,
    /// TP / (TP + FN); 0 when the class never occurs.
    pub recall: f64,
    /// Harmonic mean of precision and recall; 0 when both are 0.
    pub f1: f64,
}

impl Prf {
    fn from_counts(tp: f64, fp: f64, fn_: f64) -> Self {
        let ratio = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
        let precision = ratio(tp, tp + fp);
        let recall = ratio(tp, tp + fn_);
        Self {
            precision,
            recall,
            f1: ratio(2.0 * precision * recall, precision + recall),
        }
    }
}

/// Accuracy and per-class, macro and micro precision/recall/F1 (scikit-learn's
/// `precision_recall_fscore_support` with `zero_division=0`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassificationReport {
    /// Sorted labels occurring in either input.
    pub labels: Vec<i64>,
    /// Per-label scores, in the order of `labels`.
    pub per_class: Vec<Prf>,
    /// Number of true occurrences of each label.
    pub support: Vec<usize>,
    /// Unweighted mean of the per-class scores (F1 is the mean of per-class F1).
    pub macro_avg: Prf,
    /// Scores from the pooled counts.
    pub micro_avg: Prf,
    /// Share of correct predictions.
    pub accuracy: f64,
}

/// Classification report of predicted against true labels.
///
/// ```
/// use figlang_stats::classification_report;
/// let r = classification_report(&[1, 0, 1, 1], &[1, 0, 0, 1]).unwrap();
/// assert_eq!(r.accuracy, 0.75);
/// assert_eq!(r.per_class[1].precision, 1.0);
/// ```
pub fn classification_report(
    truth: &[i64],
    predicted: &[i64],
) -> StatsResult<ClassificationReport> {
    if truth.len() != predicted.len() {
        return Err(StatsError::LengthMismatch {
            what: "classification_report",
            left: truth.len(),
            right: predicted.len(),
        });
    }
    if truth.is_empty() {
        return Err(StatsError::TooFewItems {
            what: "classification_report",
            needed: 1,
            got: 0,
        });
    }
    let mut labels: Vec<i64> = truth.iter().chain(predicted).copied().collect();
    labels.sort_unstable();
    labels.dedup();
    let mut per_class = Vec::new();
    let mut support = Vec::new();
    let (mut tp_all, mut fp_all, mut fn_all) = (0.0, 0.0, 0.0);
    for &l in &labels {
        let mut tp = 0.0;
        let mut fp = 0.0;
        let mut fn_ = 0.0;
        for (&t, &p) in truth.iter().zip(predicted) {
            match (t == l, p == l) {
                (true, true) => tp += 1.0,
                (false, true) => fp += 1.0,
                (true, false) => fn_ += 1.0,
                (false, false) => {}
            }
        }
        tp_all += tp;
        fp_all += fp;
        fn_all += fn_;
        support.push(truth.iter().filter(|&&t| t == l).count());
        per_class.push(Prf::from_counts(tp, fp, fn_));
    }
    let k = per_class.len() as f64;
    let macro_avg = Prf {
        precision: per_class.iter().map(|p| p.precision).sum::<f64>() / k,
        recall: per_class.iter().map(|p| p.recall).sum::<f64>() / k,
        f1: per_class.iter().map(|p| p.f1).sum::<f64>() / k,
    };
    let correct = truth.iter().zip(predicted).filter(|(t, p)| t == p).count();
    Ok(ClassificationReport {
        labels,
        per_class,
        support,
        macro_avg,
        micro_avg: Prf::from_counts(tp_all, fp_all, fn_all),
        accuracy: correct as f64 / truth.len() as f64,
    })
}

/// Variant of McNemar's test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum McNemarMethod {
    /// Exact binomial test on the discordant counts.
    Exact,
    /// Chi-square with 1 df, with Edwards' continuity correction.
    ChiSquareCorrected,
    /// Chi-square with 1 df, no correction.
    ChiSquare,
}

/// Statistic and p-value of McNemar's test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McNemar {
    /// min(b, c) for the exact test; the chi-square statistic otherwise.
    pub statistic: f64,
    /// Two-sided p-value.
    pub p_value: f64,
}

/// McNemar's test on a 2x2 table of paired outcomes `[[a, b], [c, d]]` (only the discordant
/// counts b and c matter), as statsmodels' `mcnemar`. The exact test is
/// `min(1, 2 * Binomial(b + c, 1/2).cdf(min(b, c)))`. With b + c = 0 the chi-square variants are
/// undefined and give NaN (statsmodels returns inf or NaN).
///
/// ```
/// use figlang_stats::{mcnemar, McNemarMethod};
/// let t = mcnemar([[10, 5], [2, 20]], McNemarMethod::ChiSquare);
/// assert!((t.statistic - 9.0 / 7.0).abs() < 1e-12);
/// ```
pub fn mcnemar(table: [[u64; 2]; 2], method: McNemarMethod) -> McNemar {
    let (b, c) = (table[0][1], table[1][0]);
    match method {
        McNemarMethod::Exact => {
            let s = b.min(c);
            McNemar {
                statistic: s as f64,
                p_value: (2.0 * dist::binomial_cdf(s, b + c, 0.5)).min(1.0),
            }
        }
        McNemarMethod::ChiSquare | McNemarMethod::ChiSquareCorrected => {
            if b + c == 0 {
                return McNemar {
                    statistic: f64::NAN,
                    p_value: f64::NAN,
                };
            }
            let corr = if method == McNemarMethod::ChiSquareCorrected {
                1.0
            } else {
                0.0
            };
            let diff = (b as f64 - c as f64).abs() - corr;
            let statistic = diff * diff / (b + c) as f64;
            McNemar {
                statistic,
                p_value: dist::chi2_sf(statistic, 1.0),
            }
        }
    }
}
