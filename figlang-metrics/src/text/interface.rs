//! The interface every text metric implements ([`TextMetric`]), with its scale, statistics and
//! resampling hooks. The implementations live in `adapters`; `registry` builds them by name.
//! This module depends on neither, so the three depend one way: registry -> adapters ->
//! interface.

use std::fmt;

use hauser_core::Signature;
use serde_json::json;

use super::error::MetricError;
use super::score::MetricScore;
use super::significance::StatsScorer;

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

    /// True for the error rates (TER, WER, CER), whose best score is the lowest: `hauser
    /// rerank` ranks by it, and minimum Bayes risk minimises it.
    fn lower_is_better(&self) -> bool {
        false
    }

    /// Whether each sentence score reads only its own hypothesis and references, so that a
    /// column may be scored in independent chunks. False for Self-BLEU, which scores each text
    /// against all the others.
    fn sentences_independent(&self) -> bool {
        true
    }

    /// The signature of the corpus score of `n_hyps` hypotheses against `n_refs` reference lists.
    fn signature(&self, n_hyps: usize, n_refs: usize) -> Signature;

    /// The signature of [`TextMetric::sentence_scores`] and
    /// [`TextMetric::sentence_details`]: the corpus one where sentences are scored alike. It
    /// differs where the sentence scores do: sacreBLEU's BLEU scores sentences with effective
    /// order (`eff:yes`), and the metrics whose corpus score is 0-100 (BLEU, chrF, TER) give
    /// sentence scores on the 0-1 scale (`scale:0-1`).
    fn sentence_signature(&self, n_hyps: usize, n_refs: usize) -> Signature {
        self.signature(n_hyps, n_refs)
    }

    /// One score per hypothesis, on the 0-1 scale. The exception is METEOR with NLTK 3.4.5
    /// ([`super::metrics::meteor::MeteorVersion::V345`]): that release counts some stem matches twice, and its scores,
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

    /// Each hypothesis scored as a corpus of one, on [`TextMetric::scale`] and with the
    /// corpus settings: what sacreBLEU's `sentence_score` (and its `sentence_bleu`,
    /// `sentence_chrf`, `sentence_ter`) return, where [`TextMetric::sentence_scores`] is the
    /// CLI's `--sentence` (0-1, BLEU with effective order). The default calls
    /// [`TextMetric::corpus_score`] per hypothesis; BLEU, chrF and TER compute it from their
    /// segment statistics, the same numbers without a signature per hypothesis.
    ///
    /// # Errors
    /// As [`TextMetric::sentence_scores`].
    fn segment_corpus_scores(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<f64>, MetricError> {
        if refs.iter().any(|r| r.len() != hyps.len())
            || (refs.is_empty() && self.needs_references())
        {
            // The metric's own message for misaligned or missing references.
            self.sentence_scores(hyps, refs)?;
            return Err(MetricError::input(
                self.name(),
                "reference lists are not aligned with the hypotheses",
            ));
        }
        (0..hyps.len())
            .map(|i| {
                let one: Vec<Vec<String>> = refs.iter().map(|r| vec![r[i].clone()]).collect();
                self.corpus_score(std::slice::from_ref(&hyps[i]), &one)
                    .map(|s| s.score)
            })
            .collect()
    }

    /// One object per hypothesis: `score` (as [`TextMetric::sentence_scores`]) and the
    /// statistics under the reference tool's names: sacreBLEU's BLEU `counts`, `totals`,
    /// `precisions` (0-100), `bp`, `ratio`, `sys_len`, `ref_len`; chrF's `stats`; ROUGE's
    /// `precision`, `recall`, `fmeasure`; NLTK BLEU's modified `precisions` with
    /// `p_numerators`, `p_denominators`, `bp`, `hyp_len`, `ref_len`. Metrics without
    /// statistics give the score alone.
    ///
    /// # Errors
    /// As [`TextMetric::sentence_scores`].
    fn sentence_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Details>, MetricError> {
        Ok(self
            .sentence_scores(hyps, refs)?
            .into_iter()
            .map(score_only)
            .collect())
    }

    /// The corpus score and its statistics (as [`TextMetric::sentence_details`], over the
    /// corpus: summed statistics, or the means of the averaged metrics' fields).
    ///
    /// # Errors
    /// As [`TextMetric::sentence_scores`].
    fn corpus_details(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<(MetricScore, Details), MetricError> {
        let s = self.corpus_score(hyps, refs)?;
        let d = score_only(s.score);
        Ok((s, d))
    }

    /// The metric's statistics and scorer for sacreBLEU's resampling tests: BLEU, chrF and
    /// TER have them; `None` for the others.
    fn resampled(&self) -> Option<&dyn Resampled> {
        None
    }
}

/// A metric whose corpus score comes from summed per-segment sufficient statistics: what
/// sacreBLEU's resampling tests (`--confidence`, `--paired-bs`, `--paired-ar`) resample, with
/// [`super::significance`].
pub trait Resampled: Send + Sync {
    /// The score of summed rows: the metric's own configuration, which knows sacreBLEU's
    /// arithmetic for exact sums, trials and `float32` resamples.
    fn scorer(&self) -> &dyn StatsScorer;

    /// One row of statistics per hypothesis, in sacreBLEU's layout.
    ///
    /// # Errors
    /// As [`TextMetric::sentence_scores`].
    fn stats_rows(
        &self,
        hyps: &[String],
        refs: &[Vec<String>],
    ) -> Result<Vec<Vec<f64>>, MetricError>;
}

/// A score's statistics by field name (a JSON object).
pub type Details = serde_json::Map<String, serde_json::Value>;

/// A score alone, as [`Details`] (`{"score": s}`).
pub(crate) fn score_only(score: f64) -> Details {
    let mut d = Details::new();
    d.insert("score".into(), json!(score));
    d
}
