//! Diversity of a set of generations: Distinct-n and Self-BLEU.
//!
//! - Distinct-n (Li et al., 2016): distinct n-grams / all n-grams over the whole set of
//!   generations (corpus level), on NLTK `word_tokenize` tokens; 0 when there is no n-gram.
//! - Self-BLEU (Zhu et al., 2018, Texygen): each generation scored with NLTK sentence BLEU
//!   (uniform 4-gram weights, smoothing method1) against all the others as references;
//!   the corpus value is the mean. Lower means more diverse.

use std::collections::HashSet;

use hauser_core::Signature;

use super::bleu_nltk::NltkBleu;
use crate::text::error::MetricError;
use crate::text::score::MetricScore;
use crate::text::tokenizers::tokenize::NltkTokenizer;

/// Distinct-n settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Distinct {
    /// N-gram order.
    pub n: usize,
    /// Tokenizer.
    pub tokenizer: NltkTokenizer,
}

impl Distinct {
    /// Distinct-n with NLTK 3.10.4 tokens.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            tokenizer: NltkTokenizer::Current,
        }
    }

    /// The signature.
    pub fn signature(&self, level: &str) -> Signature {
        Signature::new(format!("distinct{}", self.n), crate::VERSION)
            .with("tok", self.tokenizer)
            .with("case", "mixed")
            .with("level", level)
    }

    fn counts<S: AsRef<str>>(&self, texts: &[S]) -> (usize, usize) {
        let mut seen: HashSet<Vec<String>> = HashSet::new();
        let mut total = 0;
        for t in texts {
            let toks = self.tokenizer.tokenize(t.as_ref());
            if self.n > 0 && toks.len() >= self.n {
                for w in toks.windows(self.n) {
                    total += 1;
                    seen.insert(w.to_vec());
                }
            }
        }
        (seen.len(), total)
    }

    /// Corpus-level Distinct-n of `texts`.
    ///
    /// ```
    /// use figlang_metrics::text::diversity::Distinct;
    /// let d = Distinct::new(1).corpus(&["the cat", "the dog"])?;
    /// assert_eq!(d.score, 0.75);   // {the, cat, dog} / 4 tokens
    /// # Ok::<(), figlang_metrics::text::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// [`MetricError::InvalidOption`] for `n = 0`.
    pub fn corpus<S: AsRef<str>>(&self, texts: &[S]) -> Result<MetricScore, MetricError> {
        if self.n == 0 {
            return Err(MetricError::option("distinct", "n must be at least 1"));
        }
        let (distinct, total) = self.counts(texts);
        let score = if total == 0 {
            0.0
        } else {
            distinct as f64 / total as f64
        };
        Ok(MetricScore::new(score, self.signature("corpus")))
    }

    /// Distinct-n of one text.
    ///
    /// # Errors
    /// As [`Distinct::corpus`].
    pub fn sentence(&self, text: &str) -> Result<MetricScore, MetricError> {
        let mut s = self.corpus(&[text])?;
        s.signature = self.signature("sentence");
        Ok(s)
    }
}

/// Self-BLEU of a set of generations.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfBleu {
    /// Sentence BLEU settings (default: NLTK defaults with method1).
    pub bleu: NltkBleu,
}

impl SelfBleu {
    /// The signature.
    pub fn signature(&self, n: usize) -> Signature {
        let mut sig = self.bleu.signature(n.saturating_sub(1));
        sig.name = "selfbleu".into();
        sig.with("agg", "mean")
    }

    /// Self-BLEU of each generation against all the others.
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] with fewer than two generations; BLEU errors.
    pub fn per_text<S: AsRef<str>>(&self, texts: &[S]) -> Result<Vec<f64>, MetricError> {
        if texts.len() < 2 {
            return Err(MetricError::input(
                "selfbleu",
                "needs at least two generations",
            ));
        }
        let toks: Vec<Vec<String>> = texts
            .iter()
            .map(|t| self.bleu.tokenizer.tokenize(t.as_ref()))
            .collect();
        (0..toks.len())
            .map(|i| {
                let refs: Vec<&Vec<String>> = toks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, t)| t)
                    .collect();
                self.bleu.sentence_tokens(&refs, &toks[i])
            })
            .collect()
    }

    /// Mean Self-BLEU.
    ///
    /// ```
    /// use figlang_metrics::text::diversity::SelfBleu;
    /// let same = SelfBleu::default().corpus(&["a b c d e", "a b c d e"])?;
    /// assert!((same.score - 1.0).abs() < 1e-12);
    /// # Ok::<(), figlang_metrics::text::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// As [`SelfBleu::per_text`].
    pub fn corpus<S: AsRef<str>>(&self, texts: &[S]) -> Result<MetricScore, MetricError> {
        let v = self.per_text(texts)?;
        Ok(MetricScore::new(
            v.iter().sum::<f64>() / v.len() as f64,
            self.signature(texts.len()),
        ))
    }
}
