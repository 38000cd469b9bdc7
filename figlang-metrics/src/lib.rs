//! # figlang-metrics
//!
//! Text metrics (BLEU, chrF, ROUGE, METEOR...) and meta-evaluation statistics.
//! Its metrics are being built; this crate currently exposes the version
//! used in signatures.
//!
//! ```
//! assert!(!figlang_metrics::VERSION.is_empty());
//! ```
#![deny(missing_docs)]

#[cfg(feature = "neural")]
pub mod neural;
pub mod stats;
pub mod text;

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
