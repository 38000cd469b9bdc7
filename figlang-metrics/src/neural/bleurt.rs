//! BLEURT (Sellam et al. 2020), the BERT-based regression checkpoints in the PyTorch port's
//! layout (bleurt-pytorch's `BleurtForSequenceClassification`, `model_type` "bleurt"): the
//! score of a candidate is the regression head's output on `[CLS] reference [SEP] candidate
//! [SEP]`, truncated longest-first to the model's length (512 for `bleurt-large-512`), as the
//! original BLEURT encodes its inputs.

use hauser_core::Signature;
use hauser_nli::PackedCpu;
use hauser_nli::SequenceClassifier;

use crate::neural::error::{NeuralError, NeuralResult};

/// BLEURT scores from a loaded regression checkpoint.
#[derive(Debug)]
pub struct Bleurt {
    model: SequenceClassifier,
    model_id: String,
}

impl Bleurt {
    /// Wraps a loaded checkpoint.
    ///
    /// # Errors
    /// [`NeuralError::Input`] when the head has more than one output (not a BLEURT regressor).
    pub fn new(model: SequenceClassifier, model_id: &str) -> NeuralResult<Self> {
        if model.labels().len() != 1 {
            return Err(NeuralError::Input(format!(
                "model {model_id}: {} outputs; a BLEURT checkpoint has a one-output regression head",
                model.labels().len()
            )));
        }
        Ok(Self {
            model,
            model_id: model_id.to_string(),
        })
    }

    /// One score per candidate, against the line-aligned reference.
    ///
    /// # Errors
    /// [`NeuralError::Input`] when the lists differ in length; model failures.
    pub fn score(&self, candidates: &[&str], references: &[&str]) -> NeuralResult<Vec<f64>> {
        if candidates.len() != references.len() {
            return Err(NeuralError::Input(format!(
                "{} candidates for {} references",
                candidates.len(),
                references.len()
            )));
        }
        let pairs: Vec<(&str, Option<&str>)> = references
            .iter()
            .zip(candidates)
            .map(|(r, c)| (*r, Some(*c)))
            .collect();
        let p = self.model.predict(&pairs)?;
        Ok(p.logits.iter().map(|l| f64::from(l[0])).collect())
    }

    /// The reproducibility signature, e.g.
    /// `bleurt|model:lucadiliello/bleurt-large-512|rev:main|max_len:512|batch:16|kernels:packed-cpu|version:0.1.0`.
    pub fn signature(&self) -> Signature {
        let m = self.model.model();
        Signature::new("bleurt", crate::VERSION)
            .with("model", &self.model_id)
            .with("rev", m.source().revision())
            .with("max_len", m.text_encoder().max_len())
            .with("batch", m.batching().batch_size)
            .with("kernels", m.kernels())
    }
}
