//! The pair-swapping permutation test of the WMT metrics task since 2023 (mt-metrics-eval's
//! `stats.PairwisePermutationSigDiff`, its `perm_test='pairs'`): for tie-calibrated Kendall
//! variants, each run swaps the two metrics' verdicts on individual item pairs, so each metric
//! keeps its own tie threshold without recalibrating per run.

use super::error::{StatsError, StatsResult};
use super::grouping::{Grouping, PackedScores};
use super::kendall_variants::{check_epsilon, variant_of_counts, KendallVariant, TauCounts};
use super::numpy_rng::{legacy_random_sample, Mt19937};
use super::tie_calibration::{kendall_with_ties_opt, PairSampling};
use super::wmt_significance::{numpy_pairwise_sum, PermSigDiff, PermSigDiffConfig, Scored};

/// A metric's verdict on a pair: tied (within its threshold) or which item it prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Tie,
    First,
    Second,
}

fn verdict(d: f64, epsilon: f64) -> Verdict {
    if d.abs() <= epsilon {
        Verdict::Tie
    } else if d > 0.0 {
        Verdict::First
    } else {
        Verdict::Second
    }
}

/// One item pair of a group: the human verdict (strict: tied only when equal) and both metrics'.
#[derive(Debug, Clone, Copy)]
struct PairVerdicts {
    human: Verdict,
    m1: Verdict,
    m2: Verdict,
}

fn count(c: &mut TauCounts, human: Verdict, metric: Verdict) {
    match (human, metric) {
        (Verdict::Tie, Verdict::Tie) => c.ties_both += 1,
        (Verdict::Tie, _) => c.ties_human += 1,
        (_, Verdict::Tie) => c.ties_metric += 1,
        (h, m) if h == m => c.concordant += 1,
        _ => c.discordant += 1,
    }
}

/// mt-metrics-eval's `stats.PairwisePermutationSigDiff(first, second, variant, average_by, k,
/// params, epsilon1, epsilon2, sample_rate=1.0)`: the p-value that the second metric's grouped
/// Kendall variant (with its tie threshold) beats the first's, where each run builds two hybrid
/// metrics by swapping, pair by pair with probability 1/2, the two metrics' verdicts.
///
/// `epsilons`: each metric's tie threshold; `None` calibrates it on all pairs with
/// [`kendall_with_ties_opt`] (the reference's default, and WMT's setting). Scores are not
/// z-scored (the verdicts do not depend on scale beyond the threshold).
///
/// Draws: each run, each group of n scored items takes `np.random.binomial(1, 0.5, (n, n))`
/// from the legacy global stream seeded with `config.seed` (n x n doubles, of which the upper
/// triangle decides the pairs), exactly as the reference. The reference only checks early
/// stopping on runs that count towards the p-value; so does this. A group with a single scored
/// item still takes its draw but has no pair; the reference fails there for the *23 variants
/// (a division by zero); here the group is left out as NaN.
///
/// Errors: tau-c (not defined on swapped pairs), a negative epsilon, different human scores,
/// `resamples` or `block_size` 0, and calibration errors (tau-b has no calibration: give its
/// epsilons).
pub fn pairwise_permutation_sig_diff(
    first: &PackedScores<'_>,
    second: &PackedScores<'_>,
    grouping: Grouping,
    variant: KendallVariant,
    epsilons: (Option<f64>, Option<f64>),
    config: &PermSigDiffConfig,
) -> StatsResult<PermSigDiff> {
    const WHAT: &str = "pairwise_permutation_sig_diff";
    if variant == KendallVariant::C {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: "tau-c is not defined on swapped pairs".into(),
        });
    }
    let calibrate = |scores: &PackedScores<'_>, eps: Option<f64>| match eps {
        Some(e) => check_epsilon(WHAT, e).map(|()| e),
        None => Ok(kendall_with_ties_opt(scores, grouping, variant, PairSampling::All)?.epsilon),
    };
    let eps1 = calibrate(first, epsilons.0)?;
    let eps2 = calibrate(second, epsilons.1)?;
    let scored = Scored::new(WHAT, first, second, grouping, config)?;

    let groups: Vec<Vec<PairVerdicts>> = scored
        .bounds
        .iter()
        .map(|&(b, e)| {
            let (h, m1, m2) = (&scored.human[b..e], &scored.m1[b..e], &scored.m2[b..e]);
            let mut pairs = Vec::with_capacity((e - b) * (e - b).saturating_sub(1) / 2);
            for i in 0..h.len() {
                for j in i + 1..h.len() {
                    pairs.push(PairVerdicts {
                        human: verdict(h[i] - h[j], 0.0),
                        m1: verdict(m1[i] - m1[j], eps1),
                        m2: verdict(m2[i] - m2[j], eps2),
                    });
                }
            }
            pairs
        })
        .collect();
    let sizes: Vec<usize> = scored.bounds.iter().map(|&(b, e)| e - b).collect();

    let nan_zero = config.replace_nans_with_zeros;
    // The grouped value of one hybrid: per group, the counts of the verdicts `pick` chooses.
    let grouped = |pick: &mut dyn FnMut(usize, usize, &PairVerdicts) -> Verdict| -> f64 {
        let mut vals = Vec::with_capacity(groups.len());
        for (g, pairs) in groups.iter().enumerate() {
            let v = if pairs.is_empty() {
                f64::NAN
            } else {
                let mut c = TauCounts::default();
                for (k, p) in pairs.iter().enumerate() {
                    count(&mut c, p.human, pick(g, k, p));
                }
                variant_of_counts(&c, variant, &[], &[])
            };
            if !v.is_nan() {
                vals.push(v);
            } else if nan_zero {
                vals.push(0.0);
            }
        }
        if vals.is_empty() {
            0.0
        } else {
            numpy_pairwise_sum(&vals) / vals.len() as f64
        }
    };
    let delta = grouped(&mut |_, _, p| p.m2) - grouped(&mut |_, _, p| p.m1);

    let mut rng = Mt19937::seed(config.seed);
    // coins[g][k]: whether pair k of group g keeps each metric's own verdict in this run.
    let mut coins: Vec<Vec<bool>> = groups.iter().map(|p| vec![false; p.len()]).collect();
    let (mut hits, mut used) = (0usize, 0usize);
    for run in 1..=config.resamples {
        for (g, &n) in sizes.iter().enumerate() {
            // Row-major n x n draws; pair (i, j), i < j, reads entry (i, j) of the upper triangle.
            let mut k = 0;
            for i in 0..n {
                for j in 0..n {
                    let heads = legacy_random_sample(&mut rng) > 0.5;
                    if j > i {
                        coins[g][k] = heads;
                        k += 1;
                    }
                }
            }
        }
        let c1 = grouped(&mut |g, k, p| if coins[g][k] { p.m1 } else { p.m2 });
        let c2 = grouped(&mut |g, k, p| if coins[g][k] { p.m2 } else { p.m1 });
        used = run;
        if c2 - c1 >= delta {
            hits += 1;
            if config.stops_early(hits, run) {
                break;
            }
        }
    }
    Ok(PermSigDiff {
        p_value: hits as f64 / used as f64,
        delta,
        resamples_used: used,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metric_against_itself_is_never_significant() {
        let h = [1.0, 2.0, 3.0, 4.0, 2.0, 1.0, 4.0, 3.0];
        let m = [0.1, 0.4, 0.2, 0.9, 0.3, 0.1, 0.8, 0.2];
        let s = PackedScores::new(&h, &m, 2).unwrap();
        let cfg = PermSigDiffConfig {
            resamples: 40,
            ..PermSigDiffConfig::new(5)
        };
        let r = pairwise_permutation_sig_diff(
            &s,
            &s,
            Grouping::Item,
            KendallVariant::Acc23,
            (None, None),
            &cfg,
        )
        .unwrap();
        assert_eq!((r.p_value, r.delta, r.resamples_used), (1.0, 0.0, 40));
    }

    #[test]
    fn tau_c_is_refused() {
        let s = PackedScores::new(&[1.0, 2.0], &[1.0, 2.0], 1).unwrap();
        let cfg = PermSigDiffConfig::new(1);
        let eps = (Some(0.0), Some(0.0));
        let r = pairwise_permutation_sig_diff(&s, &s, Grouping::None, KendallVariant::C, eps, &cfg);
        assert!(r.is_err());
    }
}
