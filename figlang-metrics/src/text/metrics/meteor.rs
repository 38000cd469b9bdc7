//! METEOR compatible with NLTK's `meteor_score` (NLTK 3.10.4): exact, Porter-stem and
//! WordNet-synonym matching stages, parameters alpha 0.9, beta 3, gamma 0.5 (NLTK's defaults;
//! any others as NLTK's keyword arguments), chunk penalty,
//! maximum over references. Inputs are tokenized with NLTK's `word_tokenize` and lowercased.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use hauser_core::Signature;

use crate::text::error::MetricError;
use crate::text::lexical::wordnet::WordNet;
use crate::text::score::MetricScore;
use crate::text::tokenizers::porter;
use crate::text::tokenizers::tokenize::NltkTokenizer;

/// Which NLTK release's METEOR to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum MeteorVersion {
    /// NLTK 3.10.4.
    #[default]
    Current,
    /// NLTK 3.4.5 (what the formality paper used): whitespace tokens of the lowercased
    /// strings; its stem stage leaves the stem-matched words in play, so the WordNet stage can
    /// match them again (counted twice), on unstemmed words; `morphy` retries its rules.
    V345,
}

/// METEOR settings and the WordNet database.
#[derive(Debug)]
pub struct Meteor {
    wordnet: WordNet,
    /// Precision/recall balance (0.9).
    pub alpha: f64,
    /// Fragmentation exponent (3).
    pub beta: f64,
    /// Fragmentation weight (0.5).
    pub gamma: f64,
    /// Tokenizer for [`Meteor::sentence`] (NLTK 3.10.4 METEOR only).
    pub tokenizer: NltkTokenizer,
    /// Which NLTK release.
    pub version: MeteorVersion,
}

type Enum = Vec<(usize, String)>;

/// How the error of an overflowing fragmentation penalty starts (NLTK's `OverflowError`).
pub const OVERFLOW: &str = "numerical result out of range";

/// NLTK's `_match_enums`: right-to-left over the hypothesis, each word takes the last free
/// identical reference word.
fn match_enums(hyp: Enum, reference: Enum) -> (Vec<(usize, usize)>, Enum, Enum) {
    let mut positions: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, (_, w)) in reference.iter().enumerate() {
        positions.entry(w.as_str()).or_default().push(j);
    }
    let mut matches = Vec::new();
    let (mut mh, mut mr) = (HashSet::new(), HashSet::new());
    for i in (0..hyp.len()).rev() {
        if let Some(j) = positions.get_mut(hyp[i].1.as_str()).and_then(Vec::pop) {
            mh.insert(i);
            mr.insert(j);
            matches.push((hyp[i].0, reference[j].0));
        }
    }
    let h = hyp
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !mh.contains(i))
        .map(|(_, p)| p)
        .collect();
    let r = reference
        .into_iter()
        .enumerate()
        .filter(|(j, _)| !mr.contains(j))
        .map(|(_, p)| p)
        .collect();
    (matches, h, r)
}

fn count_chunks(matches: &[(usize, usize)]) -> usize {
    let mut chunks = 1;
    for w in matches.windows(2) {
        if !(w[1].0 == w[0].0 + 1 && w[1].1 == w[0].1 + 1) {
            chunks += 1;
        }
    }
    chunks
}

impl Meteor {
    /// METEOR with NLTK's defaults, reading WordNet from `wordnet_dir`.
    ///
    /// # Errors
    /// [`MetricError::WordNetMissing`] when the database is not there.
    pub fn new(wordnet_dir: impl AsRef<Path>) -> Result<Self, MetricError> {
        Ok(Self {
            wordnet: WordNet::open(wordnet_dir)?,
            alpha: 0.9,
            beta: 3.0,
            gamma: 0.5,
            tokenizer: NltkTokenizer::Current,
            version: MeteorVersion::Current,
        })
    }

    /// The signature.
    pub fn signature(&self, nrefs: usize) -> Signature {
        let (compat, tok) = match self.version {
            MeteorVersion::Current => ("nltk-3.10.4", self.tokenizer.to_string()),
            MeteorVersion::V345 => ("nltk-3.4.5", "lowercase+whitespace".to_string()),
        };
        Signature::new("meteor", crate::VERSION)
            .with("compat", compat)
            .with("tok", tok)
            .with("case", "lc")
            .with("stages", "exact+porter+wordnet-3.0")
            .with("alpha", self.alpha)
            .with("beta", self.beta)
            .with("gamma", self.gamma)
            .with("nrefs", nrefs)
            .with("multiref", "max")
    }

    fn wordnet_match(&self, hyp: Enum, reference: Enum) -> Vec<(usize, usize)> {
        let mut positions: HashMap<String, Vec<usize>> = HashMap::new();
        for (j, (_, w)) in reference.iter().enumerate() {
            positions.entry(w.clone()).or_default().push(j);
        }
        let mut matches = Vec::new();
        for i in (0..hyp.len()).rev() {
            let word = &hyp[i].1;
            let mut syns: HashSet<String> = self
                .wordnet
                .synset_lemma_names(word)
                .into_iter()
                .filter(|n| !n.contains('_'))
                .collect();
            syns.insert(word.clone());
            let mut best: Option<(usize, &String)> = None;
            for s in &syns {
                if let Some(&last) = positions.get(s).and_then(|p| p.last()) {
                    if best.is_none_or(|(b, _)| last > b) {
                        best = Some((last, s));
                    }
                }
            }
            if let Some((j, w)) = best {
                if let Some(p) = positions.get_mut(w) {
                    p.pop();
                }
                matches.push((hyp[i].0, reference[j].0));
            }
        }
        matches
    }

    /// NLTK 3.4.5's WordNet stage: each hypothesis word (right to left) takes the rightmost
    /// reference word among its synonyms.
    fn wordnet_match_345(&self, mut hyp: Enum, mut reference: Enum) -> Vec<(usize, usize)> {
        let mut matches = Vec::new();
        for i in (0..hyp.len()).rev() {
            let mut syns: HashSet<String> = self
                .wordnet
                .synset_lemma_names_nltk345(&hyp[i].1)
                .into_iter()
                .filter(|n| !n.contains('_'))
                .collect();
            syns.insert(hyp[i].1.clone());
            if let Some(j) = (0..reference.len())
                .rev()
                .find(|&j| syns.contains(&reference[j].1))
            {
                matches.push((hyp[i].0, reference[j].0));
                hyp.remove(i);
                reference.remove(j);
            }
        }
        matches
    }

    /// NLTK `single_meteor_score(reference, hypothesis)` on tokens; NaN where NLTK's
    /// `frag_frac ** beta` overflows (its `OverflowError`; a very negative `beta`).
    pub fn single_tokens<S: AsRef<str>>(&self, reference: &[S], hyp: &[S]) -> f64 {
        self.checked_tokens(reference, hyp).unwrap_or(f64::NAN)
    }

    /// [`Meteor::single_tokens`], with NLTK's overflow an error.
    fn checked_tokens<S: AsRef<str>>(
        &self,
        reference: &[S],
        hyp: &[S],
    ) -> Result<f64, MetricError> {
        let h: Enum = hyp
            .iter()
            .map(|w| w.as_ref().to_lowercase())
            .enumerate()
            .collect();
        let r: Enum = reference
            .iter()
            .map(|w| w.as_ref().to_lowercase())
            .enumerate()
            .collect();
        let (hl, rl) = (h.len(), r.len());
        let (mut matches, h, r) = match_enums(h, r);
        let stem =
            |e: Enum| -> Enum { e.into_iter().map(|(i, w)| (i, porter::stem(&w))).collect() };
        if self.version == MeteorVersion::V345 {
            let (stem_matches, _, _) = match_enums(stem(h.clone()), stem(r.clone()));
            matches.extend(stem_matches);
            matches.extend(self.wordnet_match_345(h, r));
        } else {
            let (stem_matches, h, r) = match_enums(stem(h), stem(r));
            matches.extend(stem_matches);
            matches.extend(self.wordnet_match(h, r));
        }
        matches.sort_by_key(|m| m.0);
        let m = matches.len() as f64;
        if hl == 0 || rl == 0 || matches.is_empty() {
            return Ok(0.0);
        }
        let precision = m / hl as f64;
        let recall = m / rl as f64;
        let denominator = self.alpha * precision + (1.0 - self.alpha) * recall;
        // NLTK returns 0 where its division raises ZeroDivisionError (an alpha outside 0..1).
        if denominator == 0.0 {
            return Ok(0.0);
        }
        let fmean = precision * recall / denominator;
        let frag = count_chunks(&matches) as f64 / m;
        let power = frag.powf(self.beta);
        if !power.is_finite() {
            return Err(MetricError::input(
                "meteor",
                format!(
                    "{OVERFLOW}: the fragmentation {frag} to the power beta {}",
                    self.beta
                ),
            ));
        }
        Ok((1.0 - self.gamma * power) * fmean)
    }

    /// NLTK `meteor_score(references, hypothesis)` on raw strings (tokenized here).
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] without references, and where NLTK's `frag_frac ** beta`
    /// overflows for one of them (its `OverflowError`; a very negative `beta`): the message
    /// starts with [`OVERFLOW`].
    pub fn sentence<R: AsRef<str>>(
        &self,
        hyp: &str,
        refs: &[R],
    ) -> Result<MetricScore, MetricError> {
        let tok = |s: &str| -> Vec<String> {
            match self.version {
                MeteorVersion::Current => self.tokenizer.tokenize(s),
                MeteorVersion::V345 => {
                    crate::text::tokenizers::tokenize::py_split(&s.to_lowercase())
                        .map(str::to_string)
                        .collect()
                }
            }
        };
        let h = tok(hyp);
        let best = refs
            .iter()
            .map(|r| self.checked_tokens(&tok(r.as_ref()), &h))
            .try_fold(None, |acc: Option<f64>, s| {
                let s = s?;
                Ok::<_, MetricError>(Some(acc.map_or(s, |a| a.max(s))))
            })?
            .ok_or_else(|| MetricError::input("meteor", "no reference"))?;
        Ok(MetricScore::new(best, self.signature(refs.len())))
    }
}
