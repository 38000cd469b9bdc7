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

/// The Fx hash (rustc's): a fast, deterministic, non-cryptographic hasher for n-gram maps.
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `HashMap` with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;
