//! Hidden states and attention-mask-aware mean pooling (sentence embeddings, BERTScore).

use crate::error::{NliError, Result};
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
    /// Loads any supported encoder (task heads, if present, are ignored; every tensor of the
    /// base model but its pooler must be used, or the load fails naming it).
    ///
    /// # Errors
    /// Missing files, an unsupported architecture or bad weights, named with the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let (model, _, ledger) = TransformerModel::load(source, opts, "embeddings")?;
        // Like transformers' AutoModel, the base model only: a task head's tensors (outside
        // the base-model prefix) are not read, and neither is the pooler, which the hidden
        // states do not go through. Every other tensor of the base model must be used.
        let scope = model.base_scope();
        model.check_weights(
            &ledger,
            "encoder",
            &scope,
            &[(
                "*pooler.*",
                "the pooler: hidden states do not go through it",
            )],
        )?;
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
        let inputs: Vec<_> = texts.iter().map(|t| (*t, None)).collect();
        let (encs, truncated) = self.model.encode_all(&inputs)?;
        let h = self.model.config.hidden_size;
        let rows = self.model.layer_rows(&encs, li, false)?;
        let vectors = rows
            .iter()
            .map(|r| {
                let mut v = mean_rows(r, h);
                if normalize {
                    // sentence-transformers' Normalize: x / max(||x||, 1e-12).
                    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
                    v.iter_mut().for_each(|x| *x /= norm);
                }
                v
            })
            .collect();
        Ok(Embeddings { vectors, truncated })
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
        let (encs, truncated) = self.model.encode_all(inputs)?;
        let h = self.model.config.hidden_size;
        let states = self
            .model
            .layer_rows(&encs, li, false)?
            .into_iter()
            .map(|r| r.chunks_exact(h).map(<[f32]>::to_vec).collect())
            .collect();
        Ok(TokenStates {
            states,
            ids: encs.into_iter().map(|x| x.ids).collect(),
            truncated,
        })
    }
}

/// Mean of the `width`-long rows of `rows` (a zero vector for no rows).
fn mean_rows(rows: &[f32], width: usize) -> Vec<f32> {
    let mut sum = vec![0f32; width];
    let n = rows.len() / width.max(1);
    for r in rows.chunks_exact(width) {
        sum.iter_mut().zip(r).for_each(|(s, x)| *s += x);
    }
    let count = (n as f32).max(1e-9);
    sum.iter_mut().for_each(|s| *s /= count);
    sum
}
