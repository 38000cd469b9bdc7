//! Inter-rater agreement: leave-one-out and pairwise correlation, Cohen's and Fleiss' kappa,
//! z-score normalisation. Krippendorff's alpha is in [`super::krippendorff_alpha`].

use serde::Serialize;

use super::correlation::{pearson_r, spearman};
use super::error::{check_finite, StatsError, StatsResult};

fn check_raters(what: &'static str, ratings: &[Vec<f64>]) -> StatsResult<usize> {
    if ratings.len() < 2 {
        return Err(StatsError::TooFewItems {
            what,
            needed: 2,
            got: ratings.len(),
        });
    }
    let n = ratings[0].len();
    for r in ratings {
        if r.len() != n {
            return Err(StatsError::LengthMismatch {
                what,
                left: n,
                right: r.len(),
            });
        }
        check_finite(what, r, 2)?;
    }
    Ok(n)
}

/// Leave-one-out inter-rater agreement (HAUSER's protocol): each rater against the mean of the
/// others.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeaveOneOut {
    /// Pearson of each rater against the mean of the others.
    pub pearson: Vec<f64>,
    /// Spearman of each rater against the mean of the others.
    pub spearman: Vec<f64>,
    /// Mean of `pearson`.
    pub pearson_mean: f64,
    /// Max of `pearson`.
    pub pearson_max: f64,
    /// Mean of `spearman`.
    pub spearman_mean: f64,
    /// Max of `spearman`.
    pub spearman_max: f64,
}

/// Leave-one-out agreement of `ratings[rater][item]` (at least 2 raters, 2 items, finite).
/// A constant rater gives NaN for its own correlations, which propagate to the mean and max.
///
/// ```
/// use figlang_stats::leave_one_out;
/// let r = vec![vec![1.0, 2.0, 3.0, 4.0], vec![1.0, 2.0, 4.0, 3.0], vec![2.0, 2.0, 3.0, 5.0]];
/// let loo = leave_one_out(&r).unwrap();
/// assert_eq!(loo.pearson.len(), 3);
/// assert!(loo.pearson_max >= loo.pearson_mean);
/// ```
pub fn leave_one_out(ratings: &[Vec<f64>]) -> StatsResult<LeaveOneOut> {
    let n = check_raters("leave_one_out", ratings)?;
    let k = ratings.len();
    let mut pe = Vec::with_capacity(k);
    let mut sp = Vec::with_capacity(k);
    for i in 0..k {
        let others: Vec<f64> = (0..n)
            .map(|j| {
                let s: f64 = (0..k).filter(|&o| o != i).map(|o| ratings[o][j]).sum();
                s / (k - 1) as f64
            })
            .collect();
        pe.push(pearson_r(&ratings[i], &others));
        sp.push(spearman(&ratings[i], &others)?.statistic);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, nan_max);
    Ok(LeaveOneOut {
        pearson_mean: mean(&pe),
        pearson_max: max(&pe),
        spearman_mean: mean(&sp),
        spearman_max: max(&sp),
        pearson: pe,
        spearman: sp,
    })
}

fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// Pearson between every pair of raters, in the order (0,1), (0,2), ..., (1,2), ...
pub fn pairwise_pearson(ratings: &[Vec<f64>]) -> StatsResult<Vec<f64>> {
    check_raters("pairwise_pearson", ratings)?;
    let mut out = Vec::new();
    for i in 0..ratings.len() {
        for j in i + 1..ratings.len() {
            out.push(pearson_r(&ratings[i], &ratings[j]));
        }
    }
    Ok(out)
}

/// Disagreement weights of Cohen's kappa, on the index distance between the sorted categories
/// (as statsmodels' `cohens_kappa(wt=...)` and scikit-learn's `cohen_kappa_score(weights=...)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum KappaWeights {
    /// Any disagreement weighs 1.
    Unweighted,
    /// |i - j|.
    Linear,
    /// (i - j)^2.
    Quadratic,
}

/// Cohen's kappa of two raters' labels over the same items. The categories are the sorted union
/// of the labels both raters used. Errors: different lengths, no items. When chance agreement
/// is total (both raters use one and the same label) kappa is NaN.
///
/// ```
/// use figlang_stats::{cohen_kappa, KappaWeights};
/// let k = cohen_kappa(&[0, 1, 1, 0], &[0, 1, 0, 0], KappaWeights::Unweighted).unwrap();
/// assert!((k - 0.5).abs() < 1e-12);
/// ```
pub fn cohen_kappa(a: &[i64], b: &[i64], weights: KappaWeights) -> StatsResult<f64> {
    if a.len() != b.len() {
        return Err(StatsError::LengthMismatch {
            what: "cohen_kappa",
            left: a.len(),
            right: b.len(),
        });
    }
    if a.is_empty() {
        return Err(StatsError::TooFewItems {
            what: "cohen_kappa",
            needed: 1,
            got: 0,
        });
    }
    let mut cats: Vec<i64> = a.iter().chain(b).copied().collect();
    cats.sort_unstable();
    cats.dedup();
    let k = cats.len();
    let index = |v: i64| cats.binary_search(&v).unwrap_or(0);
    let mut table = vec![vec![0.0f64; k]; k];
    for (&x, &y) in a.iter().zip(b) {
        table[index(x)][index(y)] += 1.0;
    }
    let n = a.len() as f64;
    let rows: Vec<f64> = table.iter().map(|r| r.iter().sum::<f64>() / n).collect();
    let cols: Vec<f64> = (0..k)
        .map(|j| table.iter().map(|r| r[j]).sum::<f64>() / n)
        .collect();
    let w = |i: usize, j: usize| -> f64 {
        let d = i.abs_diff(j) as f64;
        match weights {
            KappaWeights::Unweighted => f64::from(u8::from(i != j)),
            KappaWeights::Linear => d,
            KappaWeights::Quadratic => d * d,
        }
    };
    let (mut observed, mut chance) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            observed += w(i, j) * table[i][j] / n;
            chance += w(i, j) * rows[i] * cols[j];
        }
    }
    Ok(if chance == 0.0 {
        f64::NAN
    } else {
        1.0 - observed / chance
    })
}

/// Fleiss' kappa from an items x categories table of rating counts (each row sums to the same
/// number of raters, at least 2), as statsmodels' `fleiss_kappa(method="fleiss")`.
///
/// ```
/// use figlang_stats::fleiss_kappa;
/// let k = fleiss_kappa(&[vec![3, 0], vec![0, 3], vec![3, 0]]).unwrap();
/// assert!((k - 1.0).abs() < 1e-12);
/// ```
pub fn fleiss_kappa(table: &[Vec<u64>]) -> StatsResult<f64> {
    let what = "fleiss_kappa";
    if table.is_empty() {
        return Err(StatsError::TooFewItems {
            what,
            needed: 1,
            got: 0,
        });
    }
    let k = table[0].len();
    let raters: u64 = table[0].iter().sum();
    for (i, row) in table.iter().enumerate() {
        if row.len() != k {
            return Err(StatsError::LengthMismatch {
                what,
                left: k,
                right: row.len(),
            });
        }
        if row.iter().sum::<u64>() != raters || raters < 2 {
            return Err(StatsError::InvalidArgument {
                what,
                message: format!(
                    "row {i} has {} ratings; every row needs the same number (>= 2)",
                    row.iter().sum::<u64>()
                ),
            });
        }
    }
    let n_items = table.len() as f64;
    let m = raters as f64;
    let total = n_items * m;
    let p_cat: Vec<f64> = (0..k)
        .map(|j| table.iter().map(|r| r[j] as f64).sum::<f64>() / total)
        .collect();
    let p_item: Vec<f64> = table
        .iter()
        .map(|r| (r.iter().map(|&c| (c * c) as f64).sum::<f64>() - m) / (m * (m - 1.0)))
        .collect();
    let p_bar = p_item.iter().sum::<f64>() / n_items;
    let p_e: f64 = p_cat.iter().map(|p| p * p).sum();
    Ok((p_bar - p_e) / (1.0 - p_e))
}

/// Standard scores `(x - mean) / std` with the population standard deviation (ddof 0), as
/// `scipy.stats.zscore`. Constant input gives NaN (0 / 0), as in SciPy.
pub fn zscore(x: &[f64]) -> StatsResult<Vec<f64>> {
    check_finite("zscore", x, 1)?;
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let sd = (x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
    Ok(x.iter().map(|v| (v - mean) / sd).collect())
}

/// z-score normalisation within groups (per rater or per survey): each value is standardised
/// with the mean and standard deviation of the values sharing its group key.
pub fn zscore_by_group<K: Eq + std::hash::Hash>(x: &[f64], groups: &[K]) -> StatsResult<Vec<f64>> {
    if x.len() != groups.len() {
        return Err(StatsError::LengthMismatch {
            what: "zscore_by_group",
            left: x.len(),
            right: groups.len(),
        });
    }
    let mut members: std::collections::HashMap<&K, Vec<usize>> = Default::default();
    for (i, g) in groups.iter().enumerate() {
        members.entry(g).or_default().push(i);
    }
    let mut out = vec![f64::NAN; x.len()];
    for idx in members.values() {
        let vals: Vec<f64> = idx.iter().map(|&i| x[i]).collect();
        for (&i, z) in idx.iter().zip(zscore(&vals)?) {
            out[i] = z;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_shapes_are_errors() {
        assert!(leave_one_out(&[vec![1.0, 2.0]]).is_err());
        assert!(leave_one_out(&[vec![1.0, 2.0], vec![1.0]]).is_err());
        assert!(cohen_kappa(&[1], &[1, 2], KappaWeights::Linear).is_err());
        assert!(fleiss_kappa(&[vec![2, 1], vec![1, 1]]).is_err());
    }

    #[test]
    fn degenerate_input_is_nan() {
        assert!(cohen_kappa(&[1, 1], &[1, 1], KappaWeights::Unweighted)
            .unwrap()
            .is_nan());
        assert!(zscore(&[2.0, 2.0]).unwrap().iter().all(|v| v.is_nan()));
        let loo = leave_one_out(&[vec![1.0, 1.0, 1.0], vec![1.0, 2.0, 3.0]]).unwrap();
        assert!(loo.pearson[0].is_nan() && loo.pearson_mean.is_nan());
    }

    #[test]
    fn grouped_zscore_standardises_each_group() {
        let z = zscore_by_group(&[1.0, 10.0, 3.0, 30.0], &["a", "b", "a", "b"]).unwrap();
        assert_eq!(z, vec![-1.0, -1.0, 1.0, 1.0]);
    }
}
