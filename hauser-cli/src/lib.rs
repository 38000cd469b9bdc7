//! The `hauser` command-line tool: argument parsing and the implementation of each subcommand.
//!
//! The binary (`src/main.rs`) only dispatches; each subcommand lives in its own module so that
//! it can be tested and reused from the example programs.
//!
//! ```
//! use hauser_cli::input::parse_jsonl_line;
//! let g = parse_jsonl_line(r#"{"literal": "He ran.", "candidates": ["He ran like the wind."]}"#).unwrap();
//! assert_eq!(g.candidates.len(), 1);
//! ```
#![deny(missing_docs)]

pub mod embed;
pub mod error;
pub mod extract;
pub mod input;
pub mod interrupt;
pub mod kb;
pub mod meta_eval;
pub mod metric;
pub mod neural_metric;
pub mod output;
pub mod progress;
pub mod score;

pub use error::CliError;
