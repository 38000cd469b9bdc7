//! ROUGE-1/2/L/Lsum in two flavours:
//! - [`RougeScore`]: Google's `rouge-score` 0.1.2 (`RougeScorer`): lowercased ASCII
//!   alphanumeric tokens, n-gram counts, token-level LCS, summary-level union LCS for
//!   `rougeLsum` (sentences split on newlines); multiple references: the one with the best F.
//! - [`PltrdyRouge`]: the `rouge` package 1.0.1 (pltrdy) that the formality and narratives papers
//!   used: sentences split on `.`, whitespace tokens, *sets* of n-grams, summary-level LCS as a
//!   union of word sets, `F = 2PR / (P + R + 1e-8)`.
//!
//! `use_stemmer` applies NLTK's Porter stemmer ([`crate::text::tokenizers::porter`]) to tokens longer than three
//! characters, as rouge-score does.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use hauser_core::Signature;

use crate::text::error::MetricError;
use crate::text::score::MetricScore;

/// Which ROUGE variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RougeType {
    /// Unigram overlap.
    Rouge1,
    /// Bigram overlap.
    Rouge2,
    /// Longest common subsequence.
    RougeL,
    /// Summary-level LCS over sentences (rouge-score only; pltrdy's ROUGE-L is already
    /// summary-level).
    RougeLsum,
}

impl fmt::Display for RougeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RougeType::Rouge1 => "rouge1",
            RougeType::Rouge2 => "rouge2",
            RougeType::RougeL => "rougeL",
            RougeType::RougeLsum => "rougeLsum",
        })
    }
}

impl FromStr for RougeType {
    type Err = MetricError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rouge1" | "rouge-1" => Ok(RougeType::Rouge1),
            "rouge2" | "rouge-2" => Ok(RougeType::Rouge2),
            "rougeL" | "rouge-l" => Ok(RougeType::RougeL),
            "rougeLsum" => Ok(RougeType::RougeLsum),
            other => Err(MetricError::option(
                "rouge",
                format!("unknown ROUGE type {other:?}"),
            )),
        }
    }
}

/// Precision, recall and F-measure.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prf {
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F-measure (F1).
    pub fmeasure: f64,
}

fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// `rouge-score` 0.1.2 settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RougeScore {
    /// Porter stemming of tokens longer than 3 characters.
    pub use_stemmer: bool,
    /// ROUGE-Lsum: split summaries into sentences with NLTK's Punkt (`sent_tokenize`) rather
    /// than at newlines (`RougeScorer(split_summaries=True)`).
    pub split_summaries: bool,
}

/// rouge-score's tokenizer: lowercase, non-`[a-z0-9]` runs become spaces.
pub fn rouge_score_tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in lower.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn lcs_table<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Vec<u32>> {
    let mut t = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            t[i][j] = if a[i - 1] == b[j - 1] {
                t[i - 1][j - 1] + 1
            } else {
                t[i - 1][j].max(t[i][j - 1])
            };
        }
    }
    t
}

/// rouge-score's `_backtrack_norec`: indices into `a` of one LCS.
fn lcs_indices<T: PartialEq>(a: &[T], b: &[T]) -> Vec<usize> {
    let t = lcs_table(a, b);
    let (mut i, mut j) = (a.len(), b.len());
    let mut out = Vec::new();
    while i > 0 && j > 0 {
        if a[i - 1] == b[j - 1] {
            out.push(i - 1);
            i -= 1;
            j -= 1;
        } else if t[i][j - 1] > t[i - 1][j] {
            j -= 1;
        } else {
            i -= 1;
        }
    }
    out.reverse();
    out
}

fn ngram_counts(tokens: &[String], n: usize) -> HashMap<&[String], usize> {
    let mut m = HashMap::new();
    if tokens.len() >= n {
        for w in tokens.windows(n) {
            *m.entry(w).or_insert(0) += 1;
        }
    }
    m
}

impl RougeScore {
    /// The signature.
    pub fn signature(&self, kind: RougeType, nrefs: usize) -> Signature {
        let sig = Signature::new(kind.to_string(), crate::VERSION)
            .with("compat", "rouge-score-0.1.2")
            .with("stem", if self.use_stemmer { "porter" } else { "no" });
        // Only ROUGE-Lsum reads sentences.
        let sig = if kind == RougeType::RougeLsum {
            sig.with(
                "split",
                if self.split_summaries {
                    "punkt"
                } else {
                    "newline"
                },
            )
        } else {
            sig
        };
        sig.with("tok", "rouge-score")
            .with("case", "lc")
            .with("nrefs", nrefs)
            .with("multiref", "max-f")
    }

    /// rouge-score's `DefaultTokenizer(use_stemmer).tokenize(text)`: the tokens every ROUGE
    /// type of these settings reads.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        let toks = rouge_score_tokens(text);
        if !self.use_stemmer {
            return toks;
        }
        // rouge-score stems, then keeps tokens that are still `^[a-z0-9]+$`.
        toks.into_iter()
            .map(|t| {
                if t.chars().count() > 3 {
                    crate::text::tokenizers::porter::stem(&t)
                } else {
                    t
                }
            })
            .filter(|t| {
                !t.is_empty()
                    && t.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
            .collect()
    }

    /// P/R/F of `prediction` against one `target`.
    ///
    /// # Errors
    /// None today; kept fallible for future options.
    pub fn score_pair(
        &self,
        kind: RougeType,
        target: &str,
        prediction: &str,
    ) -> Result<Prf, MetricError> {
        Ok(match kind {
            RougeType::Rouge1 | RougeType::Rouge2 => {
                let n = if kind == RougeType::Rouge1 { 1 } else { 2 };
                let (t, p) = (self.tokens(target), self.tokens(prediction));
                let (tc, pc) = (ngram_counts(&t, n), ngram_counts(&p, n));
                let inter: usize = tc
                    .iter()
                    .map(|(g, &c)| c.min(pc.get(g).copied().unwrap_or(0)))
                    .sum();
                let precision = inter as f64 / pc.values().sum::<usize>().max(1) as f64;
                let recall = inter as f64 / tc.values().sum::<usize>().max(1) as f64;
                Prf {
                    precision,
                    recall,
                    fmeasure: f1(precision, recall),
                }
            }
            RougeType::RougeL => {
                let (t, p) = (self.tokens(target), self.tokens(prediction));
                if t.is_empty() || p.is_empty() {
                    return Ok(Prf::default());
                }
                let l = lcs_table(&t, &p)[t.len()][p.len()] as f64;
                let (precision, recall) = (l / p.len() as f64, l / t.len() as f64);
                Prf {
                    precision,
                    recall,
                    fmeasure: f1(precision, recall),
                }
            }
            RougeType::RougeLsum => {
                let sents = |s: &str| -> Vec<Vec<String>> {
                    let parts: Vec<&str> = if self.split_summaries {
                        crate::text::tokenizers::punkt::PunktModel::english().sentences(s)
                    } else {
                        s.split('\n').collect()
                    };
                    parts
                        .into_iter()
                        .filter(|x| !x.is_empty())
                        .map(|x| self.tokens(x))
                        .collect()
                };
                summary_lcs(&sents(target), &sents(prediction))
            }
        })
    }

    /// Sentence ROUGE F-measure (0-1) against the best of several references
    /// (`score_multi`: the reference with the highest F, the first on ties).
    ///
    /// ```
    /// use figlang_metrics::text::rouge::{RougeScore, RougeType};
    /// let s = RougeScore::default().sentence(RougeType::Rouge1, "the cat sat", &["the cat sat down"])?;
    /// assert!((s.score - 6.0 / 7.0).abs() < 1e-12);
    /// # Ok::<(), figlang_metrics::text::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] without references; as [`RougeScore::score_pair`].
    pub fn sentence<R: AsRef<str>>(
        &self,
        kind: RougeType,
        hyp: &str,
        refs: &[R],
    ) -> Result<MetricScore, MetricError> {
        let prf = self.best(kind, hyp, refs)?;
        Ok(MetricScore::new(
            prf.fmeasure,
            self.signature(kind, refs.len()),
        ))
    }

    /// P/R/F of the reference with the best F-measure.
    ///
    /// # Errors
    /// As [`RougeScore::sentence`].
    pub fn best<R: AsRef<str>>(
        &self,
        kind: RougeType,
        hyp: &str,
        refs: &[R],
    ) -> Result<Prf, MetricError> {
        let mut best: Option<Prf> = None;
        for r in refs {
            let s = self.score_pair(kind, r.as_ref(), hyp)?;
            if best.is_none_or(|b| s.fmeasure > b.fmeasure) {
                best = Some(s);
            }
        }
        best.ok_or_else(|| MetricError::input("rouge", "no reference"))
    }
}

fn summary_lcs(refs: &[Vec<String>], cands: &[Vec<String>]) -> Prf {
    let m: usize = refs.iter().map(Vec::len).sum();
    let n: usize = cands.iter().map(Vec::len).sum();
    if refs.is_empty() || cands.is_empty() || m == 0 || n == 0 {
        return Prf::default();
    }
    let mut cnt_r: HashMap<&str, usize> = HashMap::new();
    let mut cnt_c: HashMap<&str, usize> = HashMap::new();
    for t in refs.iter().flatten() {
        *cnt_r.entry(t).or_insert(0) += 1;
    }
    for t in cands.iter().flatten() {
        *cnt_c.entry(t).or_insert(0) += 1;
    }
    let mut hits = 0usize;
    for r in refs {
        let mut union: Vec<usize> = cands.iter().flat_map(|c| lcs_indices(r, c)).collect();
        union.sort_unstable();
        union.dedup();
        for i in union {
            let t = r[i].as_str();
            let (c, rr) = (
                cnt_c.get(t).copied().unwrap_or(0),
                cnt_r.get(t).copied().unwrap_or(0),
            );
            if c > 0 && rr > 0 {
                hits += 1;
                cnt_c.insert(t, c - 1);
                cnt_r.insert(t, rr - 1);
            }
        }
    }
    let (recall, precision) = (hits as f64 / m as f64, hits as f64 / n as f64);
    Prf {
        precision,
        recall,
        fmeasure: f1(precision, recall),
    }
}

/// Release of the `rouge` package (pltrdy) to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PltrdyVersion {
    /// 1.0.1: ROUGE-L F = 2PR / (P + R + 1e-8).
    #[default]
    V1_0_1,
    /// 0.3.x: ROUGE-L F-beta with beta = P / R (what the formality paper's numbers show).
    V0_3_2,
}

/// Which ROUGE implementation to reproduce (`--rouge-impl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RougeImpl {
    /// Google's rouge-score 0.1.2.
    #[default]
    RougeScore,
    /// pltrdy's rouge 1.0.1.
    Pltrdy,
    /// pltrdy's rouge 0.3.2 (the formality paper's).
    Pltrdy032,
}

impl RougeImpl {
    /// The name the command line and the Python keyword take.
    pub fn as_str(self) -> &'static str {
        match self {
            RougeImpl::RougeScore => "rouge-score",
            RougeImpl::Pltrdy => "pltrdy",
            RougeImpl::Pltrdy032 => "pltrdy-0.3.2",
        }
    }
}

impl FromStr for RougeImpl {
    type Err = MetricError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rouge-score" => Ok(RougeImpl::RougeScore),
            "pltrdy" => Ok(RougeImpl::Pltrdy),
            "pltrdy-0.3.2" => Ok(RougeImpl::Pltrdy032),
            other => Err(MetricError::option(
                "rouge",
                format!("unknown implementation {other:?} (rouge-score, pltrdy, pltrdy-0.3.2)"),
            )),
        }
    }
}

/// The `rouge` package (pltrdy), default settings (`exclusive=True`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PltrdyRouge {
    /// Which release's ROUGE-L formula.
    pub version: PltrdyVersion,
    /// Tokenize hypothesis and reference with NLTK's `word_tokenize` (joined by spaces) first,
    /// as the formality paper did; `None` gives the package's own whitespace split.
    pub pretokenize: Option<crate::text::tokenizers::tokenize::NltkTokenizer>,
}

fn pltrdy_sentences(text: &str) -> Vec<String> {
    text.split('.')
        .filter(|s| !s.is_empty())
        .map(|s| {
            crate::text::tokenizers::tokenize::py_split(s)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn pltrdy_words(sents: &[String]) -> Vec<&str> {
    sents.iter().flat_map(|s| s.split(' ')).collect()
}

/// pltrdy's `_recon_lcs`: the words of one LCS of `x` (reference) and `y` (hypothesis).
fn recon_lcs<'a>(x: &[&'a str], y: &[&str]) -> Vec<&'a str> {
    let t = lcs_table(x, y);
    let (mut i, mut j) = (x.len(), y.len());
    let mut out = Vec::new();
    while i > 0 && j > 0 {
        if x[i - 1] == y[j - 1] {
            out.push(x[i - 1]);
            i -= 1;
            j -= 1;
        } else if t[i - 1][j] > t[i][j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    out
}

impl PltrdyRouge {
    /// The signature.
    pub fn signature(&self, kind: RougeType, nrefs: usize) -> Signature {
        let version = match self.version {
            PltrdyVersion::V1_0_1 => "rouge-pltrdy-1.0.1",
            PltrdyVersion::V0_3_2 => "rouge-pltrdy-0.3.2",
        };
        let tok = match self.pretokenize {
            None => "split-on-period-and-space".to_string(),
            Some(t) => format!("{t}+split-on-period-and-space"),
        };
        Signature::new(kind.to_string(), crate::VERSION)
            .with("compat", version)
            .with("tok", tok)
            .with("case", "mixed")
            .with("nrefs", nrefs)
            .with("multiref", "max-f")
    }

    /// `Rouge().get_scores(hyp, ref)` for one pair.
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] where pltrdy raises: a hypothesis or reference with no
    /// text between periods; [`MetricError::InvalidOption`] for `rougeLsum`.
    pub fn score_pair(
        &self,
        kind: RougeType,
        hyp: &str,
        reference: &str,
    ) -> Result<Prf, MetricError> {
        let (hyp, reference) = match self.pretokenize {
            None => (hyp.to_string(), reference.to_string()),
            Some(t) => (t.tokenize(hyp).join(" "), t.tokenize(reference).join(" ")),
        };
        let h = pltrdy_sentences(&hyp);
        let r = pltrdy_sentences(&reference);
        if h.is_empty() {
            return Err(MetricError::input("rouge (pltrdy)", "hypothesis is empty"));
        }
        if r.is_empty() {
            return Err(MetricError::input("rouge (pltrdy)", "reference is empty"));
        }
        let (hw, rw) = (pltrdy_words(&h), pltrdy_words(&r));
        let (hyp_n, ref_n, overlap) = match kind {
            RougeType::Rouge1 | RougeType::Rouge2 => {
                let n = if kind == RougeType::Rouge1 { 1 } else { 2 };
                let set = |w: &[&str]| -> HashSet<Vec<String>> {
                    if w.len() < n {
                        return HashSet::new();
                    }
                    w.windows(n)
                        .map(|g| g.iter().map(|s| s.to_string()).collect())
                        .collect()
                };
                let (hs, rs) = (set(&hw), set(&rw));
                (hs.len(), rs.len(), hs.intersection(&rs).count())
            }
            RougeType::RougeL => {
                let m: HashSet<&str> = rw.iter().copied().collect();
                let n: HashSet<&str> = hw.iter().copied().collect();
                let mut union: HashSet<&str> = HashSet::new();
                for rs in &r {
                    let rwords: Vec<&str> = rs.split(' ').collect();
                    for hs in &h {
                        let hwords: Vec<&str> = hs.split(' ').collect();
                        union.extend(recon_lcs(&rwords, &hwords));
                    }
                }
                (n.len(), m.len(), union.len())
            }
            RougeType::RougeLsum => {
                return Err(MetricError::option(
                    "rouge (pltrdy)",
                    "rougeLsum is a rouge-score type; pltrdy's rouge-l is summary-level already",
                ));
            }
        };
        let p = if hyp_n == 0 {
            0.0
        } else {
            overlap as f64 / hyp_n as f64
        };
        let rc = if ref_n == 0 {
            0.0
        } else {
            overlap as f64 / ref_n as f64
        };
        let f = if kind == RougeType::RougeL && self.version == PltrdyVersion::V0_3_2 {
            let beta = p / (rc + 1e-12);
            (1.0 + beta * beta) * rc * p / (rc + beta * beta * p + 1e-12)
        } else {
            2.0 * (p * rc / (p + rc + 1e-8))
        };
        Ok(Prf {
            precision: p,
            recall: rc,
            fmeasure: f,
        })
    }

    /// F-measure against the best of several references.
    ///
    /// # Errors
    /// As [`PltrdyRouge::score_pair`]; without references.
    pub fn sentence<R: AsRef<str>>(
        &self,
        kind: RougeType,
        hyp: &str,
        refs: &[R],
    ) -> Result<MetricScore, MetricError> {
        let mut best: Option<f64> = None;
        for r in refs {
            let f = self.score_pair(kind, hyp, r.as_ref())?.fmeasure;
            best = Some(best.map_or(f, |b: f64| b.max(f)));
        }
        let f = best.ok_or_else(|| MetricError::input("rouge (pltrdy)", "no reference"))?;
        Ok(MetricScore::new(f, self.signature(kind, refs.len())))
    }
}
