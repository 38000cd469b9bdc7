//! The BERT-family encoder (BERT, RoBERTa, XLM-RoBERTa, MiniLM) with every layer's output.
//!
//! candle-transformers' `BertModel` returns only the last layer and numbers positions from 0,
//! which is wrong for RoBERTa (positions start after the padding index). BERTScore-style uses
//! need any layer, so this module keeps the same weight layout but exposes all hidden states.

use candle_core::{DType, Module, Result, Tensor};
use candle_nn::{
    embedding, layer_norm, linear, Activation, Embedding, LayerNorm, Linear, VarBuilder,
};

use crate::config::ModelConfig;
use crate::fast::{pack, pack_layer, EncoderModules, LayerModules, PackedEncoder};

/// Maps a transformers activation name to candle's.
pub(crate) fn activation(name: Option<&str>) -> Activation {
    match name.unwrap_or("gelu") {
        "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Activation::NewGelu,
        "relu" => Activation::Relu,
        "silu" | "swish" => Activation::Silu,
        _ => Activation::Gelu,
    }
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attn_out: Linear,
    attn_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    out_norm: LayerNorm,
}

/// A BERT-layout encoder.
pub(crate) struct BertEncoder {
    word: Embedding,
    position: Embedding,
    token_type: Option<Embedding>,
    norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    act: Activation,
}

/// The embedding modules of a BERT-layout encoder.
struct Embeddings {
    word: Embedding,
    position: Embedding,
    token_type: Option<Embedding>,
    norm: LayerNorm,
}

fn layer_norm_eps(cfg: &ModelConfig) -> f64 {
    cfg.layer_norm_eps.unwrap_or(1e-12)
}

fn load_embeddings(vb: &VarBuilder<'_>, cfg: &ModelConfig) -> Result<Embeddings> {
    let h = cfg.hidden_size;
    if cfg.num_attention_heads == 0 || !h.is_multiple_of(cfg.num_attention_heads) {
        candle_core::bail!(
            "hidden_size {h} is not a multiple of num_attention_heads {}",
            cfg.num_attention_heads
        );
    }
    let e = vb.pp("embeddings");
    Ok(Embeddings {
        word: embedding(cfg.vocab_size, h, e.pp("word_embeddings"))?,
        position: embedding(cfg.max_position_embeddings, h, e.pp("position_embeddings"))?,
        token_type: match cfg.type_vocab_size.unwrap_or(2) {
            0 => None,
            n => Some(embedding(n, h, e.pp("token_type_embeddings"))?),
        },
        norm: layer_norm(h, layer_norm_eps(cfg), e.pp("LayerNorm"))?,
    })
}

fn load_layer(vb: &VarBuilder<'_>, cfg: &ModelConfig, i: usize) -> Result<Layer> {
    let h = cfg.hidden_size;
    let eps = layer_norm_eps(cfg);
    let inter = cfg.intermediate_size.unwrap_or(4 * h);
    let l = vb.pp(format!("encoder.layer.{i}"));
    let a = l.pp("attention");
    Ok(Layer {
        query: linear(h, h, a.pp("self.query"))?,
        key: linear(h, h, a.pp("self.key"))?,
        value: linear(h, h, a.pp("self.value"))?,
        attn_out: linear(h, h, a.pp("output.dense"))?,
        attn_norm: layer_norm(h, eps, a.pp("output.LayerNorm"))?,
        intermediate: linear(h, inter, l.pp("intermediate.dense"))?,
        output: linear(inter, h, l.pp("output.dense"))?,
        out_norm: layer_norm(h, eps, l.pp("output.LayerNorm"))?,
    })
}

impl Layer {
    fn modules(&self) -> LayerModules<'_> {
        LayerModules {
            query: &self.query,
            key: &self.key,
            value: &self.value,
            attn_out: &self.attn_out,
            attn_norm: &self.attn_norm,
            intermediate: &self.intermediate,
            output: &self.output,
            out_norm: &self.out_norm,
        }
    }
}

/// Number of positions taken before the first token: RoBERTa numbers positions from
/// `padding_idx + 1`, BERT from 0.
pub(crate) fn position_offset(cfg: &ModelConfig, roberta: bool) -> usize {
    if roberta {
        cfg.pad_token_id.unwrap_or(1) as usize + 1
    } else {
        0
    }
}

impl BertEncoder {
    /// Loads from `vb` (already narrowed to the base-model prefix).
    pub(crate) fn load(vb: VarBuilder<'_>, cfg: &ModelConfig) -> Result<Self> {
        let Embeddings {
            word,
            position,
            token_type,
            norm,
        } = load_embeddings(&vb, cfg)?;
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| load_layer(&vb, cfg, i))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            word,
            position,
            token_type,
            norm,
            layers,
            heads: cfg.num_attention_heads,
            act: activation(cfg.hidden_act.as_deref()),
        })
    }

    /// The packed CPU copy of the encoder in `vb`, loaded layer by layer so that candle's
    /// tensors for at most one layer exist beside it; `None` when the packed path cannot run
    /// this configuration (see [`pack`]).
    pub(crate) fn pack(
        vb: &VarBuilder<'_>,
        cfg: &ModelConfig,
        roberta: bool,
    ) -> Result<Option<PackedEncoder>> {
        let emb = load_embeddings(vb, cfg)?;
        let modules = EncoderModules {
            word: emb.word,
            position: emb.position,
            token_type: emb.token_type,
            norm: emb.norm,
            heads: cfg.num_attention_heads,
            act: activation(cfg.hidden_act.as_deref()),
            position_offset: position_offset(cfg, roberta),
        };
        pack(modules, cfg.num_hidden_layers, |i| {
            pack_layer(&load_layer(vb, cfg, i)?.modules())
        })
    }

    /// Embedding output followed by every layer's output: `num_layers + 1` tensors `[b, s, h]`.
    ///
    /// `mask` is `[b, s]` with 1 for real tokens.
    pub(crate) fn forward(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        positions: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        let mut x = self.word.forward(ids)?;
        if let Some(tt) = &self.token_type {
            x = (x + tt.forward(type_ids)?)?;
        }
        x = (x + self.position.forward(positions)?)?;
        let mut x = self.norm.forward(&x)?;
        let bias = additive_mask(mask, x.dtype())?;
        let mut states = Vec::with_capacity(self.layers.len() + 1);
        states.push(x.clone());
        for layer in &self.layers {
            x = self.layer(layer, &x, &bias)?;
            states.push(x.clone());
        }
        Ok(states)
    }

    fn layer(&self, l: &Layer, x: &Tensor, bias: &Tensor) -> Result<Tensor> {
        let ctx = attention(x, &l.query, &l.key, &l.value, self.heads, bias)?;
        let a = l.attn_norm.forward(&(l.attn_out.forward(&ctx)? + x)?)?;
        let i = self.act.forward(&l.intermediate.forward(&a)?)?;
        l.out_norm.forward(&(l.output.forward(&i)? + a)?)
    }
}

/// `[b, s]` 0/1 mask to an additive `[b, 1, 1, s]` bias (large negative on padding).
pub(crate) fn additive_mask(mask: &Tensor, dtype: DType) -> Result<Tensor> {
    let m = mask.to_dtype(DType::F32)?;
    let bias = ((m - 1.0)? * 1e9)?;
    bias.unsqueeze(1)?.unsqueeze(1)?.to_dtype(dtype)
}

/// Multi-head scaled dot-product self-attention with an additive bias.
pub(crate) fn attention(
    x: &Tensor,
    q: &Linear,
    k: &Linear,
    v: &Linear,
    heads: usize,
    bias: &Tensor,
) -> Result<Tensor> {
    let (b, s, h) = x.dims3()?;
    let d = h / heads;
    let split = |t: Tensor| -> Result<Tensor> {
        t.reshape((b, s, heads, d))?.transpose(1, 2)?.contiguous()
    };
    let q = split(q.forward(x)?)?;
    let k = split(k.forward(x)?)?;
    let v = split(v.forward(x)?)?;
    let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?;
    let scores = scores.broadcast_add(bias)?;
    let probs = candle_nn::ops::softmax_last_dim(&scores)?;
    probs.matmul(&v)?.transpose(1, 2)?.reshape((b, s, h))
}
