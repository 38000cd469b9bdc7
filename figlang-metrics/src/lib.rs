//! # figlang-metrics
//!
//! Text metrics (BLEU, chrF, ROUGE, METEOR, distinct-n, self-BLEU; module `text`, all behind
//! one `text::TextMetric` trait and a registry by name, `text::metric_by_name`),
//! meta-evaluation statistics (module `stats`) and, with the `neural` feature, neural metrics
//! (BERTScore, perplexity, style strength) that are also `hauser_core::Scorer`s.
//!
//! ```
//! // Meta-evaluation statistics (module `stats`): SciPy-exact correlations and p-values.
//! use figlang_metrics::stats::{kendall_tau, pearson, TauVariant};
//! let human = [1.0, 2.0, 3.0, 4.0, 5.0];
//! let metric = [0.1, 0.3, 0.2, 0.5, 0.9];
//! let r = pearson(&human, &metric).unwrap();
//! assert!((r.statistic - 0.9).abs() < 1e-12 && r.p_value < 0.05);
//! assert!(kendall_tau(&human, &metric, TauVariant::B).unwrap().statistic > 0.5);
//! assert!(!figlang_metrics::VERSION.is_empty());
//! ```
#![deny(missing_docs)]

#[cfg(feature = "neural")]
pub mod neural;
pub mod stats;
pub mod text;

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
