//! Input and output of every command: reading files and standard input, writing outputs through
//! temporary files that replace their target only on success, the files a run declares, progress
//! bars, and the signal handlers that remove temporary outputs. Kept together so that the rules
//! of docs/RELIABILITY.md hold for every command through one place.

pub mod files;
pub mod input;
pub mod interrupt;
pub(crate) mod metric_input;
pub(crate) mod npy;
pub(crate) mod out_file;
pub(crate) mod output;
pub(crate) mod progress;
pub mod run_files;
