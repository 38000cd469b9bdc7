//! The DistilBERT encoder with every layer's output.
//!
//! candle-transformers' `DistilBertModel` returns only the last layer and keeps its embedding
//! and block structs private, so they cannot be driven layer by layer. This is the minimal
//! encoder loop over the same weight names (`embeddings.*`, `transformer.layer.{i}.*`), with the
//! BERT module's attention; its outputs are `hidden_states` of transformers'
//! `DistilBertModel(..., output_hidden_states=True)`.

use candle_core::{Module, Result, Tensor};
use candle_nn::{
    embedding, layer_norm, linear, Activation, Embedding, LayerNorm, Linear, VarBuilder,
};

use crate::bert::{activation, additive_mask, attention};
use crate::config::ModelConfig;
use crate::fast::{pack, pack_layer, EncoderModules, LayerModules, PackedEncoder};

/// transformers hard-codes this epsilon for every DistilBERT layer norm.
const EPS: f64 = 1e-12;

struct Block {
    q: Linear,
    k: Linear,
    v: Linear,
    out: Linear,
    sa_norm: LayerNorm,
    lin1: Linear,
    lin2: Linear,
    out_norm: LayerNorm,
}

/// A DistilBERT encoder (`DistilBertModel` weights, optionally under a `distilbert.` prefix
/// the caller has already applied).
pub(crate) struct DistilBertEncoder {
    word: Embedding,
    position: Embedding,
    norm: LayerNorm,
    blocks: Vec<Block>,
    heads: usize,
    act: Activation,
}

fn check_heads(cfg: &ModelConfig) -> Result<()> {
    let h = cfg.hidden_size;
    if cfg.num_attention_heads == 0 || !h.is_multiple_of(cfg.num_attention_heads) {
        candle_core::bail!(
            "dim {h} is not a multiple of n_heads {}",
            cfg.num_attention_heads
        );
    }
    Ok(())
}

fn load_embeddings(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
) -> Result<(Embedding, Embedding, LayerNorm)> {
    check_heads(cfg)?;
    let h = cfg.hidden_size;
    let e = vb.pp("embeddings");
    Ok((
        embedding(cfg.vocab_size, h, e.pp("word_embeddings"))?,
        embedding(cfg.max_position_embeddings, h, e.pp("position_embeddings"))?,
        layer_norm(h, EPS, e.pp("LayerNorm"))?,
    ))
}

fn load_block(vb: &VarBuilder<'_>, cfg: &ModelConfig, i: usize) -> Result<Block> {
    let h = cfg.hidden_size;
    let inter = cfg.intermediate_size.unwrap_or(4 * h);
    let l = vb.pp(format!("transformer.layer.{i}"));
    let a = l.pp("attention");
    Ok(Block {
        q: linear(h, h, a.pp("q_lin"))?,
        k: linear(h, h, a.pp("k_lin"))?,
        v: linear(h, h, a.pp("v_lin"))?,
        out: linear(h, h, a.pp("out_lin"))?,
        sa_norm: layer_norm(h, EPS, l.pp("sa_layer_norm"))?,
        lin1: linear(h, inter, l.pp("ffn.lin1"))?,
        lin2: linear(inter, h, l.pp("ffn.lin2"))?,
        out_norm: layer_norm(h, EPS, l.pp("output_layer_norm"))?,
    })
}

impl Block {
    /// The block's modules in BERT's naming (DistilBERT has BERT's layer layout).
    fn modules(&self) -> LayerModules<'_> {
        LayerModules {
            query: &self.q,
            key: &self.k,
            value: &self.v,
            attn_out: &self.out,
            attn_norm: &self.sa_norm,
            intermediate: &self.lin1,
            output: &self.lin2,
            out_norm: &self.out_norm,
        }
    }
}

impl DistilBertEncoder {
    /// Loads from `vb` (already narrowed to the base-model prefix).
    pub(crate) fn load(vb: VarBuilder<'_>, cfg: &ModelConfig) -> Result<Self> {
        let (word, position, norm) = load_embeddings(&vb, cfg)?;
        let blocks = (0..cfg.num_hidden_layers)
            .map(|i| load_block(&vb, cfg, i))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            word,
            position,
            norm,
            blocks,
            heads: cfg.num_attention_heads,
            // DistilBERT's `activation` is `gelu` (exact, erf) or `relu`.
            act: activation(cfg.hidden_act.as_deref()),
        })
    }

    /// The packed CPU copy of the encoder in `vb`, loaded block by block (see
    /// `BertEncoder::pack`); DistilBERT has no segment embeddings.
    pub(crate) fn pack(vb: &VarBuilder<'_>, cfg: &ModelConfig) -> Result<Option<PackedEncoder>> {
        let (word, position, norm) = load_embeddings(vb, cfg)?;
        let modules = EncoderModules {
            word,
            position,
            token_type: None,
            norm,
            heads: cfg.num_attention_heads,
            act: activation(cfg.hidden_act.as_deref()),
            position_offset: 0,
        };
        pack(modules, cfg.num_hidden_layers, |i| {
            pack_layer(&load_block(vb, cfg, i)?.modules())
        })
    }

    /// Embedding output followed by every block's output: `n_layers + 1` tensors `[b, s, h]`.
    ///
    /// `positions` are `0..len` per row (padding rows arbitrary); `mask` is `[b, s]` with 1
    /// for real tokens.
    pub(crate) fn forward(
        &self,
        ids: &Tensor,
        positions: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        let x = (self.word.forward(ids)? + self.position.forward(positions)?)?;
        let mut x = self.norm.forward(&x)?;
        let bias = additive_mask(mask, x.dtype())?;
        let mut states = Vec::with_capacity(self.blocks.len() + 1);
        states.push(x.clone());
        for b in &self.blocks {
            let ctx = attention(&x, &b.q, &b.k, &b.v, self.heads, &bias)?;
            let a = b.sa_norm.forward(&(b.out.forward(&ctx)? + &x)?)?;
            let f = b.lin2.forward(&self.act.forward(&b.lin1.forward(&a)?)?)?;
            x = b.out_norm.forward(&(f + a)?)?;
            states.push(x.clone());
        }
        Ok(states)
    }
}
