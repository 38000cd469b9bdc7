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
pub mod error;
mod interface;
pub(crate) mod lexical;
pub(crate) mod metrics;
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
    TextMetricOptions, NAMES, REGISTRY,
};
pub use score::{aggregate_refs, MetricScore, RefAggregation};
