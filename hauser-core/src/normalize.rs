//! Per-group min-max normalisation, exactly as the HAUSER reference implementation does it.
//!
//! 1. A candidate whose score could not be computed (NaN, e.g. one without components) counts,
//!    not as missing: for a higher-is-better criterion its raw score becomes 0, as in the
//!    reference; for a lower-is-better one it becomes the group's largest (worst) score, so that
//!    an unscorable candidate never wins (an all-NaN group is a tie of raw 0s).
//! 2. When all (NaN-replaced) scores are equal, the [`TieRule`] decides: 0.5 for every
//!    candidate under [`TieRule::Half`]; under [`TieRule::ZeroIfNegative`] (sentiment
//!    consistency) a negative shared score gives 0; [`TieRule::Constant`] gives its value.
//! 3. Otherwise `(x - min) / (max - min)` for a higher-is-better criterion and
//!    `(max - x) / (max - min)` for a lower-is-better one, so the best candidate gets 1 either way.
//!
//! Infinite raw scores are rejected: the reference would produce NaN for the whole group.

use crate::criterion::{Criterion, Direction, TieRule};
use crate::error::{CoreError, Result};

/// Normalises one group's raw scores of `criterion` to [0, 1] with the criterion's default
/// direction and tie rule (those of the five HAUSER criteria).
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
    normalize_scores(criterion, criterion.direction(), criterion.tie_rule(), raw)
}

/// Normalises one group's raw scores of `criterion` with an explicit direction and tie rule
/// (what a [`crate::Scorer`] declares); `criterion` only names the error.
///
/// # Errors
/// [`CoreError::NonFiniteScore`] when a raw score is infinite.
///
/// ```
/// use hauser_core::{normalize_scores, Criterion, Direction, TieRule};
/// let ppl = Criterion::Other("perplexity".into());
/// let n = normalize_scores(&ppl, Direction::LowerIsBetter, TieRule::Half, &[12.0, 30.0, 21.0])?;
/// assert_eq!(n, vec![1.0, 0.0, 0.5]); // the least perplexed candidate is the best
/// # Ok::<(), hauser_core::CoreError>(())
/// ```
pub fn normalize_scores(
    criterion: &Criterion,
    direction: Direction,
    rule: TieRule,
    raw: &[f64],
) -> Result<Vec<f64>> {
    normalize_directed(direction, rule, raw).map_err(|(candidate, value)| {
        CoreError::NonFiniteScore {
            criterion: criterion.to_string(),
            candidate,
            value,
        }
    })
}

/// Higher-is-better normalisation with an explicit tie rule; the error is
/// `(candidate index, infinite value)`.
pub fn normalize_with(rule: TieRule, raw: &[f64]) -> std::result::Result<Vec<f64>, (usize, f64)> {
    normalize_directed(Direction::HigherIsBetter, rule, raw)
}

/// Normalisation with an explicit direction and tie rule; the error is
/// `(candidate index, infinite value)`.
pub fn normalize_directed(
    direction: Direction,
    rule: TieRule,
    raw: &[f64],
) -> std::result::Result<Vec<f64>, (usize, f64)> {
    if let Some((i, &x)) = raw.iter().enumerate().find(|(_, x)| x.is_infinite()) {
        return Err((i, x));
    }
    // HAUSER's NaN -> 0 is "no score is the worst score" for its non-negative, higher-is-better
    // criteria; for a lower-is-better criterion 0 would be the best, so NaN takes the worst value.
    let missing = match direction {
        Direction::HigherIsBetter => 0.0,
        Direction::LowerIsBetter => raw
            .iter()
            .copied()
            .filter(|x| !x.is_nan())
            .reduce(f64::max)
            .unwrap_or(0.0),
    };
    let values: Vec<f64> = raw
        .iter()
        .map(|&x| if x.is_nan() { missing } else { x })
        .collect();
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
            TieRule::Half | TieRule::ZeroIfNegative => 0.5,
            // NaN would poison quality and ranks: a tie that cannot say counts as 0.
            TieRule::Constant(c) if c.is_nan() => 0.0,
            TieRule::Constant(c) => c.clamp(0.0, 1.0),
        };
        return Ok(vec![tie; values.len()]);
    }
    Ok(match direction {
        Direction::HigherIsBetter => values.iter().map(|x| (x - min) / range).collect(),
        Direction::LowerIsBetter => values.iter().map(|x| (max - x) / range).collect(),
    })
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

    #[test]
    fn lower_is_better_gives_the_smallest_score_one() {
        let n = normalize_directed(Direction::LowerIsBetter, TieRule::Half, &[4.0, 2.0, 3.0]);
        assert_eq!(n.unwrap(), vec![0.0, 1.0, 0.5]);
        // NaN takes the group's worst value: it ties with the worst, never wins.
        let n = normalize_directed(
            Direction::LowerIsBetter,
            TieRule::Half,
            &[f64::NAN, 2.0, 6.0],
        );
        assert_eq!(n.unwrap(), vec![0.0, 1.0, 0.0]);
        let n = normalize_directed(Direction::LowerIsBetter, TieRule::Half, &[f64::NAN, 2.0]);
        assert_eq!(n.unwrap(), vec![0.5, 0.5]);
        let n = normalize_directed(Direction::LowerIsBetter, TieRule::Half, &[f64::NAN; 2]);
        assert_eq!(n.unwrap(), vec![0.5, 0.5]);
        let n = normalize_directed(Direction::LowerIsBetter, TieRule::Half, &[5.0, 5.0]);
        assert_eq!(n.unwrap(), vec![0.5, 0.5]);
    }

    #[test]
    fn constant_tie_rule_is_clamped_and_never_nan() {
        let tie = |c| normalize_with(TieRule::Constant(c), &[1.0, 1.0]).unwrap();
        assert_eq!(tie(0.0), vec![0.0, 0.0]);
        assert_eq!(tie(0.25), vec![0.25, 0.25]);
        assert_eq!(tie(7.0), vec![1.0, 1.0]);
        assert_eq!(tie(f64::NAN), vec![0.0, 0.0]);
        // Not a tie: the constant plays no part.
        let n = normalize_with(TieRule::Constant(0.0), &[1.0, 2.0]).unwrap();
        assert_eq!(n, vec![0.0, 1.0]);
    }

    proptest! {
        #[test]
        fn lower_is_better_mirrors_higher_is_better(xs in proptest::collection::vec(-1e6f64..1e6, 2..12)) {
            let up = normalize_with(TieRule::Half, &xs).unwrap();
            let down = normalize_directed(Direction::LowerIsBetter, TieRule::Half, &xs).unwrap();
            let tie = xs.iter().all(|&x| x == xs[0]);
            for (u, d) in up.iter().zip(&down) {
                if tie {
                    prop_assert_eq!(*u, *d);
                } else {
                    prop_assert!((u + d - 1.0).abs() < 1e-12, "{} {}", u, d);
                }
            }
        }

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
