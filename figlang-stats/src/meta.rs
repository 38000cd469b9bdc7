//! System- and segment-level meta-evaluation of a metric against human judgements.

use std::collections::HashMap;

use hauser_core::Signature;
use serde::Serialize;

use super::correlation::{fisher_z_interval, pearson, spearman, ConfidenceInterval, Correlation};
use super::error::{StatsError, StatsResult};
use super::kendall::{kendall_tau, wmt_kendall_tau, TauVariant};

/// Human and metric scores of several systems on shared segments (source sentences).
///
/// Stored as two systems x segments matrices; a system may lack a segment (`None`).
#[derive(Debug, Clone, PartialEq)]
pub struct MetaEvalData {
    systems: Vec<String>,
    segments: Vec<String>,
    human: Vec<Vec<Option<f64>>>,
    metric: Vec<Vec<Option<f64>>>,
}

impl MetaEvalData {
    /// Builds the table from `(system, segment, human, metric)` rows; systems and segments keep
    /// their order of first appearance. Errors: a repeated (system, segment) pair, a non-finite
    /// score (reported with its 0-based row), no rows, or a systems x segments table larger
    /// than the machine's memory ([`StatsError::Limit`]).
    pub fn from_rows<S, T>(rows: impl IntoIterator<Item = (S, T, f64, f64)>) -> StatsResult<Self>
    where
        S: Into<String>,
        T: Into<String>,
    {
        let mut data = Self {
            systems: Vec::new(),
            segments: Vec::new(),
            human: Vec::new(),
            metric: Vec::new(),
        };
        let mut sys_index: HashMap<String, usize> = HashMap::new();
        let mut seg_index: HashMap<String, usize> = HashMap::new();
        let mut cells: Vec<(usize, usize, f64, f64)> = Vec::new();
        for (row, (system, segment, h, m)) in rows.into_iter().enumerate() {
            for v in [h, m] {
                if !v.is_finite() {
                    return Err(StatsError::NonFinite {
                        what: "meta-evaluation row",
                        index: row,
                        value: v,
                    });
                }
            }
            let system = system.into();
            let segment = segment.into();
            let next = sys_index.len();
            let si = *sys_index.entry(system.clone()).or_insert_with(|| {
                data.systems.push(system);
                next
            });
            let next = seg_index.len();
            let gi = *seg_index.entry(segment.clone()).or_insert_with(|| {
                data.segments.push(segment);
                next
            });
            cells.push((si, gi, h, m));
        }
        if cells.is_empty() {
            return Err(StatsError::TooFewItems {
                what: "meta-evaluation",
                needed: 1,
                got: 0,
            });
        }
        let (ns, ng) = (data.systems.len(), data.segments.len());
        // The matrices are dense: a few rows that each name a new system and a new segment ask
        // for systems x segments cells, far more than the rows themselves.
        let cell = 2 * std::mem::size_of::<Option<f64>>() as u64;
        hauser_core::limits::check_memory(
            &format!("a meta-evaluation table of {ns} systems x {ng} segments"),
            (ns as u64)
                .checked_mul(ng as u64)
                .and_then(|c| c.checked_mul(cell)),
        )?;
        data.human = vec![vec![None; ng]; ns];
        data.metric = vec![vec![None; ng]; ns];
        for (row, (si, gi, h, m)) in cells.into_iter().enumerate() {
            if data.human[si][gi].is_some() {
                return Err(StatsError::InvalidArgument {
                    what: "meta-evaluation",
                    message: format!(
                        "row {row}: system {:?} has segment {:?} twice",
                        data.systems[si], data.segments[gi]
                    ),
                });
            }
            data.human[si][gi] = Some(h);
            data.metric[si][gi] = Some(m);
        }
        Ok(data)
    }

    /// Builds the table from complete systems x segments matrices (`human[system][segment]`).
    pub fn from_matrices(human: &[Vec<f64>], metric: &[Vec<f64>]) -> StatsResult<Self> {
        if human.len() != metric.len() {
            return Err(StatsError::LengthMismatch {
                what: "meta-evaluation systems",
                left: human.len(),
                right: metric.len(),
            });
        }
        let mut rows = Vec::new();
        for (s, (h, m)) in human.iter().zip(metric).enumerate() {
            if h.len() != m.len() {
                return Err(StatsError::LengthMismatch {
                    what: "meta-evaluation segments",
                    left: h.len(),
                    right: m.len(),
                });
            }
            for (g, (&hv, &mv)) in h.iter().zip(m).enumerate() {
                rows.push((s.to_string(), g.to_string(), hv, mv));
            }
        }
        Self::from_rows(rows)
    }

    /// System names in order of first appearance.
    pub fn systems(&self) -> &[String] {
        &self.systems
    }

    /// Segment ids in order of first appearance.
    pub fn segments(&self) -> &[String] {
        &self.segments
    }

    /// Number of scored (system, segment) items.
    pub fn n_items(&self) -> usize {
        self.human.iter().flatten().filter(|v| v.is_some()).count()
    }

    pub(crate) fn human(&self) -> &[Vec<Option<f64>>] {
        &self.human
    }

    pub(crate) fn metric(&self) -> &[Vec<Option<f64>>] {
        &self.metric
    }

    /// Per-system mean human and metric scores over the segments each system has.
    pub fn system_means(&self) -> (Vec<f64>, Vec<f64>) {
        let mean = |row: &Vec<Option<f64>>| {
            let vals: Vec<f64> = row.iter().flatten().copied().collect();
            vals.iter().sum::<f64>() / vals.len() as f64
        };
        (
            self.human.iter().map(mean).collect(),
            self.metric.iter().map(mean).collect(),
        )
    }

    /// Human and metric scores of the systems that have segment `g`.
    pub(crate) fn segment_column(&self, g: usize) -> (Vec<f64>, Vec<f64>) {
        let mut h = Vec::new();
        let mut m = Vec::new();
        for s in 0..self.systems.len() {
            if let (Some(hv), Some(mv)) = (self.human[s][g], self.metric[s][g]) {
                h.push(hv);
                m.push(mv);
            }
        }
        (h, m)
    }

    /// All items, pooled: (human, metric) in system-major order.
    pub fn pooled(&self) -> (Vec<f64>, Vec<f64>) {
        let mut h = Vec::new();
        let mut m = Vec::new();
        for s in 0..self.systems.len() {
            for g in 0..self.segments.len() {
                if let (Some(hv), Some(mv)) = (self.human[s][g], self.metric[s][g]) {
                    h.push(hv);
                    m.push(mv);
                }
            }
        }
        (h, m)
    }

    /// The same table restricted to the given systems (by index, in that order).
    pub fn select_systems(&self, indices: &[usize]) -> Self {
        Self {
            systems: indices.iter().map(|&i| self.systems[i].clone()).collect(),
            segments: self.segments.clone(),
            human: indices.iter().map(|&i| self.human[i].clone()).collect(),
            metric: indices.iter().map(|&i| self.metric[i].clone()).collect(),
        }
    }
}

/// The WMT17 Kendall-like tau per segment, averaged over the segments where it is defined.
/// Returns (mean tau, number of segments averaged).
pub fn segment_wmt_tau(data: &MetaEvalData) -> (f64, usize) {
    let taus = segment_taus(data);
    let defined: Vec<f64> = taus.into_iter().filter(|t| !t.is_nan()).collect();
    let mean = if defined.is_empty() {
        f64::NAN
    } else {
        defined.iter().sum::<f64>() / defined.len() as f64
    };
    (mean, defined.len())
}

/// The WMT17 tau of each segment (NaN where fewer than two systems differ in human score).
pub fn segment_taus(data: &MetaEvalData) -> Vec<f64> {
    (0..data.segments.len())
        .map(|g| {
            let (h, m) = data.segment_column(g);
            // Lengths match and values are finite by construction.
            wmt_kendall_tau(&h, &m).map_or(f64::NAN, |t| t.tau)
        })
        .collect()
}

/// Meta-evaluation of one metric against human scores.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetaEvalReport {
    /// Pearson between per-system mean metric and human scores.
    pub system_pearson: Correlation,
    /// 95% Fisher-z interval of `system_pearson`.
    pub system_pearson_ci: ConfidenceInterval,
    /// Spearman between per-system means.
    pub system_spearman: Correlation,
    /// Kendall tau-b between per-system means.
    pub system_kendall: Correlation,
    /// WMT17 Kendall-like tau per segment across systems, averaged over segments.
    pub segment_kendall_wmt: f64,
    /// Segments where the WMT tau is defined (and averaged).
    pub segment_kendall_segments: usize,
    /// Pearson over all (system, segment) items pooled.
    pub segment_pearson: Correlation,
    /// Number of systems.
    pub n_systems: usize,
    /// Number of segments.
    pub n_segments: usize,
    /// Number of scored items.
    pub n_items: usize,
    /// How the numbers were computed.
    pub signature: Signature,
}

/// Runs the system- and segment-level meta-evaluation.
///
/// Errors: fewer than 2 systems (no system-level correlation), or fewer than 2 items.
///
/// ```
/// use figlang_stats::{meta_evaluate, MetaEvalData};
/// let human = vec![vec![1.0, 2.0], vec![2.0, 3.0], vec![3.0, 5.0]];
/// let metric = vec![vec![0.1, 0.3], vec![0.2, 0.2], vec![0.4, 0.6]];
/// let data = MetaEvalData::from_matrices(&human, &metric).unwrap();
/// let report = meta_evaluate(&data).unwrap();
/// assert_eq!(report.n_systems, 3);
/// assert!(report.system_pearson.statistic > 0.9);
/// ```
pub fn meta_evaluate(data: &MetaEvalData) -> StatsResult<MetaEvalReport> {
    let n_systems = data.systems.len();
    if n_systems < 2 {
        return Err(StatsError::TooFewItems {
            what: "system-level meta-evaluation (systems)",
            needed: 2,
            got: n_systems,
        });
    }
    let (hs, ms) = data.system_means();
    let system_pearson = pearson(&ms, &hs)?;
    let system_pearson_ci = fisher_z_interval(system_pearson.statistic, n_systems, 0.95)?;
    let system_spearman = spearman(&ms, &hs)?;
    let system_kendall = kendall_tau(&ms, &hs, TauVariant::B)?;
    let (segment_kendall_wmt, segment_kendall_segments) = segment_wmt_tau(data);
    let (ph, pm) = data.pooled();
    let segment_pearson = pearson(&pm, &ph)?;
    Ok(MetaEvalReport {
        system_pearson,
        system_pearson_ci,
        system_spearman,
        system_kendall,
        segment_kendall_wmt,
        segment_kendall_segments,
        segment_pearson,
        n_systems,
        n_segments: data.segments.len(),
        n_items: data.n_items(),
        signature: Signature::new("meta-eval", crate::VERSION)
            .with("system", "pearson+spearman+kendall-b(means)")
            .with("segment", "wmt17-tau(mean over segments)+pooled-pearson")
            .with("p", "scipy-1.17"),
    })
}

/// System-level Pearson over the top-N systems by human score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopN {
    /// Number of best systems kept.
    pub n: usize,
    /// Pearson between their per-system means.
    pub pearson: Correlation,
}

/// Top-N analysis: systems sorted by mean human score (best first), system-level Pearson for
/// N from all systems down to 3. Errors when there are fewer than 3 systems.
pub fn top_n_analysis(data: &MetaEvalData) -> StatsResult<Vec<TopN>> {
    let n_systems = data.systems.len();
    if n_systems < 3 {
        return Err(StatsError::TooFewItems {
            what: "top-N analysis (systems)",
            needed: 3,
            got: n_systems,
        });
    }
    let (hs, ms) = data.system_means();
    let mut order: Vec<usize> = (0..n_systems).collect();
    order.sort_by(|&a, &b| hs[b].total_cmp(&hs[a]));
    (3..=n_systems)
        .rev()
        .map(|n| {
            let h: Vec<f64> = order[..n].iter().map(|&i| hs[i]).collect();
            let m: Vec<f64> = order[..n].iter().map(|&i| ms[i]).collect();
            Ok(TopN {
                n,
                pearson: pearson(&m, &h)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<(&'static str, &'static str, f64, f64)> {
        vec![
            ("A", "s1", 1.0, 0.1),
            ("B", "s1", 2.0, 0.2),
            ("C", "s1", 3.0, 0.1),
            ("A", "s2", 3.0, 0.5),
            ("B", "s2", 1.0, 0.4),
            ("C", "s2", 2.0, 0.6),
            ("D", "s1", 4.0, 0.9),
        ]
    }

    #[test]
    fn from_rows_handles_missing_cells_and_duplicates() {
        let data = MetaEvalData::from_rows(rows()).unwrap();
        assert_eq!(data.systems(), ["A", "B", "C", "D"]);
        assert_eq!(data.n_items(), 7);
        let (hs, _) = data.system_means();
        assert_eq!(hs, vec![2.0, 1.5, 2.5, 4.0]);
        let mut dup = rows();
        dup.push(("A", "s1", 1.0, 1.0));
        assert!(MetaEvalData::from_rows(dup).is_err());
        let none: Vec<(&str, &str, f64, f64)> = Vec::new();
        assert!(MetaEvalData::from_rows(none).is_err());
    }

    #[test]
    fn segment_tau_by_hand() {
        let data = MetaEvalData::from_rows(rows()).unwrap();
        // s1: human 1,2,3,4 metric .1,.2,.1,.9: pairs AB c, AC tie->d, AD c, BC d, BD c, CD c -> 4c 2d
        // s2: human 3,1,2 metric .5,.4,.6: AB c, AC d, BC c -> 2c 1d
        let taus = segment_taus(&data);
        assert!((taus[0] - 2.0 / 6.0).abs() < 1e-15);
        assert!((taus[1] - 1.0 / 3.0).abs() < 1e-15);
        let report = meta_evaluate(&data).unwrap();
        assert_eq!(report.segment_kendall_segments, 2);
        assert_eq!(report.n_items, 7);
        let top = top_n_analysis(&data).unwrap();
        assert_eq!(top.iter().map(|t| t.n).collect::<Vec<_>>(), vec![4, 3]);
    }
}
