//! Segment-level scores as the WMT metrics task packs them (a systems x items matrix, human
//! scores possibly missing) and mt-metrics-eval's ways of turning the matrix into correlations:
//! `stats.AverageCorrelation` with `average_by` none, item or sys.

use serde::Serialize;

use super::error::{StatsError, StatsResult};

/// How a systems x items matrix becomes correlations (mt-metrics-eval's `average_by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Grouping {
    /// `"none"`: one correlation over the flattened matrix (system-major order).
    None,
    /// `"item"`: one correlation per item (a column: that segment's score in every system),
    /// then averaged. WMT's segment-level "group-by-item" statistic.
    Item,
    /// `"sys"`: one correlation per system (a row), then averaged.
    Sys,
}

/// Human and metric scores of `num_sys` systems on the same items, packed system-major as
/// mt-metrics-eval's `Correlation` stores them: the score of system `s` on item `i` is at
/// `s * num_items + i`. A NaN human score is a missing judgement (mt-metrics-eval's `None`):
/// the pair is left out of every statistic. Metric scores are all present.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PackedScores<'a> {
    human: &'a [f64],
    metric: &'a [f64],
    num_sys: usize,
}

impl<'a> PackedScores<'a> {
    /// Checks and wraps the packed vectors.
    ///
    /// Errors: different lengths, `num_sys` 0 or not dividing the length, an infinite human
    /// score, a non-finite metric score.
    pub fn new(human: &'a [f64], metric: &'a [f64], num_sys: usize) -> StatsResult<Self> {
        const WHAT: &str = "PackedScores";
        check_packed(WHAT, human, metric)?;
        if num_sys == 0 || !human.len().is_multiple_of(num_sys) {
            return Err(StatsError::InvalidArgument {
                what: WHAT,
                message: format!(
                    "{} scores do not split into {num_sys} systems of equal length",
                    human.len()
                ),
            });
        }
        Ok(Self {
            human,
            metric,
            num_sys,
        })
    }

    /// Number of systems (rows).
    pub fn num_sys(&self) -> usize {
        self.num_sys
    }

    /// Number of items (columns).
    pub fn num_items(&self) -> usize {
        self.human.len() / self.num_sys
    }

    /// The packed human scores (NaN = missing).
    pub fn human(&self) -> &'a [f64] {
        self.human
    }

    /// The packed metric scores.
    pub fn metric(&self) -> &'a [f64] {
        self.metric
    }

    /// Whether some human score is missing.
    pub fn has_missing(&self) -> bool {
        self.human.iter().any(|h| h.is_nan())
    }

    /// Packed indexes of each group, in mt-metrics-eval's order (`_Reshape`): the whole vector;
    /// each item's column, systems in order; each system's row.
    pub(crate) fn group_indexes(&self, grouping: Grouping) -> Vec<Vec<usize>> {
        let (ns, ni) = (self.num_sys, self.num_items());
        match grouping {
            Grouping::None => vec![(0..ns * ni).collect()],
            Grouping::Item => (0..ni)
                .map(|i| (0..ns).map(|s| s * ni + i).collect())
                .collect(),
            Grouping::Sys => (0..ns).map(|s| (s * ni..(s + 1) * ni).collect()).collect(),
        }
    }

    /// The groups' (human, metric) vectors with missing human scores dropped, empty groups
    /// included (callers skip what their reference skips).
    pub(crate) fn groups(&self, grouping: Grouping) -> Vec<(Vec<f64>, Vec<f64>)> {
        self.group_indexes(grouping)
            .into_iter()
            .map(|idx| {
                idx.into_iter()
                    .filter(|&k| !self.human[k].is_nan())
                    .map(|k| (self.human[k], self.metric[k]))
                    .unzip()
            })
            .collect()
    }
}

/// Checks paired human and metric scores: equal lengths, human scores finite or NaN (missing),
/// metric scores finite.
pub(crate) fn check_packed(what: &'static str, human: &[f64], metric: &[f64]) -> StatsResult<()> {
    if human.len() != metric.len() {
        return Err(StatsError::LengthMismatch {
            what,
            left: human.len(),
            right: metric.len(),
        });
    }
    let human_bad = human.iter().position(|x| x.is_infinite());
    let metric_bad = metric.iter().position(|x| !x.is_finite());
    match (human_bad, metric_bad) {
        (Some(index), _) => Err(StatsError::NonFinite {
            what,
            index,
            value: human[index],
        }),
        (None, Some(index)) => Err(StatsError::NonFinite {
            what,
            index,
            value: metric[index],
        }),
        (None, None) => Ok(()),
    }
}

/// Options of [`average_correlation`] (mt-metrics-eval's `AverageCorrelation` arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct AverageOptions {
    /// Count a NaN group correlation (a constant group) as 0 instead of leaving it out.
    pub replace_nans_with_zeros: bool,
    /// Weight each group by its number of scored items (mt-metrics-eval's `macro=False`)
    /// instead of a plain mean over groups.
    pub weighted: bool,
}

/// A grouped correlation and the weight behind it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AveragedCorrelation {
    /// The (weighted) mean of the group correlations; 0 when no group counted, as in
    /// mt-metrics-eval.
    pub value: f64,
    /// Groups counted (or items, when weighted).
    pub weight: usize,
}

/// A correlation over groups as mt-metrics-eval's `stats.AverageCorrelation(corr, num_sys,
/// average_by, ...)` computes it: per group, drop missing human scores; skip groups left with
/// fewer than 2 items; compute `corr(human, metric)`; leave NaN out of the mean (or count it as
/// 0). `corr` is any correlation of this crate, for instance
/// `|h, m| kendall_variant(h, m, KendallVariant::Acc23, 0.0)` or
/// `|h, m| Ok(pearson(h, m)?.statistic)` (constant groups give NaN, as mt-metrics-eval forces
/// for Pearson and Spearman).
///
/// Errors: whatever `corr` returns.
///
/// ```
/// use figlang_stats::{average_correlation, kendall_variant, AverageOptions, Grouping, KendallVariant, PackedScores};
/// // Two systems, three items; the human score of system 1 on item 2 is missing.
/// let human = [1.0, 2.0, 3.0, 2.0, 1.0, f64::NAN];
/// let metric = [0.1, 0.2, 0.3, 0.3, 0.1, 0.5];
/// let scores = PackedScores::new(&human, &metric, 2).unwrap();
/// let acc = |h: &[f64], m: &[f64]| kendall_variant(h, m, KendallVariant::Acc23, 0.0);
/// let by_item = average_correlation(&scores, Grouping::Item, AverageOptions::default(), acc).unwrap();
/// // Item 0: humans 1 < 2, metric 0.1 < 0.3; item 1: 2 > 1, 0.2 > 0.1; item 2 has one score.
/// assert_eq!((by_item.value, by_item.weight), (1.0, 2));
/// ```
pub fn average_correlation<F>(
    scores: &PackedScores<'_>,
    grouping: Grouping,
    options: AverageOptions,
    mut corr: F,
) -> StatsResult<AveragedCorrelation>
where
    F: FnMut(&[f64], &[f64]) -> StatsResult<f64>,
{
    // Accumulated in mt-metrics-eval's order (a running sum of weight * value), so the mean
    // rounds as its does.
    let (mut total, mut weight) = (0.0f64, 0usize);
    for (h, m) in scores.groups(grouping) {
        if h.len() < 2 {
            continue;
        }
        let value = corr(&h, &m)?;
        let k = if options.weighted { h.len() } else { 1 };
        if !value.is_nan() {
            total += k as f64 * value;
            weight += k;
        } else if options.replace_nans_with_zeros {
            weight += k;
        }
    }
    Ok(AveragedCorrelation {
        value: if weight == 0 {
            0.0
        } else {
            total / weight as f64
        },
        weight,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_mt_metrics_eval_reshape() {
        let h = [0.0, 1.0, 2.0, 10.0, f64::NAN, 12.0];
        let m = [0.0; 6];
        let s = PackedScores::new(&h, &m, 2).unwrap();
        let items: Vec<Vec<f64>> = s.groups(Grouping::Item).into_iter().map(|g| g.0).collect();
        assert_eq!(items, vec![vec![0.0, 10.0], vec![1.0], vec![2.0, 12.0]]);
        let sys: Vec<Vec<f64>> = s.groups(Grouping::Sys).into_iter().map(|g| g.0).collect();
        assert_eq!(sys, vec![vec![0.0, 1.0, 2.0], vec![10.0, 12.0]]);
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(PackedScores::new(&[1.0; 5], &[1.0; 5], 2).is_err());
        assert!(PackedScores::new(&[1.0; 4], &[1.0; 4], 0).is_err());
        assert!(PackedScores::new(&[1.0; 4], &[1.0, f64::NAN, 1.0, 1.0], 2).is_err());
        assert!(PackedScores::new(&[1.0, f64::INFINITY], &[1.0; 2], 1).is_err());
    }

    #[test]
    fn no_usable_group_gives_zero() {
        let s = PackedScores::new(&[1.0, 2.0], &[1.0, 2.0], 2).unwrap();
        let r = average_correlation(&s, Grouping::Sys, AverageOptions::default(), |_, _| Ok(1.0))
            .unwrap();
        assert_eq!((r.value, r.weight), (0.0, 0));
    }
}
