//! Sequence classification: the heads of transformers on top of the encoder.

use candle_core::Tensor;

use crate::classifier_head::ClassifierHead;
use crate::cpu_kernels::all_finite;
use crate::error::{infer_err, NliError, Result};
use crate::model::{LoadOptions, TransformerModel};
use crate::packed_or_candle::PackedCpu;
use crate::source::ModelSource;
use crate::tokenize::Encoded;

/// Class probabilities for a set of inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Predictions {
    /// Raw logits per input, in input order.
    pub logits: Vec<Vec<f32>>,
    /// Softmax probabilities per input, in input order.
    pub probs: Vec<Vec<f32>>,
    /// Inputs cut to the maximum length.
    pub truncated: usize,
}

/// A sequence (or sequence-pair) classifier, e.g. an MNLI or SST-2 model.
pub struct SequenceClassifier {
    model: TransformerModel,
    /// The architecture's head (`models::*::head`).
    head: Box<dyn ClassifierHead>,
    labels: Vec<String>,
}

impl std::fmt::Debug for SequenceClassifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SequenceClassifier")
            .field("model", &self.model)
            .field("labels", &self.labels)
            .finish()
    }
}

impl SequenceClassifier {
    /// Loads a `*ForSequenceClassification` checkpoint.
    ///
    /// # Errors
    /// Missing files, an unsupported architecture, or missing/misshapen head weights, named
    /// with the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let (model, vb, ledger) = TransformerModel::load(source, opts, "sequence classification")?;
        let name = source.name();
        let werr = |e: candle_core::Error| NliError::Weights {
            model: name.clone(),
            path: model.weights.clone(),
            message: e.to_string(),
        };
        let n = num_labels(&model.raw_config);
        let head = model.arch.head(&vb, &model.config, n).map_err(werr)?;
        model.check_weights(
            &ledger,
            "sequence classifier",
            "",
            &[(
                "*pooler.*",
                "a pooler the head does not use (RoBERTa's and DistilBERT's heads take the first token's state; transformers builds no pooler for them)",
            )],
        )?;
        let labels = model.config.labels(n);
        Ok(Self {
            model,
            head,
            labels,
        })
    }

    /// A classifier from an encoder and a head built by the caller (multiple choice).
    pub(crate) fn with_head(
        model: TransformerModel,
        head: Box<dyn ClassifierHead>,
        labels: Vec<String>,
    ) -> Self {
        Self {
            model,
            head,
            labels,
        }
    }

    /// The underlying encoder.
    pub fn model(&self) -> &TransformerModel {
        &self.model
    }

    /// Mutable access to the encoder (batching, maximum length).
    pub fn model_mut(&mut self) -> &mut TransformerModel {
        &mut self.model
    }

    /// Label names in class order (`id2label`, or an override).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Replaces the label names, e.g. for `LABEL_0`-style maps.
    ///
    /// # Errors
    /// When the number of names differs from the number of classes.
    pub fn with_labels(mut self, labels: Vec<String>) -> Result<Self> {
        if labels.len() != self.labels.len() {
            return Err(NliError::Invalid {
                model: self.model.source.name(),
                message: format!(
                    "label override has {} names for {} classes",
                    labels.len(),
                    self.labels.len()
                ),
            });
        }
        self.labels = labels;
        Ok(self)
    }

    /// The class index of a label, matched case-insensitively.
    ///
    /// # Errors
    /// [`NliError::Label`] listing the known labels.
    pub fn label_index(&self, label: &str) -> Result<usize> {
        self.labels
            .iter()
            .position(|l| l.eq_ignore_ascii_case(label))
            .ok_or_else(|| NliError::Label {
                model: self.model.source.name(),
                label: label.to_string(),
                known: self.labels.clone(),
            })
    }

    /// Classifies sentences (`(text, None)`) or pairs (`(first, Some(second))`).
    ///
    /// # Errors
    /// Tokenizer or inference failures, named with the model.
    pub fn predict(&self, inputs: &[(&str, Option<&str>)]) -> Result<Predictions> {
        let (encs, truncated) = self.model.encode_all(inputs)?;
        let logits = if self.model.uses_packed_cpu() {
            self.packed_logits(&encs)?
        } else {
            self.padded_logits(&encs)?
        };
        let probs = logits.iter().map(|l| softmax(l)).collect();
        Ok(Predictions {
            logits,
            probs,
            truncated,
        })
    }

    /// The head on the first token's last-layer state from the packed CPU kernels.
    fn packed_logits(&self, encs: &[Encoded]) -> Result<Vec<Vec<f32>>> {
        let name = self.model.source.name();
        let h = self.model.config.hidden_size;
        let rows = self
            .model
            .layer_rows(encs, self.model.exposed_layers() - 1, true)?;
        let mut cls = Vec::with_capacity(rows.len() * h);
        for r in &rows {
            match r.get(..h) {
                Some(first) => cls.extend_from_slice(first),
                // No tokens at all (empty text, a tokenizer without special tokens): zeros.
                None => cls.resize(cls.len() + h, 0.0),
            }
        }
        let logits: Vec<Vec<f32>> = Tensor::from_vec(cls, (rows.len(), h), &self.model.device)
            .and_then(|t| self.head.forward(&t))
            .and_then(|t| t.to_vec2())
            .map_err(infer_err(&name))?;
        // The layers were checked as they ran; what remains is the head.
        if !logits.iter().all(|l| all_finite(l)) {
            return Err(NliError::NonFinite {
                model: name,
                layer: None,
            });
        }
        Ok(logits)
    }

    /// The head on candle's padded forward pass, batch by batch (the state of the first token
    /// is taken on the device).
    fn padded_logits(&self, encs: &[Encoded]) -> Result<Vec<Vec<f32>>> {
        let name = self.model.source.name();
        let e = infer_err(&name);
        let lengths: Vec<usize> = encs.iter().map(|x| x.ids.len()).collect();
        self.model.batching.run_padded(&lengths, |idx| {
            let batch: Vec<_> = idx.iter().map(|&i| &encs[i]).collect();
            let states = self.model.forward(&batch)?;
            let last = states.last().ok_or_else(|| NliError::Inference {
                model: name.clone(),
                message: "no hidden states".into(),
            })?;
            // The first token's rows are strided (one row every sequence length); candle's CUDA
            // matmul refuses such an operand ("matmul is only supported for contiguous
            // tensors", issue 27) where its CPU matmul accepts it, so the copy is made here,
            // on every device, and `cls_rows_are_contiguous_for_every_head` guards it on CPU.
            let cls = last
                .narrow(1, 0, 1)
                .and_then(|t| t.squeeze(1))
                .and_then(|t| t.contiguous())
                .map_err(&e)?;
            debug_assert!(
                cls.is_contiguous(),
                "a head's input must be contiguous (CUDA)"
            );
            let logits = self
                .head
                .forward(&cls)
                .and_then(|t| t.to_dtype(candle_core::DType::F32))
                .map_err(&e)?;
            let rows: Vec<Vec<f32>> = logits.to_vec2().map_err(&e)?;
            if !rows.iter().all(|l| all_finite(l)) {
                let lens: Vec<usize> = idx.iter().map(|&i| lengths[i]).collect();
                return Err(self.model.non_finite(&states, states.len() - 1, &lens));
            }
            Ok(rows)
        })
    }
}

/// Softmax in f64 for stability, returned as f32.
pub(crate) fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let exps: Vec<f64> = logits.iter().map(|&l| (l as f64 - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|x| (x / sum) as f32).collect()
}

/// Number of classes: `id2label`'s size, else `num_labels`, else 2 (transformers' default).
fn num_labels(raw: &serde_json::Value) -> usize {
    if let Some(n) = raw
        .get("id2label")
        .and_then(|m| m.as_object())
        .map(|m| m.len())
    {
        if n > 0 {
            return n;
        }
    }
    if let Some(n) = raw.get("num_labels").and_then(|n| n.as_u64()) {
        return n as usize;
    }
    2
}
