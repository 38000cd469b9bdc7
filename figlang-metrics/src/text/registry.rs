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

use std::path::PathBuf;

use super::adapters::{Averaged, DistinctMetric, Rouge, SelfBleuMetric, Sentence, Summed};
use super::error::MetricError;
pub use super::interface::{Details, Resampled, Scale, TextMetric};
use super::metrics::bleu_nltk::{NltkBleu, Smoothing};
use super::metrics::bleu_sacre::{SacreBleu, SacreSmoothing};
use super::metrics::chrf::Chrf;
use super::metrics::diversity::{Distinct, SelfBleu};
use super::metrics::error_rate::ErrorRate;
use super::metrics::meteor::{Meteor, MeteorVersion};
use super::metrics::rouge::{PltrdyRouge, PltrdyVersion, RougeImpl, RougeScore, RougeType};
use super::metrics::ter::Ter;
use super::tokenizers::tokenize::{NltkTokenizer, SacreTokenizer};

/// What a metric reads besides the hypotheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Needs {
    /// One or more line-aligned reference lists.
    References,
    /// Nothing: the diversity metrics read the hypotheses alone.
    HypothesesOnly,
}

/// A metric built from the options (`TextMetricOptions`), as a registry entry holds it.
pub type Build = fn(&TextMetricOptions) -> Result<Box<dyn TextMetric>, MetricError>;

/// One metric of the registry: its name, what it reads, and how it is built.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The registry name (`hauser metric NAME`, `hauser.metrics.Metric(NAME)`).
    pub name: &'static str,
    /// What it reads besides the hypotheses.
    pub needs: Needs,
    /// Its constructor.
    pub build: Build,
}

/// The registry: every text metric, in the order `hauser metric` lists them. The CLI's names,
/// `hauser rerank`'s MBR utilities (the entries that read references) and the Python package's
/// `NAMES` all come from this table.
pub const REGISTRY: [Entry; 16] = [
    entry("bleu", Needs::References, bleu),
    entry("sentbleu", Needs::References, sentbleu),
    entry("chrf", Needs::References, |o| {
        chrf(o, "chrf", Chrf::default())
    }),
    entry("chrf++", Needs::References, |o| {
        chrf(o, "chrf++", Chrf::plus_plus())
    }),
    entry("ter", Needs::References, ter),
    entry("rouge1", Needs::References, |o| rouge(o, RougeType::Rouge1)),
    entry("rouge2", Needs::References, |o| rouge(o, RougeType::Rouge2)),
    entry("rougeL", Needs::References, |o| rouge(o, RougeType::RougeL)),
    entry("rougeLsum", Needs::References, |o| {
        rouge(o, RougeType::RougeLsum)
    }),
    entry("meteor", Needs::References, meteor),
    entry("distinct1", Needs::HypothesesOnly, |o| {
        distinct(o, "distinct1", 1)
    }),
    entry("distinct2", Needs::HypothesesOnly, |o| {
        distinct(o, "distinct2", 2)
    }),
    entry("selfbleu", Needs::HypothesesOnly, selfbleu),
    entry("distinct3", Needs::HypothesesOnly, |o| {
        distinct(o, "distinct3", 3)
    }),
    entry("wer", Needs::References, |_| {
        Ok(Box::new(Summed {
            name: "wer",
            metric: ErrorRate::WORDS,
        }))
    }),
    entry("cer", Needs::References, |_| {
        Ok(Box::new(Summed {
            name: "cer",
            metric: ErrorRate::CHARS,
        }))
    }),
];

const fn entry(name: &'static str, needs: Needs, build: Build) -> Entry {
    Entry { name, needs, build }
}

/// The names [`metric_by_name`] knows, in the order `hauser metric` lists them: the
/// [`REGISTRY`]'s.
pub const NAMES: [&str; REGISTRY.len()] = {
    let mut names = [""; REGISTRY.len()];
    let mut i = 0;
    while i < REGISTRY.len() {
        names[i] = REGISTRY[i].name;
        i += 1;
    }
    names
};

/// The names of the registry's metrics that read references, in registry order: the text
/// metrics that can score a hypothesis against others (`hauser rerank --mbr`).
pub fn names_needing_references() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|e| e.needs == Needs::References)
        .map(|e| e.name)
        .collect()
}

/// Settings of the metrics built by [`metric_by_name`], typed: the ones users give as words are
/// parsed when the arguments are read ([`TextMetricOptions::with_words`]). A setting is read
/// only by the metrics it concerns, so a setting meant for another metric is never an error.
#[derive(Debug, Clone, PartialEq)]
pub struct TextMetricOptions {
    /// bleu: sacreBLEU tokenizer (13a by default).
    pub sacre_tokenizer: SacreTokenizer,
    /// bleu: sacreBLEU's smoothing (`exp` when none).
    pub bleu_smoothing: Option<SacreSmoothing>,
    /// sentbleu, selfbleu: NLTK's smoothing (`method1` when none).
    pub nltk_smoothing: Option<Smoothing>,
    /// bleu: the value of `floor` (default 0.1) or `add-k` (default 1) smoothing.
    pub smooth_value: Option<f64>,
    /// bleu: the highest n-gram order (4).
    pub max_ngram_order: Option<usize>,
    /// bleu: effective order for the corpus score (sentence scores always use it, as
    /// sacreBLEU's `sentence_score` recommends).
    pub effective_order: bool,
    /// bleu: lowercase first (sacreBLEU's `BLEU(lowercase=)`, its command line's `-lc`).
    /// chrF reads its own [`ChrfOptions::lowercase`], as sacreBLEU's `--chrf-lowercase`.
    pub lowercase: bool,
    /// chrf, chrf++: sacreBLEU's chrF settings.
    pub chrf: ChrfOptions,
    /// ter: sacreBLEU's TER settings (`--ter-*`).
    pub ter: Ter,
    /// sentbleu, selfbleu: NLTK's n-gram weights (any length; default four times 0.25).
    pub weights: Option<Vec<f64>>,
    /// sentbleu: NLTK's `auto_reweigh`.
    pub auto_reweigh: bool,
    /// sentbleu: the corpus score is NLTK's `corpus_bleu` (pooled counts) rather than the mean
    /// of sentence scores.
    pub nltk_corpus: bool,
    /// rouge-score: Porter stemming (`use_stemmer`).
    pub use_stemmer: bool,
    /// rouge-score: ROUGE-Lsum sentences from Punkt rather than newlines (`split_summaries`).
    pub split_summaries: bool,
    /// sentbleu, meteor, selfbleu, distinct, pltrdy ROUGE: the NLTK release to reproduce
    /// (for meteor, 3.4.5 also selects that release's algorithm).
    pub nltk: NltkTokenizer,
    /// ROUGE implementation: rouge-score (Google), pltrdy (rouge 1.0.1) or pltrdy 0.3.2.
    pub rouge_impl: RougeImpl,
    /// pltrdy ROUGE: tokenize with NLTK `word_tokenize` first.
    pub rouge_pretokenize: bool,
    /// meteor: the WordNet 3.0 database directory.
    pub wordnet: PathBuf,
    /// meteor: NLTK's `alpha` (precision/recall balance; 0.9 when none).
    pub meteor_alpha: Option<f64>,
    /// meteor: NLTK's `beta` (fragmentation exponent; 3 when none).
    pub meteor_beta: Option<f64>,
    /// meteor: NLTK's `gamma` (fragmentation weight; 0.5 when none).
    pub meteor_gamma: Option<f64>,
}

/// sacreBLEU's chrF settings (`--chrf-*`); `None` keeps the metric's default (chrF: 6
/// character and 0 word orders, chrF++: 2 word orders; beta 2).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChrfOptions {
    /// Character n-gram order.
    pub char_order: Option<usize>,
    /// Word n-gram order.
    pub word_order: Option<usize>,
    /// Recall weight beta.
    pub beta: Option<f64>,
    /// Keep whitespace in character n-grams.
    pub whitespace: bool,
    /// Lowercase first.
    pub lowercase: bool,
    /// chrF++.py's eps smoothing instead of sacreBLEU's effective order.
    pub eps_smoothing: bool,
}

impl Default for TextMetricOptions {
    fn default() -> Self {
        Self {
            sacre_tokenizer: SacreTokenizer::default(),
            bleu_smoothing: None,
            nltk_smoothing: None,
            smooth_value: None,
            max_ngram_order: None,
            effective_order: false,
            lowercase: false,
            chrf: ChrfOptions::default(),
            ter: Ter::default(),
            weights: None,
            auto_reweigh: false,
            nltk_corpus: false,
            use_stemmer: false,
            split_summaries: false,
            nltk: NltkTokenizer::Current,
            rouge_impl: RougeImpl::RougeScore,
            rouge_pretokenize: false,
            wordnet: PathBuf::from("/usr/share/wordnet"),
            meteor_alpha: None,
            meteor_beta: None,
            meteor_gamma: None,
        }
    }
}

/// The settings users give as words: `hauser metric`'s `--tokenize`, `--smooth-method` and
/// `--rouge-impl`, the Python keywords `tokenize`, `smooth_method` and `rouge_impl`.
#[derive(Debug, Clone, Copy, Default)]
pub struct WordSettings<'a> {
    /// sacreBLEU's tokenizer name (bleu).
    pub tokenize: Option<&'a str>,
    /// sacreBLEU's smoothing (bleu) or NLTK's (sentbleu, selfbleu).
    pub smooth_method: Option<&'a str>,
    /// The ROUGE implementation (rouge1, rouge2, rougeL, rougeLsum).
    pub rouge_impl: Option<&'a str>,
}

impl TextMetricOptions {
    /// The options with `words` parsed into their types for metric `name`, when the arguments
    /// are read: a word the metric reads and does not know is an error naming the metric and
    /// the words it knows; one it does not read is left to the caller's own refusal.
    ///
    /// ```
    /// use figlang_metrics::text::registry::{TextMetricOptions, WordSettings};
    /// let words = WordSettings { smooth_method: Some("floor"), ..WordSettings::default() };
    /// assert!(TextMetricOptions::default().with_words("bleu", words).is_ok());
    /// let err = TextMetricOptions::default().with_words("sentbleu", words).unwrap_err();
    /// assert!(err.to_string().contains("method0..method7"));
    /// ```
    ///
    /// # Errors
    /// [`MetricError::InvalidOption`] for a word the metric reads and does not know.
    pub fn with_words(mut self, name: &str, words: WordSettings<'_>) -> Result<Self, MetricError> {
        match name {
            "bleu" => {
                if let Some(s) = words.smooth_method {
                    self.bleu_smoothing = Some(s.parse()?);
                }
                if let Some(t) = words.tokenize {
                    self.sacre_tokenizer = t.parse()?;
                }
            }
            "sentbleu" | "selfbleu" => {
                if let Some(s) = words.smooth_method {
                    self.nltk_smoothing = Some(s.parse()?);
                }
            }
            "rouge1" | "rouge2" | "rougeL" | "rougeLsum" => {
                if let Some(r) = words.rouge_impl {
                    self.rouge_impl = r.parse()?;
                }
            }
            _ => {}
        }
        Ok(self)
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
    let entry =
        REGISTRY
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| MetricError::UnknownMetric {
                name: name.to_string(),
                known: NAMES.join(", "),
            })?;
    (entry.build)(options)
}

fn bleu(o: &TextMetricOptions) -> Result<Box<dyn TextMetric>, MetricError> {
    let smoothing = match (
        o.bleu_smoothing.unwrap_or(SacreSmoothing::Exp),
        o.smooth_value,
    ) {
        (SacreSmoothing::Floor(_), Some(v)) => SacreSmoothing::Floor(v),
        (SacreSmoothing::AddK(_), Some(v)) => SacreSmoothing::AddK(v),
        (s, _) => s,
    };
    let max_ngram_order = o.max_ngram_order.unwrap_or(4);
    if !(1..=MAX_ORDER).contains(&max_ngram_order) {
        return Err(MetricError::option(
            "bleu",
            format!("max n-gram order {max_ngram_order} (1 to {MAX_ORDER})"),
        ));
    }
    let metric = SacreBleu {
        tokenizer: o.sacre_tokenizer,
        lowercase: o.lowercase,
        smoothing,
        effective_order: o.effective_order,
        max_ngram_order,
    };
    Ok(Box::new(Summed {
        name: "bleu",
        metric,
    }))
}

fn sentbleu(o: &TextMetricOptions) -> Result<Box<dyn TextMetric>, MetricError> {
    Ok(Box::new(Averaged {
        name: "sentbleu",
        kind: Sentence::NltkBleu {
            bleu: nltk_bleu(o)?,
            corpus: o.nltk_corpus,
        },
    }))
}

/// chrF with the options' settings over `base`'s orders and beta.
fn chrf(
    o: &TextMetricOptions,
    name: &'static str,
    base: Chrf,
) -> Result<Box<dyn TextMetric>, MetricError> {
    let c = &o.chrf;
    let cfg = Chrf {
        char_order: c.char_order.unwrap_or(base.char_order),
        word_order: c.word_order.unwrap_or(base.word_order),
        beta: c.beta.unwrap_or(base.beta),
        lowercase: c.lowercase,
        whitespace: c.whitespace,
        eps_smoothing: c.eps_smoothing,
    };
    if cfg.char_order + cfg.word_order == 0
        || cfg.char_order > MAX_ORDER
        || cfg.word_order > MAX_ORDER
    {
        return Err(MetricError::option(
            "chrf",
            format!(
                "character order {} and word order {} (each at most {MAX_ORDER}, not both 0)",
                cfg.char_order, cfg.word_order
            ),
        ));
    }
    if !(cfg.beta.is_finite() && cfg.beta >= 0.0) {
        return Err(MetricError::option(
            "chrf",
            format!("beta {} (a number >= 0)", cfg.beta),
        ));
    }
    Ok(Box::new(Summed { name, metric: cfg }))
}

fn ter(o: &TextMetricOptions) -> Result<Box<dyn TextMetric>, MetricError> {
    Ok(Box::new(Summed {
        name: "ter",
        metric: o.ter,
    }))
}

/// ROUGE of `rouge_type` with the options' implementation.
fn rouge(o: &TextMetricOptions, rouge_type: RougeType) -> Result<Box<dyn TextMetric>, MetricError> {
    let pltrdy = |version| {
        Rouge::Pltrdy(PltrdyRouge {
            version,
            pretokenize: o.rouge_pretokenize.then_some(o.nltk),
        })
    };
    let imp = match o.rouge_impl {
        RougeImpl::RougeScore => Rouge::Google(RougeScore {
            use_stemmer: o.use_stemmer,
            split_summaries: o.split_summaries,
        }),
        RougeImpl::Pltrdy => pltrdy(PltrdyVersion::V1_0_1),
        RougeImpl::Pltrdy032 => pltrdy(PltrdyVersion::V0_3_2),
    };
    Ok(Box::new(Averaged {
        name: rouge_name(rouge_type),
        kind: Sentence::Rouge(rouge_type, imp),
    }))
}

fn meteor(o: &TextMetricOptions) -> Result<Box<dyn TextMetric>, MetricError> {
    let mut m = Meteor::new(&o.wordnet)?;
    m.tokenizer = o.nltk;
    m.alpha = o.meteor_alpha.unwrap_or(m.alpha);
    m.beta = o.meteor_beta.unwrap_or(m.beta);
    m.gamma = o.meteor_gamma.unwrap_or(m.gamma);
    if o.nltk == NltkTokenizer::V345 {
        m.version = MeteorVersion::V345;
    }
    Ok(Box::new(Averaged {
        name: "meteor",
        kind: Sentence::Meteor(Box::new(m)),
    }))
}

fn distinct(
    o: &TextMetricOptions,
    name: &'static str,
    n: usize,
) -> Result<Box<dyn TextMetric>, MetricError> {
    Ok(Box::new(DistinctMetric {
        name,
        cfg: Distinct {
            n,
            tokenizer: o.nltk,
        },
    }))
}

fn selfbleu(o: &TextMetricOptions) -> Result<Box<dyn TextMetric>, MetricError> {
    Ok(Box::new(SelfBleuMetric {
        cfg: SelfBleu {
            bleu: nltk_bleu(o)?,
        },
    }))
}

/// The largest n-gram order a flag may ask for: beyond it every segment of real text has no
/// matching n-gram, and statistics are allocated per order.
const MAX_ORDER: usize = 64;

/// NLTK BLEU with the options' smoothing (method1 when none), weights, re-weighing and
/// tokenizer.
fn nltk_bleu(o: &TextMetricOptions) -> Result<NltkBleu, MetricError> {
    let weights = o.weights.clone().unwrap_or_else(|| vec![0.25; 4]);
    if weights.is_empty() || weights.len() > MAX_ORDER || weights.iter().any(|w| !w.is_finite()) {
        return Err(MetricError::option(
            "sentbleu",
            format!("weights {weights:?}: 1 to {MAX_ORDER} finite numbers"),
        ));
    }
    Ok(NltkBleu {
        smoothing: o.nltk_smoothing.unwrap_or(Smoothing::Method1),
        weights,
        auto_reweigh: o.auto_reweigh,
        tokenizer: o.nltk,
        ..NltkBleu::default()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// `lowercase` is BLEU's (sacreBLEU's `-lc`); chrF has its own, as `--chrf-lowercase`.
    #[test]
    fn lowercase_is_bleus_only_and_chrf_has_its_own() {
        let hyps = lines(&["The Cat sat on the Mat"]);
        let refs = vec![lines(&["the cat sat on the mat"])];
        let score = |name: &str, o: &TextMetricOptions| {
            metric_by_name(name, o)
                .unwrap()
                .corpus_score(&hyps, &refs)
                .unwrap()
                .score
        };
        let lc = TextMetricOptions {
            lowercase: true,
            ..TextMetricOptions::default()
        };
        let chrf_lc = TextMetricOptions {
            chrf: ChrfOptions {
                lowercase: true,
                ..ChrfOptions::default()
            },
            ..TextMetricOptions::default()
        };
        let plain = score("chrf", &TextMetricOptions::default());
        assert!(plain < 100.0);
        assert_eq!(score("chrf", &lc), plain);
        assert!((score("chrf", &chrf_lc) - 100.0).abs() < 1e-9);
        assert!((score("bleu", &lc) - 100.0).abs() < 1e-9);
    }

    /// The table's `needs` is what each metric it builds says of itself.
    #[test]
    fn entries_read_what_their_metrics_read() {
        for e in REGISTRY.iter().filter(|e| e.name != "meteor") {
            let m = (e.build)(&TextMetricOptions::default()).unwrap();
            assert_eq!(
                m.needs_references(),
                e.needs == Needs::References,
                "{}",
                e.name
            );
        }
        let with_refs = names_needing_references();
        assert!(with_refs.contains(&"bleu") && !with_refs.contains(&"distinct1"));
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

    /// What `sentences_independent` promises: scoring a column in two halves gives the scores
    /// of the whole column; Self-BLEU, which says otherwise, does depend on the rest.
    #[test]
    fn independent_sentences_score_alike_in_chunks() {
        let hyps = lines(&[
            "the cat sat on the mat",
            "a dog ran like the wind",
            "the cat ran on the mat",
            "dogs bark at night",
        ]);
        let refs = vec![lines(&[
            "the cat sat on a mat",
            "the dog ran as fast as the wind",
            "a cat ran over the mat",
            "the dogs bark at night",
        ])];
        let half = |k: std::ops::Range<usize>| vec![refs[0][k].to_vec()];
        for name in NAMES.iter().filter(|n| **n != "meteor") {
            let m = metric_by_name(name, &TextMetricOptions::default()).unwrap();
            let refs = if m.needs_references() {
                refs.clone()
            } else {
                Vec::new()
            };
            let whole = m.sentence_scores(&hyps, &refs).unwrap();
            let split = |k: std::ops::Range<usize>| {
                let r = if refs.is_empty() {
                    Vec::new()
                } else {
                    half(k.clone())
                };
                m.sentence_scores(&hyps[k], &r).unwrap()
            };
            let chunked = [split(0..2), split(2..4)].concat();
            assert_eq!(m.sentences_independent(), whole == chunked, "{name}");
        }
    }

    #[test]
    fn words_are_parsed_only_for_the_metric_they_concern() {
        let words = WordSettings {
            tokenize: Some("zz"),
            smooth_method: Some("method3"),
            rouge_impl: Some("nope"),
        };
        let parse = |name: &str| TextMetricOptions::default().with_words(name, words);
        assert!(parse("bleu").is_err());
        assert!(parse("rougeL").is_err());
        let sentbleu = parse("sentbleu").unwrap();
        assert_eq!(sentbleu.nltk_smoothing, Some(Smoothing::Method3));
        assert!(metric_by_name("sentbleu", &sentbleu).is_ok());
        assert!(metric_by_name("chrf", &parse("chrf").unwrap()).is_ok());
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
