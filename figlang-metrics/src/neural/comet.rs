//! COMET (Rei et al. 2020; unbabel-comet 2.x estimator models) as a content-preservation
//! metric: one learned score per (source, hypothesis, reference).
//!
//! The formality-transfer paper (Lai et al. 2022) reports two variants: COMET with the source,
//! and "COMET-w", the same model with an empty source (`src = ""`), which
//! [`Comet::score`] runs when it is given no source. Reference-free (quality-estimation)
//! models use source and hypothesis only.

use hauser_core::Signature;
use hauser_nli::{CometInput, CometModel, LayerChoice, Pooling};

use crate::neural::error::{NeuralError, NeuralResult};

/// COMET scores from a loaded checkpoint.
#[derive(Debug)]
pub struct Comet {
    model: CometModel,
    model_id: String,
    with_src: bool,
}

impl Comet {
    /// Wraps a loaded model; `model_id` names it in signatures (e.g. `wmt20-comet-da`).
    pub fn new(model: CometModel, model_id: &str) -> Self {
        Self {
            model,
            model_id: model_id.to_string(),
            with_src: true,
        }
    }

    /// The model.
    pub fn model(&self) -> &CometModel {
        &self.model
    }

    /// Scores line-aligned hypotheses. `src`: the sources, or `None` for COMET-w (every source
    /// empty, as the paper's code). `refs`: one reference per hypothesis (ignored, and may be
    /// empty, for a reference-free model).
    ///
    /// # Errors
    /// [`NeuralError::Input`] when the lists are not aligned or a regression model has no
    /// references; model failures.
    pub fn score(
        &mut self,
        src: Option<&[&str]>,
        hyps: &[&str],
        refs: &[&str],
    ) -> NeuralResult<Vec<f64>> {
        if let Some(s) = src {
            if s.len() != hyps.len() {
                return Err(NeuralError::Input(format!(
                    "{} sources for {} hypotheses",
                    s.len(),
                    hyps.len()
                )));
            }
        }
        let referenceless = self.model.is_referenceless();
        if !referenceless && refs.len() != hyps.len() {
            return Err(NeuralError::Input(format!(
                "{} references for {} hypotheses (COMET {} needs one per hypothesis)",
                refs.len(),
                hyps.len(),
                self.model_id
            )));
        }
        self.with_src = src.is_some();
        let inputs: Vec<CometInput<'_>> = hyps
            .iter()
            .enumerate()
            .map(|(i, mt)| CometInput {
                src: src.map_or("", |s| s[i]),
                mt,
                reference: if referenceless { None } else { Some(refs[i]) },
            })
            .collect();
        Ok(self
            .model
            .score(&inputs)?
            .into_iter()
            .map(f64::from)
            .collect())
    }

    /// The reproducibility signature of the last run, e.g.
    /// `comet|model:wmt20-comet-da|rev:local|class:regression_metric|encoder:xlm-roberta-large|layer:mix|pool:avg|src:yes|kernels:packed-cpu|version:0.1.0`.
    pub fn signature(&self) -> Signature {
        let hp = self.model.hparams();
        let layer = match hp.layer {
            LayerChoice::Mix => "mix".to_string(),
            LayerChoice::Index(i) => i.to_string(),
        };
        let pool = match hp.pool {
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
            .with("batch", self.model.encoder().batching().batch_size)
            .with("kernels", self.model.encoder().kernels())
    }
}
