//! The paired Student t-test as `scipy.stats.ttest_rel` computes it (SciPy 1.17): on the
//! differences `d = a - b`, `t = mean(d) / sqrt(var(d, ddof=1) / n)` with `n - 1` degrees of
//! freedom, and the p-value of the alternative asked for. As in SciPy, fewer than two pairs or
//! differences without variance give NaN (`t` is ±inf when the differences are constant and
//! non-zero, with a p-value of 0 or 1).
//!
//! ```
//! use figlang_stats::{ttest_rel, Alternative};
//! let a = [0.81, 0.62, 0.75, 0.90, 0.55];
//! let b = [0.70, 0.60, 0.71, 0.85, 0.50];
//! let t = ttest_rel(&a, &b, Alternative::TwoSided).unwrap();
//! assert_eq!(t.df, 4.0);
//! assert!(t.statistic > 0.0 && t.p_value < 0.05);
//! ```

use serde::Serialize;

use crate::dist;
use crate::error::{StatsError, StatsResult};

/// The alternative hypothesis (`alternative=` of SciPy's tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alternative {
    /// The means differ (`"two-sided"`, the default).
    #[default]
    TwoSided,
    /// The mean of the first sample is less (`"less"`).
    Less,
    /// The mean of the first sample is greater (`"greater"`).
    Greater,
}

impl Alternative {
    /// Parses SciPy's names: `two-sided`, `less`, `greater`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "two-sided" => Some(Self::TwoSided),
            "less" => Some(Self::Less),
            "greater" => Some(Self::Greater),
            _ => None,
        }
    }

    /// SciPy's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TwoSided => "two-sided",
            Self::Less => "less",
            Self::Greater => "greater",
        }
    }
}

/// The result of [`ttest_rel`] (SciPy's `TtestResult`: `statistic`, `pvalue`, `df`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TTest {
    /// The t statistic, positive when `a`'s mean is above `b`'s.
    pub statistic: f64,
    /// The p-value of the alternative.
    pub p_value: f64,
    /// Degrees of freedom, `n - 1`.
    pub df: f64,
}

/// The paired t-test of `a` against `b` (same length).
///
/// # Errors
/// [`StatsError::LengthMismatch`] when the lengths differ.
pub fn ttest_rel(a: &[f64], b: &[f64], alternative: Alternative) -> StatsResult<TTest> {
    if a.len() != b.len() {
        return Err(StatsError::LengthMismatch {
            what: "ttest_rel",
            left: a.len(),
            right: b.len(),
        });
    }
    let n = a.len();
    let df = n as f64 - 1.0;
    if n < 2 {
        return Ok(TTest {
            statistic: f64::NAN,
            p_value: f64::NAN,
            df,
        });
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / df;
    let statistic = mean / (var / n as f64).sqrt();
    let p_value = match alternative {
        Alternative::TwoSided => dist::student_t_two_sided(statistic, df),
        Alternative::Greater => dist::student_t_sf(statistic, df),
        Alternative::Less => dist::student_t_sf(-statistic, df),
    };
    Ok(TTest {
        statistic,
        p_value,
        df,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_scipy() {
        // scipy.stats.ttest_rel(a, b, alternative=...), SciPy 1.17.1.
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [0.5, 2.0, 2.0, 4.0, 4.0];
        for (alt, p) in [
            (Alternative::TwoSided, 0.08900934250008567),
            (Alternative::Greater, 0.044504671250042836),
            (Alternative::Less, 0.9554953287499571),
        ] {
            let t = ttest_rel(&a, &b, alt).unwrap();
            assert!((t.statistic - 2.23606797749979).abs() < 1e-13, "{t:?}");
            assert!((t.p_value - p).abs() < 1e-13, "{alt:?}: {t:?}");
            assert_eq!(t.df, 4.0);
        }
        // Constant non-zero differences: inf and 0.
        let t = ttest_rel(&[1.0, 2.0], &[0.0, 1.0], Alternative::TwoSided).unwrap();
        assert_eq!((t.statistic, t.p_value), (f64::INFINITY, 0.0));
    }

    #[test]
    fn degenerate_inputs_are_nan_as_in_scipy() {
        let t = ttest_rel(&[1.0], &[0.0], Alternative::TwoSided).unwrap();
        assert!(t.statistic.is_nan() && t.p_value.is_nan());
        let t = ttest_rel(&[1.0, 2.0], &[1.0, 2.0], Alternative::TwoSided).unwrap();
        assert!(t.statistic.is_nan() && t.p_value.is_nan());
        assert!(ttest_rel(&[1.0], &[1.0, 2.0], Alternative::Less).is_err());
    }
}
