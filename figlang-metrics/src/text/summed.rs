//! The metrics whose corpus score comes from summed per-segment sufficient statistics
//! (sacreBLEU's BLEU, chrF and TER, jiwer's WER and CER): what one of them is, as [`SummedStats`]. Each metric's own
//! file implements it (its statistics, the score of statistics, its signatures, the names of its
//! details); scoring sentences and corpora, their details and the rows that the resampling tests
//! draw from is written once, over this trait, by the registry's `Summed` metric.
//!
//! This module depends on nothing of the significance tests, so that the metric files can
//! implement it while `significance` reads their statistics (the modules depend one way).

use hauser_core::Signature;
use serde_json::{Map, Value};

use super::error::MetricError;
use super::interface::Scale;
use super::score::MetricScore;

/// A corpus metric of summed per-segment statistics.
pub trait SummedStats: Clone + std::fmt::Debug + Send + Sync {
    /// One segment's statistics, or a corpus's (their sum).
    type Stats;

    /// The statistics of a hypothesis against its references.
    fn segment_stats(&self, hyp: &str, refs: &[&str]) -> Self::Stats;

    /// The score of one segment, `score_from_stats(&segment_stats(hyp, refs))`; a metric may
    /// compute it without building the statistics (BLEU keeps them on the stack).
    fn segment_score(&self, hyp: &str, refs: &[&str]) -> f64 {
        self.score_from_stats(&self.segment_stats(hyp, refs))
    }

    /// The summed statistics of a corpus (`refs[i]`: the references of `hyps[i]`).
    fn corpus_stats(&self, hyps: &[String], refs: &[Vec<&str>]) -> Self::Stats;

    /// The score (on [`scale`](Self::scale)) of statistics.
    fn score_from_stats(&self, stats: &Self::Stats) -> f64;

    /// The scale of [`score_from_stats`](Self::score_from_stats): 0-100 for sacreBLEU's
    /// metrics, whose sentence scores are then divided by 100; jiwer's error rates are
    /// fractions at both levels.
    fn scale(&self) -> Scale {
        Scale::Percent
    }

    /// True where the lowest score is the best (TER, the error rates).
    fn lower_is_better(&self) -> bool {
        false
    }

    /// Refuses a number of reference lists the reference tool cannot score (jiwer's error
    /// rates read one reference per hypothesis); any number of at least one by default.
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] naming the metric.
    fn check_references(&self, _n_lists: usize) -> Result<(), MetricError> {
        Ok(())
    }

    /// The corpus score with its signature: the metric's own corpus function, which checks the
    /// references and may score in parallel.
    ///
    /// # Errors
    /// A hypothesis without references.
    fn corpus(&self, hyps: &[String], refs: &[Vec<&str>]) -> Result<MetricScore, MetricError>;

    /// The signature of the corpus score with `n_refs` references.
    fn corpus_signature(&self, n_refs: usize) -> Signature;

    /// The signature of the sentence scores (0-1): the corpus signature of the settings of
    /// [`for_sentences`](Self::for_sentences), with the scale named after it (chrF, whose
    /// signature always names its scale, names 0-1 in its place; a metric whose corpus score
    /// is already 0-1 gives its corpus signature).
    fn sentence_signature(&self, n_refs: usize) -> Signature {
        let sig = self.for_sentences().corpus_signature(n_refs);
        match self.scale() {
            Scale::Percent => sig.with("scale", "0-1"),
            _ => sig,
        }
    }

    /// The settings that score sentences: the corpus ones, except where the reference tool
    /// scores sentences otherwise (sacreBLEU's BLEU: effective order).
    fn for_sentences(&self) -> Self {
        self.clone()
    }

    /// The statistics under the reference tool's names, with `score` (already on the scale
    /// the caller reports).
    fn details(&self, stats: &Self::Stats, score: f64) -> Map<String, Value>;

    /// One row of the statistics in sacreBLEU's layout, what the resampling tests draw.
    fn stats_row(&self, stats: Self::Stats) -> Vec<f64>;
}
