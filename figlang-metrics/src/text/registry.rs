//! One interface over the text metrics ([`TextMetric`]) and a registry that builds them by name
//! ([`metric_by_name`]) from one set of options ([`TextMetricOptions`]).
//!
//! References are given as reference lists, each line-aligned with the hypotheses (the shape of
//! `--ref` files): `refs[k][i]` is the `k`-th reference of hypothesis `i`.
//!
//! ```
//! use figlang_metrics::text::registry::{metric_by_name, TextMetricOptions};
//! let hyps = vec!["the cat sat on the mat".to_string()];
//! let refs = vec![vec!["the cat sat on the mat".to_string()]];
//! let bleu = metric_by_name("bleu", &TextMetricOptions::default())?;
//! let corpus = bleu.corpus_score(&hyps, &refs)?;
//! assert!((corpus.score - 100.0).abs() < 1e-9);
//! assert_eq!(bleu.scale().as_str(), "0-100");
//! assert!(corpus.signature.to_string().starts_with("bleu|"));
//! let sentence = bleu.sentence_scores(&hyps, &refs)?; // sentence scores are 0-1
//! assert!((sentence[0] - 1.0).abs() < 1e-9);
//! # Ok::<(), figlang_metrics::text::MetricError>(())
//! ```

use std::fmt;
use std::path::PathBuf;

use hauser_core::Signature;

use super::bleu_nltk::{NltkBleu, Smoothing};
use super::bleu_sacre::{SacreBleu, SacreSmoothing};
use super::chrf::Chrf;
use super::diversity::{Distinct, SelfBleu};
use super::error::MetricError;
use super::meteor::{Meteor, MeteorVersion};
use super::rouge::{PltrdyRouge, PltrdyVersion, RougeScore, RougeType};
use super::score::MetricScore;
use super::tokenize::NltkTokenizer;

/// The names [`metric_by_name`] knows, in the order `hauser metric` lists them.
pub const NAMES: [&str; 13] = [
    "bleu",
    "sentbleu",
    "chrf",
    "chrf++",
    "rouge1",
    "rouge2",
    "rougeL",
    "rougeLsum",
    "meteor",
    "distinct1",
    "distinct2",
    "selfbleu",
    "distinct3",
];

/// The scale of a corpus score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scale {
    /// 0 to 1.
    Unit,
    /// 0 to 100 (sacreBLEU's BLEU and chrF).
    Percent,
}

impl Scale {
    /// `0-1` or `0-100`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scale::Unit => "0-1",
            Scale::Percent => "0-100",
        }
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text metric of hypotheses against reference lists.
pub trait TextMetric: Send + Sync + fmt::Debug {
    /// The registry name, e.g. `bleu`, `chrf++`, `rougeL`.
    fn name(&self) -> &str;

    /// The scale of [`TextMetric::corpus_score`]; sentence scores are 0-1 (see
    /// [`TextMetric::sentence_scores`] for the one exception).
    fn scale(&self) -> Scale;

    /// False for the diversity metrics, which read the hypotheses only.
    fn needs_references(&self) -> bool {
        true
    }

    /// The signature of the corpus score of `n_hyps` hypotheses against `n_refs` reference lists.
    fn signature(&self, n_hyps: usize, n_refs: usize) -> Signature;

    /// One score per hypothesis, on the 0-1 scale. The exception is METEOR with NLTK 3.4.5
    /// ([`MeteorVersion::V345`]): that release counts some stem matches twice, and its scores,
    /// reproduced as it computes them, can exceed 1 (up to 2).
    ///
    /// # Errors
    /// Reference lists not aligned with the hypotheses, missing references, metric failures.
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError>;

    /// The corpus score, on [`TextMetric::scale`], with its signature.
    ///
    /// # Errors
    /// As [`TextMetric::sentence_scores`].
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError>;
}

/// Settings of the metrics built by [`metric_by_name`]. A setting is read (and, for the textual
/// ones, parsed) only by the metrics it concerns, so a setting meant for another metric is
/// never an error.
#[derive(Debug, Clone, PartialEq)]
pub struct TextMetricOptions {
    /// bleu: sacreBLEU tokenizer (`13a`, `intl`, `none`).
    pub sacre_tokenizer: String,
    /// bleu: `exp` (default), `floor`, `add-k`, `none`; sentbleu: `method0`..`method7`
    /// (default `method1`).
    pub smoothing: Option<String>,
    /// bleu, chrf: lowercase first.
    pub lowercase: bool,
    /// sentbleu, meteor, selfbleu, distinct, pltrdy ROUGE: the NLTK release to reproduce
    /// (for meteor, 3.4.5 also selects that release's algorithm).
    pub nltk: NltkTokenizer,
    /// ROUGE implementation: `rouge-score` (Google), `pltrdy` (rouge 1.0.1) or `pltrdy-0.3.2`.
    pub rouge_impl: String,
    /// pltrdy ROUGE: tokenize with NLTK `word_tokenize` first.
    pub rouge_pretokenize: bool,
    /// meteor: the WordNet 3.0 database directory.
    pub wordnet: PathBuf,
}

impl Default for TextMetricOptions {
    fn default() -> Self {
        Self {
            sacre_tokenizer: "13a".into(),
            smoothing: None,
            lowercase: false,
            nltk: NltkTokenizer::Current,
            rouge_impl: "rouge-score".into(),
            rouge_pretokenize: false,
            wordnet: PathBuf::from("/usr/share/wordnet"),
        }
    }
}

/// Builds the metric called `name` (one of [`NAMES`]) with `options`.
///
/// # Errors
/// [`MetricError::UnknownMetric`] for another name; [`MetricError::InvalidOption`] for a
/// setting the metric cannot parse; [`MetricError::WordNetMissing`] for meteor without WordNet.
pub fn metric_by_name(
    name: &str,
    options: &TextMetricOptions,
) -> Result<Box<dyn TextMetric>, MetricError> {
    let o = options;
    Ok(match name {
        "bleu" => {
            let smoothing: SacreSmoothing = o.smoothing.as_deref().unwrap_or("exp").parse()?;
            let corpus = SacreBleu {
                tokenizer: o.sacre_tokenizer.parse()?,
                lowercase: o.lowercase,
                smoothing,
                ..SacreBleu::default()
            };
            Box::new(Bleu { corpus })
        }
        "sentbleu" => Box::new(Averaged {
            name: "sentbleu",
            kind: Sentence::NltkBleu(NltkBleu {
                smoothing: o
                    .smoothing
                    .as_deref()
                    .unwrap_or("method1")
                    .parse::<Smoothing>()?,
                tokenizer: o.nltk,
                ..NltkBleu::default()
            }),
        }),
        "chrf" | "chrf++" => {
            let base = if name == "chrf" {
                Chrf::default()
            } else {
                Chrf::plus_plus()
            };
            Box::new(ChrfMetric {
                name: if name == "chrf" { "chrf" } else { "chrf++" },
                cfg: Chrf {
                    lowercase: o.lowercase,
                    ..base
                },
            })
        }
        "rouge1" | "rouge2" | "rougeL" | "rougeLsum" => {
            let rouge_type: RougeType = name.parse()?;
            let imp = match o.rouge_impl.as_str() {
                "rouge-score" => Rouge::Google(RougeScore::default()),
                "pltrdy" | "pltrdy-0.3.2" => Rouge::Pltrdy(PltrdyRouge {
                    version: if o.rouge_impl == "pltrdy" {
                        PltrdyVersion::V1_0_1
                    } else {
                        PltrdyVersion::V0_3_2
                    },
                    pretokenize: o.rouge_pretokenize.then_some(o.nltk),
                }),
                other => {
                    return Err(MetricError::option(
                        "rouge",
                        format!(
                            "unknown implementation {other:?} (rouge-score, pltrdy, pltrdy-0.3.2)"
                        ),
                    ))
                }
            };
            Box::new(Averaged {
                name: rouge_name(rouge_type),
                kind: Sentence::Rouge(rouge_type, imp),
            })
        }
        "meteor" => {
            let mut m = Meteor::new(&o.wordnet)?;
            m.tokenizer = o.nltk;
            if o.nltk == NltkTokenizer::V345 {
                m.version = MeteorVersion::V345;
            }
            Box::new(Averaged {
                name: "meteor",
                kind: Sentence::Meteor(Box::new(m)),
            })
        }
        "distinct1" | "distinct2" | "distinct3" => {
            let (name, n) = match name {
                "distinct1" => ("distinct1", 1),
                "distinct2" => ("distinct2", 2),
                _ => ("distinct3", 3),
            };
            Box::new(DistinctMetric {
                name,
                cfg: Distinct {
                    n,
                    tokenizer: o.nltk,
                },
            })
        }
        "selfbleu" => Box::new(SelfBleuMetric {
            cfg: SelfBleu {
                bleu: NltkBleu {
                    tokenizer: o.nltk,
                    ..NltkBleu::default()
                },
            },
        }),
        other => {
            return Err(MetricError::UnknownMetric {
                name: other.to_string(),
                known: NAMES.join(", "),
            })
        }
    })
}

fn rouge_name(t: RougeType) -> &'static str {
    match t {
        RougeType::Rouge1 => "rouge1",
        RougeType::Rouge2 => "rouge2",
        RougeType::RougeL => "rougeL",
        RougeType::RougeLsum => "rougeLsum",
    }
}

/// The references of each hypothesis (`per_hyp[i][k] = refs[k][i]`), after checking that every
/// list is line-aligned with the hypotheses and, when `required`, that there is one.
fn per_hyp_refs<'a>(
    metric: &str,
    hyps: &[String],
    refs: &'a [Vec<String>],
    required: bool,
) -> Result<Vec<Vec<&'a str>>, MetricError> {
    if required && refs.is_empty() {
        return Err(MetricError::input(
            metric,
            "needs at least one reference list",
        ));
    }
    if let Some((k, r)) = refs.iter().enumerate().find(|(_, r)| r.len() != hyps.len()) {
        return Err(MetricError::input(
            metric,
            format!(
                "reference list {} has {} lines for {} hypotheses",
                k + 1,
                r.len(),
                hyps.len()
            ),
        ));
    }
    Ok((0..hyps.len())
        .map(|i| refs.iter().map(|r| r[i].as_str()).collect())
        .collect())
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// sacreBLEU BLEU: corpus BLEU (0-100); sentence scores with effective order, divided by 100.
#[derive(Debug, Clone)]
struct Bleu {
    corpus: SacreBleu,
}

impl TextMetric for Bleu {
    fn name(&self) -> &str {
        "bleu"
    }
    fn scale(&self) -> Scale {
        Scale::Percent
    }
    fn signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.corpus.signature(n_refs)
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        let per = per_hyp_refs("bleu", hyps, refs, true)?;
        let sentence = SacreBleu {
            effective_order: true,
            ..self.corpus.clone()
        };
        hyps.iter()
            .zip(&per)
            .map(|(h, r)| sentence.sentence(h, r).map(|s| s.score / 100.0))
            .collect()
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let per = per_hyp_refs("bleu", hyps, refs, true)?;
        self.corpus.corpus(hyps, &per)
    }
}

/// chrF / chrF++: corpus chrF (0-100); sentence scores on sacreBLEU 1.x's 0-1 scale.
#[derive(Debug, Clone)]
struct ChrfMetric {
    name: &'static str,
    cfg: Chrf,
}

impl TextMetric for ChrfMetric {
    fn name(&self) -> &str {
        self.name
    }
    fn scale(&self) -> Scale {
        Scale::Percent
    }
    fn signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.cfg.signature(n_refs, Scale::Percent.as_str())
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        hyps.iter()
            .zip(&per)
            .map(|(h, r)| self.cfg.sentence_unit(h, r).map(|s| s.score))
            .collect()
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        self.cfg.corpus(hyps, &per)
    }
}

/// A ROUGE implementation.
#[derive(Debug, Clone)]
enum Rouge {
    Google(RougeScore),
    Pltrdy(PltrdyRouge),
}

/// The sentence-level metrics whose corpus score is the mean of the sentence scores.
#[derive(Debug)]
enum Sentence {
    NltkBleu(NltkBleu),
    Rouge(RougeType, Rouge),
    Meteor(Box<Meteor>),
}

/// A 0-1 sentence metric whose corpus value is the mean over hypotheses.
#[derive(Debug)]
struct Averaged {
    name: &'static str,
    kind: Sentence,
}

impl Averaged {
    fn sentence(&self, hyp: &str, refs: &[&str]) -> Result<MetricScore, MetricError> {
        match &self.kind {
            Sentence::NltkBleu(b) => b.sentence(hyp, refs),
            Sentence::Rouge(t, Rouge::Google(r)) => r.sentence(*t, hyp, refs),
            Sentence::Rouge(t, Rouge::Pltrdy(r)) => r.sentence(*t, hyp, refs),
            Sentence::Meteor(m) => m.sentence(hyp, refs),
        }
    }
}

impl TextMetric for Averaged {
    fn name(&self) -> &str {
        self.name
    }
    fn scale(&self) -> Scale {
        Scale::Unit
    }
    fn signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        let sig = match &self.kind {
            Sentence::NltkBleu(b) => b.signature(n_refs),
            Sentence::Rouge(t, Rouge::Google(r)) => r.signature(*t, n_refs),
            Sentence::Rouge(t, Rouge::Pltrdy(r)) => r.signature(*t, n_refs),
            Sentence::Meteor(m) => m.signature(n_refs),
        };
        sig.with("agg", "mean")
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        hyps.iter()
            .zip(&per)
            .map(|(h, r)| self.sentence(h, r).map(|s| s.score))
            .collect()
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let scores = self.sentence_scores(hyps, refs)?;
        Ok(MetricScore::new(
            mean(&scores),
            self.signature(hyps.len(), refs.len()),
        ))
    }
}

/// Distinct-n: distinct n-grams over all n-grams, of the corpus or of one hypothesis.
#[derive(Debug, Clone)]
struct DistinctMetric {
    name: &'static str,
    cfg: Distinct,
}

impl TextMetric for DistinctMetric {
    fn name(&self) -> &str {
        self.name
    }
    fn scale(&self) -> Scale {
        Scale::Unit
    }
    fn needs_references(&self) -> bool {
        false
    }
    fn signature(&self, _n_hyps: usize, _n_refs: usize) -> Signature {
        self.cfg.signature("corpus")
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        _refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        hyps.iter()
            .map(|h| self.cfg.sentence(h).map(|s| s.score))
            .collect()
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        _refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        self.cfg.corpus(hyps)
    }
}

/// Self-BLEU: each hypothesis against all the others; the corpus value is their mean.
#[derive(Debug, Clone)]
struct SelfBleuMetric {
    cfg: SelfBleu,
}

impl TextMetric for SelfBleuMetric {
    fn name(&self) -> &str {
        "selfbleu"
    }
    fn scale(&self) -> Scale {
        Scale::Unit
    }
    fn needs_references(&self) -> bool {
        false
    }
    fn signature(&self, n_hyps: usize, _n_refs: usize) -> Signature {
        self.cfg.signature(n_hyps)
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        _refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        self.cfg.per_text(hyps)
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let scores = self.sentence_scores(hyps, refs)?;
        Ok(MetricScore::new(
            mean(&scores),
            self.signature(hyps.len(), refs.len()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_name_but_meteor_builds_with_defaults_and_keeps_its_name() {
        for name in NAMES.iter().filter(|n| **n != "meteor") {
            let m = metric_by_name(name, &TextMetricOptions::default()).unwrap();
            assert_eq!(m.name(), *name);
        }
        let err = metric_by_name("nosuch", &TextMetricOptions::default()).unwrap_err();
        assert!(
            err.to_string().contains("unknown metric \"nosuch\""),
            "{err}"
        );
    }

    #[test]
    fn options_are_parsed_only_by_the_metric_they_concern() {
        let opts = TextMetricOptions {
            sacre_tokenizer: "zz".into(),
            smoothing: Some("method3".into()),
            ..TextMetricOptions::default()
        };
        assert!(metric_by_name("bleu", &opts).is_err());
        assert!(metric_by_name("sentbleu", &opts).is_ok());
        assert!(metric_by_name("chrf", &opts).is_ok());
        let opts = TextMetricOptions {
            rouge_impl: "nope".into(),
            ..TextMetricOptions::default()
        };
        assert!(metric_by_name("rougeL", &opts).is_err());
        assert!(metric_by_name("bleu", &opts).is_ok());
    }

    #[test]
    fn averaged_corpus_is_the_mean_of_sentence_scores() {
        let hyps = lines(&["the cat sat on the mat", "a dog barked loudly"]);
        let refs = vec![lines(&["the cat sat on a mat", "the dog barked"])];
        for name in ["sentbleu", "rouge1", "rougeL"] {
            let m = metric_by_name(name, &TextMetricOptions::default()).unwrap();
            let s = m.sentence_scores(&hyps, &refs).unwrap();
            let c = m.corpus_score(&hyps, &refs).unwrap();
            assert!((c.score - (s[0] + s[1]) / 2.0).abs() < 1e-12, "{name}");
            assert!(s[0] > s[1], "{name}: {s:?}");
            assert_eq!(c.signature, m.signature(2, 1), "{name}");
        }
    }

    #[test]
    fn references_must_be_present_and_aligned() {
        let hyps = lines(&["a b", "c d"]);
        let chrf = metric_by_name("chrf", &TextMetricOptions::default()).unwrap();
        assert!(chrf.needs_references());
        assert!(chrf.corpus_score(&hyps, &[]).is_err());
        let err = chrf.sentence_scores(&hyps, &[lines(&["a b"])]).unwrap_err();
        assert!(
            err.to_string().contains("1 lines for 2 hypotheses"),
            "{err}"
        );
        let distinct = metric_by_name("distinct1", &TextMetricOptions::default()).unwrap();
        assert!(!distinct.needs_references());
        assert_eq!(distinct.corpus_score(&hyps, &[]).unwrap().score, 1.0);
    }
}
