//! Text metrics with proven parity to their reference implementations: one file each in
//! [`metrics`] (its table says which reference each reproduces), the tokenizers they share
//! ([`tokenize`], [`punkt`], [`porter`], [`treebank_legacy`]), WordNet ([`wordnet`],
//! [`wordnet_sim`]) and sacreBLEU's significance tests ([`significance`]: bootstrap CI, paired
//! bootstrap and approximate randomization, and rouge-score 0.1.2's `BootstrapAggregator`).
//!
//! All of them are also [`TextMetric`]s, built by name with [`metric_by_name`] (the names are
//! [`NAMES`]) from one [`TextMetricOptions`]: sentence scores (0-1) and a corpus score with its
//! signature, for hypotheses against one or more line-aligned reference lists.
//!
//! Every score comes with a [`hauser_core::Signature`] ([`MetricScore`]). Golden tests in
//! `figlang-metrics/tests/` compare with fixtures written by
//! `tools/gen/gen_text_metric_fixtures.py`.

mod adapters;
pub mod error;
mod interface;
pub(crate) mod lexical;
pub mod metrics;
pub mod registry;
pub mod score;
pub mod significance;
mod summed;
pub(crate) mod tokenizers;

// The folders by kind (metrics, tokenizers, `lexical`: WordNet; significance tests); their public modules
// keep their paths under `text::`.
pub use lexical::{wordnet, wordnet_sim};
pub use metrics::{bleu_nltk, bleu_sacre, chrf, diversity, meteor, ngram, rouge, ter};
pub use tokenizers::{porter, punkt, tokenize, treebank_legacy};

pub use error::MetricError;
pub use registry::{
    metric_by_name, ChrfOptions, Details, Entry, Needs, Resampled, Scale, TextMetric,
    TextMetricOptions, WordSettings, NAMES, REGISTRY,
};
pub use score::{aggregate_refs, MetricScore, RefAggregation};
