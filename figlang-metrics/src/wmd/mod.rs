//! Word Mover's Distance (Kusner et al. 2015) with gensim 4.4's semantics
//! (`KeyedVectors.wmdistance`, which the formality-transfer paper called on `nltk.word_tokenize`
//! tokens of each output and its reference, with the GoogleNews word2vec vectors).
//!
//! What gensim computes, and [`wmdistance`] reproduces:
//! 1. tokens without a vector are dropped (exact, case-sensitive match);
//! 2. a side left with no token gives `inf`;
//! 3. when the two sides together hold a single distinct word the distance is 0;
//! 4. each distinct word's vector is divided by its norm (`norm=True`, gensim's default; in
//!    `f32`, as NumPy does) and the Euclidean distances between the two sides' words are taken in
//!    `f64` (SciPy's `cdist`);
//! 5. when those distances sum to less than 1e-8 (every word of one side has the same direction
//!    as every word of the other) gensim gives up and returns `inf`, and so does this;
//! 6. the distance is the exact earth mover's distance between the normalised bags of words
//!    (count / length) under those costs ([`mod@emd`]). Mass of a word found on both sides stays in
//!    place first (optimal for a metric cost), so the transport problem solved is only what
//!    differs between the two documents.
//!
//! A zero vector has no direction: with `norm`, its components are NaN, as in gensim, and so is
//! the distance.
//!
//! ```
//! use figlang_metrics::wmd::{wmdistance, WordVectors};
//! let v = WordVectors::from_pairs(2, [
//!     ("cat", &[1.0f32, 0.0][..]),
//!     ("dog", &[0.0, 1.0][..]),
//! ]);
//! // Every unit of "cat" travels to "dog": |(1,0) - (0,1)| = sqrt(2).
//! let d = wmdistance(&v, &["cat"], &["dog"], true);
//! assert!((d - 2f64.sqrt()).abs() < 1e-12);
//! assert_eq!(wmdistance(&v, &["cat", "cat"], &["cat"], true), 0.0);
//! assert_eq!(wmdistance(&v, &["cat"], &["unknown"], true), f64::INFINITY);
//! ```

pub mod emd;
pub mod vectors;

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::text::error::MetricError;
use crate::text::tokenizers::tokenize::NltkTokenizer;
use hauser_core::Signature;

pub use emd::{emd, EmdError};
pub use vectors::{detect_format, VectorError, VectorFormat, WordVectors};

/// One side of a WMD problem: its distinct known words in first-seen order, their counts, their
/// vectors (normalised when asked) in one flat buffer, and the number of known tokens.
struct Side<'a> {
    words: Vec<&'a str>,
    counts: Vec<u64>,
    vectors: Vec<f32>,
    len: u64,
}

impl<'a> Side<'a> {
    /// Out-of-vocabulary tokens are dropped; each distinct word is looked up once.
    fn new(store: &WordVectors, doc: &[&'a str], norm: bool) -> Self {
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(doc.len());
        let mut side = Side {
            words: Vec::new(),
            counts: Vec::new(),
            vectors: Vec::new(),
            len: 0,
        };
        for &t in doc {
            if let Some(&i) = seen.get(t) {
                if i != usize::MAX {
                    side.counts[i] += 1;
                    side.len += 1;
                }
                continue;
            }
            let found = if norm {
                store.extend_normalized(t, &mut side.vectors)
            } else {
                store
                    .get(t)
                    .map(|v| side.vectors.extend_from_slice(v))
                    .is_some()
            };
            if found {
                seen.insert(t, side.words.len());
                side.words.push(t);
                side.counts.push(1);
                side.len += 1;
            } else {
                seen.insert(t, usize::MAX);
            }
        }
        side
    }
}

/// Euclidean distance in `f64` of two `f32` vectors (SciPy's `cdist(..., 'euclidean')`), with
/// eight running sums so that the loop vectorises; the order of the additions differs from
/// SciPy's by rounding only (about 1e-16 relative).
fn euclidean(a: &[f32], b: &[f32]) -> f64 {
    let mut acc = [0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(&x, &y)| (f64::from(x) - f64::from(y)).powi(2))
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            let d = f64::from(x[k]) - f64::from(y[k]);
            acc[k] += d * d;
        }
    }
    (acc.iter().sum::<f64>() + tail).sqrt()
}

/// gensim's `wmdistance(doc1, doc2, norm)` on tokens (see the module documentation).
pub fn wmdistance(vectors: &WordVectors, doc1: &[&str], doc2: &[&str], norm: bool) -> f64 {
    let (a, b) = (
        Side::new(vectors, doc1, norm),
        Side::new(vectors, doc2, norm),
    );
    if a.len == 0 || b.len == 0 {
        return f64::INFINITY;
    }
    if a.words.len() == 1 && b.words.len() == 1 && a.words[0] == b.words[0] {
        return 0.0;
    }
    let dim = vectors.dim().max(1);
    let (va, vb): (Vec<&[f32]>, Vec<&[f32]>) = (
        a.vectors.chunks_exact(dim).collect(),
        b.vectors.chunks_exact(dim).collect(),
    );
    // A zero vector normalises to NaN: gensim's costs, and its result, are then NaN.
    if va.iter().chain(&vb).any(|v| v.iter().any(|x| x.is_nan())) {
        return f64::NAN;
    }
    // Weights count/len1 and count/len2, scaled by len1 * len2 to integers.
    let (len1, len2) = (a.len, b.len);
    let mut supply: Vec<u64> = a.counts.iter().map(|&c| c * len2).collect();
    let mut demand: Vec<u64> = b.counts.iter().map(|&c| c * len1).collect();
    // A word on both sides keeps what it can in place at cost 0: with a metric ground distance
    // some optimal plan does (moving it away and something else in never costs less, by the
    // triangle inequality), so only the rest is a transport problem, usually a small one.
    let position: HashMap<&str, usize> = b.words.iter().enumerate().map(|(j, w)| (*w, j)).collect();
    for (i, w) in a.words.iter().enumerate() {
        if let Some(&j) = position.get(w) {
            let stay = supply[i].min(demand[j]);
            supply[i] -= stay;
            demand[j] -= stay;
        }
    }
    let rows: Vec<usize> = (0..supply.len()).filter(|&i| supply[i] > 0).collect();
    let cols: Vec<usize> = (0..demand.len()).filter(|&j| demand[j] > 0).collect();
    let mut cost = Vec::with_capacity(rows.len() * cols.len());
    for &i in &rows {
        for &j in &cols {
            cost.push(euclidean(va[i], vb[j]));
        }
    }
    // gensim: `if abs(np_sum(distance_matrix)) < 1e-8: return inf`, over every pair of words;
    // the pairs not computed above are added only while the sum is still below the threshold.
    let mut total: f64 = cost.iter().sum();
    'pairs: for (i, x) in va.iter().enumerate() {
        for (j, y) in vb.iter().enumerate() {
            if total >= 1e-8 {
                break 'pairs;
            }
            if !(supply[i] > 0 && demand[j] > 0) {
                total += euclidean(x, y);
            }
        }
    }
    if total < 1e-8 {
        return f64::INFINITY;
    }
    if rows.is_empty() {
        return 0.0;
    }
    let supply: Vec<u64> = rows.iter().map(|&i| supply[i]).collect();
    let demand: Vec<u64> = cols.iter().map(|&j| demand[j]).collect();
    match emd(&supply, &demand, &cost) {
        Ok(work) => work / (len1 as f64 * len2 as f64),
        // Balanced by construction (what stays is taken from both sides), costs finite and >= 0.
        Err(_) => f64::NAN,
    }
}

/// How [`Wmd`] splits a line into tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WmdTokenizer {
    /// NLTK `word_tokenize` (the paper's choice), of the given release.
    Nltk(NltkTokenizer),
    /// Split on white space: for text that is already tokenised.
    Whitespace,
}

impl WmdTokenizer {
    fn tokenize(self, text: &str) -> Vec<String> {
        match self {
            WmdTokenizer::Nltk(t) => t.tokenize(text),
            WmdTokenizer::Whitespace => text.split_whitespace().map(str::to_string).collect(),
        }
    }

    fn name(self) -> String {
        match self {
            // The tokenizer's own name already says `nltk-<version>-word_tokenize`.
            WmdTokenizer::Nltk(t) => t.to_string(),
            WmdTokenizer::Whitespace => "none".into(),
        }
    }
}

/// WMD of hypothesis lines against reference lines, with loaded vectors (shared, so that one
/// load serves many scorers and threads).
#[derive(Debug, Clone)]
pub struct Wmd {
    /// The word vectors.
    pub vectors: Arc<WordVectors>,
    /// What the signature calls the vectors (e.g. the file name).
    pub vectors_name: String,
    /// Tokenisation of each line.
    pub tokenizer: WmdTokenizer,
    /// Normalise vectors to unit length first (gensim's default).
    pub norm: bool,
}

impl Wmd {
    /// The distance between one hypothesis and one reference.
    pub fn sentence(&self, hyp: &str, reference: &str) -> f64 {
        let (h, r) = (
            self.tokenizer.tokenize(hyp),
            self.tokenizer.tokenize(reference),
        );
        let h: Vec<&str> = h.iter().map(String::as_str).collect();
        let r: Vec<&str> = r.iter().map(String::as_str).collect();
        wmdistance(&self.vectors, &h, &r, self.norm)
    }

    /// One distance per hypothesis: against its reference, or the smallest over several
    /// reference lists. Lower is better; `inf` where a side has no word with a vector.
    ///
    /// # Errors
    /// [`MetricError`] when there is no reference list or one is not line-aligned.
    pub fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        if refs.is_empty() {
            return Err(MetricError::input(
                "wmd",
                "needs at least one reference list",
            ));
        }
        if let Some((k, r)) = refs.iter().enumerate().find(|(_, r)| r.len() != hyps.len()) {
            return Err(MetricError::input(
                "wmd",
                format!(
                    "reference list {} has {} lines for {} hypotheses",
                    k + 1,
                    r.len(),
                    hyps.len()
                ),
            ));
        }
        Ok(hyps
            .par_iter()
            .enumerate()
            .map(|(i, h)| {
                refs.iter()
                    .map(|r| self.sentence(h, &r[i]))
                    .reduce(|a, b| {
                        if a.is_nan() || b.is_nan() {
                            f64::NAN
                        } else {
                            a.min(b)
                        }
                    })
                    .unwrap_or(f64::INFINITY)
            })
            .collect())
    }

    /// The signature of the distances: vectors, their size, tokenizer, normalisation.
    pub fn signature(&self, n_refs: usize) -> Signature {
        Signature::new("wmd", crate::VERSION)
            .with("ref", "gensim-4.4.0+pot-0.9.7")
            .with("vectors", &self.vectors_name)
            .with("vocab", self.vectors.len())
            .with("dim", self.vectors.dim())
            .with("tok", self.tokenizer.name())
            .with("norm", if self.norm { "yes" } else { "no" })
            .with("nrefs", n_refs)
            .with("multiref", "min")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_names_carry_the_nltk_prefix_once() {
        // Issue 29: the signature said `tok:nltk-nltk-3.10.4-word_tokenize`.
        assert_eq!(
            WmdTokenizer::Nltk(NltkTokenizer::Current).name(),
            "nltk-3.10.4-word_tokenize"
        );
        assert_eq!(
            WmdTokenizer::Nltk(NltkTokenizer::V345).name(),
            "nltk-3.4.5-word_tokenize"
        );
        assert_eq!(WmdTokenizer::Whitespace.name(), "none");
    }
}
