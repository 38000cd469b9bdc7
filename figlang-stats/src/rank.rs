//! Ranking of samples with ties, as `scipy.stats.rankdata`.

use std::cmp::Ordering;

/// Indices that sort `x` ascending; stable, so equal values keep their input order.
pub(crate) fn argsort(x: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[a].partial_cmp(&x[b]).unwrap_or(Ordering::Equal));
    idx
}

/// 1-based ranks with ties given their average rank (`scipy.stats.rankdata(method="average")`).
///
/// ```
/// use figlang_stats::average_ranks;
/// assert_eq!(average_ranks(&[10.0, 20.0, 10.0, 5.0]), vec![2.5, 4.0, 2.5, 1.0]);
/// ```
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    let order = argsort(x);
    let mut ranks = vec![0.0; x.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && x[order[end]] == x[order[start]] {
            end += 1;
        }
        // Ranks start..end (0-based) are tied: all get the mean of start+1..=end.
        let rank = (start + 1) as f64 + ((end - start) as f64 - 1.0) / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Dense ranks (0-based, ties share a rank) and the number of distinct values.
pub(crate) fn dense_ranks(x: &[f64]) -> (Vec<usize>, usize) {
    let order = argsort(x);
    let mut ranks = vec![0usize; x.len()];
    let mut current = 0usize;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 && x[i] != x[order[k - 1]] {
            current += 1;
        }
        ranks[i] = current;
    }
    let distinct = if x.is_empty() { 0 } else { current + 1 };
    (ranks, distinct)
}

/// Sizes of the groups of tied values (groups of one included).
pub(crate) fn tie_groups(x: &[f64]) -> Vec<usize> {
    let (ranks, distinct) = dense_ranks(x);
    let mut counts = vec![0usize; distinct];
    for r in ranks {
        counts[r] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn average_ranks_handle_ties_and_order() {
        assert_eq!(average_ranks(&[3.0, 1.0, 2.0]), vec![3.0, 1.0, 2.0]);
        assert_eq!(average_ranks(&[1.0, 1.0, 1.0]), vec![2.0, 2.0, 2.0]);
        assert!(average_ranks(&[]).is_empty());
    }

    #[test]
    fn dense_ranks_count_distinct_values() {
        let (r, d) = dense_ranks(&[5.0, 1.0, 5.0, 3.0]);
        assert_eq!(r, vec![2, 0, 2, 1]);
        assert_eq!(d, 3);
        assert_eq!(tie_groups(&[5.0, 1.0, 5.0, 3.0]), vec![1, 1, 2]);
    }
}
