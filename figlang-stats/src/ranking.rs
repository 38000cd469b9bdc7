//! Ranking quality of a metric against human scores over groups of candidates (HAUSER's
//! appendix: HR@k, NDCG@k, MRR per literal sentence, averaged).

use serde::Serialize;

use super::error::{check_paired, StatsError, StatsResult};

/// Candidate indices by descending score; ties keep the input order (stable).
fn order_desc(scores: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    idx.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    idx
}

fn check_group(what: &'static str, human: &[f64], metric: &[f64], k: usize) -> StatsResult<()> {
    check_paired(what, human, metric, 1)?;
    if k == 0 {
        return Err(StatsError::InvalidArgument {
            what,
            message: "k must be at least 1".into(),
        });
    }
    Ok(())
}

/// Hit rate at k of one group: 1 if the human-best candidate (the first one, if several share
/// the best human score) is among the metric's top k, else 0.
///
/// ```
/// use figlang_stats::hit_rate_at_k;
/// assert_eq!(hit_rate_at_k(&[1.0, 5.0, 3.0], &[0.9, 0.5, 0.1], 1).unwrap(), 0.0);
/// assert_eq!(hit_rate_at_k(&[1.0, 5.0, 3.0], &[0.9, 0.5, 0.1], 2).unwrap(), 1.0);
/// ```
pub fn hit_rate_at_k(human: &[f64], metric: &[f64], k: usize) -> StatsResult<f64> {
    check_group("hit_rate_at_k", human, metric, k)?;
    let best = order_desc(human)[0];
    Ok(f64::from(u8::from(
        order_desc(metric).iter().take(k).any(|&i| i == best),
    )))
}

/// Reciprocal rank (1-based) of the human-best candidate in the metric's order.
pub fn reciprocal_rank(human: &[f64], metric: &[f64]) -> StatsResult<f64> {
    check_group("reciprocal_rank", human, metric, 1)?;
    let best = order_desc(human)[0];
    let pos = order_desc(metric)
        .iter()
        .position(|&i| i == best)
        .unwrap_or(0);
    Ok(1.0 / (pos + 1) as f64)
}

/// NDCG at k of one group: gains are the human scores, the discount `1 / log2(rank + 1)`, the
/// ideal order the human order. NaN when all gains in the ideal top k are 0.
///
/// ```
/// use figlang_stats::ndcg_at_k;
/// assert!((ndcg_at_k(&[3.0, 1.0, 2.0], &[0.9, 0.1, 0.5], 3).unwrap() - 1.0).abs() < 1e-12);
/// ```
pub fn ndcg_at_k(human: &[f64], metric: &[f64], k: usize) -> StatsResult<f64> {
    check_group("ndcg_at_k", human, metric, k)?;
    let dcg = |order: &[usize]| -> f64 {
        order
            .iter()
            .take(k)
            .enumerate()
            .map(|(r, &i)| human[i] / ((r + 2) as f64).log2())
            .sum()
    };
    let ideal = dcg(&order_desc(human));
    Ok(if ideal == 0.0 {
        f64::NAN
    } else {
        dcg(&order_desc(metric)) / ideal
    })
}

/// Ranking measures averaged over groups.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankingReport {
    /// Mean HR@k per requested k.
    pub hit_rate: Vec<(usize, f64)>,
    /// Mean NDCG@k per requested k (groups with NaN NDCG skipped).
    pub ndcg: Vec<(usize, f64)>,
    /// Mean reciprocal rank.
    pub mrr: f64,
    /// Number of groups.
    pub n_groups: usize,
}

/// HR@k, NDCG@k (for each k in `ks`) and MRR averaged over `(human, metric)` groups.
pub fn ranking_report(groups: &[(Vec<f64>, Vec<f64>)], ks: &[usize]) -> StatsResult<RankingReport> {
    if groups.is_empty() {
        return Err(StatsError::TooFewItems {
            what: "ranking_report",
            needed: 1,
            got: 0,
        });
    }
    let n = groups.len() as f64;
    let mut hit_rate = Vec::new();
    let mut ndcg = Vec::new();
    for &k in ks {
        let mut hr = 0.0;
        let mut nd = Vec::new();
        for (h, m) in groups {
            hr += hit_rate_at_k(h, m, k)?;
            nd.push(ndcg_at_k(h, m, k)?);
        }
        let valid: Vec<f64> = nd.into_iter().filter(|v| !v.is_nan()).collect();
        hit_rate.push((k, hr / n));
        ndcg.push((k, valid.iter().sum::<f64>() / valid.len() as f64));
    }
    let mut rr = 0.0;
    for (h, m) in groups {
        rr += reciprocal_rank(h, m)?;
    }
    Ok(RankingReport {
        hit_rate,
        ndcg,
        mrr: rr / n,
        n_groups: groups.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand_group() {
        // human best is candidate 1; metric order: 0, 2, 1.
        let (h, m) = (vec![2.0, 4.0, 1.0], vec![0.9, 0.1, 0.5]);
        assert_eq!(reciprocal_rank(&h, &m).unwrap(), 1.0 / 3.0);
        assert_eq!(hit_rate_at_k(&h, &m, 2).unwrap(), 0.0);
        assert_eq!(hit_rate_at_k(&h, &m, 3).unwrap(), 1.0);
        let ideal = 4.0 + 2.0 / 3f64.log2();
        let got = 2.0 + 1.0 / 3f64.log2();
        assert!((ndcg_at_k(&h, &m, 2).unwrap() - got / ideal).abs() < 1e-15);
        let r = ranking_report(&[(h, m)], &[1, 3]).unwrap();
        assert_eq!(r.hit_rate, vec![(1, 0.0), (3, 1.0)]);
        assert!(ranking_report(&[], &[1]).is_err());
        assert!(ndcg_at_k(&[1.0], &[1.0], 0).is_err());
    }
}
