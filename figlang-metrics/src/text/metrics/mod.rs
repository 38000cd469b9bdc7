//! The metrics themselves, one file each, and the n-gram tables they share.

pub mod bleu_nltk;
pub mod bleu_sacre;
pub mod chrf;
pub mod diversity;
pub mod meteor;
pub mod ngram;
pub(in crate::text) mod ngram_table;
pub mod rouge;
pub mod ter;
