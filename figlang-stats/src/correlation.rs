//! Pearson and Spearman correlation with SciPy's p-values, and Fisher-z confidence intervals.

use serde::Serialize;

use super::dist;
use super::error::{check_paired, StatsError, StatsResult};
use super::rank::average_ranks;

/// A correlation coefficient with its two-sided p-value (null hypothesis: no association).
///
/// Constant input gives `statistic` and `p_value` NaN (SciPy's `ConstantInputWarning` case).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Correlation {
    /// The coefficient, in [-1, 1] or NaN.
    pub statistic: f64,
    /// Two-sided p-value, in [0, 1] or NaN.
    pub p_value: f64,
    /// Number of paired observations.
    pub n: usize,
}

impl Correlation {
    pub(crate) fn nan(n: usize) -> Self {
        Self {
            statistic: f64::NAN,
            p_value: f64::NAN,
            n,
        }
    }
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn is_constant(x: &[f64]) -> bool {
    x.iter().all(|&v| v == x[0])
}

/// Pearson's r without validation; NaN for constant input. Mirrors SciPy's computation
/// (centre, scale by the largest deviation before the norm to avoid overflow, dot, clip).
pub(crate) fn pearson_r(x: &[f64], y: &[f64]) -> f64 {
    if x.len() < 2 || is_constant(x) || is_constant(y) {
        return f64::NAN;
    }
    let (mx, my) = (mean(x), mean(y));
    let xm: Vec<f64> = x.iter().map(|v| v - mx).collect();
    let ym: Vec<f64> = y.iter().map(|v| v - my).collect();
    let nx = scaled_norm(&xm);
    let ny = scaled_norm(&ym);
    let r: f64 = xm.iter().zip(&ym).map(|(a, b)| (a / nx) * (b / ny)).sum();
    r.clamp(-1.0, 1.0)
}

fn scaled_norm(v: &[f64]) -> f64 {
    let max = v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
    max * v.iter().map(|a| (a / max) * (a / max)).sum::<f64>().sqrt()
}

/// Pearson correlation with the p-value of `scipy.stats.pearsonr` (exact null distribution of r
/// for bivariate normal data, a beta distribution; equivalent to the t test with n - 2 df).
///
/// Errors: different lengths, fewer than 2 items, non-finite values. Constant input: NaN.
/// With n = 2, r is exactly 1 or -1 and p is 1, as in SciPy.
///
/// ```
/// use figlang_stats::pearson;
/// let c = pearson(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
/// assert!((c.statistic - 0.8).abs() < 1e-12);
/// assert!((c.p_value - 0.2).abs() < 1e-12);
/// ```
pub fn pearson(x: &[f64], y: &[f64]) -> StatsResult<Correlation> {
    check_paired("pearson", x, y, 2)?;
    let n = x.len();
    let r = pearson_r(x, y);
    if r.is_nan() {
        return Ok(Correlation::nan(n));
    }
    if n == 2 {
        return Ok(Correlation {
            statistic: r.round(),
            p_value: 1.0,
            n,
        });
    }
    Ok(Correlation {
        statistic: r,
        p_value: dist::pearson_two_sided(r, n),
        n,
    })
}

/// Spearman's rank correlation (average ranks for ties) with the t-distribution p-value of
/// `scipy.stats.spearmanr`: `t = r sqrt((n - 2) / ((1 + r)(1 - r)))`, n - 2 df.
///
/// Errors and constant input as [`pearson`]. With n = 2 the test has no degrees of freedom and
/// the p-value is NaN, as in SciPy.
///
/// ```
/// use figlang_stats::spearman;
/// let c = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0]).unwrap();
/// assert!((c.statistic - 0.8207826816681233).abs() < 1e-12);
/// ```
pub fn spearman(x: &[f64], y: &[f64]) -> StatsResult<Correlation> {
    check_paired("spearman", x, y, 2)?;
    let n = x.len();
    if is_constant(x) || is_constant(y) {
        return Ok(Correlation::nan(n));
    }
    let rs = corrcoef(&average_ranks(x), &average_ranks(y));
    let dof = n as f64 - 2.0;
    let t = rs * (dof / ((rs + 1.0) * (1.0 - rs))).max(0.0).sqrt();
    Ok(Correlation {
        statistic: rs,
        p_value: dist::student_t_two_sided(t, dof),
        n,
    })
}

/// `numpy.corrcoef` for two vectors: covariance over the product of standard deviations.
fn corrcoef(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (mean(x), mean(y));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (da, db) = (a - mx, b - my);
        sxy += da * db;
        sxx += da * da;
        syy += db * db;
    }
    (sxy / sxx.sqrt() / syy.sqrt()).clamp(-1.0, 1.0)
}

/// A two-sided confidence interval for a correlation coefficient.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ConfidenceInterval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Confidence level in (0, 1), e.g. 0.95.
    pub level: f64,
}

/// Fisher-z confidence interval of Pearson's r from n pairs, as SciPy's
/// `PearsonRResult.confidence_interval()`: `tanh(atanh(r) ± z_{(1+level)/2} / sqrt(n - 3))`.
/// With n <= 3 the interval is [-1, 1]; NaN r gives NaN bounds.
///
/// ```
/// use figlang_stats::fisher_z_interval;
/// let ci = fisher_z_interval(0.5, 30, 0.95).unwrap();
/// assert!(ci.low < 0.5 && 0.5 < ci.high);
/// ```
pub fn fisher_z_interval(r: f64, n: usize, level: f64) -> StatsResult<ConfidenceInterval> {
    if !(level > 0.0 && level < 1.0) {
        return Err(StatsError::InvalidArgument {
            what: "fisher_z_interval",
            message: format!("confidence level must be in (0, 1), got {level}"),
        });
    }
    if n <= 3 {
        return Ok(ConfidenceInterval {
            low: -1.0,
            high: 1.0,
            level,
        });
    }
    let zr = r.atanh();
    let se = (1.0 / (n as f64 - 3.0)).sqrt();
    let h = dist::normal_ppf(0.5 + level / 2.0);
    Ok(ConfidenceInterval {
        low: (zr - h * se).tanh(),
        high: (zr + h * se).tanh(),
        level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_input_is_nan_not_error() {
        let c = pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).unwrap();
        assert!(c.statistic.is_nan() && c.p_value.is_nan());
        let s = spearman(&[1.0, 2.0, 3.0], &[4.0, 4.0, 4.0]).unwrap();
        assert!(s.statistic.is_nan() && s.p_value.is_nan());
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(
            pearson(&[1.0], &[1.0]),
            Err(StatsError::TooFewItems { .. })
        ));
        assert!(matches!(
            spearman(&[1.0, 2.0], &[1.0]),
            Err(StatsError::LengthMismatch { .. })
        ));
        assert!(matches!(
            pearson(&[1.0, f64::NAN, 2.0], &[1.0, 2.0, 3.0]),
            Err(StatsError::NonFinite { index: 1, .. })
        ));
        assert!(fisher_z_interval(0.5, 10, 1.5).is_err());
    }

    #[test]
    fn perfect_correlation_has_zero_p() {
        let c = pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 6.0, 8.0]).unwrap();
        assert!((c.statistic - 1.0).abs() < 1e-15);
        assert_eq!(c.p_value, 0.0);
        let two = pearson(&[1.0, 2.0], &[3.0, 1.0]).unwrap();
        assert_eq!((two.statistic, two.p_value), (-1.0, 1.0));
    }
}
