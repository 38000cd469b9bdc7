//! Memory checks for sizes that come from a flag or a file, and cooperative progress and
//! cancellation of long loops.
//!
//! A count given on the command line (`--bootstrap 1000000000000`) or read from a file header
//! can ask for more memory than the machine has; Rust's infallible allocation then aborts the
//! process ("memory allocation of ... failed", exit 134) and may leave half-written files. Code
//! that allocates in proportion to such a count first asks [`check_memory`] (or allocates with
//! [`try_vec`]), which compares the need with [`memory_limit`] and returns a [`LimitError`]
//! that says what needed how much.
//!
//! The limit is the machine's physical memory, lowered by a cgroup (container) limit when there
//! is one, or the value of the `HAUSER_MAX_MEMORY` environment variable (bytes, or a number
//! with a `K`, `M`, `G` or `T` suffix, powers of 1024) when it is set. A need above the limit can
//! never be met without swapping, so it is refused up front; a need below it can still fail
//! when other programs hold the memory, and [`try_vec`] then reports the failed reservation
//! instead of aborting.
//!
//! ```
//! use hauser_core::limits::{bytes_for, check_memory, try_vec};
//! assert!(check_memory("a small table", Some(1024)).is_ok());
//! // 2^64 rows of 8 bytes: more than any machine holds, an error rather than an abort.
//! let err = check_memory("a huge table", bytes_for(u64::MAX, 8)).unwrap_err();
//! assert!(err.to_string().starts_with("a huge table needs more than 2^64 bytes"));
//! let v: Vec<f64> = try_vec("scores", 16).unwrap();
//! assert!(v.capacity() >= 16);
//! ```

use std::sync::OnceLock;

use thiserror::Error;

/// The environment variable that lowers (or raises) the memory limit, e.g. `HAUSER_MAX_MEMORY=8G`.
pub const MEMORY_ENV: &str = "HAUSER_MAX_MEMORY";

/// Why a computation was refused before it allocated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LimitError {
    /// The computation needs more memory than the limit (or than a `u64` can count).
    #[error("{what} needs {} of memory, more than {}", needed_text(*.needed), limit_text(*.limit, .source_of_limit))]
    TooLarge {
        /// What was asked for, with the count that drives its size.
        what: String,
        /// Bytes needed; `None` when the count overflows 64 bits.
        needed: Option<u64>,
        /// Bytes allowed.
        limit: u64,
        /// Where the limit comes from (`physical memory`, `cgroup limit`, `HAUSER_MAX_MEMORY`).
        source_of_limit: String,
    },
    /// The memory was within the limit but the allocator could not reserve it.
    #[error("{what}: cannot reserve {} of memory ({reason})", needed_text(Some(*.needed)))]
    Reserve {
        /// What was asked for.
        what: String,
        /// Bytes asked for.
        needed: u64,
        /// The allocator's message.
        reason: String,
    },
    /// `HAUSER_MAX_MEMORY` is set to something that is not a size.
    #[error(
        "HAUSER_MAX_MEMORY={0:?} is not a size (use bytes or a number with K, M, G or T, e.g. 8G)"
    )]
    BadSetting(String),
}

fn needed_text(needed: Option<u64>) -> String {
    match needed {
        Some(n) => human_bytes(n),
        None => "more than 2^64 bytes".into(),
    }
}

fn limit_text(limit: u64, source: &str) -> String {
    format!("the {} allowed ({source})", human_bytes(limit))
}

/// A byte count in binary units with three significant digits (`14.7 TiB`).
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} bytes")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Parses a size: bytes, or a number followed by `K`, `M`, `G` or `T` (powers of 1024; an
/// optional `B` or `iB` after the letter is accepted).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let body = lower
        .strip_suffix("ib")
        .or_else(|| lower.strip_suffix('b'))
        .unwrap_or(&lower);
    let (digits, shift) = match body.chars().last()? {
        'k' => (&body[..body.len() - 1], 10),
        'm' => (&body[..body.len() - 1], 20),
        'g' => (&body[..body.len() - 1], 30),
        't' => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let digits = digits.trim();
    if let Ok(n) = digits.parse::<u64>() {
        return n.checked_mul(1u64 << shift);
    }
    // Fractions such as 1.5G.
    let f: f64 = digits.parse().ok()?;
    let bytes = f * (1u64 << shift) as f64;
    (f.is_finite() && f >= 0.0 && bytes < u64::MAX as f64).then_some(bytes as u64)
}

/// The memory limit and where it comes from, computed once per process (the environment
/// variable is read at the first check).
///
/// # Errors
/// [`LimitError::BadSetting`] when `HAUSER_MAX_MEMORY` is not a size.
pub fn memory_limit() -> Result<Option<(u64, String)>, LimitError> {
    static LIMIT: OnceLock<Result<Option<(u64, String)>, LimitError>> = OnceLock::new();
    LIMIT
        .get_or_init(|| {
            if let Ok(v) = std::env::var(MEMORY_ENV) {
                return parse_size(&v)
                    .map(|n| Some((n, MEMORY_ENV.to_string())))
                    .ok_or(LimitError::BadSetting(v));
            }
            Ok(machine_memory())
        })
        .clone()
}

/// Physical memory, lowered by a cgroup v2 or v1 limit; `None` where neither can be read
/// (other systems than Linux: then only the allocator's answer counts).
fn machine_memory() -> Option<(u64, String)> {
    let physical = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                })
        })
        .map(|kb| kb.saturating_mul(1024));
    let cgroup = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|p| std::fs::read_to_string(p).ok())
    .find_map(|t| t.trim().parse::<u64>().ok());
    match (physical, cgroup) {
        (Some(p), Some(c)) if c < p => Some((c, "cgroup memory limit".into())),
        (Some(p), _) => Some((p, "physical memory".into())),
        (None, Some(c)) => Some((c, "cgroup memory limit".into())),
        (None, None) => None,
    }
}

/// Checks that `bytes` (`None`: a size computation overflowed) fits the memory limit.
///
/// # Errors
/// [`LimitError::TooLarge`] naming `what`, or [`LimitError::BadSetting`].
pub fn check_memory(what: &str, bytes: Option<u64>) -> Result<(), LimitError> {
    let limit = memory_limit()?;
    let too_large = |limit: u64, source: String| LimitError::TooLarge {
        what: what.to_string(),
        needed: bytes,
        limit,
        source_of_limit: source,
    };
    match (bytes, limit) {
        (None, Some((l, s))) => Err(too_large(l, s)),
        (None, None) => Err(too_large(u64::MAX, "address space".into())),
        (Some(n), Some((l, s))) if n > l => Err(too_large(l, s)),
        _ => Ok(()),
    }
}

/// `count * size` bytes, `None` on overflow.
pub fn bytes_for(count: u64, size: u64) -> Option<u64> {
    count.checked_mul(size)
}

/// An empty vector with room for `n` elements, after checking the need against the limit;
/// the reservation itself is fallible, so a refused allocation is an error, never an abort.
///
/// # Errors
/// [`LimitError::TooLarge`] or [`LimitError::Reserve`] naming `what`.
pub fn try_vec<T>(what: &str, n: usize) -> Result<Vec<T>, LimitError> {
    let mut v = Vec::new();
    try_reserve(&mut v, what, n)?;
    Ok(v)
}

/// Reserves room for `additional` more elements in `v`, as [`try_vec`] does.
///
/// # Errors
/// As [`try_vec`].
pub fn try_reserve<T>(v: &mut Vec<T>, what: &str, additional: usize) -> Result<(), LimitError> {
    let size = std::mem::size_of::<T>().max(1) as u64;
    let bytes = bytes_for(additional as u64, size);
    check_memory(what, bytes)?;
    v.try_reserve_exact(additional)
        .map_err(|e| LimitError::Reserve {
            what: what.to_string(),
            needed: bytes.unwrap_or(u64::MAX),
            reason: e.to_string(),
        })
}

/// Progress reporting and cancellation for a long computation (bootstrap, permutation tests,
/// synthetic data, ingestion). The computation calls [`Monitor::advance`] as units of work
/// finish and stops with a "cancelled" error soon after [`Monitor::is_cancelled`] turns true;
/// a command-line tool implements it with a progress bar and a Ctrl-C flag.
pub trait Monitor: Sync {
    /// `n` more units of work are done (what a unit is, the computation documents).
    fn advance(&self, n: u64) {
        let _ = n;
    }
    /// Whether the caller asked the computation to stop.
    fn is_cancelled(&self) -> bool {
        false
    }
}

/// A [`Monitor`] that shows nothing and never cancels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unmonitored;

impl Monitor for Unmonitored {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("1024"), Some(1024));
        assert_eq!(parse_size("8G"), Some(8 << 30));
        assert_eq!(parse_size(" 512m "), Some(512 << 20));
        assert_eq!(parse_size("2KiB"), Some(2048));
        assert_eq!(parse_size("1.5k"), Some(1536));
        assert_eq!(parse_size("3TB"), Some(3 << 40));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("-1G"), None);
        assert_eq!(parse_size("99999999999T"), None);
    }

    #[test]
    fn human_bytes_uses_binary_units() {
        assert_eq!(human_bytes(10), "10 bytes");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 40), "3.0 TiB");
    }

    #[test]
    fn overflowing_and_huge_needs_are_errors() {
        let e = check_memory("x", None).unwrap_err();
        assert!(e.to_string().contains("more than 2^64 bytes"), "{e}");
        let e = try_vec::<[u64; 4]>("a table of 2^62 rows", 1 << 62).unwrap_err();
        assert!(matches!(e, LimitError::TooLarge { .. }), "{e}");
        assert!(
            e.to_string().starts_with("a table of 2^62 rows needs"),
            "{e}"
        );
    }

    #[test]
    fn unmonitored_never_cancels() {
        Unmonitored.advance(5);
        assert!(!Unmonitored.is_cancelled());
    }
}
