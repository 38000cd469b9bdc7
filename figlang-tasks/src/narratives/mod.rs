//! The figurative narratives benchmark (Chakrabarty, Choi, Shwartz, TACL 2022): choose or
//! write the plausible continuation of a story that ends in an idiom or a simile.
//! docs/TASKS.md gives the protocol and where the authors' code and the paper differ.

pub mod accuracy;
pub mod choice;
pub mod data;
pub mod eval_gen;
pub mod generation;
pub mod predictions;
pub mod zero_shot;

pub use accuracy::{accuracy, compare, AccuracyReport, PairedComparison};
pub use choice::{score_choices, ChoiceScores, PairOrder};
pub use data::{
    parse_labels, parse_records, parse_split, read_labels, read_split, split_of, Choice,
    LabelStatus, NarrativeItem, Records, Split, BLANK_LINE,
};
pub use eval_gen::{evaluate, gold_by_narrative, parse_predictions, GenEvalReport};
pub use generation::{distinct_count, generate, PredictionRecord};
pub use predictions::parse_choice_predictions;
pub use zero_shot::{score_zero_shot, ZeroShotConfig, ZeroShotResult, ZeroShotScore};
