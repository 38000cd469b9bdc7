//! The tokenizer's ids against the rows of the model's input embedding matrix, checked at
//! load for every model kind.
//!
//! An id at or past the last row cannot be looked up (an added token that the model was never
//! resized for); where candle's lookup would fail only on the first text that holds the token,
//! the load fails here instead, naming both files and both sizes. The reverse, a vocabulary
//! much smaller than the matrix, is refused for T5's family, whose embeddings are the
//! vocabulary padded to a multiple of 128 and whose `spiece.model` a partial copy truncates.
//! Encoders are not held to it: real ones leave many rows unused (mDeBERTa v3's spm.model has
//! 250,001 ids for 251,000 rows); a SentencePiece file cut short is refused when it is read
//! (see `spm::decode`).

use std::path::Path;

use crate::error::{NliError, Result};
use crate::tokenize::TextEncoder;

/// How many more rows than ids a T5-family model may have. Its embeddings are the vocabulary
/// padded to a multiple of 128 (t5: 32,100 ids, 32,128 rows; mT5: 250,100 and 250,112; umT5:
/// 256,300 and 256,384); a file that lost pieces leaves more rows than that unused.
pub(crate) const PADDING_ROWS: usize = 127;

/// Whether rows beyond the vocabulary are checked too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spare {
    /// Any number of unused rows (encoders and GPT-2, e.g. checkpoints padded to a multiple
    /// of 64, or mDeBERTa v3's 999 spare rows).
    Any,
    /// At most [`PADDING_ROWS`] unused rows.
    Padding,
}

/// One more than the highest id `text` can emit: every vocabulary entry, added and special
/// tokens included, and the ids its post-processor inserts (a template may name ids outside
/// the vocabulary).
pub(crate) fn id_bound(text: &TextEncoder) -> usize {
    let t = text.tokenizer();
    let vocab = t.get_vocab(true).into_values().max();
    let template = t
        .encode(("", ""), true)
        .ok()
        .and_then(|e| e.get_ids().iter().copied().max());
    vocab.max(template).map_or(0, |m| m as usize + 1)
}

/// The rule itself: `None` when `ids` fit `rows`, else what is wrong.
pub(crate) fn problem(ids: usize, rows: usize, spare: Spare) -> Option<String> {
    if ids > rows {
        return Some(format!(
            "{} ids have no embedding row; the model must be resized for the tokenizer's added tokens, or the tokenizer is another model's",
            ids - rows
        ));
    }
    if spare == Spare::Padding && rows - ids > PADDING_ROWS {
        return Some(format!(
            "{} rows have no token, more than the {PADDING_ROWS} a padded vocabulary leaves; the tokenizer file may be cut short or another model's",
            rows - ids
        ));
    }
    None
}

/// Checks `text` against an embedding matrix of `rows` rows read from `weights`.
///
/// # Errors
/// [`NliError::Vocabulary`] naming both files and sizes.
pub(crate) fn check(
    model: &str,
    text: &TextEncoder,
    rows: usize,
    weights: &Path,
    spare: Spare,
) -> Result<()> {
    let ids = id_bound(text);
    match problem(ids, rows, spare) {
        None => Ok(()),
        Some(problem) => Err(NliError::Vocabulary {
            model: model.to_string(),
            tokenizer: text.path().to_path_buf(),
            ids,
            weights: weights.to_path_buf(),
            rows,
            problem,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_padded_vocabularies_pass_and_cut_ones_fail() {
        // (ids, rows) of t5, mT5 and umT5.
        for (ids, rows) in [(32_100, 32_128), (250_100, 250_112), (256_300, 256_384)] {
            assert_eq!(problem(ids, rows, Spare::Padding), None, "{ids} {rows}");
        }
        assert!(problem(100_000, 250_112, Spare::Padding).is_some());
        assert!(problem(250_113, 250_112, Spare::Any).is_some());
        assert_eq!(problem(250_001, 251_000, Spare::Any), None);
    }
}
