//! Per-group min-max normalisation, exactly as the HAUSER reference implementation does it.
//!
//! 1. NaN raw scores become 0 (a candidate whose score could not be computed, e.g. one without
//!    components, counts as 0, not as missing).
//! 2. When all (NaN-replaced) scores are equal, every candidate gets 0.5, except under
//!    [`TieRule::ZeroIfNegative`] (sentiment consistency), where a negative shared score gives 0.
//! 3. Otherwise `(x - min) / (max - min)`.
//!
//! Infinite raw scores are rejected: the reference would produce NaN for the whole group.

use crate::criterion::{Criterion, TieRule};
use crate::error::{CoreError, Result};

/// Normalises one group's raw scores of `criterion` to [0, 1].
///
/// # Errors
/// [`CoreError::NonFiniteScore`] when a raw score is infinite.
///
/// ```
/// use hauser_core::{normalize_group, Criterion};
/// let n = normalize_group(&Criterion::Relevance, &[2.0, f64::NAN, 4.0]).unwrap();
/// assert_eq!(n, vec![0.5, 0.0, 1.0]);
/// ```
pub fn normalize_group(criterion: &Criterion, raw: &[f64]) -> Result<Vec<f64>> {
    normalize_with(criterion.tie_rule(), raw).map_err(|(candidate, value)| {
        CoreError::NonFiniteScore {
            criterion: criterion.to_string(),
            candidate,
            value,
        }
    })
}

/// Normalisation with an explicit tie rule; the error is `(candidate index, infinite value)`.
pub fn normalize_with(rule: TieRule, raw: &[f64]) -> std::result::Result<Vec<f64>, (usize, f64)> {
    let mut values = Vec::with_capacity(raw.len());
    for (i, &x) in raw.iter().enumerate() {
        if x.is_infinite() {
            return Err((i, x));
        }
        values.push(if x.is_nan() { 0.0 } else { x });
    }
    let Some(&first) = values.first() else {
        return Ok(values);
    };
    let (min, max) = values
        .iter()
        .fold((first, first), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let range = max - min;
    if range == 0.0 {
        let tie = match rule {
            TieRule::ZeroIfNegative if first < 0.0 => 0.0,
            _ => 0.5,
        };
        return Ok(vec![tie; values.len()]);
    }
    Ok(values.iter().map(|x| (x - min) / range).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn min_max_maps_to_unit_interval() {
        let n = normalize_with(TieRule::Half, &[1.0, 3.0, 2.0]).unwrap();
        assert_eq!(n, vec![0.0, 1.0, 0.5]);
    }

    #[test]
    fn nan_counts_as_zero_before_min_max() {
        let n = normalize_with(TieRule::Half, &[f64::NAN, 2.0, 1.0]).unwrap();
        assert_eq!(n, vec![0.0, 1.0, 0.5]);
        // NaN becomes 0, so it can also be the maximum.
        let n = normalize_with(TieRule::Half, &[f64::NAN, -2.0]).unwrap();
        assert_eq!(n, vec![1.0, 0.0]);
    }

    #[test]
    fn equal_scores_get_half() {
        assert_eq!(
            normalize_with(TieRule::Half, &[3.0, 3.0]).unwrap(),
            vec![0.5, 0.5]
        );
        assert_eq!(
            normalize_with(TieRule::Half, &[-3.0, -3.0]).unwrap(),
            vec![0.5, 0.5]
        );
        assert_eq!(normalize_with(TieRule::Half, &[7.0]).unwrap(), vec![0.5]);
    }

    #[test]
    fn all_nan_is_a_tie_at_zero() {
        let n = normalize_with(TieRule::ZeroIfNegative, &[f64::NAN, f64::NAN]).unwrap();
        assert_eq!(n, vec![0.5, 0.5]);
    }

    #[test]
    fn sentiment_tie_rule_depends_on_sign() {
        let crit = Criterion::SentimentConsistency;
        assert_eq!(
            normalize_group(&crit, &[-0.2, -0.2]).unwrap(),
            vec![0.0, 0.0]
        );
        assert_eq!(normalize_group(&crit, &[0.0, 0.0]).unwrap(), vec![0.5, 0.5]);
        assert_eq!(
            normalize_group(&crit, &[0.3, 0.3, 0.3]).unwrap(),
            vec![0.5; 3]
        );
        // Not a tie: ordinary min-max even when all are negative.
        assert_eq!(
            normalize_group(&crit, &[-0.4, -0.2]).unwrap(),
            vec![0.0, 1.0]
        );
    }

    #[test]
    fn other_criteria_use_half_even_when_negative() {
        let n = normalize_group(&Criterion::Creativity, &[-1.5, -1.5]).unwrap();
        assert_eq!(n, vec![0.5, 0.5]);
    }

    #[test]
    fn infinity_is_an_error_naming_the_candidate() {
        let err = normalize_group(&Criterion::Relevance, &[1.0, f64::INFINITY]).unwrap_err();
        assert!(
            matches!(err, CoreError::NonFiniteScore { candidate: 1, .. }),
            "{err}"
        );
    }

    #[test]
    fn empty_group_gives_empty_output() {
        assert!(normalize_with(TieRule::Half, &[]).unwrap().is_empty());
    }

    proptest! {
        #[test]
        fn output_in_unit_interval_and_order_preserving(xs in proptest::collection::vec(-1e6f64..1e6, 1..12)) {
            let n = normalize_with(TieRule::Half, &xs).unwrap();
            prop_assert_eq!(n.len(), xs.len());
            for i in 0..xs.len() {
                prop_assert!((0.0..=1.0).contains(&n[i]));
                for j in 0..xs.len() {
                    if xs[i] < xs[j] { prop_assert!(n[i] <= n[j]); }
                }
            }
        }
    }
}
