//! Multiple choice: transformers' `BertForMultipleChoice` and `RobertaForMultipleChoice`.
//! Each choice is one (first, second) input; the head gives it one logit, and a question's
//! choices are compared by those logits. Inputs of every question go through the encoder
//! together, batched by length, so many small questions cost what one large batch costs.

use crate::classify::SequenceClassifier;
use crate::error::{NliError, Result};
use crate::model::{LoadOptions, TransformerModel};
use crate::source::ModelSource;

/// A multiple-choice model.
#[derive(Debug)]
pub struct MultipleChoice {
    inner: SequenceClassifier,
}

impl MultipleChoice {
    /// Loads a `BertForMultipleChoice` or `RobertaForMultipleChoice` checkpoint (XLM-RoBERTa
    /// too: same layout).
    ///
    /// # Errors
    /// Missing files, an architecture without a multiple-choice head here, or missing or
    /// misshapen head weights (`*.pooler.dense`, `classifier` with one output), named with
    /// the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let (model, vb, ledger) = TransformerModel::load(source, opts, "multiple choice")?;
        let name = source.name();
        let head = match model.arch.choice_head(&vb, &model.config) {
            Some(Ok(h)) => h,
            Some(Err(e)) => {
                return Err(NliError::Weights {
                    model: name,
                    path: model.weights.clone(),
                    message: e.to_string(),
                })
            }
            None => {
                return Err(NliError::UnsupportedArchitecture {
                    model: name,
                    model_type: model.config.model_type.clone(),
                    usage: "multiple choice",
                    supported: "bert, roberta, xlm-roberta",
                })
            }
        };
        model.check_weights(&ledger, "multiple-choice model", "", &[])?;
        Ok(Self {
            inner: SequenceClassifier::with_head(model, head, vec!["choice".into()]),
        })
    }

    /// The underlying encoder.
    pub fn model(&self) -> &TransformerModel {
        self.inner.model()
    }

    /// Mutable access to the encoder (batching, maximum length).
    pub fn model_mut(&mut self) -> &mut TransformerModel {
        self.inner.model_mut()
    }

    /// One logit per (first, second) input, in input order. Pairs longer than the maximum
    /// length are cut as transformers' `truncation=True` cuts them (longest first).
    ///
    /// # Errors
    /// Tokenizer or inference failures, named with the model.
    pub fn logits(&self, pairs: &[(&str, &str)]) -> Result<Vec<f32>> {
        let inputs: Vec<(&str, Option<&str>)> = pairs.iter().map(|(a, b)| (*a, Some(*b))).collect();
        let pred = self.inner.predict(&inputs)?;
        Ok(pred
            .logits
            .into_iter()
            .map(|l| l.first().copied().unwrap_or(f32::NAN))
            .collect())
    }

    /// The logits of several questions at once, each a list of (first, second) inputs:
    /// returned grouped as given.
    ///
    /// # Errors
    /// As [`Self::logits`].
    pub fn question_logits(&self, questions: &[Vec<(&str, &str)>]) -> Result<Vec<Vec<f32>>> {
        let flat: Vec<(&str, &str)> = questions.iter().flatten().copied().collect();
        let mut all = self.logits(&flat)?.into_iter();
        Ok(questions
            .iter()
            .map(|q| all.by_ref().take(q.len()).collect())
            .collect())
    }
}
