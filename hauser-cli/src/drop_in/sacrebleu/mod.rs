//! `hauser sacrebleu`, sacreBLEU 2.4.3's command line: [`cli`] runs it, from the argument list
//! ([`args`]) through the inputs ([`input`], [`testsets`]) to the metrics ([`score`]) and the
//! printed text (`format`).

pub mod args;
pub mod cli;
pub(crate) mod format;
pub mod input;
pub mod score;
pub mod testsets;
