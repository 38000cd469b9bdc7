//! Synthetic MAPS-KB-format CSV for benchmarks.
//!
//! Topics, properties and vehicles are drawn from Zipf(1) distributions over vocabularies that
//! scale with the requested size (N/10 topics, N/200 properties, N/8 vehicles, at least 10
//! each). Entries are one to three pseudo-words of two to four syllables (5 to 30 characters,
//! like real noun phrases); counts follow a heavy tail (most 1, a few in the thousands);
//! plausibilities are uniform in (0, 1) with four decimals. The output is deterministic in
//! (triplets, seed).
//!
//! The vocabularies are held in memory, about [`BYTES_PER_ENTRY`] bytes per entry (some 15
//! bytes per requested row); a size whose vocabularies the machine cannot hold is refused
//! before anything is generated or written ([`KbError::Limit`]).

use std::io::{self, Write};
use std::path::Path;

use hauser_core::limits::{check_memory, try_vec, Monitor, Unmonitored};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::{KbError, Result};

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SynthReport {
    /// Rows written (excluding the header).
    pub rows: u64,
    /// Vocabulary sizes: topics, properties, vehicles.
    pub vocab: [usize; 3],
}

/// Memory per vocabulary entry used for the up-front check: the `String` (24 bytes), its heap
/// block (an allocator's minimum chunk of 32 bytes covers the 5 to 30 characters) and the
/// entry's cumulative probability (8 bytes).
pub const BYTES_PER_ENTRY: u64 = 64;

/// Rows (and vocabulary entries) generated between two polls of the monitor.
const POLL: u64 = 1 << 14;

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
    fn new(n: usize) -> Result<Self> {
        let mut cdf = try_vec("kb synth: a Zipf table", n)?;
        let mut acc = 0.0;
        cdf.extend((0..n).map(|r| {
            acc += 1.0 / (r as f64 + 1.0);
            acc
        }));
        for c in &mut cdf {
            *c /= acc;
        }
        Ok(Self { cdf })
    }
    fn sample<R: Rng>(&self, rng: &mut R) -> usize {
        let u: f64 = rng.random();
        self.cdf.partition_point(|&c| c < u).min(self.cdf.len() - 1)
    }
}

/// Vocabulary sizes (topics, properties, vehicles) for `triplets` rows.
pub fn vocabulary_sizes(triplets: u64) -> [usize; 3] {
    let n = usize::try_from(triplets).unwrap_or(usize::MAX);
    [(n / 10).max(10), (n / 200).max(10), (n / 8).max(10)]
}

/// Checks that the vocabularies of `triplets` rows fit the machine's memory, before anything
/// is created: callers that open an output file can call this first.
///
/// # Errors
/// [`KbError::Limit`] naming the row count.
pub fn check_size(triplets: u64) -> Result<()> {
    let entries: u64 = vocabulary_sizes(triplets).iter().map(|&s| s as u64).sum();
    check_memory(
        &format!("kb synth of {triplets} rows ({entries} vocabulary entries)"),
        entries.checked_mul(BYTES_PER_ENTRY),
    )?;
    Ok(())
}

/// Writes `triplets` rows of MAPS-KB-format CSV (`new_topic,property,new_vehicle,count,plausibility`).
///
/// # Errors
/// [`KbError::Limit`] when the vocabularies do not fit in memory (nothing is written then);
/// [`KbError::Io`] (path `<output>`) for errors of the writer.
pub fn write_synthetic<W: Write>(out: W, triplets: u64, seed: u64) -> Result<SynthReport> {
    write_synthetic_monitored(out, triplets, seed, &Unmonitored)
}

/// [`write_synthetic`] with progress and cancellation: `monitor` advances by one per row
/// written and is polled every few thousand vocabulary entries and rows;
/// [`KbError::Cancelled`] once it cancels (what was written so far stays in `out`: write to
/// a temporary file to leave nothing behind).
///
/// # Errors
/// As [`write_synthetic`], plus [`KbError::Cancelled`].
pub fn write_synthetic_monitored<W: Write>(
    out: W,
    triplets: u64,
    seed: u64,
    monitor: &dyn Monitor,
) -> Result<SynthReport> {
    check_size(triplets)?;
    let io_err = |e: io::Error| KbError::io(Path::new("<output>"), e);
    let cancelled = || KbError::Cancelled("kb synth");
    let mut out = io::BufWriter::with_capacity(1 << 20, out);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let sizes = vocabulary_sizes(triplets);
    let mut vocab = |n: usize, max_words: u32| -> Result<Vec<String>> {
        let mut v = try_vec("kb synth: a vocabulary", n)?;
        for i in 0..n {
            if (i as u64).is_multiple_of(POLL) && monitor.is_cancelled() {
                return Err(cancelled());
            }
            v.push(phrase(&mut rng, max_words));
        }
        Ok(v)
    };
    let topics = vocab(sizes[0], 3)?;
    let props = vocab(sizes[1], 1)?;
    let vehicles = vocab(sizes[2], 3)?;
    let (zt, zp, zv) = (
        Zipf::new(sizes[0])?,
        Zipf::new(sizes[1])?,
        Zipf::new(sizes[2])?,
    );
    writeln!(out, "new_topic,property,new_vehicle,count,plausibility").map_err(io_err)?;
    let mut reported = 0;
    for row in 0..triplets {
        if row.is_multiple_of(POLL) && row > 0 {
            monitor.advance(row - reported);
            reported = row;
            if monitor.is_cancelled() {
                return Err(cancelled());
            }
        }
        let t = &topics[zt.sample(&mut rng)];
        let p = &props[zp.sample(&mut rng)];
        let v = &vehicles[zv.sample(&mut rng)];
        let u: f64 = rng.random_range(1e-4..1.0);
        let count = (u.powf(-1.2)).floor().min(5000.0) as u64;
        let pl: f64 = rng.random_range(0.0001..1.0);
        writeln!(out, "{t},{p},{v},{count},{pl:.4}").map_err(io_err)?;
    }
    monitor.advance(triplets - reported);
    out.flush().map_err(io_err)?;
    Ok(SynthReport {
        rows: triplets,
        vocab: sizes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabularies_beyond_memory_are_refused_before_writing() {
        let mut out = Vec::new();
        let e = write_synthetic(&mut out, 1_000_000_000_000, 0).unwrap_err();
        assert!(matches!(e, KbError::Limit(_)), "{e}");
        assert!(
            e.to_string().contains("kb synth of 1000000000000 rows"),
            "{e}"
        );
        assert!(out.is_empty());
        assert!(check_size(u64::MAX).is_err());
        assert!(check_size(1000).is_ok());
    }

    struct CountRows(std::sync::atomic::AtomicU64, u64);

    impl Monitor for CountRows {
        fn advance(&self, n: u64) {
            self.0.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
        fn is_cancelled(&self) -> bool {
            self.0.load(std::sync::atomic::Ordering::Relaxed) >= self.1
        }
    }

    #[test]
    fn monitor_counts_rows_and_cancels() {
        for n in [0u64, 5, POLL, POLL + 3, 3 * POLL] {
            let m = CountRows(Default::default(), u64::MAX);
            let r = write_synthetic_monitored(io::sink(), n, 1, &m).unwrap();
            assert_eq!(r.rows, n);
            assert_eq!(m.0.load(std::sync::atomic::Ordering::Relaxed), n, "{n}");
        }
        let m = CountRows(Default::default(), 2 * POLL);
        let e = write_synthetic_monitored(io::sink(), 100 * POLL, 1, &m).unwrap_err();
        assert!(matches!(e, KbError::Cancelled(_)), "{e}");
        assert_eq!(m.0.load(std::sync::atomic::Ordering::Relaxed), 2 * POLL);
    }

    #[test]
    fn monitoring_does_not_change_the_output() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        write_synthetic(&mut a, 3000, 7).unwrap();
        let m = CountRows(Default::default(), u64::MAX);
        write_synthetic_monitored(&mut b, 3000, 7, &m).unwrap();
        assert_eq!(a, b);
        assert!(a.starts_with(b"new_topic,property,new_vehicle,count,plausibility\n"));
    }
}
