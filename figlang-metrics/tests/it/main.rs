//! The integration tests of `figlang-metrics`, one binary: each module was a test file of its own.
#![allow(clippy::unwrap_used)]

mod common;
mod golden_bleu;
mod golden_chrf;
mod golden_comet_compare;
mod golden_diversity;
mod golden_error_rate;
mod golden_meteor;
mod golden_porter;
mod golden_rouge;
mod golden_significance;
mod golden_ter;
mod golden_tokenize;
mod golden_wmd;
mod golden_wordnet_sim;
mod neural_parity;
mod neural_scorers;
mod resource_validation;
mod wordnet_validation;
/// Reproductions on `../shared/data` (`#[ignore]`d: `tools/test.sh` runs them when it is there).
mod shared_data {
    mod formality_repro;
}
mod segment_scores;
mod text_no_panic;
