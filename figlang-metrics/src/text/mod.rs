//! Text metrics with proven parity to their reference implementations.
//!
//! | metric | module | reference |
//! | --- | --- | --- |
//! | sentence / corpus BLEU | [`bleu_nltk`] | NLTK 3.10.4 `sentence_bleu`, `corpus_bleu` |
//! | corpus / sentence BLEU | [`bleu_sacre`] | sacreBLEU 2.4.3 `BLEU` |
//! | chrF, chrF++ | [`chrf`] | sacreBLEU 2.4.3 `CHRF` (1.x `sentence_chrf` on the 0-1 scale) |
//! | TER | [`ter`] | sacreBLEU 2.4.3 `TER` (Tercom normalisation, beam edit distance, shifts) |
//! | word tokenizer | [`tokenize`], [`punkt`] | NLTK `word_tokenize` / `sent_tokenize` |
//!
//! | ROUGE-1/2/L/Lsum | [`rouge`] | Google `rouge-score`, pltrdy `rouge` 1.0.1 / 0.3.2 |
//! | METEOR | [`meteor`] | NLTK 3.10.4 / 3.4.5 `meteor_score` |
//! | distinct-n, self-BLEU | [`diversity`] | |
//! | bootstrap CI, paired bootstrap / approximate randomization, ROUGE bootstrap | [`significance`] | sacreBLEU 2.4.3 `significance`, rouge-score 0.1.2 `BootstrapAggregator` |
//!
//! All of them are also [`TextMetric`]s, built by name with [`metric_by_name`] (the names are
//! [`NAMES`]) from one [`TextMetricOptions`]: sentence scores (0-1) and a corpus score with its
//! signature, for hypotheses against one or more line-aligned reference lists.
//!
//! Every score comes with a [`hauser_core::Signature`] ([`MetricScore`]). Golden tests in
//! `figlang-metrics/tests/` compare with fixtures written by
//! `tools/gen/gen_text_metric_fixtures.py`.

mod adapters;
pub mod bleu_nltk;
pub mod bleu_sacre;
pub mod chrf;
pub mod diversity;
pub mod error;
mod interface;
mod intl_tables;
pub mod meteor;
pub mod ngram;
mod ngram_table;
pub mod porter;
pub mod punkt;
pub mod registry;
pub mod rouge;
pub mod score;
pub mod significance;
mod summed;
pub mod ter;
mod ter_tokenize;
pub mod tokenize;
pub mod treebank_legacy;
pub mod wordnet;
mod wordnet_check;
mod wordnet_lemma;
pub mod wordnet_sim;

pub use error::MetricError;
pub use registry::{
    metric_by_name, ChrfOptions, Details, Entry, Needs, Resampled, Scale, TextMetric,
    TextMetricOptions, NAMES, REGISTRY,
};
pub use score::{aggregate_refs, MetricScore, RefAggregation};
