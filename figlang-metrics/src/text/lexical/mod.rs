//! WordNet 3.0, the lexical database: its reader, the lemmatizer and the similarity and Lesk functions.

pub mod wordnet;
pub(in crate::text) mod wordnet_check;
pub(in crate::text) mod wordnet_lemma;
pub mod wordnet_sim;
