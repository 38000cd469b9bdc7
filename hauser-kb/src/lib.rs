//! # hauser-kb
//!
//! The simile knowledge base behind HAUSER's relevance and creativity criteria.
//! Its ingestion, index and scorers are being built; this crate currently exposes the version
//! used in signatures.
//!
//! ```
//! assert!(!hauser_kb::VERSION.is_empty());
//! ```
#![deny(missing_docs)]

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
