//! The metrics themselves, one file each, and the n-gram tables they share. Adding a metric is
//! its file here (with its line below) and one entry of the [`registry`](super::registry).
//!
//! | metric | module | reference |
//! | --- | --- | --- |
//! | sentence / corpus BLEU | [`bleu_nltk`] | NLTK 3.10.4 `sentence_bleu`, `corpus_bleu` |
//! | corpus / sentence BLEU | [`bleu_sacre`] | sacreBLEU 2.4.3 `BLEU` |
//! | chrF, chrF++ | [`chrf`] | sacreBLEU 2.4.3 `CHRF` (1.x `sentence_chrf` on the 0-1 scale) |
//! | TER | [`ter`] | sacreBLEU 2.4.3 `TER` (Tercom normalisation, beam edit distance, shifts) |
//! | WER (MER, WIL, WIP), CER | [`error_rate`] | jiwer 4.0.0 `wer`, `cer`, `process_words` |
//! | ROUGE-1/2/L/Lsum | [`rouge`] | Google `rouge-score`, pltrdy `rouge` 1.0.1 / 0.3.2 |
//! | METEOR | [`meteor`] | NLTK 3.10.4 / 3.4.5 `meteor_score` |
//! | distinct-n, self-BLEU | [`diversity`] | |

pub mod bleu_nltk;
pub mod bleu_sacre;
pub mod chrf;
pub mod diversity;
pub mod error_rate;
pub mod meteor;
pub mod ngram;
pub(in crate::text) mod ngram_table;
pub mod rouge;
pub mod ter;
