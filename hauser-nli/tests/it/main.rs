//! The integration tests of `hauser-nli`, one binary: each module was a test file of its own.
#![allow(clippy::unwrap_used)]

mod bleurt;
mod bleurt20;
mod choice;
mod comet;
mod comet_pairs;
mod comet_unified;
mod common;
mod config_sizes;
mod generate;
mod gpt2;
mod hidden_states;
mod loading;
mod masked_lm;
mod metricx;
mod minilm;
mod non_finite;
mod packed_cpu;
mod packed_random;
mod packed_t5;
mod parity;
mod scorers;
mod strict_loading;
mod vocab_rows;
mod xlmr_spm;
