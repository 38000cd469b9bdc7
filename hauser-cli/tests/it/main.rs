//! The integration tests of `hauser-cli`, one binary: each module was a test file of its own.
#![allow(clippy::unwrap_used)]

mod cli_score;
mod common;
/// The documents tell the truth: flags documented, paths exist, command lines run.
mod docs;
mod docs_sandbox;
mod drop_in_bert_score;
mod drop_in_comet;
mod embed;
mod embed_npy;
mod extract;
mod formality;
mod formality_files;
/// The fuzz targets' bodies and the replay of the committed fuzz corpora.
mod fuzz;
mod io_layer;
mod kb;
mod limits;
mod meta_eval;
mod meta_eval_wmt;
mod metric;
mod metric_comet;
mod metric_comet_unified;
mod metric_metricx;
mod metric_neural;
mod metric_no_ignored;
mod metric_options;
mod metric_significance;
mod metric_wmd;
mod model_limits;
mod models;
/// Issue 38: no import circles between a crate's modules.
mod module_graph;
mod narratives;
mod newsmet;
mod outputs;
mod records;
mod rerank;
mod resources;
/// Issue 37: the files of a run, the drop-ins' outputs, signals.
mod round3_files;
/// Issue 37: negative numbers and comet-compare's --sample_ratio.
mod round3_flags;
mod sacrebleu_cli;
/// Reproductions on `../shared/data` (`#[ignore]`d: `tools/test.sh` runs them when it is there).
mod shared_data {
    mod formality_command;
    mod kb_reproduction;
    mod metric_lowercase_formality;
    mod narratives_data;
    mod newsmet_data;
    mod reproduce_bertscore_formality;
    mod reproduce_formality;
    mod reproduce_hauser_stats;
    mod reproduce_informativeness;
    mod ter_formality;
}
