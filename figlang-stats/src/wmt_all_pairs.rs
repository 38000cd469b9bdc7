//! The significance matrix of the WMT metrics task (mt-metrics-eval's `data.ComputeSigMatrix`):
//! one permutation test between every pair of metrics, all pairs at once.
//!
//! Every pair's test equals [`permutation_sig_diff`](crate::permutation_sig_diff) (PERM-BOTH) or
//! [`pairwise_permutation_sig_diff`](crate::pairwise_permutation_sig_diff) (pair swapping) with
//! the same configuration, bit for bit: each pair starts from `np.random.seed(config.seed)`, so
//! the draws are the same for every pair and are drawn once here, then shared by the pairs,
//! which run in parallel (the matrix does not depend on the thread count). The pair-swapping
//! test of the tie-aware variants also counts each run from bit masks of the pairs on which the
//! two metrics disagree, instead of visiting every pair.

use hauser_core::limits::{bytes_for, check_memory};
use rayon::prelude::*;

use super::error::{StatsError, StatsResult};
use super::grouping::{Grouping, PackedScores};
use super::kendall_variants::{check_epsilon, KendallVariant, TauCounts};
use super::numpy_rng::{legacy_random_sample, BitGen, Mt19937};
use super::wmt_significance::{
    numpy_pairwise_sum, numpy_zscore, sig_diff_with, PermSigDiffConfig, Scored,
};

/// The p-value matrix of `metrics` in the given order (mt-metrics-eval orders them best first):
/// entry `[i][j]`, `j > i`, is the p-value of the test that metric `i` does not beat metric `j`,
/// `permutation_sig_diff(&metrics[j], &metrics[i], ...)`, as `data.ComputeSigMatrix` fills
/// `sig_matrix[i, j]`; the other entries are NaN. Feed it to
/// [`significance_clusters`](crate::significance_clusters).
///
/// Errors: metrics scored against different human scores, `resamples` or `block_size` 0, the
/// memory limit (the draws take `resamples x items` bits), whatever `corr` returns.
///
/// ```
/// use figlang_stats::{perm_both_matrix, Grouping, PackedScores, PermSigDiffConfig};
/// let h = [1.0, 2.0, 3.0, 4.0, 2.0, 1.0];
/// let (a, b) = ([0.1, 0.2, 0.3, 0.4, 0.2, 0.1], [0.4, 0.3, 0.1, 0.2, 0.1, 0.3]);
/// let m = [PackedScores::new(&h, &a, 2).unwrap(), PackedScores::new(&h, &b, 2).unwrap()];
/// let cfg = PermSigDiffConfig { resamples: 200, ..PermSigDiffConfig::new(1) };
/// let corr = |h: &[f64], m: &[f64]| Ok(figlang_stats::pearson(h, m)?.statistic);
/// let p = perm_both_matrix(&m, Grouping::None, &cfg, corr).unwrap();
/// assert!(p[0][1] < 0.05 && p[1][0].is_nan());
/// ```
pub fn perm_both_matrix<F>(
    metrics: &[PackedScores<'_>],
    grouping: Grouping,
    config: &PermSigDiffConfig,
    corr: F,
) -> StatsResult<Vec<Vec<f64>>>
where
    F: Fn(&[f64], &[f64]) -> StatsResult<f64> + Sync,
{
    const WHAT: &str = "perm_both_matrix";
    let n = metrics.len();
    let mut out = vec![vec![f64::NAN; n]; n];
    if n < 2 {
        return Ok(out);
    }
    let items = Scored::new(WHAT, &metrics[0], &metrics[0], grouping, config)?
        .human
        .len();
    let words = items.div_ceil(64);
    check_memory(
        &format!(
            "the draws of {} permutation runs over {items} items",
            config.resamples
        ),
        bytes_for((config.resamples as u64).saturating_mul(words as u64), 8),
    )?;
    let mut rng = Mt19937::seed(config.seed);
    let mut bits = vec![0u64; config.resamples * words];
    for run in 0..config.resamples {
        for i in 0..items {
            if legacy_random_sample(&mut rng) > 0.5 {
                bits[run * words + i / 64] |= 1 << (i % 64);
            }
        }
    }
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let p: Vec<f64> = pairs
        .par_iter()
        .map(|&(i, j)| {
            let mut keep = |run: usize, k: usize| (bits[run * words + k / 64] >> (k % 64)) & 1 == 1;
            let mut corr = |h: &[f64], m: &[f64]| corr(h, m);
            sig_diff_with(
                &metrics[j],
                &metrics[i],
                grouping,
                config,
                &mut corr,
                &mut keep,
            )
            .map(|r| r.p_value)
        })
        .collect::<StatsResult<_>>()?;
    for (&(i, j), p) in pairs.iter().zip(p) {
        out[i][j] = p;
    }
    Ok(out)
}

/// [`perm_both_matrix`] for the pooled Pearson correlation (`Grouping::None`,
/// `corr = pearson`), the WMT segment-level "no grouping" Pearson: the same draws and the same
/// test, but each run costs O(metrics x items) instead of O(metric pairs x items). A swapped
/// item moves a z-score from one hybrid to the other, so each hybrid's sums (of z, z^2 and
/// human x z) are one metric's sums over the kept items plus the other's over the swapped
/// ones; the sums over the kept items are taken once per run and metric.
///
/// The correlations come from these sums rather than from two-pass sums over each hybrid, so
/// they differ from [`permutation_sig_diff`](crate::permutation_sig_diff) with
/// [`pearson`](crate::pearson) in the last bits: a run whose difference equals the observed one
/// within rounding may count differently (identical metrics still give exactly 1).
///
/// Errors: as [`perm_both_matrix`].
pub fn perm_both_pearson_matrix(
    metrics: &[PackedScores<'_>],
    config: &PermSigDiffConfig,
) -> StatsResult<Vec<Vec<f64>>> {
    const WHAT: &str = "perm_both_pearson_matrix";
    let n = metrics.len();
    let mut out = vec![vec![f64::NAN; n]; n];
    if n < 2 {
        return Ok(out);
    }
    let mut human = Vec::new();
    let mut z = Vec::with_capacity(n);
    for m in metrics {
        let s = Scored::new(WHAT, &metrics[0], m, Grouping::None, config)?;
        z.push(numpy_zscore(&s.m2));
        human = s.human;
    }
    let items = human.len();
    let words = items.div_ceil(64);
    check_memory(
        &format!(
            "the draws of {} permutation runs over {items} items",
            config.resamples
        ),
        bytes_for(
            (config.resamples as u64).saturating_mul(words as u64 + 3 * n as u64),
            8,
        ),
    )?;
    let mut rng = Mt19937::seed(config.seed);
    let mut bits = vec![0u64; config.resamples * words];
    for run in 0..config.resamples {
        for i in 0..items {
            if legacy_random_sample(&mut rng) > 0.5 {
                bits[run * words + i / 64] |= 1 << (i % 64);
            }
        }
    }
    let nf = items as f64;
    let (sh, shh) = (
        human.iter().sum::<f64>(),
        human.iter().map(|h| h * h).sum::<f64>(),
    );
    let hvar = nf * shh - sh * sh;
    // Pearson from the sums of x, x^2 and h x; NaN counts as 0, the grouped mean of no value.
    let r = |s: f64, q: f64, p: f64| {
        let v = (nf * p - sh * s) / ((nf * q - s * s) * hvar).sqrt();
        if v.is_finite() {
            v.clamp(-1.0, 1.0)
        } else {
            0.0
        }
    };
    let sums = |zk: &[f64], run: Option<usize>| {
        let (mut s, mut q, mut p) = (0.0, 0.0, 0.0);
        for (i, (x, h)) in zk.iter().zip(&human).enumerate() {
            if run.is_none_or(|r| (bits[r * words + i / 64] >> (i % 64)) & 1 == 1) {
                s += x;
                q += x * x;
                p += h * x;
            }
        }
        [s, q, p]
    };
    let totals: Vec<[f64; 3]> = z.iter().map(|zk| sums(zk, None)).collect();
    // kept[run][k]: metric k's sums over the items kept in that run.
    let kept: Vec<Vec<[f64; 3]>> = (0..config.resamples)
        .into_par_iter()
        .map(|run| z.iter().map(|zk| sums(zk, Some(run))).collect())
        .collect();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let p: Vec<f64> = pairs
        .par_iter()
        .map(|&(i, j)| {
            // First = metric j, second = metric i, as data.ComputeSigMatrix calls the test.
            let (a, b) = (j, i);
            let full = |k: usize| r(totals[k][0], totals[k][1], totals[k][2]);
            let delta = full(b) - full(a);
            let (mut hits, mut used) = (0usize, 0usize);
            for (run, row) in kept.iter().enumerate() {
                let run = run + 1;
                let mix = |keep: usize, swap: usize, c: usize| {
                    row[keep][c] + (totals[swap][c] - row[swap][c])
                };
                let c1 = r(mix(a, b, 0), mix(a, b, 1), mix(a, b, 2));
                let c2 = r(mix(b, a, 0), mix(b, a, 1), mix(b, a, 2));
                used = run;
                if c2 - c1 >= delta {
                    hits += 1;
                }
                if config.stops_early(hits, run) {
                    break;
                }
            }
            hits as f64 / used as f64
        })
        .collect();
    for (&(i, j), p) in pairs.iter().zip(p) {
        out[i][j] = p;
    }
    Ok(out)
}

/// A group where two metrics differ in some pair's goodness: its index, its slot among the
/// grouped values, where its masks start in the pair's flat mask list and how many words it has,
/// and how many pairs are good for the second metric only.
#[derive(Debug, Clone, Copy)]
struct Active {
    group: usize,
    slot: usize,
    masks: usize,
    words: usize,
    minus: i64,
}

/// One metric's verdicts for the pair-swapping test: per pair (in group order), whether it is
/// "good" (concordant with the human, or tied with the human) under its tie threshold.
struct GoodBits {
    /// Bit k of group g's words: pair k of the group is good.
    bits: Vec<u64>,
    /// Per group, the number of good pairs.
    good: Vec<u64>,
}

/// One matrix of [`pairwise_permutation_matrices`]: the order of the metrics in it (indices
/// into `metrics`, best first) and each metric's tie threshold (by index into `metrics`).
#[derive(Debug, Clone, Copy)]
pub struct PairTest<'a> {
    /// Metric indices in the matrix's order.
    pub order: &'a [usize],
    /// Tie threshold of each metric, in the order of `metrics`.
    pub epsilons: &'a [f64],
}

/// The p-value matrix of the pair-swapping test ([`pairwise_permutation_sig_diff`](crate::pairwise_permutation_sig_diff))
/// for the tie-aware variants tau_23 and acc_23 (acc_eq, and acc*_eq with calibrated
/// thresholds), in the order of `metrics`, as [`perm_both_matrix`]: entry `[i][j]`, `j > i`, is
/// `pairwise_permutation_sig_diff(&metrics[j], &metrics[i], grouping, variant,
/// (Some(epsilons[j]), Some(epsilons[i])), config)`'s p-value, equal to the last bit.
///
/// Each run reads the pairs' coins from one `u64` word per 64 pairs of a group and counts the
/// pairs where the two metrics' verdicts differ in goodness with a population count, so a run
/// costs one word operation per 64 pairs and metric pair instead of a visit to every pair.
///
/// Errors: a variant other than Tau23 and Acc23, a bad epsilon or a number of epsilons other
/// than of metrics, metrics scored against different human scores, `resamples` or `block_size`
/// 0, the memory limit (the draws take `resamples x pairs` bits).
pub fn pairwise_permutation_matrix(
    metrics: &[PackedScores<'_>],
    grouping: Grouping,
    variant: KendallVariant,
    epsilons: &[f64],
    config: &PermSigDiffConfig,
) -> StatsResult<Vec<Vec<f64>>> {
    let order: Vec<usize> = (0..metrics.len()).collect();
    let test = PairTest {
        order: &order,
        epsilons,
    };
    let mut m = pairwise_permutation_matrices(metrics, grouping, variant, &[test], config)?;
    Ok(m.remove(0))
}

/// Several [`pairwise_permutation_matrix`]es of the same metrics at once (acc_eq and acc*_eq:
/// the same draws, other thresholds, each its own order): the draws, the dearest part, are
/// taken once. Matrix t is in the order `tests[t].order`: entry `[i][j]`, `j > i`, tests metric
/// `order[j]` (first) against metric `order[i]` (second).
///
/// Errors: as [`pairwise_permutation_matrix`]; an order that is not a list of metric indices.
pub fn pairwise_permutation_matrices(
    metrics: &[PackedScores<'_>],
    grouping: Grouping,
    variant: KendallVariant,
    tests: &[PairTest<'_>],
    config: &PermSigDiffConfig,
) -> StatsResult<Vec<Vec<Vec<f64>>>> {
    const WHAT: &str = "pairwise_permutation_matrix";
    if !matches!(variant, KendallVariant::Tau23 | KendallVariant::Acc23) {
        return Err(StatsError::InvalidArgument {
            what: WHAT,
            message: "only tau_23 and acc_23 (use pairwise_permutation_sig_diff for tau-b)".into(),
        });
    }
    let n = metrics.len();
    for t in tests {
        if t.epsilons.len() != n {
            return Err(StatsError::LengthMismatch {
                what: WHAT,
                left: n,
                right: t.epsilons.len(),
            });
        }
        for &e in t.epsilons {
            check_epsilon(WHAT, e)?;
        }
        if t.order.len() != n || t.order.iter().any(|&k| k >= n) {
            return Err(StatsError::InvalidArgument {
                what: WHAT,
                message: format!("an order must list the {n} metrics' indices"),
            });
        }
    }
    if n < 2 {
        return Ok(tests.iter().map(|_| vec![vec![f64::NAN; n]; n]).collect());
    }
    let base = Scored::new(WHAT, &metrics[0], &metrics[0], grouping, config)?;
    let sizes: Vec<usize> = base.bounds.iter().map(|&(b, e)| e - b).collect();
    let npairs: Vec<u64> = sizes
        .iter()
        .map(|&s| (s * s.saturating_sub(1) / 2) as u64)
        .collect();
    // Group g's pair bits live in words offsets[g]..offsets[g + 1].
    let mut offsets = vec![0usize];
    let mut words = 0;
    for &p in &npairs {
        words += (p as usize).div_ceil(64);
        offsets.push(words);
    }
    check_memory(
        &format!(
            "the draws of {} pair-swapping runs over {} pairs",
            config.resamples,
            npairs.iter().sum::<u64>()
        ),
        bytes_for((config.resamples as u64).saturating_mul(words as u64), 8)
            .and_then(|b| b.checked_add(bytes_for(n as u64, words as u64 * 8 + 64)?)),
    )?;
    let scored: Vec<Scored> = metrics
        .iter()
        .map(|m| Scored::new(WHAT, &metrics[0], m, grouping, config))
        .collect::<StatsResult<_>>()?;

    // The draws: per run, per group of s items, s x s doubles; pair (i, j), i < j, reads entry
    // (i, j): heads keeps each metric's own verdict.
    let mut rng = Mt19937::seed(config.seed);
    let mut coins = vec![0u64; config.resamples * words];
    for run in 0..config.resamples {
        let row = &mut coins[run * words..(run + 1) * words];
        for (gi, &s) in sizes.iter().enumerate() {
            let mut k = 0;
            for i in 0..s {
                // Entries (i, 0..=i) are drawn and not read: two words each.
                for _ in 0..=i {
                    rng.next_u32();
                    rng.next_u32();
                }
                for _ in i + 1..s {
                    if legacy_random_sample(&mut rng) > 0.5 {
                        row[offsets[gi] + k / 64] |= 1 << (k % 64);
                    }
                    k += 1;
                }
            }
        }
    }
    let layout = Layout {
        npairs: &npairs,
        offsets: &offsets,
        words,
        coins: &coins,
    };
    tests
        .iter()
        .map(|t| {
            let goods: Vec<GoodBits> = scored
                .iter()
                .zip(t.epsilons)
                .map(|(s, &eps)| good_bits(s, eps, &layout))
                .collect();
            Ok(matrix(&goods, t.order, variant, config, &layout))
        })
        .collect()
}

/// The groups' pair layout and the draws of a pair-swapping test.
struct Layout<'a> {
    npairs: &'a [u64],
    offsets: &'a [usize],
    words: usize,
    coins: &'a [u64],
}

/// One metric's good pairs under threshold `eps`.
fn good_bits(s: &Scored, eps: f64, layout: &Layout<'_>) -> GoodBits {
    let mut g = GoodBits {
        bits: vec![0u64; layout.words],
        good: vec![0; layout.npairs.len()],
    };
    for (gi, &(b, e)) in s.bounds.iter().enumerate() {
        let (h, x) = (&s.human[b..e], &s.m2[b..e]);
        let mut k = 0;
        for i in 0..h.len() {
            for j in i + 1..h.len() {
                let mut c = TauCounts::default();
                c.add_pair(h[i] - h[j], x[i] - x[j], eps);
                if c.concordant + c.ties_both == 1 {
                    g.bits[layout.offsets[gi] + k / 64] |= 1 << (k % 64);
                    g.good[gi] += 1;
                }
                k += 1;
            }
        }
    }
    g
}

/// The p-value matrix of the metrics `order` from their good pairs and the shared draws.
fn matrix(
    goods: &[GoodBits],
    order: &[usize],
    variant: KendallVariant,
    config: &PermSigDiffConfig,
    layout: &Layout<'_>,
) -> Vec<Vec<f64>> {
    let (npairs, offsets, words, coins) =
        (layout.npairs, layout.offsets, layout.words, layout.coins);
    let n = order.len();
    let ngroups = npairs.len();
    let value = |good: u64, pairs: u64| {
        let c = TauCounts {
            concordant: good,
            discordant: pairs - good,
            ..TauCounts::default()
        };
        match variant {
            KendallVariant::Acc23 => c.acc_23(),
            _ => c.tau_23(),
        }
    };
    // Each group's value at each count of good pairs, looked up rather than divided in every
    // run (the same division, so the same bits); groups of more pairs than this divide.
    const TABLE_MAX: u64 = 1 << 12;
    let mut table: Vec<f64> = Vec::new();
    let mut table_at: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let starts: Vec<Option<usize>> = npairs
        .iter()
        .map(|&p| {
            (p <= TABLE_MAX).then(|| {
                *table_at.entry(p).or_insert_with(|| {
                    let start = table.len();
                    table.extend((0..=p).map(|good| value(good, p)));
                    start
                })
            })
        })
        .collect();
    let value_of = |g: usize, good: u64| match starts[g] {
        Some(start) => table[start + good as usize],
        None => value(good, npairs[g]),
    };
    let nan_zero = config.replace_nans_with_zeros;
    // The grouped mean as the reference takes it: groups without a pair are NaN, left out (or 0).
    let slots: Vec<Option<usize>> = {
        let mut next = 0;
        npairs
            .iter()
            .map(|&p| {
                (p > 0 || nan_zero).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    let nslots = slots.iter().flatten().count();
    let base_vals: Vec<Vec<f64>> = goods
        .iter()
        .map(|g| {
            let mut v = vec![0.0; nslots];
            for (gi, slot) in slots.iter().enumerate() {
                if let Some(s) = slot {
                    if npairs[gi] > 0 {
                        v[*s] = value(g.good[gi], npairs[gi]);
                    }
                }
            }
            v
        })
        .collect();
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            numpy_pairwise_sum(v) / v.len() as f64
        }
    };

    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let p: Vec<f64> = pairs
        .par_iter()
        .map(|&(i, j)| {
            // First = metric j, second = metric i, as data.ComputeSigMatrix calls the test.
            let (i, j) = (order[i], order[j]);
            let (a, b) = (&goods[j], &goods[i]);
            let delta = mean(&base_vals[i]) - mean(&base_vals[j]);
            // Groups where the two metrics differ in some pair's goodness, with their masks:
            // `plus` good for the first only, `minus` good for the second only.
            // Per word of an active group: the pairs good for the first metric only (`plus`) and
            // for the second only (`minus`), and the coins' word. A swapped pair moves one good
            // verdict between the hybrids: d = |swapped & plus| - |swapped & minus|, and as the
            // two masks are disjoint, d = |(swapped & plus) | (kept & minus)| - |minus|: one
            // population count a word.
            let mut active: Vec<Active> = Vec::new();
            let mut masks: Vec<(u64, u64, usize)> = Vec::new();
            for gi in 0..ngroups {
                let Some(slot) = slots[gi] else { continue };
                let start = masks.len();
                let mut minus = 0i64;
                for w in offsets[gi]..offsets[gi + 1] {
                    let (p, m) = (a.bits[w] & !b.bits[w], b.bits[w] & !a.bits[w]);
                    if p | m != 0 {
                        masks.push((p, m, w));
                        minus += i64::from(m.count_ones());
                    }
                }
                if masks.len() > start {
                    active.push(Active {
                        group: gi,
                        slot,
                        masks: start,
                        words: masks.len() - start,
                        minus,
                    });
                }
            }
            let (mut v1, mut v2) = (base_vals[j].clone(), base_vals[i].clone());
            let (mut hits, mut used) = (0usize, 0usize);
            for run in 1..=config.resamples {
                let row = &coins[(run - 1) * words..run * words];
                for g in &active {
                    let mut d = -g.minus;
                    for &(plus, minus, w) in &masks[g.masks..g.masks + g.words] {
                        let kept = row[w];
                        d += i64::from(((!kept & plus) | (kept & minus)).count_ones());
                    }
                    // Hybrid 1 keeps the first's verdicts where the coin is heads.
                    v1[g.slot] = value_of(g.group, (a.good[g.group] as i64 - d) as u64);
                    v2[g.slot] = value_of(g.group, (b.good[g.group] as i64 + d) as u64);
                }
                let (c1, c2) = (mean(&v1), mean(&v2));
                used = run;
                if c2 - c1 >= delta {
                    hits += 1;
                    if config.stops_early(hits, run) {
                        break;
                    }
                }
            }
            hits as f64 / used as f64
        })
        .collect();
    let mut out = vec![vec![f64::NAN; n]; n];
    for (&(i, j), p) in pairs.iter().zip(p) {
        out[i][j] = p;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{kendall_variant, pairwise_permutation_sig_diff, pearson, permutation_sig_diff};

    /// Deterministic pseudo-random scores on a coarse grid (many ties).
    fn scores(seed: u64, n: usize, grid: f64) -> Vec<f64> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ((x % 1000) as f64 / 1000.0 / grid).round() * grid
            })
            .collect()
    }

    #[test]
    fn matrices_equal_the_single_pair_tests() {
        let (ns, ni) = (4, 9);
        let mut human = scores(1, ns * ni, 0.25);
        human[5] = f64::NAN;
        let cols: Vec<Vec<f64>> = (2..6).map(|s| scores(s, ns * ni, 0.1)).collect();
        let mut cols = cols;
        cols.push(cols[0].clone());
        let m: Vec<PackedScores<'_>> = cols
            .iter()
            .map(|c| PackedScores::new(&human, c, ns).unwrap())
            .collect();
        for early in [false, true] {
            let cfg = PermSigDiffConfig {
                resamples: 60,
                block_size: if early { 20 } else { 1000 },
                ..PermSigDiffConfig::new(7)
            };
            for grouping in [Grouping::None, Grouping::Item, Grouping::Sys] {
                let acc = |h: &[f64], x: &[f64]| kendall_variant(h, x, KendallVariant::Acc23, 0.0);
                let p = perm_both_matrix(&m, grouping, &cfg, acc).unwrap();
                let pr = |h: &[f64], x: &[f64]| Ok(pearson(h, x)?.statistic);
                let q = perm_both_matrix(&m, grouping, &cfg, pr).unwrap();
                for variant in [KendallVariant::Acc23, KendallVariant::Tau23] {
                    let eps = [0.0, 0.05, 0.1, 0.0, 0.0];
                    let r = pairwise_permutation_matrix(&m, grouping, variant, &eps, &cfg).unwrap();
                    for i in 0..m.len() {
                        for j in i + 1..m.len() {
                            let one = pairwise_permutation_sig_diff(
                                &m[j],
                                &m[i],
                                grouping,
                                variant,
                                (Some(eps[j]), Some(eps[i])),
                                &cfg,
                            )
                            .unwrap();
                            assert_eq!(r[i][j].to_bits(), one.p_value.to_bits(), "{i} {j}");
                        }
                    }
                }
                for i in 0..m.len() {
                    assert!(p[i][i].is_nan());
                    for j in i + 1..m.len() {
                        let one = permutation_sig_diff(&m[j], &m[i], grouping, &cfg, acc).unwrap();
                        assert_eq!(p[i][j].to_bits(), one.p_value.to_bits(), "{i} {j}");
                        let one = permutation_sig_diff(&m[j], &m[i], grouping, &cfg, pr).unwrap();
                        assert_eq!(q[i][j].to_bits(), one.p_value.to_bits(), "{i} {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_pearson_matrix_agrees_with_the_single_pair_test() {
        let (ns, ni) = (3, 40);
        let human = scores(11, ns * ni, 0.001);
        let mut cols: Vec<Vec<f64>> = (12..15).map(|s| scores(s, ns * ni, 0.0001)).collect();
        // A metric close to the human scores, and a copy of another metric.
        cols.push(
            human
                .iter()
                .zip(&cols[0])
                .map(|(h, x)| h + 0.3 * x)
                .collect(),
        );
        cols.push(cols[1].clone());
        let m: Vec<PackedScores<'_>> = cols
            .iter()
            .map(|c| PackedScores::new(&human, c, ns).unwrap())
            .collect();
        for block_size in [1000, 25] {
            let cfg = PermSigDiffConfig {
                resamples: 100,
                block_size,
                ..PermSigDiffConfig::new(3)
            };
            let fast = perm_both_pearson_matrix(&m, &cfg).unwrap();
            let pr = |h: &[f64], x: &[f64]| Ok(pearson(h, x)?.statistic);
            for i in 0..m.len() {
                for j in i + 1..m.len() {
                    let one = permutation_sig_diff(&m[j], &m[i], Grouping::None, &cfg, pr).unwrap();
                    assert_eq!(fast[i][j], one.p_value, "{i} {j} block {block_size}");
                }
            }
            assert_eq!(fast[1][4], 1.0);
        }
    }

    #[test]
    fn several_matrices_share_the_draws_and_follow_their_order() {
        let (ns, ni) = (3, 7);
        let human = scores(21, ns * ni, 0.25);
        let cols: Vec<Vec<f64>> = (22..26).map(|s| scores(s, ns * ni, 0.1)).collect();
        let m: Vec<PackedScores<'_>> = cols
            .iter()
            .map(|c| PackedScores::new(&human, c, ns).unwrap())
            .collect();
        let cfg = PermSigDiffConfig {
            resamples: 40,
            ..PermSigDiffConfig::new(9)
        };
        let (eps0, eps1) = ([0.0; 4], [0.1, 0.0, 0.2, 0.05]);
        let (o0, o1) = ([2, 0, 3, 1], [3, 2, 1, 0]);
        let tests = [
            PairTest {
                order: &o0,
                epsilons: &eps0,
            },
            PairTest {
                order: &o1,
                epsilons: &eps1,
            },
        ];
        let v = KendallVariant::Acc23;
        let got = pairwise_permutation_matrices(&m, Grouping::Item, v, &tests, &cfg).unwrap();
        for (t, mat) in tests.iter().zip(&got) {
            for (i, row) in mat.iter().enumerate() {
                for (j, &p) in row.iter().enumerate().skip(i + 1) {
                    let (a, b) = (t.order[j], t.order[i]);
                    let eps = (Some(t.epsilons[a]), Some(t.epsilons[b]));
                    let one =
                        pairwise_permutation_sig_diff(&m[a], &m[b], Grouping::Item, v, eps, &cfg)
                            .unwrap();
                    assert_eq!(p.to_bits(), one.p_value.to_bits());
                }
            }
        }
    }

    #[test]
    fn bad_arguments_are_refused() {
        let h = [1.0, 2.0, 3.0, 4.0];
        let s = PackedScores::new(&h, &h, 2).unwrap();
        let cfg = PermSigDiffConfig::new(1);
        let m = [s, s];
        assert!(pairwise_permutation_matrix(
            &m,
            Grouping::Item,
            KendallVariant::B,
            &[0.0; 2],
            &cfg
        )
        .is_err());
        assert!(pairwise_permutation_matrix(
            &m,
            Grouping::Item,
            KendallVariant::Acc23,
            &[0.0],
            &cfg
        )
        .is_err());
        let one = pairwise_permutation_matrix(
            &m[..1],
            Grouping::Item,
            KendallVariant::Acc23,
            &[0.0],
            &cfg,
        );
        assert!(one.unwrap()[0][0].is_nan());
    }
}
