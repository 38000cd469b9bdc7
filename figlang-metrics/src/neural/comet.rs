//! COMET (Rei et al. 2020; unbabel-comet 2.x estimator models) as a content-preservation
//! metric: one learned score per (source, hypothesis, reference).
//!
//! The formality-transfer paper (Lai et al. 2022) reports two variants: COMET with the source,
//! and "COMET-w", the same model with an empty source (`src = ""`), which
//! [`Comet::score`] runs when it is given no source. Reference-free (quality-estimation)
//! models use source and hypothesis only. The unified classes (CometKiwi's `unified_metric`,
//! `xcomet_metric`) take what they are given of the source and reference, as unbabel-comet's
//! `predict` does (no source is no source there, not an empty one), and [`Comet::predict`]
//! returns their error spans.

use hauser_core::Signature;
use hauser_nli::PackedCpu;
use hauser_nli::{CometModel, CometPrediction, CometSegment, LayerChoice, Pooling};

use crate::neural::error::{NeuralError, NeuralResult};

/// COMET scores from a loaded checkpoint.
#[derive(Debug)]
pub struct Comet {
    model: CometModel,
    model_id: String,
    with_src: bool,
    with_ref: bool,
}

impl Comet {
    /// Wraps a loaded model; `model_id` names it in signatures (e.g. `wmt20-comet-da`).
    pub fn new(model: CometModel, model_id: &str) -> Self {
        Self {
            model,
            model_id: model_id.to_string(),
            with_src: true,
            with_ref: true,
        }
    }

    /// The model.
    pub fn model(&self) -> &CometModel {
        &self.model
    }

    /// Scores line-aligned hypotheses. `src`: the sources, or `None` for COMET-w (every source
    /// empty, as the paper's code) or, for a unified model, no source. `refs`: one reference
    /// per hypothesis, or none (ignored, and may be empty, for a model that takes none).
    ///
    /// # Errors
    /// [`NeuralError::Input`] when the lists are not aligned or the model needs references it
    /// is not given; model failures.
    pub fn score(
        &mut self,
        src: Option<&[&str]>,
        hyps: &[&str],
        refs: &[&str],
    ) -> NeuralResult<Vec<f64>> {
        Ok(self
            .predict(src, hyps, refs)?
            .into_iter()
            .map(|p| f64::from(p.score))
            .collect())
    }

    /// [`Self::score`] with everything the model predicts: the unified classes' error spans
    /// and XCOMET's MQM score.
    ///
    /// # Errors
    /// As [`Self::score`].
    pub fn predict(
        &mut self,
        src: Option<&[&str]>,
        hyps: &[&str],
        refs: &[&str],
    ) -> NeuralResult<Vec<CometPrediction>> {
        if let Some(s) = src {
            if s.len() != hyps.len() {
                return Err(NeuralError::Input(format!(
                    "{} sources for {} hypotheses",
                    s.len(),
                    hyps.len()
                )));
            }
        }
        let takes_refs = self.model.takes_references();
        let needs_refs = !self.model.is_referenceless();
        if (needs_refs || (takes_refs && !refs.is_empty())) && refs.len() != hyps.len() {
            return Err(NeuralError::Input(format!(
                "{} references for {} hypotheses (COMET {} needs one per hypothesis)",
                refs.len(),
                hyps.len(),
                self.model_id
            )));
        }
        let unified = self.model.hparams().class.is_unified();
        self.with_src = src.is_some() && self.model.takes_sources();
        self.with_ref = takes_refs && !refs.is_empty();
        let with_ref = self.with_ref;
        let inputs: Vec<CometSegment<'_>> = hyps
            .iter()
            .enumerate()
            .map(|(i, mt)| CometSegment {
                src: match src {
                    Some(s) => Some(s[i]),
                    None if unified => None,
                    None => Some(""),
                },
                mt,
                reference: with_ref.then(|| refs[i]),
            })
            .collect();
        Ok(self.model.predict(&inputs)?)
    }

    /// The scores of every (hypothesis `cands[j]`, reference `cands[k]`, `k != j`) pair of a
    /// group, for minimum-Bayes-risk reranking: `visit(j, scores)` receives hypothesis `j`'s
    /// scores in the order of `k`, the numbers [`Self::score`] gives the pairs in one call.
    /// Each sentence is embedded once and memory is bounded by the group's sentences and a
    /// block of pairs, where [`Self::score`] on all `n (n - 1)` pairs holds their feature rows
    /// at once (see `CometModel::score_pairs`). `src` as in [`Self::score`], one for the group.
    ///
    /// # Errors
    /// [`NeuralError::Input`] for a model that takes no reference; model failures.
    pub fn score_pairs(
        &mut self,
        src: Option<&str>,
        cands: &[&str],
        visit: &mut dyn FnMut(usize, &[f64]),
    ) -> NeuralResult<()> {
        if !self.model.takes_references() {
            return Err(NeuralError::Input(format!(
                "COMET {} takes no reference, so it has no pair scores",
                self.model_id
            )));
        }
        self.with_src = src.is_some() && self.model.takes_sources();
        self.with_ref = true;
        let mut wide = Vec::new();
        self.model.score_pairs(src, cands, &mut |j, scores| {
            wide.clear();
            wide.extend(scores.iter().map(|&s| f64::from(s)));
            visit(j, &wide);
            Ok(())
        })?;
        Ok(())
    }

    /// The reproducibility signature of the last run, e.g.
    /// `comet|model:wmt20-comet-da|rev:local|class:regression_metric|encoder:xlm-roberta-large|layer:mix|pool:avg|src:yes|ref:yes|batch:64|kernels:packed-cpu|version:0.1.0`;
    /// the unified classes pool the first token (`pool:first`).
    pub fn signature(&self) -> Signature {
        let hp = self.model.hparams();
        let layer = match hp.layer {
            LayerChoice::Mix => "mix".to_string(),
            LayerChoice::Index(i) => i.to_string(),
        };
        let pool = match hp.pool {
            _ if hp.class.is_unified() => "first",
            Pooling::Avg => "avg",
            Pooling::Max => "max",
            Pooling::Cls => "cls",
            Pooling::Default => "default",
        };
        Signature::new("comet", crate::VERSION)
            .with("model", &self.model_id)
            .with("rev", self.model.encoder().source().revision())
            .with("class", hp.class.identifier())
            .with("encoder", &hp.pretrained_model)
            .with("layer", layer)
            .with("pool", pool)
            .with("src", if self.with_src { "yes" } else { "no" })
            .with("ref", if self.with_ref { "yes" } else { "no" })
            .with("batch", self.model.encoder().batching().batch_size)
            .with("kernels", self.model.encoder().kernels())
    }
}
