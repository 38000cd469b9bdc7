//! Style strength: the probability of a target label from a sequence classifier (formality,
//! sentiment, ...), with the direction flip used for transfer in the opposite direction.

use hauser_core::Signature;
use hauser_nli::SequenceClassifier;

use crate::neural::error::NeuralResult;

/// Style strength of texts under one classifier and one target label.
#[derive(Debug)]
pub struct StyleStrength {
    classifier: SequenceClassifier,
    model_id: String,
    label: String,
    label_index: usize,
}

impl StyleStrength {
    /// Binds a classifier to the target label (matched case-insensitively).
    ///
    /// # Errors
    /// An unknown label (the error lists the model's labels).
    pub fn new(classifier: SequenceClassifier, model_id: &str, label: &str) -> NeuralResult<Self> {
        let label_index = classifier.label_index(label)?;
        Ok(Self {
            classifier,
            model_id: model_id.to_string(),
            label: label.to_string(),
            label_index,
        })
    }

    /// The reproducibility signature.
    pub fn signature(&self) -> Signature {
        Signature::new("style", crate::VERSION)
            .with("model", &self.model_id)
            .with("rev", self.classifier.model().source().revision())
            .with("label", &self.label)
            .with("batch", self.classifier.model().batching().batch_size)
    }

    /// P(target label) of each text.
    ///
    /// # Errors
    /// Tokenizer or inference failures.
    pub fn probabilities(&self, texts: &[&str]) -> NeuralResult<Vec<f64>> {
        let inputs: Vec<(&str, Option<&str>)> = texts.iter().map(|t| (*t, None)).collect();
        let preds = self.classifier.predict(&inputs)?;
        Ok(preds
            .probs
            .iter()
            .map(|p| p[self.label_index] as f64)
            .collect())
    }

    /// Style strength towards the target: `p` where `towards[i]` is true, `1 - p` where the
    /// transfer goes the opposite way (e.g. formal -> informal scored with P(formal)).
    ///
    /// # Errors
    /// [`crate::neural::NeuralError::Input`] on a length mismatch; model failures.
    pub fn directional(&self, texts: &[&str], towards: &[bool]) -> NeuralResult<Vec<f64>> {
        if texts.len() != towards.len() {
            return Err(crate::neural::NeuralError::Input(format!(
                "{} texts but {} directions",
                texts.len(),
                towards.len()
            )));
        }
        Ok(self
            .probabilities(texts)?
            .into_iter()
            .zip(towards)
            .map(|(p, &t)| if t { p } else { 1.0 - p })
            .collect())
    }
}
