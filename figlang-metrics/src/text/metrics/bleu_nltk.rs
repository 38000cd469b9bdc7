//! Sentence and corpus BLEU compatible with NLTK's `nltk.translate.bleu_score`
//! (`sentence_bleu`, `corpus_bleu`, the eight methods of `SmoothingFunction`, `auto_reweigh`).
//!
//! Scores are on the 0-1 scale. NLTK computes some smoothed precisions with exact fractions;
//! this port uses `f64`, which agrees to about 1e-15 (golden tests use 1e-9).

use std::fmt;
use std::str::FromStr;

use hauser_core::Signature;

use super::ngram::{clipped_matches, fsum, ngram_counts};
use crate::text::error::MetricError;
use crate::text::score::MetricScore;
use crate::text::tokenizers::tokenize::NltkTokenizer;

/// NLTK's `SmoothingFunction().methodN` (Chen and Cherry, 2014).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Smoothing {
    /// No smoothing: a zero precision becomes the smallest positive float.
    Method0,
    /// Add epsilon (0.1) to zero-match counts (the formality paper's choice).
    #[default]
    Method1,
    /// Add one to numerator and denominator for orders above one.
    Method2,
    /// NIST geometric sequence (1/2^k for the k-th zero precision).
    Method3,
    /// Method 3 scaled by the hypothesis length (k = 5).
    Method4,
    /// Average with the neighbouring orders.
    Method5,
    /// Interpolation with the lower orders (alpha = 5); needs a non-zero trigram precision.
    Method6,
    /// Methods 4 then 5.
    Method7,
}

impl Smoothing {
    /// All methods, 0 to 7.
    pub const ALL: [Smoothing; 8] = [
        Smoothing::Method0,
        Smoothing::Method1,
        Smoothing::Method2,
        Smoothing::Method3,
        Smoothing::Method4,
        Smoothing::Method5,
        Smoothing::Method6,
        Smoothing::Method7,
    ];
}

impl fmt::Display for Smoothing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = Smoothing::ALL.iter().position(|s| s == self).unwrap_or(0);
        write!(f, "method{i}")
    }
}

impl FromStr for Smoothing {
    type Err = MetricError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits = s.strip_prefix("method").unwrap_or(s);
        digits
            .parse::<usize>()
            .ok()
            .and_then(|i| Smoothing::ALL.get(i).copied())
            .ok_or_else(|| {
                MetricError::option(
                    "sentbleu",
                    format!("unknown smoothing {s:?} (method0..method7)"),
                )
            })
    }
}

/// NLTK-compatible BLEU settings.
#[derive(Debug, Clone, PartialEq)]
pub struct NltkBleu {
    /// N-gram weights (NLTK default: four times 0.25).
    pub weights: Vec<f64>,
    /// Smoothing method (default method1, as in the formality paper).
    pub smoothing: Smoothing,
    /// NLTK's `auto_reweigh`: uniform weights over the hypothesis length when it is below 4.
    pub auto_reweigh: bool,
    /// `SmoothingFunction(epsilon)` (0.1).
    pub epsilon: f64,
    /// `SmoothingFunction(alpha)` (5).
    pub alpha: f64,
    /// `SmoothingFunction(k)` (5).
    pub k: f64,
    /// Which NLTK release's `word_tokenize` [`NltkBleu::sentence`] uses.
    pub tokenizer: NltkTokenizer,
}

impl Default for NltkBleu {
    fn default() -> Self {
        Self {
            weights: vec![0.25; 4],
            smoothing: Smoothing::Method1,
            auto_reweigh: false,
            epsilon: 0.1,
            alpha: 5.0,
            k: 5.0,
            tokenizer: NltkTokenizer::Current,
        }
    }
}

/// NLTK BLEU with its intermediate values.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NltkBleuDetails {
    /// BLEU, 0-1.
    pub score: f64,
    /// Modified n-gram precisions per order, unsmoothed (`Fraction(num, den)` as NLTK keeps
    /// them; a denominator of 0 counts as 1).
    pub precisions: Vec<f64>,
    /// Their numerators (clipped matches), summed over the corpus.
    pub p_numerators: Vec<usize>,
    /// Their denominators (hypothesis n-grams, at least 1 per segment).
    pub p_denominators: Vec<usize>,
    /// Brevity penalty.
    pub bp: f64,
    /// Hypothesis tokens.
    pub hyp_len: usize,
    /// Closest-reference tokens.
    pub ref_len: usize,
}

#[derive(Debug, Clone, Copy)]
struct Frac {
    num: usize,
    den: usize,
}

impl Frac {
    fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

fn modified_precision<S: AsRef<[String]>>(refs: &[S], hyp: &[String], n: usize) -> Frac {
    let counts = ngram_counts(hyp, n);
    let mut max_counts = std::collections::HashMap::new();
    for r in refs {
        let rc = ngram_counts(r.as_ref(), n);
        for g in counts.keys() {
            let c = rc.get(g).copied().unwrap_or(0);
            let e = max_counts.entry(*g).or_insert(0);
            *e = (*e).max(c);
        }
    }
    Frac {
        num: clipped_matches(&counts, &max_counts),
        den: counts.values().sum::<usize>().max(1),
    }
}

fn closest_ref_length<S: AsRef<[String]>>(refs: &[S], hyp_len: usize) -> usize {
    refs.iter()
        .map(|r| r.as_ref().len())
        .min_by_key(|&l| (l.abs_diff(hyp_len), l))
        .unwrap_or(0)
}

impl NltkBleu {
    /// The signature of scores computed with these settings.
    pub fn signature(&self, nrefs: usize) -> Signature {
        let w: Vec<String> = self.weights.iter().map(|w| format!("{w}")).collect();
        Signature::new("sentbleu", crate::VERSION)
            .with("compat", "nltk-3.10.4")
            .with("tok", self.tokenizer)
            .with("smooth", self.smoothing)
            .with("weights", w.join(","))
            .with("auto_reweigh", self.auto_reweigh)
            .with("case", "mixed")
            .with("nrefs", nrefs)
    }

    /// NLTK `sentence_bleu(refs, hyp)` on already tokenized text.
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] without references, or where NLTK raises (method6 needs
    /// a non-zero trigram precision and at least three weights).
    pub fn sentence_tokens<S: AsRef<[String]>>(
        &self,
        refs: &[S],
        hyp: &[String],
    ) -> Result<f64, MetricError> {
        self.corpus_tokens(std::slice::from_ref(&refs), std::slice::from_ref(&hyp))
    }

    /// Sentence BLEU of raw strings, tokenized with NLTK's `word_tokenize` (of the release
    /// chosen by [`NltkBleu::tokenizer`]).
    ///
    /// ```
    /// use figlang_metrics::text::bleu_nltk::NltkBleu;
    /// let s = NltkBleu::default().sentence("It depends on when you are ready.", &["It all depends on when you are ready."])?;
    /// assert!(s.signature.to_string().contains("smooth:method1"));
    /// assert!((s.score - 0.7673).abs() < 1e-4);   // the formality data's BLEU column
    /// # Ok::<(), figlang_metrics::text::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// As [`NltkBleu::sentence_tokens`].
    pub fn sentence<R: AsRef<str>>(
        &self,
        hyp: &str,
        refs: &[R],
    ) -> Result<MetricScore, MetricError> {
        let h = self.tokenizer.tokenize(hyp);
        let rs: Vec<Vec<String>> = refs
            .iter()
            .map(|r| self.tokenizer.tokenize(r.as_ref()))
            .collect();
        let score = self.sentence_tokens(&rs, &h)?;
        Ok(MetricScore::new(score, self.signature(refs.len())))
    }

    /// [`NltkBleu::sentence`] with NLTK's intermediate values.
    ///
    /// # Errors
    /// As [`NltkBleu::sentence_tokens`].
    pub fn sentence_details<R: AsRef<str>>(
        &self,
        hyp: &str,
        refs: &[R],
    ) -> Result<NltkBleuDetails, MetricError> {
        let h = self.tokenizer.tokenize(hyp);
        let rs: Vec<Vec<String>> = refs
            .iter()
            .map(|r| self.tokenizer.tokenize(r.as_ref()))
            .collect();
        self.corpus_details_tokens(std::slice::from_ref(&rs), std::slice::from_ref(&h))
    }

    /// NLTK `corpus_bleu` of raw strings (pooled n-gram counts and lengths, not a mean of
    /// sentence scores), tokenized as [`NltkBleu::sentence`] does; `refs[i]` holds the
    /// references of `hyps[i]`.
    ///
    /// # Errors
    /// As [`NltkBleu::corpus_tokens`].
    pub fn corpus<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> Result<NltkBleuDetails, MetricError> {
        let h: Vec<Vec<String>> = hyps
            .iter()
            .map(|x| self.tokenizer.tokenize(x.as_ref()))
            .collect();
        let r: Vec<Vec<Vec<String>>> = refs
            .iter()
            .map(|rs| {
                rs.iter()
                    .map(|x| self.tokenizer.tokenize(x.as_ref()))
                    .collect()
            })
            .collect();
        self.corpus_details_tokens(&r, &h)
    }

    /// NLTK `corpus_bleu(list_of_references, hypotheses)` on tokenized text.
    ///
    /// # Errors
    /// As [`NltkBleu::sentence_tokens`]; also when the two lists differ in length.
    pub fn corpus_tokens<S: AsRef<[String]>, L: AsRef<[S]>, H: AsRef<[String]>>(
        &self,
        list_of_refs: &[L],
        hyps: &[H],
    ) -> Result<f64, MetricError> {
        self.corpus_details_tokens(list_of_refs, hyps)
            .map(|d| d.score)
    }

    /// [`NltkBleu::corpus_tokens`] with NLTK's intermediate values: the modified precisions'
    /// numerators and denominators per order (summed over the corpus), the brevity penalty and
    /// the lengths.
    ///
    /// # Errors
    /// As [`NltkBleu::corpus_tokens`].
    pub fn corpus_details_tokens<S: AsRef<[String]>, L: AsRef<[S]>, H: AsRef<[String]>>(
        &self,
        list_of_refs: &[L],
        hyps: &[H],
    ) -> Result<NltkBleuDetails, MetricError> {
        if list_of_refs.len() != hyps.len() {
            return Err(MetricError::input(
                "sentbleu",
                format!(
                    "{} reference sets for {} hypotheses",
                    list_of_refs.len(),
                    hyps.len()
                ),
            ));
        }
        if self.weights.is_empty() {
            return Err(MetricError::option("sentbleu", "no weights"));
        }
        let max_n = self.weights.len();
        let mut nums = vec![0usize; max_n];
        let mut dens = vec![0usize; max_n];
        let (mut hyp_len, mut ref_len) = (0usize, 0usize);
        for (refs, hyp) in list_of_refs.iter().zip(hyps) {
            let (refs, hyp) = (refs.as_ref(), hyp.as_ref());
            if refs.is_empty() {
                return Err(MetricError::input(
                    "sentbleu",
                    "a hypothesis has no reference",
                ));
            }
            for n in 1..=max_n {
                let p = modified_precision(refs, hyp, n);
                nums[n - 1] += p.num;
                dens[n - 1] += p.den;
            }
            hyp_len += hyp.len();
            ref_len += closest_ref_length(refs, hyp.len());
        }
        let bp = if hyp_len > ref_len {
            1.0
        } else if hyp_len == 0 {
            0.0
        } else {
            (1.0 - ref_len as f64 / hyp_len as f64).exp()
        };
        let mut out = NltkBleuDetails {
            score: 0.0,
            precisions: nums
                .iter()
                .zip(&dens)
                .map(|(&n, &d)| Frac { num: n, den: d }.value())
                .collect(),
            p_numerators: nums.clone(),
            p_denominators: dens.clone(),
            bp,
            hyp_len,
            ref_len,
        };
        if nums[0] == 0 {
            return Ok(out);
        }
        let p_n: Vec<Frac> = nums
            .iter()
            .zip(&dens)
            .map(|(&num, &den)| Frac { num, den })
            .collect();
        // NLTK's smoothing functions see the last segment's references and hypothesis.
        let last_refs = list_of_refs.last().map(|r| r.as_ref()).unwrap_or(&[]);
        let last_hyp = hyps.last().map(|h| h.as_ref()).unwrap_or(&[]);
        let p = self.smooth(&p_n, last_refs, last_hyp, hyp_len)?;
        let mut weights = self.weights.clone();
        if self.auto_reweigh && hyp_len < 4 && weights == [0.25; 4] {
            weights = vec![1.0 / hyp_len as f64; hyp_len];
        }
        let s = fsum(
            weights
                .iter()
                .zip(&p)
                .filter(|(_, &p)| p > 0.0)
                .map(|(w, p)| w * p.ln()),
        );
        out.score = bp * s.exp();
        Ok(out)
    }

    fn smooth<S: AsRef<[String]>>(
        &self,
        p_n: &[Frac],
        refs: &[S],
        hyp: &[String],
        hyp_len: usize,
    ) -> Result<Vec<f64>, MetricError> {
        let vals = |p: &[Frac]| p.iter().map(|f| f.value()).collect::<Vec<f64>>();
        let hyp_len = if hyp_len > 0 { hyp_len } else { hyp.len() };
        Ok(match self.smoothing {
            Smoothing::Method0 => p_n
                .iter()
                .map(|f| {
                    if f.num != 0 {
                        f.value()
                    } else {
                        f64::MIN_POSITIVE
                    }
                })
                .collect(),
            Smoothing::Method1 => p_n
                .iter()
                .map(|f| {
                    if f.num == 0 {
                        (f.num as f64 + self.epsilon) / f.den as f64
                    } else {
                        f.value()
                    }
                })
                .collect(),
            Smoothing::Method2 => p_n
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    if i != 0 {
                        (f.num + 1) as f64 / (f.den + 1) as f64
                    } else {
                        f.value()
                    }
                })
                .collect(),
            Smoothing::Method3 => {
                let mut inc = 1;
                p_n.iter()
                    .map(|f| {
                        if f.num == 0 {
                            let v = 1.0 / (2f64.powi(inc) * f.den as f64);
                            inc += 1;
                            v
                        } else {
                            f.value()
                        }
                    })
                    .collect()
            }
            Smoothing::Method4 => self.method4(p_n, hyp_len),
            Smoothing::Method5 => method5(vals(p_n), refs, hyp),
            Smoothing::Method6 => self.method6(p_n, hyp)?,
            Smoothing::Method7 => method5(self.method4(p_n, hyp_len), refs, hyp),
        })
    }

    fn method4(&self, p_n: &[Frac], hyp_len: usize) -> Vec<f64> {
        let mut inc = 1;
        p_n.iter()
            .map(|f| {
                if f.num == 0 && hyp_len > 1 {
                    let numerator = 1.0 / (2f64.powi(inc) * self.k / (hyp_len as f64).ln());
                    inc += 1;
                    numerator / f.den as f64
                } else {
                    f.value()
                }
            })
            .collect()
    }

    fn method6(&self, p_n: &[Frac], hyp: &[String]) -> Result<Vec<f64>, MetricError> {
        if p_n.len() < 3 || p_n[2].num == 0 {
            return Err(MetricError::option("sentbleu", "smoothing method6 needs at least 3 weights and a non-zero trigram precision (NLTK raises here)"));
        }
        let mut p: Vec<f64> = p_n.iter().map(|f| f.value()).collect();
        for i in 2..p.len() {
            let pi0 = if p[i - 2] == 0.0 {
                0.0
            } else {
                p[i - 1] * p[i - 1] / p[i - 2]
            };
            let m = p_n[i].num as f64;
            let l = hyp.len().saturating_sub(i) as f64;
            p[i] = (m + self.alpha * pi0) / (l + self.alpha);
        }
        Ok(p)
    }
}

fn method5<S: AsRef<[String]>>(mut p: Vec<f64>, refs: &[S], hyp: &[String]) -> Vec<f64> {
    let mut plus = p.clone();
    plus.push(modified_precision(refs, hyp, 5).value());
    let mut prev = p[0] + 1.0;
    for i in 0..p.len() {
        p[i] = (prev + p[i] + plus[i + 1]) / 3.0;
        prev = p[i];
    }
    p
}
