//! # figlang-metrics
//!
//! Text metrics and meta-evaluation statistics for figurative language generation and text
//! style transfer, each with golden tests against its reference tool:
//!
//! - [`text`]: sacreBLEU BLEU and chrF/chrF++, NLTK sentence/corpus BLEU and METEOR,
//!   rouge-score ROUGE-1/2/L/Lsum (and the `rouge` package's variant), distinct-n and
//!   self-BLEU, with NLTK's and sacreBLEU's tokenizers; every score carries a signature.
//!   All of them are `text::TextMetric`s, built by name with `text::metric_by_name`.
//! - [`stats`] (the `figlang-stats` crate, re-exported): Pearson, Spearman, Kendall tau-b/c with SciPy's p-values, Fisher-z
//!   intervals, bootstrap and permutation tests, Williams' test, agreement (leave-one-out,
//!   Cohen/Fleiss kappa, Krippendorff's alpha), ranking (HR@k, NDCG@k, MRR) and
//!   classification (P/R/F1, McNemar) measures, and system/segment-level meta-evaluation.
//! - [`wmd`]: Word Mover's Distance with gensim's semantics, on word vectors read from
//!   word2vec binary/text or GloVe files, with an exact transport solver.
//! - `neural` (feature `neural`): BERTScore, perplexity and style strength on `hauser-nli`,
//!   also as `hauser_core::Scorer`s.
//!
//! ```
//! use figlang_metrics::text::bleu_sacre::SacreBleu;
//! use figlang_metrics::text::chrf::Chrf;
//! use figlang_metrics::stats::{kendall_tau, pearson, TauVariant};
//!
//! // Corpus BLEU and chrF as sacreBLEU computes them, with their signatures.
//! let hyps = ["The cat sat on the mat.", "He ran like the wind."];
//! let refs = vec![vec!["The cat sat on the mat."], vec!["He ran as fast as the wind."]];
//! let bleu = SacreBleu::default().corpus(&hyps, &refs)?;
//! assert!(bleu.score > 0.0 && bleu.score < 100.0);
//! assert!(bleu.signature.to_string().starts_with("bleu|"));
//! let chrf = Chrf::default().corpus(&hyps, &refs)?;
//! assert!(chrf.score > bleu.score);
//!
//! // Meta-evaluation statistics: SciPy-exact correlations and p-values.
//! let human = [1.0, 2.0, 3.0, 4.0, 5.0];
//! let metric = [0.1, 0.3, 0.2, 0.5, 0.9];
//! let r = pearson(&human, &metric).unwrap();
//! assert!((r.statistic - 0.9).abs() < 1e-12 && r.p_value < 0.05);
//! assert!(kendall_tau(&human, &metric, TauVariant::B).unwrap().statistic > 0.5);
//! # Ok::<(), figlang_metrics::text::MetricError>(())
//! ```
//!
//! ## Examples
//!
//! [`text_metrics`](https://github.com/hauser-rs/hauser-rs/blob/main/examples/examples/text_metrics.rs) in the repository's `examples/`
//! (`cargo run -p hauser-examples --example text_metrics`) computes BLEU, chrF and ROUGE-L and
//! correlates sentence chrF with human ratings.
//!
//! ## Features
//!
//! | feature | default | adds |
//! | --- | --- | --- |
//! | `neural` | no | the `neural` module: BERTScore, perplexity, style strength, and their `hauser_core::Scorer`s; pulls in `hauser-nli` (Candle, tokenizers, hf-hub) |
//!
//! Without features the crate depends on no neural library.
#![deny(missing_docs)]

#[cfg(feature = "neural")]
pub mod neural;
/// Meta-evaluation statistics: the `figlang-stats` crate, re-exported so that
/// `figlang_metrics::stats::pearson` keeps working.
pub use figlang_stats as stats;
pub mod text;
pub mod wmd;

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
