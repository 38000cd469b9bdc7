//! A small seeded generator (SplitMix64) for resampling.
//!
//! Bootstrap and permutation results must be reproducible from `(seed, resample index)` alone,
//! whatever the thread count and across dependency upgrades, so the generator is defined here
//! rather than taken from a crate whose stream may change between versions.

/// SplitMix64 (Steele, Lea & Flood 2014).
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator of resample `index` under `seed`: streams of different indices are
    /// decorrelated by hashing both through the SplitMix64 output function.
    pub(crate) fn for_resample(seed: u64, index: u64) -> Self {
        let mut g = Self(seed ^ 0x9E37_79B9_7F4A_7C15);
        let a = g.next_u64();
        Self(a ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform integer in `0..n` (Lemire's multiply-shift; bias below 2^-64 * n).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A fair coin.
    pub(crate) fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = {
            let mut g = SplitMix64::for_resample(7, 3);
            (0..4).map(|_| g.next_u64()).collect()
        };
        let mut g = SplitMix64::for_resample(7, 3);
        assert_eq!(a, (0..4).map(|_| g.next_u64()).collect::<Vec<_>>());
        let mut h = SplitMix64::for_resample(7, 4);
        assert_ne!(a[0], h.next_u64());
        let mut c = SplitMix64::for_resample(1, 0);
        let mut hist = [0usize; 4];
        for _ in 0..4000 {
            hist[c.below(4)] += 1;
        }
        assert!(hist.iter().all(|&n| (850..1150).contains(&n)), "{hist:?}");
    }
}
