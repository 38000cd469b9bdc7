//! NumPy's random streams, reproduced bit for bit (NumPy 2.4: `numpy/random/bit_generator.pyx`,
//! `_pcg64.pyx`, `src/pcg64/pcg64.h`, `src/mt19937/`, `src/distributions/distributions.c`).
//!
//! - [`SeedSequence`]: the entropy pool behind `np.random.default_rng(seed)` (pool of four
//!   32-bit words, `hashmix` / `mix`, `generate_state`).
//! - [`Pcg64`]: `PCG64` (128-bit LCG with the default multiplier, XSL-RR output), seeded from
//!   four 64-bit `SeedSequence` words, with NumPy's 32-bit half buffer (`next_uint32` hands out
//!   the low then the high half of one 64-bit draw).
//! - [`Mt19937`]: the legacy `RandomState` generator as `np.random.seed(int)` seeds it, and
//!   [`legacy_random_sample`], its `random_sample` doubles.
//! - [`random_f32`]: `Generator.random(dtype=np.float32)`.
//! - [`bounded_fill`]: `Generator.integers(0, n, size, dtype=int64)` (Lemire's method, 32-bit
//!   path when `n - 1` fits 32 bits) and `RandomState.randint(0, n, size)` (masked rejection),
//!   and [`BoolStream`]: `Generator.integers(2, size, dtype=bool)` (one 32-bit draw per 32 coins,
//!   low bit first).
//!
//! sacreBLEU's significance tests draw their resamples with `default_rng(seed).choice(...)` /
//! `.integers(...)`, rouge-score's `BootstrapAggregator` with the global `np.random.choice`;
//! golden tests compare every draw with NumPy's.

use std::hash::{BuildHasher, Hasher};

const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;
const POOL_SIZE: usize = 4;

fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut v = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    v = v.wrapping_mul(*hash_const);
    v ^ (v >> XSHIFT)
}

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> XSHIFT)
}

/// 128 bits of fresh entropy for unseeded generators (NumPy reads the OS's; std's hasher keys
/// come from the OS too, mixed here with the clock and a counter).
pub fn fresh_entropy() -> u128 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut words = [0u64; 2];
    for (i, w) in words.iter_mut().enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(nanos);
        h.write_u64(count);
        h.write_usize(i);
        *w = h.finish();
    }
    (u128::from(words[0]) << 64) | u128::from(words[1])
}

/// NumPy's `SeedSequence` with no spawn key and the default pool size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedSequence {
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    /// `SeedSequence(entropy)` for a non-negative integer (split into 32-bit words, lowest
    /// first; zero is one word).
    pub fn new(entropy: u128) -> Self {
        let mut words = Vec::with_capacity(4);
        let mut n = entropy;
        if n == 0 {
            words.push(0);
        }
        while n > 0 {
            words.push((n & 0xFFFF_FFFF) as u32);
            n >>= 32;
        }
        Self::from_words(&words)
    }

    /// `SeedSequence(None)`: fresh 128-bit entropy.
    pub fn from_fresh_entropy() -> Self {
        Self::new(fresh_entropy())
    }

    fn from_words(entropy: &[u32]) -> Self {
        let mut pool = [0u32; POOL_SIZE];
        let mut hc = INIT_A;
        for (i, slot) in pool.iter_mut().enumerate() {
            *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hc);
        }
        for i_src in 0..POOL_SIZE {
            for i_dst in 0..POOL_SIZE {
                if i_src != i_dst {
                    pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src], &mut hc));
                }
            }
        }
        for &word in entropy.iter().skip(POOL_SIZE) {
            for slot in &mut pool {
                *slot = mix(*slot, hashmix(word, &mut hc));
            }
        }
        Self { pool }
    }

    /// `generate_state(n_words, np.uint32)`.
    pub fn generate_state_u32(&self, n_words: usize) -> Vec<u32> {
        let mut hc = INIT_B;
        (0..n_words)
            .map(|i| {
                let mut v = self.pool[i % POOL_SIZE] ^ hc;
                hc = hc.wrapping_mul(MULT_B);
                v = v.wrapping_mul(hc);
                v ^ (v >> XSHIFT)
            })
            .collect()
    }

    /// `generate_state(n_words, np.uint64)`: twice as many 32-bit words, paired little-endian.
    pub fn generate_state_u64(&self, n_words: usize) -> Vec<u64> {
        self.generate_state_u32(2 * n_words)
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
            .collect()
    }
}

/// A source of NumPy's raw 32- and 64-bit draws.
pub trait BitGen {
    /// `next_uint64`.
    fn next_u64(&mut self) -> u64;
    /// `next_uint32`.
    fn next_u32(&mut self) -> u32;
    /// `out.len()` calls of [`next_u32`](Self::next_u32), in order.
    fn fill_u32(&mut self, out: &mut [u32]) {
        out.iter_mut().for_each(|o| *o = self.next_u32());
    }
}

const PCG_MULT: u128 = (2_549_297_995_355_413_924u128 << 64) | 4_865_540_595_714_422_341u128;

/// NumPy's `PCG64` bit generator (the one `np.random.default_rng` uses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    /// The high half of the last 64-bit draw, waiting to be handed out by `next_u32`.
    pending: Option<u32>,
}

impl Pcg64 {
    /// `np.random.default_rng(seed).bit_generator`; `None` draws fresh entropy.
    pub fn default_rng(seed: Option<u64>) -> Self {
        let ss = match seed {
            Some(s) => SeedSequence::new(u128::from(s)),
            None => SeedSequence::from_fresh_entropy(),
        };
        Self::from_seed_sequence(&ss)
    }

    /// `PCG64(seed_sequence)`.
    pub fn from_seed_sequence(ss: &SeedSequence) -> Self {
        let v = ss.generate_state_u64(4);
        let init_state = (u128::from(v[0]) << 64) | u128::from(v[1]);
        let init_seq = (u128::from(v[2]) << 64) | u128::from(v[3]);
        let mut g = Self {
            state: 0,
            inc: (init_seq << 1) | 1,
            pending: None,
        };
        g.step();
        g.state = g.state.wrapping_add(init_state);
        g.step();
        g
    }

    fn step(&mut self) {
        self.state = self.state.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
    }
}

impl BitGen for Pcg64 {
    fn next_u64(&mut self) -> u64 {
        self.step();
        let hi = (self.state >> 64) as u64;
        let lo = self.state as u64;
        (hi ^ lo).rotate_right((hi >> 58) as u32)
    }

    fn next_u32(&mut self) -> u32 {
        if let Some(v) = self.pending.take() {
            return v;
        }
        let next = self.next_u64();
        self.pending = Some((next >> 32) as u32);
        next as u32
    }

    /// Both halves of each 64-bit draw, low half first, as `next_u32` hands them out.
    fn fill_u32(&mut self, out: &mut [u32]) {
        let mut rest = out;
        if let Some(v) = self.pending {
            let Some((first, tail)) = rest.split_first_mut() else {
                return;
            };
            *first = v;
            self.pending = None;
            rest = tail;
        }
        let mut pairs = rest.chunks_exact_mut(2);
        for p in &mut pairs {
            let x = self.next_u64();
            p[0] = x as u32;
            p[1] = (x >> 32) as u32;
        }
        if let [last] = pairs.into_remainder() {
            *last = self.next_u32();
        }
    }
}

const MT_N: usize = 624;
const MT_M: usize = 397;

/// NumPy's legacy `MT19937` (`RandomState`, `np.random.seed`).
#[derive(Debug, Clone)]
pub struct Mt19937 {
    key: Box<[u32; MT_N]>,
    pos: usize,
}

impl Mt19937 {
    /// `np.random.seed(seed)` for an integer seed.
    pub fn seed(seed: u32) -> Self {
        let mut key = Box::new([0u32; MT_N]);
        let mut s = seed;
        for (pos, slot) in key.iter_mut().enumerate() {
            *slot = s;
            s = 1_812_433_253u32
                .wrapping_mul(s ^ (s >> 30))
                .wrapping_add(pos as u32 + 1);
        }
        Self { key, pos: MT_N }
    }

    /// `np.random.seed(None)`: 624 words of a fresh `SeedSequence`, the first forced to
    /// `0x80000000`.
    pub fn from_fresh_entropy() -> Self {
        let words = SeedSequence::from_fresh_entropy().generate_state_u32(MT_N);
        let mut key = Box::new([0u32; MT_N]);
        key.copy_from_slice(&words);
        key[0] = 0x8000_0000;
        Self { key, pos: MT_N }
    }

    fn generate(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let k = &mut self.key;
        let twist = |y: u32| (y >> 1) ^ (0u32.wrapping_sub(y & 1) & MATRIX_A);
        for i in 0..MT_N - MT_M {
            let y = (k[i] & UPPER) | (k[i + 1] & LOWER);
            k[i] = k[i + MT_M] ^ twist(y);
        }
        for i in MT_N - MT_M..MT_N - 1 {
            let y = (k[i] & UPPER) | (k[i + 1] & LOWER);
            k[i] = k[i + MT_M - MT_N] ^ twist(y);
        }
        let y = (k[MT_N - 1] & UPPER) | (k[0] & LOWER);
        k[MT_N - 1] = k[MT_M - 1] ^ twist(y);
        self.pos = 0;
    }
}

impl BitGen for Mt19937 {
    fn next_u64(&mut self) -> u64 {
        let hi = u64::from(self.next_u32());
        (hi << 32) | u64::from(self.next_u32())
    }

    fn next_u32(&mut self) -> u32 {
        if self.pos == MT_N {
            self.generate();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// `RandomState.random_sample()` (`np.random.random()`, and through it the legacy
/// `np.random.binomial(1, p)`): MT19937's 53-bit double from two 32-bit draws,
/// `((a >> 5) * 2^26 + (b >> 6)) / 2^53`.
pub fn legacy_random_sample(g: &mut Mt19937) -> f64 {
    let a = g.next_u32() >> 5;
    let b = g.next_u32() >> 6;
    (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
}

/// `Generator.random(dtype=np.float32)`: the top 24 bits of one 32-bit draw, times 2^-24.
pub fn random_f32<G: BitGen>(g: &mut G) -> f32 {
    (g.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// How a bounded integer is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bounded {
    /// Lemire's multiply-shift with rejection (`Generator.integers`).
    Lemire,
    /// Masked rejection sampling (`RandomState.randint`).
    Masked,
}

fn lemire32<G: BitGen>(g: &mut G, rng: u32) -> u32 {
    let excl = rng + 1;
    let mut m = u64::from(g.next_u32()) * u64::from(excl);
    let mut leftover = m as u32;
    if leftover < excl {
        let threshold = (u32::MAX - rng) % excl;
        while leftover < threshold {
            m = u64::from(g.next_u32()) * u64::from(excl);
            leftover = m as u32;
        }
    }
    (m >> 32) as u32
}

fn lemire64<G: BitGen>(g: &mut G, rng: u64) -> u64 {
    let excl = rng + 1;
    let mut m = u128::from(g.next_u64()) * u128::from(excl);
    let mut leftover = m as u64;
    if leftover < excl {
        let threshold = (u64::MAX - rng) % excl;
        while leftover < threshold {
            m = u128::from(g.next_u64()) * u128::from(excl);
            leftover = m as u64;
        }
    }
    (m >> 64) as u64
}

fn gen_mask(max: u64) -> u64 {
    let mut m = max;
    for s in [1, 2, 4, 8, 16, 32] {
        m |= m >> s;
    }
    m
}

/// Fills `out` with integers in `0..n` as NumPy's `random_bounded_uint64_fill(off=0,
/// rng=n-1)` does: `Generator.integers(0, n, size=out.len())` with [`Bounded::Lemire`],
/// `RandomState.randint(0, n, size=out.len())` with [`Bounded::Masked`]. `n` must be positive.
pub fn bounded_fill<G: BitGen>(g: &mut G, n: u64, how: Bounded, out: &mut [u64]) {
    let rng = n.saturating_sub(1);
    if rng == 0 {
        out.fill(0);
    } else if rng <= 0xFFFF_FFFF {
        if rng == 0xFFFF_FFFF {
            out.iter_mut().for_each(|o| *o = u64::from(g.next_u32()));
            return;
        }
        let r32 = rng as u32;
        match how {
            Bounded::Lemire => out
                .iter_mut()
                .for_each(|o| *o = u64::from(lemire32(g, r32))),
            Bounded::Masked => {
                let mask = gen_mask(rng) as u32;
                for o in out.iter_mut() {
                    *o = loop {
                        let v = g.next_u32() & mask;
                        if v <= r32 {
                            break u64::from(v);
                        }
                    };
                }
            }
        }
    } else if rng == u64::MAX {
        out.iter_mut().for_each(|o| *o = g.next_u64());
    } else {
        match how {
            Bounded::Lemire => out.iter_mut().for_each(|o| *o = lemire64(g, rng)),
            Bounded::Masked => {
                let mask = gen_mask(rng);
                for o in out.iter_mut() {
                    *o = loop {
                        let v = g.next_u64() & mask;
                        if v <= rng {
                            break v;
                        }
                    };
                }
            }
        }
    }
}

/// [`bounded_fill`] for `n` up to 2^32, into `u32`: the same draws, taken from the generator a
/// block at a time ([`BitGen::fill_u32`]). `n` must be positive and at most 2^32.
pub fn bounded_fill_u32<G: BitGen>(g: &mut G, n: u64, how: Bounded, out: &mut [u32]) {
    assert!(
        (1..=1 << 32).contains(&n),
        "bounded_fill_u32 needs 1 <= n <= 2^32"
    );
    let rng = (n - 1) as u32;
    if rng == 0 {
        out.fill(0);
        return;
    }
    // The raw draws this call needs at least (one per output), in order; a rejected draw takes
    // the next one, read ahead of the output being written, then from the generator.
    g.fill_u32(out);
    if rng == u32::MAX {
        return;
    }
    let len = out.len();
    let mut j = 0;
    let mut next = |out: &[u32], g: &mut G| {
        let v = if j < len { out[j] } else { g.next_u32() };
        j += 1;
        v
    };
    match how {
        Bounded::Lemire => {
            let excl = rng + 1;
            for i in 0..len {
                let mut m = u64::from(next(out, g)) * u64::from(excl);
                let mut leftover = m as u32;
                if leftover < excl {
                    let threshold = (u32::MAX - rng) % excl;
                    while leftover < threshold {
                        m = u64::from(next(out, g)) * u64::from(excl);
                        leftover = m as u32;
                    }
                }
                out[i] = (m >> 32) as u32;
            }
        }
        Bounded::Masked => {
            let mask = gen_mask(u64::from(rng)) as u32;
            for i in 0..len {
                out[i] = loop {
                    let v = next(out, g) & mask;
                    if v <= rng {
                        break v;
                    }
                };
            }
        }
    }
}

/// `Generator.integers(2, size=len, dtype=bool)` as a packed bit stream: coin `k` is bit
/// `k % 32` of the `k / 32`-th 32-bit draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoolStream {
    words: Vec<u32>,
    len: usize,
}

impl BoolStream {
    /// Draws `len` coins from `g` (`ceil(len / 32)` calls of `next_uint32`).
    pub fn draw<G: BitGen>(g: &mut G, len: usize) -> Self {
        let words = (0..len.div_ceil(32)).map(|_| g.next_u32()).collect();
        Self { words, len }
    }

    /// Calls `f(k - start)` for every heads coin `k` in `start..start + len`, in order.
    pub fn for_each_set(&self, start: usize, len: usize, mut f: impl FnMut(usize)) {
        let end = (start + len).min(self.len);
        if start >= end {
            return;
        }
        for w in start / 32..=(end - 1) / 32 {
            let mut bits = self.words[w];
            let base = w * 32;
            if base < start {
                bits &= u32::MAX << (start - base);
            }
            if base + 32 > end {
                bits &= u32::MAX >> (base + 32 - end);
            }
            while bits != 0 {
                f(base + bits.trailing_zeros() as usize - start);
                bits &= bits - 1;
            }
        }
    }

    /// Coin `k` (false past the end).
    #[cfg(test)]
    pub fn get(&self, k: usize) -> bool {
        k < self.len && (self.words[k / 32] >> (k % 32)) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcg64_reference_values() {
        // `next_uint32` hands out both halves of one 64-bit draw, low half first (NumPy's draws
        // themselves are checked in `draws_match_numpy`).
        let mut g = Pcg64::default_rng(Some(12345));
        let a = g.next_u64();
        let b = g.next_u64();
        assert_ne!(a, b);
        let mut h = Pcg64::default_rng(Some(12345));
        assert_eq!(h.next_u32(), a as u32);
        assert_eq!(h.next_u32(), (a >> 32) as u32);
        assert_eq!(h.next_u64(), b);
    }

    #[test]
    fn u32_fill_equals_bounded_fill() {
        for how in [Bounded::Lemire, Bounded::Masked] {
            for n in [1u64, 2, 40, 10_000, 3_000_000_000, (1 << 32) - 1, 1 << 32] {
                for len in [0usize, 1, 2, 7, 1000] {
                    // A pending half-draw first, on every other length.
                    let mut a = Pcg64::default_rng(Some(n ^ len as u64));
                    let mut b = a.clone();
                    if len % 2 == 1 {
                        assert_eq!(a.next_u32(), b.next_u32());
                    }
                    let mut want = vec![0u64; len];
                    bounded_fill(&mut a, n, how, &mut want);
                    let mut got = vec![0u32; len];
                    bounded_fill_u32(&mut b, n, how, &mut got);
                    let want: Vec<u32> = want.iter().map(|&v| v as u32).collect();
                    assert_eq!(got, want, "n {n} len {len}");
                    assert_eq!(a.next_u32(), b.next_u32(), "stream after n {n} len {len}");
                    assert_eq!(a.next_u64(), b.next_u64());
                }
            }
        }
    }

    #[test]
    fn mt19937_matches_reference_implementation() {
        // The first outputs of init_genrand(5489), from Matsumoto & Nishimura's mt19937ar.c.
        let mut g = Mt19937::seed(5489);
        assert_eq!(g.next_u32(), 3_499_211_612);
        assert_eq!(g.next_u32(), 581_869_302);
        assert_eq!(g.next_u32(), 3_890_346_734);
    }

    #[test]
    fn bounded_draws_stay_in_range() {
        let mut g = Pcg64::default_rng(Some(1));
        for n in [1u64, 2, 3, 40, 1 << 32, (1 << 32) + 1, u64::MAX] {
            for how in [Bounded::Lemire, Bounded::Masked] {
                let mut out = vec![0u64; 64];
                bounded_fill(&mut g, n, how, &mut out);
                assert!(out.iter().all(|&v| n == u64::MAX || v < n), "{n} {how:?}");
            }
        }
        let coins = BoolStream::draw(&mut g, 1000);
        let heads = (0..1000).filter(|&k| coins.get(k)).count();
        assert!((400..600).contains(&heads));
        assert!(!coins.get(1000));
        for (start, len) in [
            (0, 1000),
            (5, 27),
            (31, 2),
            (32, 64),
            (990, 30),
            (1000, 5),
            (7, 0),
        ] {
            let mut got = Vec::new();
            coins.for_each_set(start, len, |i| got.push(i));
            let want: Vec<usize> = (0..len).filter(|&i| coins.get(start + i)).collect();
            assert_eq!(got, want, "{start} {len}");
        }
    }

    fn fixture() -> serde_json::Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../figlang-metrics/tests/fixtures/sacrebleu_significance.json"
        );
        let text = std::fs::read_to_string(path).expect("fixture");
        serde_json::from_str::<serde_json::Value>(&text).expect("json")["rng"].clone()
    }

    fn u64s(v: &serde_json::Value) -> Vec<u64> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_u64().expect("u64"))
            .collect()
    }

    /// Every draw in `tests/fixtures/sacrebleu_significance.json` (NumPy 2.4.6), written by
    /// `tools/gen/gen_significance_fixture.py`.
    #[test]
    fn draws_match_numpy() {
        let fx = fixture();
        for c in fx["seed_sequence"].as_array().expect("seed_sequence") {
            let seed = c["seed"].as_u64().expect("seed");
            let ss = SeedSequence::new(u128::from(seed));
            let u32s: Vec<u64> = ss
                .generate_state_u32(8)
                .into_iter()
                .map(u64::from)
                .collect();
            assert_eq!(u32s, u64s(&c["u32"]), "seed sequence {seed}");
            assert_eq!(
                ss.generate_state_u64(4),
                u64s(&c["u64"]),
                "seed sequence {seed}"
            );
        }
        for c in fx["pcg64_raw"].as_array().expect("pcg64_raw") {
            let mut g = Pcg64::default_rng(c["seed"].as_u64());
            let raw: Vec<u64> = (0..8).map(|_| g.next_u64()).collect();
            assert_eq!(raw, u64s(&c["raw"]), "pcg64 {}", c["seed"]);
        }
        for c in fx["integers"].as_array().expect("integers") {
            let want = u64s(&c["draws"]);
            let mut g = Pcg64::default_rng(c["seed"].as_u64());
            let mut got = vec![0u64; want.len()];
            bounded_fill(
                &mut g,
                c["n"].as_u64().expect("n"),
                Bounded::Lemire,
                &mut got,
            );
            assert_eq!(got, want, "integers(0, {})", c["n"]);
        }
        for c in fx["choice"].as_array().expect("choice") {
            let want = u64s(&c["draws"]);
            let mut g = Pcg64::default_rng(c["seed"].as_u64());
            let mut got = vec![0u64; want.len()];
            bounded_fill(
                &mut g,
                c["n"].as_u64().expect("n"),
                Bounded::Lemire,
                &mut got,
            );
            assert_eq!(got, want, "choice");
        }
        for c in fx["bools"].as_array().expect("bools") {
            let coins = c["coins"].as_str().expect("coins");
            let mut g = Pcg64::default_rng(c["seed"].as_u64());
            let stream = BoolStream::draw(&mut g, coins.len());
            let got: String = (0..coins.len())
                .map(|k| if stream.get(k) { '1' } else { '0' })
                .collect();
            assert_eq!(got, coins, "coins {}", c["shape"]);
            let want = u64s(&c["choice_after"]);
            let mut after = vec![0u64; want.len()];
            bounded_fill(
                &mut g,
                c["choice_n"].as_u64().expect("n"),
                Bounded::Lemire,
                &mut after,
            );
            assert_eq!(after, want, "choice after coins {}", c["shape"]);
        }
        for c in fx["mt19937"].as_array().expect("mt19937") {
            let want = u64s(&c["draws"]);
            let m = c["m"].as_u64().expect("m");
            let mut g = Mt19937::seed(c["seed"].as_u64().expect("seed") as u32);
            let mut got = vec![0u64; want.len()];
            for chunk in got.chunks_mut(m as usize) {
                bounded_fill(&mut g, m, Bounded::Masked, chunk);
            }
            assert_eq!(got, want, "legacy choice seed {} m {m}", c["seed"]);
        }
        let raw = &fx["mt19937_raw"];
        let mut g = Mt19937::seed(raw["seed"].as_u64().expect("seed") as u32);
        let got: Vec<u64> = (0..16).map(|_| u64::from(g.next_u32())).collect();
        assert_eq!(got, u64s(&raw["u32"]), "mt19937 raw");
    }

    #[test]
    fn unseeded_generators_differ() {
        let mut a = Pcg64::default_rng(None);
        let mut b = Pcg64::default_rng(None);
        assert_ne!(a.next_u64(), b.next_u64());
        let mut m = Mt19937::from_fresh_entropy();
        let _ = m.next_u64();
    }
}
