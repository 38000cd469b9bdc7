//! Word and character error rates as jiwer 4.0.0 computes them (`jiwer.wer`, `jiwer.cer`, and
//! the match error rate, word information lost and preserved of `jiwer.process_words`), with
//! jiwer's default transforms and rapidfuzz's alignment.
//!
//! - Words (`wer_default`): runs of two or more whitespace characters become one space, the
//!   ends are stripped, and the text is split on single spaces (so a lone tab stays inside a
//!   word, as in jiwer). Characters (`cer_default`): the ends are stripped, then every code
//!   point counts, spaces included.
//! - The error rate of a corpus is its summed edits over its summed reference length; a corpus
//!   whose references are all empty scores its number of insertions, as jiwer does.
//! - The edit distance is unique, but which minimal alignment is taken decides the hits,
//!   substitutions, deletions and insertions that MER and WIL read. jiwer takes rapidfuzz's
//!   (`Levenshtein.opcodes`); [`alignment`] takes the same one, by following rapidfuzz's
//!   backtrace rules (a deletion first, then an insertion, then the diagonal) over the same
//!   subproblems (the common prefix and suffix removed, and Hirschberg's split on the same
//!   middle column for large inputs).
//!
//! ```
//! use figlang_metrics::text::metrics::error_rate::ErrorRate;
//! // One substitution ("sat" for "sit") and one deletion ("the") over 5 reference words.
//! let c = ErrorRate::WORDS.counts("the cat sat on the", "the cat sit on");
//! assert_eq!((c.hits, c.substitutions, c.deletions, c.insertions), (3, 1, 1, 0));
//! assert_eq!(c.error_rate(), 2.0 / 5.0);
//! assert_eq!(c.mer(), 2.0 / 5.0);
//! assert_eq!(c.wip(), (3.0 / 5.0) * (3.0 / 4.0));
//! ```

use std::collections::HashMap;

use hauser_core::Signature;
use rayon::prelude::*;
use serde_json::{json, Map, Value};

use crate::text::error::MetricError;
use crate::text::interface::Scale;
use crate::text::score::MetricScore;
use crate::text::significance::StatsScorer;
use crate::text::summed::SummedStats;
use crate::text::tokenizers::tokenize::is_py_space;

/// What an error rate counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Words (WER, with MER, WIL and WIP among the details).
    Word,
    /// Characters (CER).
    Char,
}

/// jiwer's word or character error rate with its default transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorRate {
    /// Words or characters.
    pub unit: Unit,
}

/// The edit operations of an alignment (jiwer's `hits`, `substitutions`, `deletions`,
/// `insertions`), of one pair or summed over a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EditCounts {
    /// Reference units the hypothesis has.
    pub hits: usize,
    /// Reference units replaced by others.
    pub substitutions: usize,
    /// Reference units missing from the hypothesis.
    pub deletions: usize,
    /// Hypothesis units not in the reference.
    pub insertions: usize,
}

impl EditCounts {
    /// Units of the reference.
    pub fn reference_len(&self) -> usize {
        self.hits + self.substitutions + self.deletions
    }

    /// Units of the hypothesis.
    pub fn hypothesis_len(&self) -> usize {
        self.hits + self.substitutions + self.insertions
    }

    fn add(&mut self, o: &EditCounts) {
        self.hits += o.hits;
        self.substitutions += o.substitutions;
        self.deletions += o.deletions;
        self.insertions += o.insertions;
    }

    /// WER (or CER): edits over reference units; the number of insertions when the reference is
    /// empty (jiwer's edge case).
    pub fn error_rate(&self) -> f64 {
        rates(self.as_f64()).0
    }

    /// Match error rate: edits over edits and hits.
    pub fn mer(&self) -> f64 {
        rates(self.as_f64()).1
    }

    /// Word information preserved.
    pub fn wip(&self) -> f64 {
        rates(self.as_f64()).2
    }

    /// Word information lost: `1 - wip`.
    pub fn wil(&self) -> f64 {
        1.0 - self.wip()
    }

    fn as_f64(&self) -> [f64; 4] {
        [
            self.hits as f64,
            self.substitutions as f64,
            self.deletions as f64,
            self.insertions as f64,
        ]
    }
}

/// (error rate, MER, WIP) of hits, substitutions, deletions and insertions, in jiwer's
/// arithmetic (`process_words`), so that summed resampled counts score as counts do.
fn rates([h, s, d, i]: [f64; 4]) -> (f64, f64, f64) {
    let (n_ref, n_hyp) = (h + s + d, h + s + i);
    if n_ref == 0.0 {
        // jiwer: the error rate of silence is the number of insertions; a correct silence
        // preserves everything.
        return if n_hyp == 0.0 {
            (i, 0.0, 1.0)
        } else {
            (i, 1.0, 0.0)
        };
    }
    let wer = (s + d + i) / (h + s + d);
    let mer = (s + d + i) / (h + s + d + i);
    let wip = if n_hyp >= 1.0 {
        (h / n_ref) * (h / n_hyp)
    } else {
        0.0
    };
    (wer, mer, wip)
}

impl ErrorRate {
    /// The word error rate (`hauser metric wer`).
    pub const WORDS: ErrorRate = ErrorRate { unit: Unit::Word };
    /// The character error rate (`hauser metric cer`).
    pub const CHARS: ErrorRate = ErrorRate { unit: Unit::Char };

    /// `wer` or `cer`.
    pub fn name(&self) -> &'static str {
        match self.unit {
            Unit::Word => "wer",
            Unit::Char => "cer",
        }
    }

    /// The units jiwer's default transform makes of a text (`wer_default`, `cer_default`).
    ///
    /// ```
    /// use figlang_metrics::text::metrics::error_rate::ErrorRate;
    /// assert_eq!(ErrorRate::WORDS.units("  a  b\tc d "), ["a", "b\tc", "d"]);
    /// assert_eq!(ErrorRate::CHARS.units(" a b "), ["a", " ", "b"]);
    /// ```
    pub fn units(&self, text: &str) -> Vec<String> {
        match self.unit {
            Unit::Word => words(text).into_iter().map(str::to_string).collect(),
            Unit::Char => text
                .trim_matches(is_py_space)
                .chars()
                .map(String::from)
                .collect(),
        }
    }

    /// The alignment counts of a hypothesis against its reference (jiwer's argument order:
    /// reference first).
    pub fn counts(&self, reference: &str, hypothesis: &str) -> EditCounts {
        let (r, h) = match self.unit {
            Unit::Word => ids(&words(reference), &words(hypothesis)),
            Unit::Char => {
                let chars = |t: &str| -> Vec<u32> {
                    t.trim_matches(is_py_space).chars().map(u32::from).collect()
                };
                (chars(reference), chars(hypothesis))
            }
        };
        let ops = alignment(&r, &h);
        EditCounts {
            hits: r.len() - ops.substitutions - ops.deletions,
            ..ops
        }
    }

    /// The summed counts of a corpus (`refs[i]`: the reference of `hyps[i]`), computed in
    /// parallel; the sums are integers, the same in any order, and no per-segment list is kept.
    pub fn corpus_counts<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
        &self,
        hyps: &[H],
        refs: &[R],
    ) -> EditCounts {
        hyps.par_iter()
            .zip(refs.par_iter())
            .map(|(h, r)| self.counts(r.as_ref(), h.as_ref()))
            .reduce(EditCounts::default, |mut a, b| {
                a.add(&b);
                a
            })
    }

    /// The signature: jiwer's release and transform.
    pub fn signature(&self) -> Signature {
        Signature::new(self.name(), crate::VERSION)
            .with("compat", "jiwer-4.0.0")
            .with("nrefs", 1)
            .with(
                "transform",
                match self.unit {
                    Unit::Word => "wer_default",
                    Unit::Char => "cer_default",
                },
            )
    }
}

/// `wer_default`: `RemoveMultipleSpaces` (a run of two or more Python whitespace characters
/// becomes one space), `Strip`, then the pieces between single spaces that are not empty.
fn words(text: &str) -> Vec<&str> {
    // Only a run of two or more whitespace characters changes; a single one stays what it
    // is, and only a space separates words.
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let run = is_py_space(c) && chars.peek().is_some_and(|&(_, n)| is_py_space(n));
        if c == ' ' || run {
            if let Some(s) = start.take() {
                out.push(&text[s..i]);
            }
            while run && chars.peek().is_some_and(|&(_, n)| is_py_space(n)) {
                chars.next();
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    // `Strip` removes whitespace at the ends that no space or run separated (a lone tab
    // before the first word or after the last).
    out.into_iter()
        .map(|w| w.trim_matches(is_py_space))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The words of two texts as integers, equal where the words are (jiwer's `_word2int`).
fn ids<'a>(reference: &[&'a str], hypothesis: &[&'a str]) -> (Vec<u32>, Vec<u32>) {
    let mut table: HashMap<&'a str, u32> = HashMap::new();
    let mut id = |w: &'a str| -> u32 {
        let next = table.len() as u32;
        *table.entry(w).or_insert(next)
    };
    let r = reference.iter().map(|&w| id(w)).collect();
    let h = hypothesis.iter().map(|&w| id(w)).collect();
    (r, h)
}

/// The substitutions, deletions and insertions of rapidfuzz's alignment of `a` (the reference)
/// to `b` (`Levenshtein.editops(a, b)` without a score hint); hits are left at zero.
pub fn alignment(a: &[u32], b: &[u32]) -> EditCounts {
    let mut ops = EditCounts::default();
    align(a, b, a.len().max(b.len()), &mut ops);
    ops
}

/// rapidfuzz's `levenshtein_align_hirschberg`: `max` bounds the distance of `a` to `b`.
fn align(a: &[u32], b: &[u32], max: usize, ops: &mut EditCounts) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    let max = max.min(a.len().max(b.len()));
    let full_band = a.len().min(2 * max + 1);
    // rapidfuzz's test of a bit matrix too large to keep (1 MiB).
    let matrix_bytes = 2 * full_band * b.len() / 8;
    if matrix_bytes < 1024 * 1024 || a.len() < 65 || b.len() < 10 {
        backtrace(a, b, max, ops);
        return;
    }
    // Hirschberg: split `b` in the middle and `a` where the two halves' distances sum to the
    // least, the first such column (rapidfuzz keeps the first strict minimum).
    let half = b.len() / 2;
    let left = last_row(a.iter(), b[..half].iter());
    let right = last_row(a.iter().rev(), b[half..].iter().rev());
    let n = a.len();
    let (mut mid, mut best) = (0, usize::MAX);
    for (i, l) in left.iter().enumerate() {
        let sum = *l as usize + right[n - i] as usize;
        if sum < best {
            (mid, best) = (i, sum);
        }
    }
    align(&a[..mid], &b[..half], left[mid] as usize, ops);
    align(&a[mid..], &b[half..], right[n - mid] as usize, ops);
}

/// The distances of every prefix of `a` to the whole of `b` (the last row of the matrix).
fn last_row<'a>(
    a: impl Iterator<Item = &'a u32> + Clone,
    b: impl Iterator<Item = &'a u32>,
) -> Vec<u32> {
    let a: Vec<u32> = a.copied().collect();
    let mut row: Vec<u32> = (0..=a.len() as u32).collect();
    for (r, y) in b.enumerate() {
        let mut diag = row[0];
        row[0] = r as u32 + 1;
        for (c, x) in a.iter().enumerate() {
            let up = row[c + 1];
            row[c + 1] = (up + 1).min(row[c] + 1).min(diag + u32::from(x != y));
            diag = up;
        }
    }
    row
}

/// The distance matrix of `a` (columns) against `b` (rows), kept in the diagonal band where
/// the alignment can pass: a cell off the band costs more than `max` + 2, and the backtrace
/// reads only cells within 2 of an optimal path's.
struct Matrix {
    n: usize,
    band: Option<usize>,
    cells: Vec<u32>,
}

const FAR: u32 = u32::MAX / 2;

impl Matrix {
    fn new(a: &[u32], b: &[u32], max: usize) -> Matrix {
        let (n, m) = (a.len(), b.len());
        let w = max + 2;
        let band = (2 * w + 1 < n + 1).then_some(w);
        let width = band.map_or(n + 1, |w| 2 * w + 1);
        let mut mx = Matrix {
            n,
            band,
            cells: vec![FAR; width * (m + 1)],
        };
        for r in 0..=m {
            let (lo, hi) = mx.columns(r);
            for c in lo..=hi {
                let v = if r == 0 {
                    c as u32
                } else if c == 0 {
                    r as u32
                } else {
                    let diag = mx.get(c - 1, r - 1) + u32::from(a[c - 1] != b[r - 1]);
                    (mx.get(c - 1, r) + 1).min(mx.get(c, r - 1) + 1).min(diag)
                };
                if let Some(i) = mx.index(c, r) {
                    mx.cells[i] = v;
                }
            }
        }
        mx
    }

    /// The columns of row `r` kept.
    fn columns(&self, r: usize) -> (usize, usize) {
        match self.band {
            None => (0, self.n),
            Some(w) => (r.saturating_sub(w), (r + w).min(self.n)),
        }
    }

    fn index(&self, c: usize, r: usize) -> Option<usize> {
        match self.band {
            None => Some(r * (self.n + 1) + c),
            Some(w) => {
                let (lo, hi) = self.columns(r);
                (lo..=hi)
                    .contains(&c)
                    .then(|| r * (2 * w + 1) + (c + w - r))
            }
        }
    }

    fn get(&self, c: usize, r: usize) -> u32 {
        self.index(c, r).map_or(FAR, |i| self.cells[i])
    }

    /// `D[c][r] - D[c-1][r]`: rapidfuzz's vertical delta bits (`VP` for 1, `VN` for -1).
    fn delta(&self, c: usize, r: usize) -> i64 {
        i64::from(self.get(c, r)) - i64::from(self.get(c - 1, r))
    }
}

/// rapidfuzz's `recover_alignment` over the distance matrix.
fn backtrace(a: &[u32], b: &[u32], max: usize, ops: &mut EditCounts) {
    if a.is_empty() || b.is_empty() {
        ops.deletions += a.len();
        ops.insertions += b.len();
        return;
    }
    let d = Matrix::new(a, b, max);
    let (mut col, mut row) = (a.len(), b.len());
    while row > 0 && col > 0 {
        if d.delta(col, row) == 1 {
            ops.deletions += 1;
            col -= 1;
        } else {
            row -= 1;
            if row > 0 && d.delta(col, row) == -1 {
                ops.insertions += 1;
            } else {
                col -= 1;
                if a[col] != b[row] {
                    ops.substitutions += 1;
                }
            }
        }
    }
    ops.deletions += col;
    ops.insertions += row;
}

impl SummedStats for ErrorRate {
    type Stats = EditCounts;

    fn segment_stats(&self, hyp: &str, refs: &[&str]) -> EditCounts {
        self.counts(refs.first().copied().unwrap_or(""), hyp)
    }
    fn corpus_stats(&self, hyps: &[String], refs: &[Vec<&str>]) -> EditCounts {
        let first: Vec<&str> = refs
            .iter()
            .map(|r| r.first().copied().unwrap_or(""))
            .collect();
        self.corpus_counts(hyps, &first)
    }
    fn score_from_stats(&self, stats: &EditCounts) -> f64 {
        stats.error_rate()
    }
    fn scale(&self) -> Scale {
        Scale::Unit
    }
    fn lower_is_better(&self) -> bool {
        true
    }
    fn check_references(&self, n_lists: usize) -> Result<(), MetricError> {
        if n_lists == 1 {
            Ok(())
        } else {
            Err(MetricError::input(
                self.name(),
                format!(
                    "reads one reference per hypothesis, as jiwer does ({n_lists} reference lists given)"
                ),
            ))
        }
    }
    fn corpus(&self, hyps: &[String], refs: &[Vec<&str>]) -> Result<MetricScore, MetricError> {
        if hyps.len() != refs.len() {
            return Err(MetricError::input(
                self.name(),
                format!("{} hypotheses for {} references", hyps.len(), refs.len()),
            ));
        }
        self.check_references(refs.iter().map(Vec::len).max().unwrap_or(1))?;
        let total = SummedStats::corpus_stats(self, hyps, refs);
        Ok(MetricScore::new(total.error_rate(), self.signature()))
    }
    fn corpus_signature(&self, _n_refs: usize) -> Signature {
        self.signature()
    }
    fn sentence_signature(&self, _n_refs: usize) -> Signature {
        self.signature()
    }
    fn details(&self, stats: &EditCounts, score: f64) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("score".into(), json!(score));
        m.insert(self.name().into(), json!(stats.error_rate()));
        if self.unit == Unit::Word {
            m.insert("mer".into(), json!(stats.mer()));
            m.insert("wil".into(), json!(stats.wil()));
            m.insert("wip".into(), json!(stats.wip()));
        }
        m.insert("hits".into(), json!(stats.hits));
        m.insert("substitutions".into(), json!(stats.substitutions));
        m.insert("deletions".into(), json!(stats.deletions));
        m.insert("insertions".into(), json!(stats.insertions));
        m
    }
    fn stats_row(&self, stats: EditCounts) -> Vec<f64> {
        stats.as_f64().to_vec()
    }
}

/// The resampling tests draw rows of (hits, substitutions, deletions, insertions) and score
/// their sums as counts are scored.
impl StatsScorer for ErrorRate {
    fn score(&self, sums: &[f64]) -> f64 {
        let at = |k: usize| sums.get(k).copied().unwrap_or(0.0);
        rates([at(0), at(1), at(2), at(3)]).0
    }
    fn stats_len(&self) -> Option<usize> {
        Some(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook dynamic programme, to check the distances the alignment implies.
    fn distance(a: &[u32], b: &[u32]) -> usize {
        *last_row(a.iter(), b.iter()).last().unwrap() as usize
    }

    #[test]
    fn the_alignment_is_minimal_and_consistent() {
        let mut seed = 7u64;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % k) as u32
        };
        for _ in 0..300 {
            let (n, m) = (next(90) as usize, next(90) as usize);
            let a: Vec<u32> = (0..n).map(|_| next(4)).collect();
            let b: Vec<u32> = (0..m).map(|_| next(4)).collect();
            let ops = alignment(&a, &b);
            assert_eq!(
                ops.substitutions + ops.deletions + ops.insertions,
                distance(&a, &b)
            );
            assert_eq!(n + ops.insertions, m + ops.deletions);
        }
    }

    #[test]
    fn a_band_gives_the_full_matrix_alignment() {
        // Long, nearly equal sequences: the banded matrix (small max) and the full one agree.
        let a: Vec<u32> = (0..300).map(|i| (i * 7 % 5) as u32).collect();
        let mut b = a.clone();
        b[40] = 9;
        b.remove(150);
        b.insert(220, 3);
        let mut banded = EditCounts::default();
        backtrace(&a, &b, 3, &mut banded);
        let mut full = EditCounts::default();
        backtrace(&a, &b, 300, &mut full);
        assert_eq!(banded, full);
    }

    #[test]
    fn words_follow_the_default_transform() {
        assert_eq!(words(" a  b \t c\td\u{a0}e "), ["a", "b", "c\td\u{a0}e"]);
        assert_eq!(words("\ta b\t"), ["a", "b"]);
        assert!(words(" \t\n ").is_empty());
        assert_eq!(words("a\u{1c}\u{1c}b"), ["a", "b"]);
    }

    #[test]
    fn empty_references_score_their_insertions() {
        let c = ErrorRate::WORDS.counts("", "a b");
        assert_eq!((c.error_rate(), c.mer(), c.wip()), (2.0, 1.0, 0.0));
        let c = ErrorRate::WORDS.counts(" ", "");
        assert_eq!(
            (c.error_rate(), c.mer(), c.wip(), c.wil()),
            (0.0, 0.0, 1.0, 0.0)
        );
        let c = ErrorRate::WORDS.counts("a b", "");
        assert_eq!((c.error_rate(), c.mer(), c.wip()), (1.0, 1.0, 0.0));
    }
}
