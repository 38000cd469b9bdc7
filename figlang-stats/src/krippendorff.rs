//! Krippendorff's alpha for any number of raters with missing values.

use serde::Serialize;

use super::error::{StatsError, StatsResult};

/// Level of measurement, which sets the distance between two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Level {
    /// Categories: distance 0 if equal, 1 otherwise.
    Nominal,
    /// Ranks: squared count of values between the two, from their frequencies.
    Ordinal,
    /// Squared difference.
    Interval,
    /// Squared relative difference `((a - b) / (a + b))^2`.
    Ratio,
}

/// Krippendorff's alpha of `data[rater][unit]`, NaN marking a missing rating, computed as the
/// `krippendorff` package (coincidence matrix over the sorted distinct values; units rated once
/// do not count). Errors: ragged rows, infinite values, fewer than two distinct values, or no
/// unit rated at least twice.
///
/// ```
/// use figlang_stats::{krippendorff_alpha, Level};
/// let nan = f64::NAN;
/// let data = vec![vec![1.0, 2.0, 3.0, nan], vec![1.0, 2.0, 3.0, 3.0]];
/// assert!((krippendorff_alpha(&data, Level::Nominal).unwrap() - 1.0).abs() < 1e-12);
/// ```
pub fn krippendorff_alpha(data: &[Vec<f64>], level: Level) -> StatsResult<f64> {
    let what = "krippendorff_alpha";
    let units = data.first().map_or(0, Vec::len);
    for row in data {
        if row.len() != units {
            return Err(StatsError::LengthMismatch {
                what,
                left: units,
                right: row.len(),
            });
        }
        if let Some(i) = row.iter().position(|v| v.is_infinite()) {
            return Err(StatsError::NonFinite {
                what,
                index: i,
                value: row[i],
            });
        }
    }
    let mut domain: Vec<f64> = data
        .iter()
        .flatten()
        .copied()
        .filter(|v| !v.is_nan())
        .collect();
    domain.sort_by(f64::total_cmp);
    domain.dedup();
    let v = domain.len();
    if v <= 1 {
        return Err(StatsError::InvalidArgument {
            what,
            message: "there has to be more than one value in the domain".into(),
        });
    }
    let index = |x: f64| domain.binary_search_by(|d| d.total_cmp(&x)).unwrap_or(0);
    // Coincidence matrix o[c][k] summed over units with m_u >= 2 values.
    let mut o = vec![vec![0.0f64; v]; v];
    let mut pairable_units = 0;
    for u in 0..units {
        let mut counts = vec![0.0f64; v];
        let mut m = 0.0;
        for row in data {
            if !row[u].is_nan() {
                counts[index(row[u])] += 1.0;
                m += 1.0;
            }
        }
        if m < 2.0 {
            continue;
        }
        pairable_units += 1;
        for c in 0..v {
            if counts[c] == 0.0 {
                continue;
            }
            for k in 0..v {
                let pairs = counts[c] * counts[k] - if c == k { counts[c] } else { 0.0 };
                o[c][k] += pairs / (m - 1.0);
            }
        }
    }
    if pairable_units == 0 {
        return Err(StatsError::InvalidArgument {
            what,
            message: "there has to be at least one unit rated by at least two raters".into(),
        });
    }
    let n_v: Vec<f64> = (0..v).map(|k| (0..v).map(|c| o[c][k]).sum()).collect();
    let n: f64 = n_v.iter().sum();
    let dist = |c: usize, k: usize| -> f64 {
        match level {
            Level::Nominal => f64::from(u8::from(c != k)),
            Level::Ordinal => {
                let (lo, hi) = (c.min(k), c.max(k));
                let between: f64 = n_v[lo..=hi].iter().sum();
                let d = between - (n_v[lo] + n_v[hi]) / 2.0;
                d * d
            }
            Level::Interval => (domain[c] - domain[k]).powi(2),
            Level::Ratio => {
                let s = domain[c] + domain[k];
                if s == 0.0 {
                    0.0
                } else {
                    ((domain[c] - domain[k]) / s).powi(2)
                }
            }
        }
    };
    let (mut d_o, mut d_e) = (0.0, 0.0);
    for c in 0..v {
        for k in 0..v {
            let d = dist(c, k);
            d_o += o[c][k] * d;
            let e = (n_v[c] * n_v[k] - if c == k { n_v[c] } else { 0.0 }) / (n - 1.0);
            d_e += e * d;
        }
    }
    Ok(1.0 - d_o / d_e)
}
