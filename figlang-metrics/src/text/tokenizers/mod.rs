//! The tokenizers the metrics reproduce (sacreBLEU's, Tercom's, NLTK's Treebank and Punkt, the Porter stemmer).

pub(in crate::text) mod intl_tables;
pub mod porter;
pub mod punkt;
mod rules_13a;
mod split_spans;
mod t13a_spans;
pub(in crate::text) mod ter_tokenize;
pub mod tokenize;
pub mod treebank_legacy;
