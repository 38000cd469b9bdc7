//! # hauser-kb
//!
//! The simile knowledge base behind HAUSER's relevance and creativity criteria: streaming
//! ingestion of MAPS-KB CSV, triplet TSV, simile-sentence TSV or plain similes
//! ([`ingest`]); keys normalised like the reference implementation ([`clean`]); one persistent,
//! checksummed, memory-mapped index file ([`format`](mod@format), [`Kb`]); the queries relevance(t, v),
//! N(v), top properties and top vehicles; and the [`RelevanceScorer`] and [`CreativityScorer`].
//!
//! ```
//! use std::io::Cursor;
//! use std::path::Path;
//! use hauser_kb::{ingest, Kb, KbBuilder, Normalizer};
//!
//! let tsv = "topic\tproperty\tvehicle\tcount\n\
//!            he\tbrave\ta lion\t3\n\
//!            she\tquick\tthe wind\t2\n\
//!            he\tstrong\tlike a lion\t1\n";
//! let mut builder = KbBuilder::new(Normalizer::Reference);
//! let report = ingest::ingest_reader(
//!     Cursor::new(tsv), Path::new("example.tsv"), ingest::InputFormat::Triplets,
//!     &mut builder, ingest::IngestOptions::default(), None,
//! )?;
//! assert_eq!(report.triplets_added, 3);
//!
//! let kb: Kb = builder.build_in_memory()?;
//! assert_eq!(kb.relevance("He", "a lion"), 4.0);       // n(t, v) when there is no plausibility
//! assert_eq!(kb.vehicle_count("wind"), 2.0);           // N(v)
//! assert_eq!(kb.top_properties("he", "lion", 1)[0].name, "brave");
//! assert_eq!(kb.top_vehicles("she", "quick", 5)[0].name, "wind");
//! # Ok::<(), hauser_kb::KbError>(())
//! ```
//!
//! ## Examples
//!
//! [`kb_scores`](https://github.com/hauser-rs/hauser-rs/blob/main/examples/examples/kb_scores.rs) in the repository's `examples/`
//! (`cargo run -p hauser-examples --example kb_scores`) builds a knowledge base and scores
//! candidates through the evaluation pipeline. Plain similes are ingested through any
//! [`hauser_core::ComponentExtractor`], e.g. `hauser_extract::RuleExtractor`.
//!
//! ## Features
//!
//! None.
#![deny(missing_docs)]

pub mod build;
pub mod clean;
pub mod error;
pub mod format;
pub mod hash;
pub mod ingest;
pub mod kb;
pub mod naive;
pub mod scorer;
pub mod synth;

pub use build::KbBuilder;
pub use clean::Normalizer;
pub use error::{KbError, Result};
pub use kb::{Hit, Kb, KbStats, PairInfo};
pub use scorer::{CreativityScorer, RelevanceScorer};

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
