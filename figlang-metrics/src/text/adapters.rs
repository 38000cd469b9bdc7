//! The [`TextMetric`] implementations the registry (`metric_by_name`) builds: each wraps
//! one metric module's settings and gives sentence and corpus scores with their statistics.

use hauser_core::Signature;
use serde_json::{json, Value};

use super::bleu_nltk::{NltkBleu, NltkBleuDetails};
use super::bleu_sacre::{BleuDetails, SacreBleu};
use super::chrf::Chrf;
use super::diversity::{Distinct, SelfBleu};
use super::error::MetricError;
use super::interface::{score_only, Details, Resampled, Scale, TextMetric};
use super::meteor::Meteor;
use super::rouge::{PltrdyRouge, Prf, RougeScore, RougeType};
use super::score::MetricScore;
use super::significance::{bleu_stats_row, StatsScorer};
use super::ter::{Ter, TerStats};

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

/// `f` of each hypothesis and its references ([`per_hyp_refs`], references required).
fn per_segment<T>(
    metric: &str,
    hyps: &[String],
    refs: &[Vec<String>],
    f: impl Fn(&str, &[&str]) -> T,
) -> Result<Vec<T>, MetricError> {
    let per = per_hyp_refs(metric, hyps, refs, true)?;
    Ok(hyps.iter().zip(&per).map(|(h, r)| f(h, r)).collect())
}

fn mean(v: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = v.len();
    if n == 0 {
        0.0
    } else {
        v.sum::<f64>() / n as f64
    }
}

/// A JSON object from `value`'s fields (a struct that serialises to one).
fn object(value: impl serde::Serialize) -> Details {
    match serde_json::to_value(value) {
        Ok(Value::Object(m)) => m,
        _ => Details::new(),
    }
}

/// The scale of the sentence scores of the metrics whose corpus score is 0-100, named in their
/// sentence signatures.
const SENTENCE_SCALE: &str = "0-1";

/// sacreBLEU BLEU: corpus BLEU (0-100); sentence scores with effective order, divided by 100.
#[derive(Debug, Clone)]
pub(crate) struct Bleu {
    pub corpus: SacreBleu,
}

impl Bleu {
    /// sacreBLEU's `sentence_score` settings: effective order on.
    fn sentence_cfg(&self) -> SacreBleu {
        SacreBleu {
            effective_order: true,
            ..self.corpus.clone()
        }
    }

    fn bleu_details(d: BleuDetails, divisor: f64) -> Details {
        let verbose = d.verbose();
        let mut m = object(&d);
        m.insert("score".into(), json!(d.score / divisor));
        m.insert("verbose_score".into(), json!(verbose));
        m
    }
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
    fn sentence_signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.sentence_cfg()
            .signature(n_refs)
            .with("scale", SENTENCE_SCALE)
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        let sentence = self.sentence_cfg();
        // Straight from the statistics: a per-sentence `MetricScore` would clone a signature
        // per hypothesis, a fifth of the cost of a short sentence.
        per_segment("bleu", hyps, refs, |h, r| {
            sentence.score_from_stats(&sentence.segment_stats(h, r)) / 100.0
        })
    }
    fn segment_corpus_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        per_segment("bleu", hyps, refs, |h, r| {
            self.corpus
                .score_from_stats(&self.corpus.segment_stats(h, r))
        })
    }
    fn sentence_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Details>, MetricError> {
        let sentence = self.sentence_cfg();
        per_segment("bleu", hyps, refs, |h, r| {
            Self::bleu_details(sentence.details(&sentence.segment_stats(h, r)), 100.0)
        })
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let per = per_hyp_refs("bleu", hyps, refs, true)?;
        self.corpus.corpus(hyps, &per)
    }
    fn corpus_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<(MetricScore, Details), MetricError> {
        let per = per_hyp_refs("bleu", hyps, refs, true)?;
        let d = self.corpus.details(&self.corpus.corpus_stats(hyps, &per));
        let score = MetricScore::new(d.score, self.corpus.signature(refs.len()));
        Ok((score, Self::bleu_details(d, 1.0)))
    }
    fn resampled(&self) -> Option<&dyn Resampled> {
        Some(self)
    }
}

impl Resampled for Bleu {
    fn scorer(&self) -> &dyn StatsScorer {
        &self.corpus
    }
    fn stats_rows(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Vec<f64>>, MetricError> {
        per_segment("bleu", hyps, refs, |h, r| {
            bleu_stats_row(&self.corpus.segment_stats(h, r))
        })
    }
}

/// chrF / chrF++: corpus chrF (0-100); sentence scores on sacreBLEU 1.x's 0-1 scale.
#[derive(Debug, Clone)]
pub(crate) struct ChrfMetric {
    pub name: &'static str,
    pub cfg: Chrf,
}

impl ChrfMetric {
    fn chrf_details(&self, stats: Vec<usize>, divisor: f64) -> Details {
        let mut m = score_only(self.cfg.score_from_stats(&stats) / divisor);
        m.insert("char_order".into(), json!(self.cfg.char_order));
        m.insert("word_order".into(), json!(self.cfg.word_order));
        m.insert("beta".into(), json!(self.cfg.beta));
        // sacreBLEU's statistics: per order (characters, then words) hypothesis n-grams,
        // reference n-grams, matches.
        m.insert("stats".into(), json!(stats));
        m
    }
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
    fn sentence_signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.cfg.signature(n_refs, SENTENCE_SCALE)
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        per_segment(self.name, hyps, refs, |h, r| {
            self.cfg.score_from_stats(&self.cfg.segment_stats(h, r)) / 100.0
        })
    }
    fn segment_corpus_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        per_segment(self.name, hyps, refs, |h, r| {
            self.cfg.score_from_stats(&self.cfg.segment_stats(h, r))
        })
    }
    fn sentence_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Details>, MetricError> {
        per_segment(self.name, hyps, refs, |h, r| {
            self.chrf_details(self.cfg.segment_stats(h, r), 100.0)
        })
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        self.cfg.corpus(hyps, &per)
    }
    fn corpus_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<(MetricScore, Details), MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        let total = self.cfg.corpus_stats(hyps, &per);
        let score = MetricScore::new(
            self.cfg.score_from_stats(&total),
            self.signature(hyps.len(), refs.len()),
        );
        Ok((score, self.chrf_details(total, 1.0)))
    }
    fn resampled(&self) -> Option<&dyn Resampled> {
        Some(self)
    }
}

impl Resampled for ChrfMetric {
    fn scorer(&self) -> &dyn StatsScorer {
        &self.cfg
    }
    fn stats_rows(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Vec<f64>>, MetricError> {
        per_segment(self.name, hyps, refs, |h, r| {
            let stats = self.cfg.segment_stats(h, r);
            stats.into_iter().map(|v| v as f64).collect()
        })
    }
}

/// A ROUGE implementation.
#[derive(Debug, Clone)]
pub(crate) enum Rouge {
    Google(RougeScore),
    Pltrdy(PltrdyRouge),
}

/// The sentence-level metrics whose corpus score is the mean of the sentence scores (or, for
/// NLTK BLEU with `corpus`, NLTK's `corpus_bleu`).
#[derive(Debug)]
pub(crate) enum Sentence {
    NltkBleu { bleu: NltkBleu, corpus: bool },
    Rouge(RougeType, Rouge),
    Meteor(Box<Meteor>),
}

/// A 0-1 sentence metric whose corpus value is the mean over hypotheses.
#[derive(Debug)]
pub(crate) struct Averaged {
    pub name: &'static str,
    pub kind: Sentence,
}

impl Averaged {
    /// One hypothesis: its score and statistics.
    fn details(&self, hyp: &str, refs: &[&str]) -> Result<Details, MetricError> {
        Ok(match &self.kind {
            Sentence::NltkBleu { bleu, .. } => nltk_details(bleu.sentence_details(hyp, refs)?),
            Sentence::Rouge(t, r) => {
                let prf = match r {
                    Rouge::Google(g) => g.best(*t, hyp, refs)?,
                    Rouge::Pltrdy(p) => pltrdy_best(p, *t, hyp, refs)?,
                };
                prf_details(prf)
            }
            Sentence::Meteor(m) => score_only(m.sentence(hyp, refs)?.score),
        })
    }
}

fn nltk_details(d: NltkBleuDetails) -> Details {
    object(d)
}

fn prf_details(p: Prf) -> Details {
    let mut m = score_only(p.fmeasure);
    m.insert("precision".into(), json!(p.precision));
    m.insert("recall".into(), json!(p.recall));
    m.insert("fmeasure".into(), json!(p.fmeasure));
    m
}

/// pltrdy ROUGE against the reference with the best F. pltrdy raises on an empty hypothesis
/// or reference ("Hypothesis is empty."); the narratives evaluator, like most of its users,
/// catches that and counts 0, and so does this.
fn pltrdy_best(
    p: &PltrdyRouge,
    t: RougeType,
    hyp: &str,
    refs: &[&str],
) -> Result<Prf, MetricError> {
    let mut best: Option<Prf> = None;
    for r in refs {
        let s = match p.score_pair(t, hyp, r) {
            Ok(s) => s,
            Err(MetricError::InvalidInput { message, .. }) if message.ends_with("is empty") => {
                Prf::default()
            }
            Err(e) => return Err(e),
        };
        if best.is_none_or(|b| s.fmeasure > b.fmeasure) {
            best = Some(s);
        }
    }
    best.ok_or_else(|| MetricError::input("rouge (pltrdy)", "no reference"))
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
            Sentence::NltkBleu { bleu, corpus } => {
                return bleu
                    .signature(n_refs)
                    .with("agg", if *corpus { "corpus_bleu" } else { "mean" });
            }
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
        Ok(self
            .sentence_details(hyps, refs)?
            .iter()
            .map(|d| d.get("score").and_then(Value::as_f64).unwrap_or(0.0))
            .collect())
    }
    fn sentence_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Details>, MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        hyps.iter()
            .zip(&per)
            .map(|(h, r)| self.details(h, r))
            .collect()
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        self.corpus_details(hyps, refs).map(|(s, _)| s)
    }
    fn corpus_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<(MetricScore, Details), MetricError> {
        let sig = self.signature(hyps.len(), refs.len());
        if let Sentence::NltkBleu { bleu, corpus: true } = &self.kind {
            let per = per_hyp_refs(self.name, hyps, refs, true)?;
            let d = bleu.corpus(hyps, &per)?;
            return Ok((MetricScore::new(d.score, sig), nltk_details(d)));
        }
        let each = self.sentence_details(hyps, refs)?;
        let field = |k: &str| {
            mean(
                each.iter()
                    .map(|d| d.get(k).and_then(Value::as_f64).unwrap_or(0.0)),
            )
        };
        let mut d = score_only(field("score"));
        if matches!(self.kind, Sentence::Rouge(..)) {
            for k in ["precision", "recall", "fmeasure"] {
                d.insert(k.into(), json!(field(k)));
            }
        }
        Ok((MetricScore::new(field("score"), sig), d))
    }
}

/// Distinct-n: distinct n-grams over all n-grams, of the corpus or of one hypothesis.
#[derive(Debug, Clone)]
pub(crate) struct DistinctMetric {
    pub name: &'static str,
    pub cfg: Distinct,
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
pub(crate) struct SelfBleuMetric {
    pub cfg: SelfBleu,
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
    fn sentences_independent(&self) -> bool {
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
            mean(scores.into_iter()),
            self.signature(hyps.len(), refs.len()),
        ))
    }
}

/// sacreBLEU TER: corpus TER (0-100, lower is better); sentence scores divided by 100 (above 1
/// when the edits outnumber the reference words).
#[derive(Debug, Clone)]
pub(crate) struct TerMetric {
    pub cfg: Ter,
}

impl TerMetric {
    fn ter_details(&self, st: &TerStats, divisor: f64) -> Details {
        let mut m = score_only(self.cfg.score_from_stats(st) / divisor);
        m.insert("num_edits".into(), json!(st.num_edits));
        m.insert("ref_length".into(), json!(st.ref_length));
        m
    }
}

impl TextMetric for TerMetric {
    fn name(&self) -> &str {
        "ter"
    }
    fn scale(&self) -> Scale {
        Scale::Percent
    }
    fn signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.cfg.signature(n_refs)
    }
    fn sentence_signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.cfg.signature(n_refs).with("scale", SENTENCE_SCALE)
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        per_segment("ter", hyps, refs, |h, r| {
            self.cfg.score_from_stats(&self.cfg.segment_stats(h, r)) / 100.0
        })
    }
    fn segment_corpus_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        per_segment("ter", hyps, refs, |h, r| {
            self.cfg.score_from_stats(&self.cfg.segment_stats(h, r))
        })
    }
    fn sentence_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Details>, MetricError> {
        per_segment("ter", hyps, refs, |h, r| {
            self.ter_details(&self.cfg.segment_stats(h, r), 100.0)
        })
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let per = per_hyp_refs("ter", hyps, refs, true)?;
        self.cfg.corpus(hyps, &per)
    }
    fn corpus_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<(MetricScore, Details), MetricError> {
        let per = per_hyp_refs("ter", hyps, refs, true)?;
        let total = self.cfg.corpus_stats(hyps, &per);
        let score = MetricScore::new(
            self.cfg.score_from_stats(&total),
            self.cfg.signature(refs.len()),
        );
        Ok((score, self.ter_details(&total, 1.0)))
    }
    fn resampled(&self) -> Option<&dyn Resampled> {
        Some(self)
    }
}

impl Resampled for TerMetric {
    fn scorer(&self) -> &dyn StatsScorer {
        &self.cfg
    }
    fn stats_rows(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Vec<f64>>, MetricError> {
        per_segment("ter", hyps, refs, |h, r| {
            let st = self.cfg.segment_stats(h, r);
            vec![st.num_edits, st.ref_length]
        })
    }
}
