//! T5-family encoder-decoders (t5, mt5, umt5 checkpoints in transformers' layout) and the
//! MetricX-23/24 regressors built on mT5.

mod config;
mod metricx;
mod model;

pub(crate) use config::relative_position_bucket;
pub use config::{FeedForward, T5Config};
pub use metricx::{
    default_tokenizer, MetricxInput, MetricxModel, MetricxPrediction, MetricxVersion,
    DEFAULT_TOKENIZER, SCORE_RANGE, SCORE_TOKEN,
};
