//! # hauser-core
//!
//! Types, plug-in traits and the scoring logic of HAUSER, the holistic simile-generation
//! evaluator: per-literal normalisation, the weighted quality score, informativeness and the
//! 2:2:1 reranker. Knowledge-base criteria live in `hauser-kb`, neural ones in `hauser-nli`.
//!
//! A new criterion is a [`Scorer`]: it names its [`Criterion`], declares its [`Direction`]
//! (lower-is-better criteria are normalised so that the best candidate still gets 1) and its
//! [`TieRule`], and builds its per-group results with one of the [`adapter`]s
//! ([`adapter::per_candidate`] for a function of one candidate, [`adapter::batched`] for one
//! batched model call over all candidates, [`adapter::per_group`] for one call per group, whose
//! scores then never depend on the other groups of the call). The [`Evaluator`] lends scorers
//! the groups, never copies them.
//!
//! ```
//! use hauser_core::{CandidateGroup, Components, Evaluator, InformativenessScorer, Criterion};
//!
//! let group = CandidateGroup::new(
//!     "He yelps and howls.",
//!     ["He yelps and howls like a wolf.", "He yelps and howls like a lonely grey wolf."],
//! )
//! .with_components(vec![
//!     vec![Components::new("he", "a wolf", "howls")],
//!     vec![Components::new("he", "a lonely grey wolf", "howls")],
//! ])?;
//!
//! let evaluator = Evaluator::new().with_scorer(InformativenessScorer);
//! let report = evaluator.evaluate(&[group], 0).remove(0).expect("group scores");
//! let info = report.candidates[1].score(&Criterion::Informativeness).unwrap();
//! assert_eq!(info.raw, 4.0);          // "a lonely grey wolf" has four tokens
//! assert_eq!(info.normalized, 1.0);   // the longest vehicle of its group
//! assert_eq!(report.candidates[1].rank, Some(1));
//! # Ok::<(), hauser_core::CoreError>(())
//! ```
//!
//! ## Examples
//!
//! Runnable programs in the repository's `examples/` (`cargo run -p hauser-examples --example
//! NAME`): [`rerank`](https://github.com/hauser-rs/hauser-rs/blob/main/examples/examples/rerank.rs) plugs a custom [`Scorer`] into the pipeline;
//! [`kb_scores`](https://github.com/hauser-rs/hauser-rs/blob/main/examples/examples/kb_scores.rs) runs the knowledge-base criteria with the rule-based
//! extractor.
//!
//! ## Features
//!
//! None: the crate has no optional features and no neural dependency.
#![deny(missing_docs)]

pub mod adapter;
pub mod criterion;
pub mod error;
pub mod informativeness;
pub mod limits;
pub mod literal;
pub mod normalize;
pub mod pipeline;
pub mod quality;
pub mod report;
pub mod rerank;
pub mod scorer;
pub mod signature;
pub mod tokenize;
pub mod treebank;
pub mod types;

pub use criterion::{Criterion, Direction, TieRule};
pub use error::{CoreError, Result};
pub use informativeness::InformativenessScorer;
pub use literal::parse_components_literal;
pub use normalize::{normalize_directed, normalize_group, normalize_scores, normalize_with};
pub use pipeline::{render_signatures, Evaluator};
pub use quality::{MissingPart, QualityWeights};
pub use report::{
    CandidateReport, CriterionScore, GroupFailure, GroupOutcome, GroupReport, Skipped,
};
pub use rerank::{competition_ranks, RankSumReranker, ScoreReranker};
pub use scorer::{ComponentExtractor, Reranker, Scorer};
pub use signature::{Signature, CORE_VERSION};
pub use types::{Candidate, CandidateGroup, Components};
