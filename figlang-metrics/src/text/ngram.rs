//! N-gram counting shared by the metrics.

use std::collections::HashMap;
use std::hash::Hash;

/// Counts of the `n`-grams of `items` (empty when `items` is shorter than `n`).
pub fn ngram_counts<T: Eq + Hash>(items: &[T], n: usize) -> HashMap<&[T], usize> {
    let mut m = HashMap::new();
    if n == 0 || items.len() < n {
        return m;
    }
    for w in items.windows(n) {
        *m.entry(w).or_insert(0) += 1;
    }
    m
}

/// Sum of `min(count, other[ngram])` over `counts` (clipped matches).
pub fn clipped_matches<K: Eq + Hash>(
    counts: &HashMap<K, usize>,
    other: &HashMap<K, usize>,
) -> usize {
    counts
        .iter()
        .map(|(k, &c)| c.min(other.get(k).copied().unwrap_or(0)))
        .sum()
}

/// Compensated (Neumaier) sum, close to Python's `math.fsum` for a few terms.
pub fn fsum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut sum = 0.0f64;
    let mut c = 0.0f64;
    for v in values {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            c += (sum - t) + v;
        } else {
            c += (v - t) + sum;
        }
        sum = t;
    }
    sum + c
}
