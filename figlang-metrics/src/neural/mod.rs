//! Neural metrics on the `hauser-nli` engine: BERTScore, BLEURT, COMET, MetricX, perplexity
//! fluency and style strength; all but BLEURT, COMET and MetricX are also `hauser_core::Scorer`s.
//!
//! ```no_run
//! use figlang_metrics::neural::{BertScore, BertScoreOptions};
//! use hauser_nli::{Embedder, LoadOptions, ModelSource};
//!
//! let source = ModelSource::parse("roberta-large");
//! let embedder = Embedder::load(&source, &LoadOptions::default())?;
//! let metric = BertScore::new(embedder, "roberta-large", BertScoreOptions::default())?;
//! let scores = metric.score(&["He ran like the wind."], &[vec!["He ran very fast."]])?;
//! println!("{} {}", scores[0].f1, metric.signature());
//! # Ok::<(), figlang_metrics::neural::NeuralError>(())
//! ```

mod baseline;
mod bertscore;
mod bleurt;
mod comet;
mod comet_compare;
mod error;
mod greedy;
mod metricx;
mod perplexity;
mod scorers;
mod style;

pub use baseline::{Baseline, BaselineError};
pub use bertscore::{
    default_layer, default_prefix_space, BertScore, BertScoreOptions, DEFAULT_LAYERS,
};
pub use bleurt::Bleurt;
pub use comet::Comet;
pub use comet_compare::{comet_compare, CometCompare, PairComparison, TIE_EPSILON};
pub use error::{NeuralError, NeuralResult};
pub use greedy::{greedy_match, token_weights, Idf, Prf, Side};
pub use metricx::MetricX;
pub use perplexity::{BosMode, Perplexity, PerplexityScores};
pub use style::StyleStrength;
