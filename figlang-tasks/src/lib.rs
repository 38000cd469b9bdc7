//! # figlang-tasks
//!
//! Benchmark harnesses for figurative language on top of `figlang-metrics` and `hauser-nli`:
//! dataset loaders, task protocols and reports. The figurative narratives benchmark
//! ([`narratives`]), NewsMet's detection evaluation and headline families ([`newsmet`]) and the
//! released files of the formality-transfer meta-evaluation with its correlations
//! ([`formality`]); the CLI runs them as `hauser narratives ...`, `hauser newsmet ...` and
//! `hauser formality reproduce`.
//!
//! ```
//! use figlang_tasks::narratives::{accuracy, Choice};
//! use figlang_metrics::stats::BootstrapConfig;
//!
//! let gold = [Choice::Option1, Choice::Option2, Choice::Option2, Choice::Option1];
//! let pred = [Choice::Option1, Choice::Option2, Choice::Option1, Choice::Option1];
//! let report = accuracy(&pred, &gold, &BootstrapConfig::default())?;
//! assert_eq!((report.correct, report.n), (3, 4));
//! println!("accuracy {:.3} [{:.3}, {:.3}]", report.accuracy.estimate, report.accuracy.low, report.accuracy.high);
//! # Ok::<(), figlang_tasks::TaskError>(())
//! ```
#![deny(missing_docs)]

mod error;
pub mod formality;
pub mod narratives;
pub mod newsmet;

pub use error::{TaskError, TaskResult};

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
