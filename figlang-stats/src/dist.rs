//! Tail probabilities of the reference distributions, written through the regularised incomplete
//! beta function and `erfc` of `statrs` so that small p-values keep their relative precision
//! (computing `1 - cdf` would round them to 0).

use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal};
use statrs::function::beta::checked_beta_reg;
use statrs::function::erf::erfc;

/// Two-sided p-value of a Student t statistic with `df` degrees of freedom: `2 * t.sf(|t|, df)`.
pub(crate) fn student_t_two_sided(t: f64, df: f64) -> f64 {
    if t.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    // 2 * sf(|t|) = I_{df / (df + t^2)}(df / 2, 1 / 2).
    let x = df / (df + t * t);
    checked_beta_reg(df / 2.0, 0.5, x)
        .unwrap_or(f64::NAN)
        .min(1.0)
}

/// One-sided upper tail of a Student t statistic: `t.sf(t, df)`.
pub(crate) fn student_t_sf(t: f64, df: f64) -> f64 {
    let half = student_t_two_sided(t, df) / 2.0;
    if t >= 0.0 {
        half
    } else {
        1.0 - half
    }
}

/// Two-sided p-value of Pearson's r under SciPy's null distribution, the beta distribution with
/// `a = b = n/2 - 1` on [-1, 1]: `2 * sf(|r|) = 2 * I_{(1 - |r|)/2}(a, a)`.
pub(crate) fn pearson_two_sided(r: f64, n: usize) -> f64 {
    if r.is_nan() {
        return f64::NAN;
    }
    let ab = n as f64 / 2.0 - 1.0;
    let x = (1.0 - r.abs()) / 2.0;
    if x <= 0.0 {
        return 0.0;
    }
    (2.0 * checked_beta_reg(ab, ab, x).unwrap_or(f64::NAN)).min(1.0)
}

/// Two-sided p-value of a standard normal statistic: `2 * norm.sf(|z|) = erfc(|z| / sqrt 2)`.
pub(crate) fn normal_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// Quantile of the standard normal distribution (`scipy.special.ndtri`).
pub(crate) fn normal_ppf(p: f64) -> f64 {
    match Normal::new(0.0, 1.0) {
        Ok(n) => n.inverse_cdf(p),
        Err(_) => f64::NAN,
    }
}

/// Upper tail of the chi-square distribution with `df` degrees of freedom.
pub(crate) fn chi2_sf(x: f64, df: f64) -> f64 {
    match ChiSquared::new(df) {
        Ok(d) => d.sf(x),
        Err(_) => f64::NAN,
    }
}

/// `P(X <= k)` for `X ~ Binomial(n, p)`.
pub(crate) fn binomial_cdf(k: u64, n: u64, p: f64) -> f64 {
    match Binomial::new(p, n) {
        Ok(d) => d.cdf(k),
        Err(_) => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_match_known_values() {
        // scipy.stats.t.sf(2.0, 10) * 2 = 0.07338803477074037
        assert!((student_t_two_sided(2.0, 10.0) - 0.07338803477074037).abs() < 1e-14);
        assert!((student_t_sf(-2.0, 10.0) - (1.0 - 0.07338803477074037 / 2.0)).abs() < 1e-14);
        // 2 * norm.sf(1.96) = 0.04999579029644087
        let z = normal_two_sided(-1.96);
        assert!((z - 0.04999579029644087).abs() < 1e-10 * 0.05, "{z}");
        assert!((normal_ppf(0.975) - 1.959963984540054).abs() < 1e-12);
        // chi2.sf(3.84, 1) = 0.05004352124870519
        assert!((chi2_sf(3.84, 1.0) - 0.05004352124870519).abs() < 1e-13);
        assert!((binomial_cdf(1, 4, 0.5) - 5.0 / 16.0).abs() < 1e-14);
        assert_eq!(pearson_two_sided(1.0, 5), 0.0);
        assert!(pearson_two_sided(f64::NAN, 5).is_nan());
    }
}
