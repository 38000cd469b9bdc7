//! Synthetic MAPS-KB-format CSV for benchmarks.
//!
//! Topics, properties and vehicles are drawn from Zipf(1) distributions over vocabularies that
//! scale with the requested size (N/10 topics, N/200 properties, N/8 vehicles, at least 10
//! each). Entries are one to three pseudo-words of two to four syllables (5 to 30 characters,
//! like real noun phrases); counts follow a heavy tail (most 1, a few in the thousands);
//! plausibilities are uniform in (0, 1) with four decimals. The output is deterministic in
//! (triplets, seed).

use std::io::{self, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SynthReport {
    /// Rows written (excluding the header).
    pub rows: u64,
    /// Vocabulary sizes: topics, properties, vehicles.
    pub vocab: [usize; 3],
}

const SYLLABLES: [&str; 24] = [
    "ba", "ko", "ri", "ta", "mel", "son", "dra", "vi", "lun", "pe", "gor", "sha", "ne", "tu",
    "win", "fal", "ca", "dor", "mi", "ple", "ster", "qua", "bo", "zen",
];

fn word<R: Rng>(rng: &mut R) -> String {
    let n = rng.random_range(2..=4);
    (0..n)
        .map(|_| SYLLABLES[rng.random_range(0..SYLLABLES.len())])
        .collect()
}

fn phrase<R: Rng>(rng: &mut R, max_words: u32) -> String {
    let words = match rng.random_range(0..10) {
        0..=5 => 1,
        6..=8 => 2,
        _ => 3,
    }
    .min(max_words);
    (0..words).map(|_| word(rng)).collect::<Vec<_>>().join(" ")
}

/// A Zipf(1) sampler over ranks 0..n via the cumulative distribution.
struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    fn new(n: usize) -> Self {
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (0..n)
            .map(|r| {
                acc += 1.0 / (r as f64 + 1.0);
                acc
            })
            .collect();
        for c in &mut cdf {
            *c /= acc;
        }
        Self { cdf }
    }
    fn sample<R: Rng>(&self, rng: &mut R) -> usize {
        let u: f64 = rng.random();
        self.cdf.partition_point(|&c| c < u).min(self.cdf.len() - 1)
    }
}

/// Writes `triplets` rows of MAPS-KB-format CSV (`new_topic,property,new_vehicle,count,plausibility`).
///
/// # Errors
/// Errors of the writer.
pub fn write_synthetic<W: Write>(out: W, triplets: u64, seed: u64) -> io::Result<SynthReport> {
    let mut out = io::BufWriter::with_capacity(1 << 20, out);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = usize::try_from(triplets).unwrap_or(usize::MAX);
    let sizes = [(n / 10).max(10), (n / 200).max(10), (n / 8).max(10)];
    let topics: Vec<String> = (0..sizes[0]).map(|_| phrase(&mut rng, 3)).collect();
    let props: Vec<String> = (0..sizes[1]).map(|_| phrase(&mut rng, 1)).collect();
    let vehicles: Vec<String> = (0..sizes[2]).map(|_| phrase(&mut rng, 3)).collect();
    let (zt, zp, zv) = (
        Zipf::new(sizes[0]),
        Zipf::new(sizes[1]),
        Zipf::new(sizes[2]),
    );
    writeln!(out, "new_topic,property,new_vehicle,count,plausibility")?;
    for _ in 0..triplets {
        let t = &topics[zt.sample(&mut rng)];
        let p = &props[zp.sample(&mut rng)];
        let v = &vehicles[zv.sample(&mut rng)];
        let u: f64 = rng.random_range(1e-4..1.0);
        let count = (u.powf(-1.2)).floor().min(5000.0) as u64;
        let pl: f64 = rng.random_range(0.0001..1.0);
        writeln!(out, "{t},{p},{v},{count},{pl:.4}")?;
    }
    out.flush()?;
    Ok(SynthReport {
        rows: triplets,
        vocab: sizes,
    })
}
