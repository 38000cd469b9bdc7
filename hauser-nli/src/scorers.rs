//! HAUSER's logical- and sentiment-consistency criteria on top of [`SequenceClassifier`].

use std::collections::HashMap;

use hauser_core::adapter::per_group;
use hauser_core::{CandidateGroup, CoreError, Criterion, Scorer, Signature};

use crate::classify::SequenceClassifier;
use crate::error::Result;
use crate::model::LoadOptions;
use crate::packed_or_candle::PackedCpu;
use crate::source::ModelSource;

/// How the literal and the simile are fed to the NLI model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum NliInput {
    /// As a sentence pair (premise = literal, hypothesis = simile), as in the paper.
    #[default]
    Pair,
    /// As one sequence `literal + " " + simile`, as the original implementation does.
    Concatenated,
}

impl NliInput {
    /// Parses `pair` or `concat`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "pair" => Some(NliInput::Pair),
            "concat" => Some(NliInput::Concatenated),
            _ => None,
        }
    }

    /// The option value (`pair` or `concat`).
    pub fn as_str(self) -> &'static str {
        match self {
            NliInput::Pair => "pair",
            NliInput::Concatenated => "concat",
        }
    }
}

fn classifier_signature(name: &str, c: &SequenceClassifier) -> Signature {
    let m = c.model();
    Signature::new(name, crate::VERSION)
        .with("model", m.source())
        .with("revision", m.source().revision())
        .with("arch", m.model_type())
        .with("tokenizer", &m.text_encoder().origin)
        .with("max_len", m.text_encoder().max_len())
        .with("weights", m.weights_file())
        .with("kernels", m.kernels())
}

/// Logical consistency: `1 - P(contradiction | literal, simile)` from an MNLI classifier.
#[derive(Debug)]
pub struct LogicalConsistency {
    classifier: SequenceClassifier,
    input: NliInput,
    contradiction: usize,
}

impl LogicalConsistency {
    /// Wraps an MNLI classifier; the contradiction class is found by name in its labels.
    ///
    /// # Errors
    /// When the classifier has no `contradiction` label (override its labels first).
    pub fn new(classifier: SequenceClassifier, input: NliInput) -> Result<Self> {
        let contradiction = classifier.label_index("contradiction")?;
        Ok(Self {
            classifier,
            input,
            contradiction,
        })
    }

    /// Loads the classifier from `source`, with optional label names replacing `id2label`.
    ///
    /// # Errors
    /// Loading errors, a label override of the wrong length, or no `contradiction` label.
    pub fn from_model(
        source: &ModelSource,
        opts: &LoadOptions,
        labels: Option<Vec<String>>,
        input: NliInput,
    ) -> Result<Self> {
        let mut c = SequenceClassifier::load(source, opts)?;
        if let Some(l) = labels {
            c = c.with_labels(l)?;
        }
        Self::new(c, input)
    }

    /// Raw scores for `(literal, simile)` pairs, in order.
    ///
    /// # Errors
    /// Tokenizer or inference failures.
    pub fn score_pairs(&self, pairs: &[(&str, &str)]) -> Result<Vec<f64>> {
        let joined: Vec<String>;
        let inputs: Vec<(&str, Option<&str>)> = match self.input {
            NliInput::Pair => pairs.iter().map(|(l, s)| (*l, Some(*s))).collect(),
            NliInput::Concatenated => {
                joined = pairs.iter().map(|(l, s)| format!("{l} {s}")).collect();
                joined.iter().map(|t| (t.as_str(), None)).collect()
            }
        };
        let p = self.classifier.predict(&inputs)?;
        Ok(p.probs
            .iter()
            .map(|row| 1.0 - row[self.contradiction] as f64)
            .collect())
    }
}

impl Scorer for LogicalConsistency {
    fn criterion(&self) -> Criterion {
        Criterion::LogicalConsistency
    }

    fn signature(&self) -> Signature {
        classifier_signature("logical_consistency", &self.classifier)
            .with("input", self.input.as_str())
            .with("label", &self.classifier.labels()[self.contradiction])
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        // One classifier call per group (in parallel), on every device: a group's raw scores
        // then never depend on the groups beside it in a chunk (`score --chunk`), and the
        // per-literal normalisation, which magnifies differences in the last bits (issue 29:
        // up to 0.04 from raw scores 3e-8 apart), sees the same values whatever the chunking.
        per_group("logical_consistency", groups, |batch| {
            let pairs: Vec<(&str, &str)> = batch.iter().map(|c| (c.literal(), c.text())).collect();
            self.score_pairs(&pairs)
                .map_err(|e| CoreError::scorer("logical_consistency", e))
        })
    }
}

/// Sentiment consistency: with `a` the label predicted for the (cut) literal,
/// `P_simile(a) - P_literal(a)` from a sentiment classifier (SST-2).
#[derive(Debug)]
pub struct SentimentConsistency {
    classifier: SequenceClassifier,
}

impl SentimentConsistency {
    /// Wraps a sentiment classifier.
    pub fn new(classifier: SequenceClassifier) -> Self {
        Self { classifier }
    }

    /// Loads the classifier from `source`.
    ///
    /// # Errors
    /// Loading errors, named with the model.
    pub fn from_model(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        Ok(Self::new(SequenceClassifier::load(source, opts)?))
    }

    /// Raw score for each `(literal, simile)` text pair, already cut.
    ///
    /// # Errors
    /// Tokenizer or inference failures.
    pub fn score_texts(&self, pairs: &[(String, String)]) -> Result<Vec<f64>> {
        // Many candidates share a literal: classify each distinct text once.
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut uniq: Vec<&str> = Vec::new();
        for (l, s) in pairs {
            for t in [l.as_str(), s.as_str()] {
                index.entry(t).or_insert_with(|| {
                    uniq.push(t);
                    uniq.len() - 1
                });
            }
        }
        let inputs: Vec<(&str, Option<&str>)> = uniq.iter().map(|t| (*t, None)).collect();
        let probs = self.classifier.predict(&inputs)?.probs;
        Ok(pairs
            .iter()
            .map(|(l, s)| {
                let pl = &probs[index[l.as_str()]];
                let ps = &probs[index[s.as_str()]];
                let a = argmax(pl);
                ps[a] as f64 - pl[a] as f64
            })
            .collect())
    }
}

fn argmax(v: &[f32]) -> usize {
    // First maximum wins, as numpy's argmax.
    let mut best = 0;
    for (i, x) in v.iter().enumerate() {
        if *x > v[best] {
            best = i;
        }
    }
    best
}

/// The literal up to and including the first occurrence of `event`, and the simile up to the
/// end of the first occurrence of `vehicle`; a text whose part cannot be located stays whole.
pub fn cut_for_sentiment(
    literal: &str,
    simile: &str,
    event: Option<&str>,
    vehicle: Option<&str>,
) -> (String, String) {
    let cut = |text: &str, part: Option<&str>| -> String {
        part.and_then(|p| find_word(text, p))
            .map(|end| text[..end].to_string())
            .unwrap_or_else(|| text.to_string())
    };
    (cut(literal, event), cut(simile, vehicle))
}

/// Byte offset (in `text`) of the end of the first whole-word, case-insensitive match of `needle`.
///
/// Lowercasing can change a character's byte length ("İ" -> "i̇", "ẞ" -> "ß"), so offsets found
/// in the lowercased copy are mapped back through the character boundaries they came from; a
/// match that starts or ends inside one original character is not a whole-word match.
fn find_word(text: &str, needle: &str) -> Option<usize> {
    let needle = needle.trim();
    if needle.is_empty() {
        return None;
    }
    let lower = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<String>();
    let pat = lower(needle);
    let mut hay = String::with_capacity(text.len());
    // (offset in `hay`, offset in `text`) at every character boundary of `text`.
    let mut bounds = Vec::with_capacity(text.len() + 1);
    for (i, ch) in text.char_indices() {
        bounds.push((hay.len(), i));
        hay.extend(ch.to_lowercase());
    }
    bounds.push((hay.len(), text.len()));
    let original = |at: usize| {
        bounds
            .binary_search_by_key(&at, |&(h, _)| h)
            .ok()
            .map(|k| bounds[k].1)
    };
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    let mut from = 0;
    while let Some(pos) = hay[from..].find(&pat) {
        let start = from + pos;
        if let (Some(s), Some(e)) = (original(start), original(start + pat.len())) {
            if boundary(text[..s].chars().next_back()) && boundary(text[e..].chars().next()) {
                return Some(e);
            }
        }
        from = start + hay[start..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

impl Scorer for SentimentConsistency {
    fn criterion(&self) -> Criterion {
        Criterion::SentimentConsistency
    }

    fn signature(&self) -> Signature {
        classifier_signature("sentiment_consistency", &self.classifier)
            .with("cut", "first-event/first-vehicle")
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        per_group("sentiment_consistency", groups, |batch| {
            let pairs: Vec<(String, String)> = batch
                .iter()
                .map(|c| {
                    let first = c.candidate.components.as_ref().and_then(|v| v.first());
                    cut_for_sentiment(
                        c.literal(),
                        c.text(),
                        first.and_then(|f| f.event.as_deref()),
                        first.and_then(|f| f.vehicle.as_deref()),
                    )
                })
                .collect();
            self.score_texts(&pairs)
                .map_err(|e| CoreError::scorer("sentiment_consistency", e))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_after_first_event_and_vehicle() {
        let (l, s) = cut_for_sentiment(
            "He ran and ran home.",
            "He ran like the wind and smiled like a child.",
            Some("ran"),
            Some("the wind"),
        );
        assert_eq!(l, "He ran");
        assert_eq!(s, "He ran like the wind");
    }

    #[test]
    fn falls_back_to_whole_sentences() {
        let (l, s) = cut_for_sentiment("He ran.", "He sprinted like a deer.", Some("walked"), None);
        assert_eq!(l, "He ran.");
        assert_eq!(s, "He sprinted like a deer.");
        // Whole words only: "ran" does not match inside "orange".
        let (l, _) = cut_for_sentiment("An orange ran.", "x", Some("ran"), None);
        assert_eq!(l, "An orange ran");
    }

    #[test]
    fn cuts_text_whose_lowercase_changes_byte_lengths() {
        // "İ" lowercases to 3 bytes and "ẞ" to 2: the total length is unchanged, the offsets
        // inside are not (this used to slice inside "€" and panic).
        let (l, s) = cut_for_sentiment("İran€ẞ", "İran€ẞ ran", Some("ẞ"), Some("ran"));
        assert_eq!(l, "İran€ẞ");
        assert_eq!(s, "İran€ẞ ran");
        let (l, _) = cut_for_sentiment("İSTANBUL runs far", "x", Some("runs"), None);
        assert_eq!(l, "İSTANBUL runs");
        let (l, _) = cut_for_sentiment("Das Maß GROẞ ist", "x", Some("groß"), None);
        assert_eq!(l, "Das Maß GROẞ");
    }

    proptest::proptest! {
        #[test]
        fn cut_never_panics_and_returns_a_prefix(
            text in "\\PC{0,24}",
            part in proptest::option::of("\\PC{0,6}"),
        ) {
            let (l, s) = cut_for_sentiment(&text, &text, part.as_deref(), part.as_deref());
            proptest::prop_assert!(text.starts_with(&l));
            proptest::prop_assert_eq!(l, s);
        }

        #[test]
        fn cut_of_a_present_word_keeps_it(
            before in "[a-zİẞß€ ]{0,8}",
            word in "[a-zA-ZİẞßΣ]{1,5}",
            after in "[a-z€ ]{0,8}",
        ) {
            let text = format!("{before} {word} {after}");
            let (l, _) = cut_for_sentiment(&text, "", Some(&word), None);
            let lower = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<String>();
            proptest::prop_assert!(text.starts_with(&l));
            proptest::prop_assert!(lower(&l).ends_with(&lower(&word)), "{l:?} {word:?}");
        }
    }

    #[test]
    fn argmax_takes_first_maximum() {
        assert_eq!(argmax(&[0.5, 0.5]), 0);
        assert_eq!(argmax(&[0.1, 0.9]), 1);
    }
}
