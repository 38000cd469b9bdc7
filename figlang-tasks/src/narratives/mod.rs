//! The figurative narratives benchmark (Chakrabarty, Choi, Shwartz, TACL 2022): choose the
//! plausible continuation of a story that ends in an idiom or a simile. docs/TASKS.md gives the
//! protocol and where the authors' code and the paper differ.

pub mod accuracy;
pub mod data;

pub use accuracy::{accuracy, compare, AccuracyReport, PairedComparison};
pub use data::{read_labels, read_split, Choice, LabelStatus, NarrativeItem, Split};
