//! `hauser meta-eval --wmt` (and several `--metric-col`): every metric against the human scores
//! with the WMT metrics task's statistics, their bootstrap intervals, and the significance
//! clusters of the metrics on each statistic (mt-metrics-eval's `data.CompareMetrics`).
//!
//! The statistics ([`Stat`]): at system level (per-system means over the items each system has)
//! pairwise accuracy, soft pairwise accuracy (SPA), Pearson, Spearman and Kendall tau-b; at
//! segment level acc_eq and the tie-calibrated acc*_eq (grouped by item, all pairs, with the
//! optimal epsilon), pooled Pearson, and the WMT17 Kendall-like tau averaged over items (the
//! single-metric report's `segment_kendall_wmt`). Every number comes from `figlang-stats`.
//!
//! Significance: per statistic, the metrics are ordered best first (name second, as
//! mt-metrics-eval), each pair is tested (PERM-BOTH on z-scored scores, or pair swapping for
//! acc_eq and acc*_eq, WMT23-25's test), and the clusters are `data.AssignRanks`'. SPA has no
//! test (mt-metrics-eval's recomputes SPA's own permutations inside each run: 1000 x 1000
//! permutations per pair of metrics), nor has the WMT17 tau (the formality paper's statistic,
//! which acc_eq succeeds in WMT; its test would recompute every item's tau in every run).
//!
//! Intervals: percentile bootstrap over items (the systems fixed, all metrics on the same
//! resamples); acc*_eq keeps each metric's calibrated epsilon in the resamples; SPA has none.

use figlang_metrics::stats::{
    average_correlation, average_ranks, bootstrap_items, kendall_tau, kendall_variant,
    kendall_with_ties_opt, pairwise_accuracy, pairwise_permutation_matrices, pearson,
    perm_both_matrix, perm_both_pearson_matrix, significance_clusters, soft_pairwise_accuracy,
    spearman, wmt_kendall_tau, AverageOptions, BootstrapConfig, Grouping, KendallVariant,
    PackedScores, PairSampling, PairTest, PermSigDiffConfig, StatsError, StatsResult, TauVariant,
};
use rayon::prelude::*;
use serde::Serialize;

/// Permutations of soft pairwise accuracy (mt-metrics-eval's `PairwiseConfidenceError` default).
pub const SPA_PERMUTATIONS: usize = 1000;
/// Seed of soft pairwise accuracy's permutations (`pce.compute_pairwise_p_values`' default).
pub const SPA_SEED: u64 = 4;
/// Confidence level of the bootstrap intervals.
pub const LEVEL: f64 = 0.95;

/// One statistic of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    /// System-level pairwise accuracy (Kocmi et al. 2021).
    SysAcc,
    /// System-level soft pairwise accuracy (Thompson et al. 2024).
    SysSpa,
    /// Pearson of system means.
    SysPearson,
    /// Spearman of system means.
    SysSpearman,
    /// Kendall tau-b of system means.
    SysKendall,
    /// Segment-level acc_eq (acc_23 with epsilon 0), grouped by item.
    SegAccEq,
    /// Segment-level acc*_eq (acc_23 with the calibrated epsilon), grouped by item.
    SegAccStar,
    /// Segment-level Pearson over all scored items.
    SegPearson,
    /// WMT17 Kendall-like tau per item, averaged over the items where it is defined.
    SegKendallWmt,
}

impl Stat {
    /// Every statistic, in report order.
    pub const ALL: [Stat; 9] = [
        Stat::SysAcc,
        Stat::SysSpa,
        Stat::SysPearson,
        Stat::SysSpearman,
        Stat::SysKendall,
        Stat::SegAccEq,
        Stat::SegAccStar,
        Stat::SegPearson,
        Stat::SegKendallWmt,
    ];

    /// `system` or `segment`.
    pub fn level(self) -> &'static str {
        if (self as usize) < 5 {
            "system"
        } else {
            "segment"
        }
    }

    /// The statistic's name in the JSON report.
    pub fn key(self) -> &'static str {
        match self {
            Stat::SysAcc => "pairwise_accuracy",
            Stat::SysSpa => "soft_pairwise_accuracy",
            Stat::SysPearson | Stat::SegPearson => "pearson",
            Stat::SysSpearman => "spearman",
            Stat::SysKendall => "kendall_b",
            Stat::SegAccEq => "acc_eq",
            Stat::SegAccStar => "acc*_eq",
            Stat::SegKendallWmt => "kendall_wmt",
        }
    }

    /// A short column heading: `sys acc`, `seg acc*_eq`.
    pub fn heading(self) -> &'static str {
        match self {
            Stat::SysAcc => "sys acc",
            Stat::SysSpa => "sys SPA",
            Stat::SysPearson => "sys r",
            Stat::SysSpearman => "sys rho",
            Stat::SysKendall => "sys tau_b",
            Stat::SegAccEq => "seg acc_eq",
            Stat::SegAccStar => "seg acc*_eq",
            Stat::SegPearson => "seg r",
            Stat::SegKendallWmt => "seg tau_wmt",
        }
    }

    /// How the segment-level scores are grouped (`none` at system level).
    pub fn grouping(self) -> &'static str {
        match self {
            Stat::SegAccEq | Stat::SegAccStar | Stat::SegKendallWmt => "item",
            _ => "none",
        }
    }

    /// The significance test between metrics, if any.
    pub fn test(self) -> Option<&'static str> {
        match self {
            Stat::SysSpa | Stat::SegKendallWmt => None,
            Stat::SegAccEq | Stat::SegAccStar => Some("pairs"),
            _ => Some("perm-both"),
        }
    }
}

/// Human and metric scores of several metrics: systems x items, packed system-major
/// (`s * items + i`); a NaN human score marks a cell the table does not have (its metric
/// scores are 0 there and never read).
#[derive(Debug, Clone)]
pub struct WmtInput {
    /// System names, in order of first appearance.
    pub systems: Vec<String>,
    /// Item (segment) ids, in order of first appearance.
    pub items: Vec<String>,
    /// Human scores.
    pub human: Vec<f64>,
    /// Each metric's name and scores.
    pub metrics: Vec<(String, Vec<f64>)>,
}

/// Settings of the report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WmtSettings {
    /// Permutation runs of each significance test (0: no tests, no clusters).
    pub resamples: usize,
    /// Bootstrap resamples of the intervals (0: no intervals).
    pub bootstrap: usize,
    /// Seed of the bootstrap and (`np.random.seed`) of the permutation tests.
    pub seed: u32,
    /// Significance level of the clusters.
    pub alpha: f64,
}

/// One metric on one statistic.
#[derive(Debug, Clone, Serialize)]
pub struct MetricResult {
    /// Metric name.
    pub metric: String,
    /// The statistic (null where undefined).
    pub value: f64,
    /// Percentile bootstrap interval, when asked for and defined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
    /// Significance cluster (1 = best), when the statistic has a test and tests ran.
    pub cluster: Option<usize>,
    /// The tie threshold of acc*_eq.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epsilon: Option<f64>,
}

/// One statistic over all metrics, best first.
#[derive(Debug, Clone, Serialize)]
pub struct StatReport {
    /// `system` or `segment`.
    pub level: &'static str,
    /// The statistic's name.
    pub statistic: &'static str,
    /// `none` or `item`.
    pub grouping: &'static str,
    /// `perm-both`, `pairs`, or null (no test).
    pub test: Option<&'static str>,
    /// The metrics, ordered by decreasing value (name second).
    pub ranking: Vec<MetricResult>,
    /// `p_values[i][j]`, `j > i`, in ranking order: the p-value that metric i does not beat
    /// metric j (null elsewhere, and when no test ran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_values: Option<Vec<Vec<f64>>>,
    #[serde(skip)]
    pub(crate) stat: Option<Stat>,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct WmtReport {
    /// Metric names, in input order.
    pub metrics: Vec<String>,
    /// Systems.
    pub n_systems: usize,
    /// Items (segments).
    pub n_items: usize,
    /// Scored (system, item) cells.
    pub n_scored: usize,
    /// Every statistic.
    pub statistics: Vec<StatReport>,
    /// What could not be computed, and why.
    pub notes: Vec<String>,
    /// How the numbers were computed.
    pub signature: String,
}

/// One metric's statistics on the full data, and what its bootstrap needs.
struct Base {
    values: [f64; 9],
    epsilon: f64,
    /// Per item: acc_eq, acc*_eq (at `epsilon`) and WMT tau; NaN where undefined.
    per_item: [Vec<f64>; 3],
    /// Pooled cells centred on their means, for the weighted Pearson.
    centred: Vec<(usize, f64, f64)>,
}

impl WmtInput {
    fn ns(&self) -> usize {
        self.systems.len()
    }

    fn ni(&self) -> usize {
        self.items.len()
    }

    /// Per-system (human, metric) means over the items weighted by `w` (NaN for a system with
    /// no weight).
    fn system_means(&self, metric: &[f64], w: Option<&[f64]>) -> (Vec<f64>, Vec<f64>) {
        let ni = self.ni();
        (0..self.ns())
            .map(|s| {
                let (mut sw, mut sh, mut sm) = (0.0, 0.0, 0.0);
                for i in 0..ni {
                    let h = self.human[s * ni + i];
                    let wi = w.map_or(1.0, |w| w[i]);
                    if !h.is_nan() && wi > 0.0 {
                        sw += wi;
                        sh += wi * h;
                        sm += wi * metric[s * ni + i];
                    }
                }
                (sh / sw, sm / sw)
            })
            .unzip()
    }

    /// The column of item `i`: the (human, metric) scores of the systems that have it.
    fn column(&self, metric: &[f64], i: usize) -> (Vec<f64>, Vec<f64>) {
        let ni = self.ni();
        (0..self.ns())
            .map(|s| (self.human[s * ni + i], metric[s * ni + i]))
            .filter(|(h, _)| !h.is_nan())
            .unzip()
    }
}

/// System-level statistics of system means (systems without a mean left out): accuracy,
/// Pearson, Spearman, tau-b; NaN where undefined.
fn system_stats(hm: &[f64], mm: &[f64]) -> [f64; 4] {
    let (h, m): (Vec<f64>, Vec<f64>) = hm
        .iter()
        .zip(mm)
        .filter(|(h, m)| h.is_finite() && m.is_finite())
        .map(|(h, m)| (*h, *m))
        .unzip();
    let acc = pairwise_accuracy(&h, &m).map_or(f64::NAN, |a| a.accuracy());
    [
        acc,
        pearson(&m, &h).map_or(f64::NAN, |c| c.statistic),
        spearman(&m, &h).map_or(f64::NAN, |c| c.statistic),
        kendall_tau(&m, &h, TauVariant::B).map_or(f64::NAN, |c| c.statistic),
    ]
}

/// Pearson's r alone (NaN for a constant vector or fewer than 2 values), for the permutation
/// runs, which need no p-value.
fn pearson_r(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    if x.len() < 2 || sxx <= 0.0 || syy <= 0.0 {
        f64::NAN
    } else {
        (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0)
    }
}

/// Plain mean of the defined values (the single-metric report's averaging of WMT taus).
fn mean_defined(v: impl Iterator<Item = f64>) -> f64 {
    let d: Vec<f64> = v.filter(|x| !x.is_nan()).collect();
    if d.is_empty() {
        f64::NAN
    } else {
        d.iter().sum::<f64>() / d.len() as f64
    }
}

fn base(input: &WmtInput, metric: &[f64], notes: &mut Vec<String>, name: &str) -> Base {
    let (ns, ni) = (input.ns(), input.ni());
    let (hm, mm) = input.system_means(metric, None);
    let [acc, sp, ss, sk] = system_stats(&hm, &mm);
    let packed = PackedScores::new(&input.human, metric, ns).expect("checked when read");
    let spa = if input.human.iter().any(|h| h.is_nan()) || ns < 2 {
        f64::NAN
    } else {
        soft_pairwise_accuracy(&packed, SPA_PERMUTATIONS, SPA_SEED).unwrap_or(f64::NAN)
    };
    let acc23 = |h: &[f64], m: &[f64]| kendall_variant(h, m, KendallVariant::Acc23, 0.0);
    let acc_eq = average_correlation(&packed, Grouping::Item, AverageOptions::default(), acc23)
        .map_or(f64::NAN, |a| a.value);
    let (acc_star, epsilon) = match kendall_with_ties_opt(
        &packed,
        Grouping::Item,
        KendallVariant::Acc23,
        PairSampling::All,
    ) {
        Ok(c) => (c.tau, c.epsilon),
        Err(e) => {
            notes.push(format!("{name}: acc*_eq: {e}"));
            (f64::NAN, 0.0)
        }
    };
    let mut per_item = [
        Vec::with_capacity(ni),
        Vec::with_capacity(ni),
        Vec::with_capacity(ni),
    ];
    for i in 0..ni {
        let (h, m) = input.column(metric, i);
        let acc = |eps: f64| {
            if h.len() >= 2 {
                kendall_variant(&h, &m, KendallVariant::Acc23, eps).unwrap_or(f64::NAN)
            } else {
                f64::NAN
            }
        };
        per_item[0].push(acc(0.0));
        per_item[1].push(acc(epsilon));
        per_item[2].push(wmt_kendall_tau(&h, &m).map_or(f64::NAN, |t| t.tau));
    }
    let (mut ph, mut pm, mut cells) = (Vec::new(), Vec::new(), Vec::new());
    for s in 0..ns {
        for i in 0..ni {
            let h = input.human[s * ni + i];
            if !h.is_nan() {
                ph.push(h);
                pm.push(metric[s * ni + i]);
                cells.push(i);
            }
        }
    }
    let seg_r = pearson(&pm, &ph).map_or(f64::NAN, |c| c.statistic);
    let (mh, mmean) = (
        ph.iter().sum::<f64>() / ph.len() as f64,
        pm.iter().sum::<f64>() / pm.len() as f64,
    );
    let centred = cells
        .into_iter()
        .zip(ph.iter().zip(&pm))
        .map(|(i, (h, m))| (i, h - mh, m - mmean))
        .collect();
    let tau_wmt = mean_defined(per_item[2].iter().copied());
    Base {
        values: [acc, spa, sp, ss, sk, acc_eq, acc_star, seg_r, tau_wmt],
        epsilon,
        per_item,
        centred,
    }
}

/// The statistics of one metric on a bootstrap resample (`w[i]`: how often item i was drawn),
/// in [`Stat::ALL`] order (SPA: NaN).
fn resampled(input: &WmtInput, metric: &[f64], b: &Base, w: &[f64]) -> [f64; 9] {
    let (hm, mm) = input.system_means(metric, Some(w));
    let [acc, sp, ss, sk] = system_stats(&hm, &mm);
    let wmean = |v: &[f64]| {
        let (mut s, mut n) = (0.0, 0.0);
        for (x, wi) in v.iter().zip(w) {
            if !x.is_nan() && *wi > 0.0 {
                s += wi * x;
                n += wi;
            }
        }
        s / n
    };
    let (mut n, mut x, mut y, mut xx, mut yy, mut xy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for &(i, h, m) in &b.centred {
        let wi = w[i];
        n += wi;
        x += wi * m;
        y += wi * h;
        xx += wi * m * m;
        yy += wi * h * h;
        xy += wi * m * h;
    }
    let (sxx, syy, sxy) = (xx - x * x / n, yy - y * y / n, xy - x * y / n);
    let seg_r = if sxx > 0.0 && syy > 0.0 {
        (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0)
    } else {
        f64::NAN
    };
    [
        acc,
        f64::NAN,
        sp,
        ss,
        sk,
        wmean(&b.per_item[0]),
        wmean(&b.per_item[1]),
        seg_r,
        wmean(&b.per_item[2]),
    ]
}

/// Metric indices ordered by decreasing value, NaN last, name second (as mt-metrics-eval).
fn order(values: &[f64], names: &[&str]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| {
        let key = |v: f64| if v.is_nan() { f64::NEG_INFINITY } else { v };
        key(values[b])
            .total_cmp(&key(values[a]))
            .then_with(|| names[a].cmp(names[b]))
    });
    idx
}

/// The p-value matrix of `stat` over the metrics in `ord`.
fn sig_matrix(
    input: &WmtInput,
    stat: Stat,
    ord: &[usize],
    config: &PermSigDiffConfig,
) -> StatsResult<Vec<Vec<f64>>> {
    let ns = input.ns();
    let or_nan = |r: StatsResult<f64>| Ok(r.unwrap_or(f64::NAN));
    match stat {
        Stat::SysAcc | Stat::SysPearson | Stat::SysSpearman | Stat::SysKendall => {
            let (hm, _) = input.system_means(&input.metrics[0].1, None);
            let means: Vec<Vec<f64>> = ord
                .iter()
                .map(|&k| {
                    let (_, mm) = input.system_means(&input.metrics[k].1, None);
                    mm.into_iter()
                        .map(|m| if m.is_finite() { m } else { 0.0 })
                        .collect()
                })
                .collect();
            let human: Vec<f64> = hm
                .iter()
                .map(|h| if h.is_finite() { *h } else { f64::NAN })
                .collect();
            let packed: Vec<PackedScores<'_>> = means
                .iter()
                .map(|m| PackedScores::new(&human, m, 1))
                .collect::<StatsResult<_>>()?;
            // The statistics alone (no p-values): each run needs only the correlation.
            let corr = move |h: &[f64], m: &[f64]| -> StatsResult<f64> {
                match stat {
                    Stat::SysAcc => or_nan(pairwise_accuracy(h, m).map(|a| a.accuracy())),
                    Stat::SysPearson => Ok(pearson_r(h, m)),
                    Stat::SysSpearman => Ok(pearson_r(&average_ranks(h), &average_ranks(m))),
                    _ => or_nan(kendall_variant(h, m, KendallVariant::B, 0.0)),
                }
            };
            perm_both_matrix(&packed, Grouping::None, config, corr)
        }
        // Both come from one call of `pair_swap_matrices`, which shares their draws.
        Stat::SegAccEq | Stat::SegAccStar => Ok(Vec::new()),
        Stat::SegPearson => {
            let packed: Vec<PackedScores<'_>> = ord
                .iter()
                .map(|&k| PackedScores::new(&input.human, &input.metrics[k].1, ns))
                .collect::<StatsResult<_>>()?;
            perm_both_pearson_matrix(&packed, config)
        }
        Stat::SysSpa | Stat::SegKendallWmt => Ok(Vec::new()),
    }
}

/// The pair-swapping matrices of acc_eq (epsilon 0) and acc*_eq (each metric's calibrated
/// epsilon), each in its ranking order, from one set of draws.
fn pair_swap_matrices(
    input: &WmtInput,
    bases: &[Base],
    orders: [&[usize]; 2],
    config: &PermSigDiffConfig,
) -> StatsResult<Vec<Vec<Vec<f64>>>> {
    let packed: Vec<PackedScores<'_>> = input
        .metrics
        .iter()
        .map(|(_, m)| PackedScores::new(&input.human, m, input.ns()))
        .collect::<StatsResult<_>>()?;
    let zeros = vec![0.0; bases.len()];
    let calibrated: Vec<f64> = bases.iter().map(|b| b.epsilon).collect();
    let tests = [
        PairTest {
            order: orders[0],
            epsilons: &zeros,
        },
        PairTest {
            order: orders[1],
            epsilons: &calibrated,
        },
    ];
    pairwise_permutation_matrices(
        &packed,
        Grouping::Item,
        KendallVariant::Acc23,
        &tests,
        config,
    )
}

/// The signature of a report with these settings.
pub fn signature(s: &WmtSettings) -> String {
    format!(
        "meta-eval-wmt|sys:acc,spa,pearson,spearman,kendall-b|seg:acc_eq,acc*_eq(item,all-pairs),pearson(none),kendall-wmt(item)|test:perm-both(sys,seg-pearson),pairs(acc_eq,acc*_eq)|resamples:{}|seed:{}|alpha:{}|bootstrap:{}|level:{LEVEL}|spa:perm{SPA_PERMUTATIONS},seed{SPA_SEED}|ref:mt-metrics-eval@68a481a|version:{}",
        s.resamples,
        s.seed,
        s.alpha,
        s.bootstrap,
        figlang_metrics::VERSION
    )
}

/// Computes the report.
///
/// # Errors
/// A permutation test's or the bootstrap's errors (the memory limit among them).
pub fn evaluate(input: &WmtInput, settings: &WmtSettings) -> StatsResult<WmtReport> {
    let names: Vec<&str> = input.metrics.iter().map(|(n, _)| n.as_str()).collect();
    let ns = input.ns();
    let results: Vec<(Base, Vec<String>)> = input
        .metrics
        .par_iter()
        .map(|(name, m)| {
            let mut notes = Vec::new();
            let b = base(input, m, &mut notes, name);
            (b, notes)
        })
        .collect();
    let mut notes: Vec<String> = Vec::new();
    let bases: Vec<Base> = results
        .into_iter()
        .map(|(b, n)| {
            notes.extend(n);
            b
        })
        .collect();
    if input.human.iter().any(|h| h.is_nan()) {
        notes.push(
            "soft pairwise accuracy needs every system scored on every item: not computed".into(),
        );
    }
    if ns < 2 {
        notes.push(format!("{ns} system: no system-level statistic"));
    }
    let nstat = Stat::ALL.len();
    let cis: Option<Vec<Ci>> = if settings.bootstrap > 0 {
        let estimates: Vec<f64> = bases.iter().flat_map(|b| b.values).collect();
        let config = BootstrapConfig {
            resamples: settings.bootstrap,
            seed: u64::from(settings.seed),
            level: LEVEL,
        };
        let stats = |w: &[f64]| -> Vec<f64> {
            input
                .metrics
                .iter()
                .zip(&bases)
                .flat_map(|((_, m), b)| resampled(input, m, b, w))
                .collect()
        };
        let iv = bootstrap_items(input.ni(), &estimates, &config, stats)?;
        Some(
            iv.into_iter()
                .map(|i| (i.valid > 0).then_some([i.low, i.high]))
                .collect(),
        )
    } else {
        None
    };
    let config = &PermSigDiffConfig {
        resamples: settings.resamples.max(1),
        ..PermSigDiffConfig::new(settings.seed)
    };
    let tested = settings.resamples > 0 && ns >= 2;
    let orders: Vec<Vec<usize>> = (0..Stat::ALL.len())
        .map(|si| {
            order(
                &bases.iter().map(|b| b.values[si]).collect::<Vec<_>>(),
                &names,
            )
        })
        .collect();
    let (acc_eq, acc_star) = (Stat::SegAccEq as usize, Stat::SegAccStar as usize);
    // The pair-swapping draws are taken on one thread: the other tests run beside them.
    let (pair_swap, others) = if tested {
        let (p, o) = rayon::join(
            || pair_swap_matrices(input, &bases, [&orders[acc_eq], &orders[acc_star]], config),
            || {
                Stat::ALL
                    .iter()
                    .zip(&orders)
                    .map(|(&stat, ord)| match stat {
                        Stat::SegAccEq | Stat::SegAccStar | Stat::SysSpa | Stat::SegKendallWmt => {
                            Ok(None)
                        }
                        _ => sig_matrix(input, stat, ord, config).map(Some),
                    })
                    .collect::<StatsResult<Vec<_>>>()
            },
        );
        (p?, o?)
    } else {
        (Vec::new(), vec![None; Stat::ALL.len()])
    };
    let mut pair_swap = pair_swap.into_iter();
    let mut statistics = Vec::new();
    for ((si, &stat), other) in Stat::ALL.iter().enumerate().zip(others) {
        let values: Vec<f64> = bases.iter().map(|b| b.values[si]).collect();
        let ord = orders[si].clone();
        let (p_values, clusters) = if tested && stat.test().is_some() {
            // Stat::ALL has acc_eq before acc*_eq, the pair-swapping matrices' order.
            let p = match other {
                Some(p) => p,
                None => pair_swap.next().unwrap_or_default(),
            };
            let c = significance_clusters(&p, settings.alpha)?;
            (Some(p), Some(c))
        } else {
            (None, None)
        };
        let ranking = ord
            .iter()
            .enumerate()
            .map(|(r, &k)| MetricResult {
                metric: names[k].to_string(),
                value: values[k],
                ci95: cis.as_ref().and_then(|c| c[k * nstat + si]),
                cluster: clusters.as_ref().map(|c| c[r]),
                epsilon: (stat == Stat::SegAccStar && !values[k].is_nan())
                    .then_some(bases[k].epsilon),
            })
            .collect();
        statistics.push(StatReport {
            level: stat.level(),
            statistic: stat.key(),
            grouping: stat.grouping(),
            test: stat.test(),
            ranking,
            p_values,
            stat: Some(stat),
        });
    }
    Ok(WmtReport {
        metrics: names.iter().map(|n| n.to_string()).collect(),
        n_systems: ns,
        n_items: input.ni(),
        n_scored: input.human.iter().filter(|h| !h.is_nan()).count(),
        statistics,
        notes,
        signature: signature(settings),
    })
}

/// A bootstrap interval, when defined.
type Ci = Option<[f64; 2]>;

/// Checks the sizes of a table of `ns` systems x `ni` items and `k` metrics before it is
/// allocated.
///
/// # Errors
/// [`StatsError::Limit`] when it would not fit in memory.
pub fn check_size(ns: usize, ni: usize, k: usize) -> StatsResult<()> {
    hauser_core::limits::check_memory(
        &format!("a meta-evaluation table of {ns} systems x {ni} items x {k} metrics"),
        (ns as u64)
            .checked_mul(ni as u64)
            .and_then(|c| c.checked_mul(8 * (k as u64 + 1))),
    )
    .map_err(StatsError::from)
}
