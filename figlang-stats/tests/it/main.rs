//! The integration tests of `figlang-stats`, one binary (they moved here from `figlang-metrics`
//! with the statistics).
#![allow(clippy::unwrap_used)]

mod stats_common;
mod stats_golden;
mod stats_golden_agreement;
mod stats_golden_wmt;
mod stats_properties;
mod stats_resample;
