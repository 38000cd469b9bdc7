//! The `hauser` command-line tool: argument parsing and the implementation of each subcommand.
//!
//! The binary (`src/main.rs`) only dispatches, every subcommand having one shape
//! ([`command::Run`]); each subcommand lives in its own module so that it can be tested on its
//! own, and a command made of several modules has them in its folder:
//!
//! - [`score`], [`kb`], [`embed`], [`extract`], [`classify`]: one module each;
//! - [`metric`] (text, WMD and neural metrics, significance tests), [`rerank`], [`meta_eval`]
//!   (with `corr`), [`formality`], [`narratives`], [`newsmet`];
//! - [`drop_in`]: the command lines of other tools (sacreBLEU, comet, bert_score);
//! - [`io`]: the input and output every command goes through; [`error`]: the one error type;
//!   `flags`: the parsers of the options several commands share.
//!
//! A module is public only where the binary, the integration tests or the fuzz targets reach it;
//! the others are `pub(crate)`. Install the binary with `cargo install --path hauser-cli`; for
//! library use, depend on the crates it wires together (`hauser-core`, `hauser-kb`,
//! `hauser-extract`, `hauser-nli`, `figlang-metrics`), not on this one.
//!
//! ```
//! use hauser_cli::io::input::parse_jsonl_line;
//! let g = parse_jsonl_line(r#"{"literal": "He ran.", "candidates": ["He ran like the wind."]}"#).unwrap();
//! assert_eq!(g.candidates.len(), 1);
//! ```
//!
//! ## Features
//!
//! | feature | default | adds |
//! | --- | --- | --- |
//! | `cuda` | no | Candle's CUDA backend for the neural criteria, metrics and `hauser embed` |
//! | `metal` | no | Candle's Metal backend |
#![deny(missing_docs)]

pub mod classify;
pub mod command;
pub mod drop_in;
pub mod embed;
pub mod error;
pub mod extract;
pub(crate) mod flags;
pub mod formality;
pub mod io;
pub mod kb;
pub mod meta_eval;
pub mod metric;
pub mod narratives;
pub mod newsmet;
pub mod rerank;
pub mod score;
#[cfg(test)]
mod test_support;

pub use error::CliError;
