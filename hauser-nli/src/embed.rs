//! Hidden states and attention-mask-aware mean pooling (sentence embeddings, BERTScore).

use candle_core::{DType, Tensor, D};

use crate::batch::scatter;
use crate::error::{infer_err, NliError, Result};
use crate::model::{LoadOptions, TransformerModel};
use crate::source::ModelSource;

/// Mean-pooled sentence embeddings.
#[derive(Debug, Clone, PartialEq)]
pub struct Embeddings {
    /// One vector per input, in input order.
    pub vectors: Vec<Vec<f32>>,
    /// Inputs cut to the maximum length.
    pub truncated: usize,
}

/// Per-token hidden states of one layer.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenStates {
    /// For each input: one vector per token (special tokens included, no padding).
    pub states: Vec<Vec<Vec<f32>>>,
    /// Token ids of each input.
    pub ids: Vec<Vec<u32>>,
    /// Inputs cut to the maximum length.
    pub truncated: usize,
}

/// Encodes sentences into hidden states and mean-pooled embeddings.
#[derive(Debug)]
pub struct Embedder {
    model: TransformerModel,
}

impl Embedder {
    /// Loads any supported encoder (task heads, if present, are ignored).
    ///
    /// # Errors
    /// Missing files, an unsupported architecture or bad weights, named with the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let (model, _) = TransformerModel::load(source, opts, "embeddings")?;
        Ok(Self { model })
    }

    /// The underlying encoder.
    pub fn model(&self) -> &TransformerModel {
        &self.model
    }

    /// Mutable access to the encoder (batching, maximum length).
    pub fn model_mut(&mut self) -> &mut TransformerModel {
        &mut self.model
    }

    /// Number of selectable layers (see [`TransformerModel::exposed_layers`]).
    pub fn layers(&self) -> usize {
        self.model.exposed_layers()
    }

    /// Resolves a layer index: `None` = last; negative counts from the end (-1 = last);
    /// 0 = embedding output (transformers' `hidden_states[0]`), for every architecture.
    fn layer_index(&self, layer: Option<isize>) -> Result<usize> {
        let n = self.layers() as isize;
        let l = layer.unwrap_or(-1);
        let i = if l < 0 { n + l } else { l };
        if !(0..n).contains(&i) {
            return Err(NliError::Invalid {
                model: self.model.source.name(),
                message: format!("layer {l} out of range: this model exposes {n} hidden states"),
            });
        }
        Ok(i as usize)
    }

    /// Mean of the hidden states of `layer` over real (unpadded) tokens, optionally
    /// L2-normalised; special tokens are included, as sentence-transformers does.
    ///
    /// # Errors
    /// A bad layer index, tokenizer or inference failures.
    pub fn embed(
        &self,
        texts: &[&str],
        layer: Option<isize>,
        normalize: bool,
    ) -> Result<Embeddings> {
        let li = self.layer_index(layer)?;
        let name = self.model.source.name();
        let e = infer_err(&name);
        let inputs: Vec<_> = texts.iter().map(|t| (*t, None)).collect();
        let (encs, truncated) = self.model.encode_all(&inputs)?;
        let lengths: Vec<usize> = encs.iter().map(|x| x.ids.len()).collect();
        let mut out = Vec::new();
        for idx in self.model.batching.plan(&lengths) {
            let batch: Vec<_> = idx.iter().map(|&i| &encs[i]).collect();
            let (states, mask) = self.model.forward(&batch)?;
            let pooled = mean_pool(&states[li], &mask).map_err(&e)?;
            let pooled = if normalize {
                let norm = pooled
                    .sqr()
                    .and_then(|t| t.sum_keepdim(D::Minus1))
                    .and_then(|t| t.sqrt())
                    .and_then(|t| t.clamp(1e-12f32, f32::MAX))
                    .map_err(&e)?;
                pooled.broadcast_div(&norm).map_err(&e)?
            } else {
                pooled
            };
            out.push((idx, pooled.to_vec2::<f32>().map_err(&e)?));
        }
        Ok(Embeddings {
            vectors: scatter(texts.len(), out),
            truncated,
        })
    }

    /// Per-token hidden states of `layer` for sentences or pairs.
    ///
    /// # Errors
    /// A bad layer index, tokenizer or inference failures.
    pub fn token_states(
        &self,
        inputs: &[(&str, Option<&str>)],
        layer: Option<isize>,
    ) -> Result<TokenStates> {
        let li = self.layer_index(layer)?;
        let name = self.model.source.name();
        let e = infer_err(&name);
        let (encs, truncated) = self.model.encode_all(inputs)?;
        let lengths: Vec<usize> = encs.iter().map(|x| x.ids.len()).collect();
        let mut out = Vec::new();
        for idx in self.model.batching.plan(&lengths) {
            let batch: Vec<_> = idx.iter().map(|&i| &encs[i]).collect();
            let (states, _) = self.model.forward(&batch)?;
            let all: Vec<Vec<Vec<f32>>> = states[li]
                .to_dtype(DType::F32)
                .and_then(|t| t.to_vec3())
                .map_err(&e)?;
            let rows = all
                .into_iter()
                .zip(&idx)
                .map(|(mut s, &i)| {
                    s.truncate(encs[i].ids.len());
                    s
                })
                .collect();
            out.push((idx, rows));
        }
        Ok(TokenStates {
            states: scatter(inputs.len(), out),
            ids: encs.into_iter().map(|x| x.ids).collect(),
            truncated,
        })
    }
}

/// Attention-mask-aware mean over the sequence axis: `[b, s, h]`, `[b, s]` -> `[b, h]`.
pub(crate) fn mean_pool(states: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
    let states = states.to_dtype(DType::F32)?;
    let m = mask.unsqueeze(2)?;
    let sum = states.broadcast_mul(&m)?.sum(1)?;
    let count = m.sum(1)?.clamp(1e-9f32, f32::MAX)?;
    sum.broadcast_div(&count)
}
