//! T5-family encoder-decoders (t5, mt5, umt5 checkpoints in transformers' layout), run for
//! one decoder step as MetricX needs: the settings ([`T5Config`]), candle's modules and
//! forward pass (`model`) and the packed CPU copy (`packed`). The MetricX regressor built on
//! it is `crate::metricx`.

mod config;
pub(crate) mod model;
pub(crate) mod packed;

pub use config::{FeedForward, T5Config};
