//! The [`TextMetric`] implementations the registry (`metric_by_name`) builds: each wraps
//! one metric module's settings and gives sentence and corpus scores with their statistics.

use hauser_core::Signature;
use rayon::prelude::*;
use serde_json::{json, Value};

use super::error::MetricError;
use super::interface::{score_only, Details, Resampled, Scale, TextMetric};
use super::metrics::bleu_nltk::{NltkBleu, NltkBleuDetails};
use super::metrics::diversity::{Distinct, SelfBleu};
use super::metrics::meteor::Meteor;
use super::metrics::rouge::{PltrdyRouge, Prf, RougeScore, RougeType};
use super::score::MetricScore;
use super::significance::StatsScorer;
use super::summed::SummedStats;

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

/// A metric of summed statistics ([`SummedStats`]: sacreBLEU's BLEU, chrF and TER, jiwer's WER
/// and CER), under its registry name: the corpus score from summed statistics, sentence scores
/// with the sentence settings on the 0-1 scale (sacreBLEU's 0-100 divided by 100, as their
/// signature names), each segment's statistics for the resampling tests.
#[derive(Debug, Clone)]
pub(crate) struct Summed<M> {
    pub name: &'static str,
    pub metric: M,
}

impl<M: SummedStats> Summed<M> {
    /// The references of each hypothesis, once the metric accepts their number.
    fn per_hyp<'a>(
        &self,
        hyps: &[String],
        refs: &'a [Vec<String>],
    ) -> Result<Vec<Vec<&'a str>>, MetricError> {
        let per = per_hyp_refs(self.name, hyps, refs, true)?;
        self.metric.check_references(refs.len())?;
        Ok(per)
    }

    /// `f` of each hypothesis and its references, in parallel (rayon), in input order.
    fn per_segment<T: Send>(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
        f: impl Fn(&str, &[&str]) -> T + Sync + Send,
    ) -> Result<Vec<T>, MetricError> {
        let per = self.per_hyp(hyps, refs)?;
        Ok(hyps.par_iter().zip(&per).map(|(h, r)| f(h, r)).collect())
    }

    /// What divides a score of the metric's scale to the 0-1 of sentence scores.
    fn to_unit(&self) -> f64 {
        match self.metric.scale() {
            Scale::Percent => 100.0,
            _ => 1.0,
        }
    }
}

impl<M: SummedStats + StatsScorer + 'static> TextMetric for Summed<M> {
    fn name(&self) -> &str {
        self.name
    }
    fn scale(&self) -> Scale {
        self.metric.scale()
    }
    fn lower_is_better(&self) -> bool {
        self.metric.lower_is_better()
    }
    fn signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.metric.corpus_signature(n_refs)
    }
    fn sentence_signature(&self, _n_hyps: usize, n_refs: usize) -> Signature {
        self.metric.sentence_signature(n_refs)
    }
    fn sentence_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        let sentence = self.metric.for_sentences();
        let unit = self.to_unit();
        // Straight from the statistics: a per-sentence `MetricScore` would clone a signature
        // per hypothesis, a fifth of the cost of a short sentence.
        self.per_segment(hyps, refs, |h, r| sentence.segment_score(h, r) / unit)
    }
    fn segment_corpus_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        self.per_segment(hyps, refs, |h, r| self.metric.segment_score(h, r))
    }
    fn sentence_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Details>, MetricError> {
        let sentence = self.metric.for_sentences();
        let unit = self.to_unit();
        self.per_segment(hyps, refs, |h, r| {
            let stats = sentence.segment_stats(h, r);
            let score = sentence.score_from_stats(&stats) / unit;
            sentence.details(&stats, score)
        })
    }
    fn corpus_score(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<MetricScore, MetricError> {
        let per = self.per_hyp(hyps, refs)?;
        self.metric.corpus(hyps, &per)
    }
    fn corpus_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<(MetricScore, Details), MetricError> {
        let per = self.per_hyp(hyps, refs)?;
        let total = self.metric.corpus_stats(hyps, &per);
        let score = self.metric.score_from_stats(&total);
        let details = self.metric.details(&total, score);
        Ok((
            MetricScore::new(score, self.metric.corpus_signature(refs.len())),
            details,
        ))
    }
    fn resampled(&self) -> Option<&dyn Resampled> {
        Some(self)
    }
}

impl<M: SummedStats + StatsScorer + 'static> Resampled for Summed<M> {
    fn scorer(&self) -> &dyn StatsScorer {
        &self.metric
    }
    fn stats_rows(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Vec<f64>>, MetricError> {
        self.per_segment(hyps, refs, |h, r| {
            self.metric.stats_row(self.metric.segment_stats(h, r))
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
