//! # hauser-nli
//!
//! Candle transformer inference for HAUSER: encoders, classifiers and causal LMs.
//! Its models and scorers are being built; this crate currently exposes the version
//! used in signatures.
//!
//! ```
//! assert!(!hauser_nli::VERSION.is_empty());
//! ```
#![deny(missing_docs)]

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
