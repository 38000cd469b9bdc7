//! The DeBERTa (v1) encoder with every layer's output: `model_type` "deberta", e.g.
//! microsoft/deberta-large-mnli, BERTScore's model for the figurative-narratives paper.
//!
//! candle-transformers implements only DeBERTa-v2/v3, whose attention differs: v1 projects query,
//! key and value with one bias-free matrix laid out head by head (`in_proj`, with separate
//! `q_bias` and `v_bias`), has no log-bucketed positions, no shared position keys and no norm on
//! the relative table. This follows transformers' `DebertaModel` operation by operation on padded
//! batches (the layer norm is BERT's: epsilon inside the square root).

use candle_core::{Module, Result, Tensor, D};
use candle_nn::{
    embedding, layer_norm, linear, linear_no_bias, Activation, Embedding, LayerNorm, Linear,
    VarBuilder,
};
use serde::Deserialize;

use crate::candle_ops::{activation, additive_mask};
use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::classifier_head::ClassifierHead;
use crate::config::{check_layers, ModelConfig};
use crate::models::CandleEncoder;

/// DeBERTa v1 checkpoints (`DebertaModel`, or a task model's `deberta.` prefix).
pub(crate) const SPEC: Spec = Spec {
    model_types: &["deberta"],
    prefixes: &["deberta"],
    probe: "embeddings.word_embeddings.weight",
    // GPT-2's byte-level BPE with BERT's special tokens and segments.
    bpe_specials: BpeSpecials::Bert,
};

/// transformers' `DebertaConfig` default.
const DEFAULT_EPS: f64 = 1e-7;

/// `pos_att_type` as configs write it: a list, or a string such as `"c2p|p2c"` (older
/// checkpoints, microsoft/deberta-large-mnli among them).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(untagged)]
enum PosAttType {
    List(Vec<String>),
    Joined(String),
    #[default]
    None,
}

impl PosAttType {
    /// Lower-cased entries, as `DebertaConfig.__init__` normalises them.
    fn entries(&self) -> Vec<String> {
        match self {
            PosAttType::List(v) => v.iter().map(|x| x.trim().to_lowercase()).collect(),
            PosAttType::Joined(s) => s.split('|').map(|x| x.trim().to_lowercase()).collect(),
            PosAttType::None => Vec::new(),
        }
    }
}

/// The v1 settings beyond [`ModelConfig`], with `DebertaConfig`'s defaults.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct DebertaV1Config {
    #[serde(default)]
    relative_attention: bool,
    #[serde(default = "minus_one")]
    max_relative_positions: i64,
    #[serde(default = "yes")]
    position_biased_input: bool,
    #[serde(default)]
    pos_att_type: Option<PosAttType>,
    #[serde(default)]
    embedding_size: Option<usize>,
    #[serde(default)]
    talking_head: bool,
    /// The classification head's context pooler: width (default `hidden_size`) and activation
    /// (default `gelu`).
    #[serde(default)]
    pooler_hidden_size: Option<usize>,
    #[serde(default)]
    pooler_hidden_act: Option<String>,
}

fn minus_one() -> i64 {
    -1
}

fn yes() -> bool {
    true
}

struct Layer {
    in_proj: Linear,
    q_bias: Tensor,
    v_bias: Tensor,
    pos_proj: Option<Linear>,
    pos_q_proj: Option<Linear>,
    attn_out: Linear,
    attn_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    out_norm: LayerNorm,
}

/// A DeBERTa v1 encoder (`DebertaModel` weights, the `deberta.` prefix already applied).
pub(crate) struct DebertaV1Encoder {
    word: Embedding,
    position: Option<Embedding>,
    token_type: Option<Embedding>,
    embed_proj: Option<Linear>,
    norm: LayerNorm,
    layers: Vec<Layer>,
    /// `encoder.rel_embeddings` (`[2 * max_rel, hidden]`) when attention is relative.
    rel: Option<Tensor>,
    max_rel: usize,
    /// `1 + len(pos_att_type)`: the query (and p2c position query) scale is
    /// `sqrt(head_dim * scale_factor)`.
    scale_factor: usize,
    heads: usize,
    act: Activation,
}

impl DebertaV1Encoder {
    /// Loads from `vb` (already narrowed to the base-model prefix).
    pub(crate) fn load(
        vb: VarBuilder<'_>,
        cfg: &ModelConfig,
        v1: &DebertaV1Config,
    ) -> Result<Self> {
        let h = cfg.hidden_size;
        let heads = cfg.num_attention_heads;
        if heads == 0 || !h.is_multiple_of(heads) {
            candle_core::bail!("hidden_size {h} is not a multiple of num_attention_heads {heads}");
        }
        if v1.talking_head {
            candle_core::bail!("talking_head attention is not supported");
        }
        let eps = cfg.layer_norm_eps.unwrap_or(DEFAULT_EPS);
        let inter = cfg.intermediate_size.unwrap_or(4 * h);
        let emb_size = v1.embedding_size.unwrap_or(h);
        let e = vb.pp("embeddings");
        let word = embedding(cfg.vocab_size, emb_size, e.pp("word_embeddings"))?;
        let position = if v1.position_biased_input {
            Some(embedding(
                cfg.max_position_embeddings,
                emb_size,
                e.pp("position_embeddings"),
            )?)
        } else {
            None
        };
        let token_type = match cfg.type_vocab_size.unwrap_or(0) {
            0 => None,
            n => Some(embedding(n, emb_size, e.pp("token_type_embeddings"))?),
        };
        let embed_proj = if emb_size != h {
            Some(linear_no_bias(emb_size, h, e.pp("embed_proj"))?)
        } else {
            None
        };
        let norm = layer_norm(h, eps, e.pp("LayerNorm"))?;
        let types = v1.pos_att_type.clone().unwrap_or_default().entries();
        let relative = v1.relative_attention;
        let c2p = relative && types.iter().any(|t| t == "c2p");
        let p2c = relative && types.iter().any(|t| t == "p2c");
        let max_rel = if v1.max_relative_positions < 1 {
            cfg.max_position_embeddings
        } else {
            v1.max_relative_positions as usize
        };
        // Every layer is looked up before any is loaded (see `check_layers`).
        check_layers(&vb, "num_hidden_layers", cfg.num_hidden_layers, |i| {
            format!("encoder.layer.{i}.attention.self.in_proj.weight")
        })?;
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| {
                let l = vb.pp(format!("encoder.layer.{i}"));
                let a = l.pp("attention");
                let s = a.pp("self");
                Ok(Layer {
                    in_proj: linear_no_bias(h, 3 * h, s.pp("in_proj"))?,
                    q_bias: s.get(h, "q_bias")?,
                    v_bias: s.get(h, "v_bias")?,
                    pos_proj: if c2p {
                        Some(linear_no_bias(h, h, s.pp("pos_proj"))?)
                    } else {
                        None
                    },
                    pos_q_proj: if p2c {
                        Some(linear(h, h, s.pp("pos_q_proj"))?)
                    } else {
                        None
                    },
                    attn_out: linear(h, h, a.pp("output.dense"))?,
                    attn_norm: layer_norm(h, eps, a.pp("output.LayerNorm"))?,
                    intermediate: linear(h, inter, l.pp("intermediate.dense"))?,
                    output: linear(inter, h, l.pp("output.dense"))?,
                    out_norm: layer_norm(h, eps, l.pp("output.LayerNorm"))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let rel = if relative {
            Some(vb.get((2 * max_rel, h), "encoder.rel_embeddings.weight")?)
        } else {
            None
        };
        Ok(Self {
            word,
            position,
            token_type,
            embed_proj,
            norm,
            layers,
            rel,
            max_rel,
            scale_factor: 1 + types.len(),
            heads,
            act: activation(cfg.hidden_act.as_deref()),
        })
    }

    /// Embedding output followed by every layer's output: `num_layers + 1` tensors `[b, s, h]`.
    ///
    /// `mask` is `[b, s]` with 1 for real tokens.
    pub(crate) fn forward(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        let (b, s) = ids.dims2()?;
        let mut x = self.word.forward(ids)?;
        if let Some(p) = &self.position {
            let pos = Tensor::arange(0u32, s as u32, ids.device())?.unsqueeze(0)?;
            x = x.broadcast_add(&p.forward(&pos)?)?;
        }
        if let Some(tt) = &self.token_type {
            x = (x + tt.forward(type_ids)?)?;
        }
        if let Some(proj) = &self.embed_proj {
            x = proj.forward(&x)?;
        }
        let x = self.norm.forward(&x)?;
        // transformers zeroes the padded positions' embeddings.
        let mut x = x.broadcast_mul(&mask.to_dtype(x.dtype())?.unsqueeze(2)?)?;
        let bias = additive_mask(mask, x.dtype())?;
        let rel = self.relative_tables(b, s, x.device())?;
        let mut states = Vec::with_capacity(self.layers.len() + 1);
        states.push(x.clone());
        for layer in &self.layers {
            x = self.layer(layer, &x, &bias, rel.as_ref())?;
            states.push(x.clone());
        }
        Ok(states)
    }

    /// The relative table's rows for the attention span and the gather indices of c2p and p2c
    /// for a batch of `b` sequences of length `s`, shared by every layer; `None` without
    /// relative attention.
    fn relative_tables(
        &self,
        b: usize,
        s: usize,
        device: &candle_core::Device,
    ) -> Result<Option<Relative>> {
        let Some(rel) = &self.rel else {
            return Ok(None);
        };
        let span = s.min(self.max_rel);
        let rows = rel.narrow(0, self.max_rel - span, 2 * span)?;
        let top = 2 * span as i64 - 1;
        // relative_pos[i][j] = i - j; c2p reads clamp(i - j + span), p2c clamp(j - i + span).
        let index = |sign: i64| -> Result<Tensor> {
            let v: Vec<u32> = (0..s as i64)
                .flat_map(|i| {
                    (0..s as i64).map(move |j| (sign * (i - j) + span as i64).clamp(0, top) as u32)
                })
                .collect();
            Tensor::from_vec(v, (s, s), device)?
                .broadcast_as((b, self.heads, s, s))?
                .contiguous()
        };
        Ok(Some(Relative {
            rows,
            c2p: index(1)?,
            p2c: index(-1)?,
        }))
    }

    /// `[b, s, all]` to `[b, heads, s, all / heads]`.
    fn heads_first(&self, t: &Tensor) -> Result<Tensor> {
        let (b, s, all) = t.dims3()?;
        t.reshape((b, s, self.heads, all / self.heads))?
            .transpose(1, 2)?
            .contiguous()
    }

    fn layer(
        &self,
        l: &Layer,
        x: &Tensor,
        bias: &Tensor,
        rel: Option<&Relative>,
    ) -> Result<Tensor> {
        let (b, s, h) = x.dims3()?;
        let d = h / self.heads;
        // in_proj's rows are laid out head by head: [q_0 k_0 v_0 q_1 k_1 v_1 ...].
        let qkv = self.heads_first(&l.in_proj.forward(x)?)?;
        let bias_of = |t: &Tensor| t.reshape((1, self.heads, 1, d));
        let q = qkv
            .narrow(D::Minus1, 0, d)?
            .broadcast_add(&bias_of(&l.q_bias)?)?;
        let k = qkv.narrow(D::Minus1, d, d)?.contiguous()?;
        let v = qkv
            .narrow(D::Minus1, 2 * d, d)?
            .broadcast_add(&bias_of(&l.v_bias)?)?;
        let scale = ((d * self.scale_factor) as f32).sqrt() as f64;
        let q = (q / scale)?.contiguous()?;
        let mut scores = q.matmul(&k.t()?)?;
        if let Some(r) = rel {
            if let Some(pos_proj) = &l.pos_proj {
                // [1, 2span, h] -> [1, heads, 2span, d]
                let pk = self.heads_first(&pos_proj.forward(&r.rows.unsqueeze(0)?)?)?;
                let c2p = q.broadcast_matmul(&pk.t()?)?;
                scores = (scores + c2p.contiguous()?.gather(&r.c2p, D::Minus1)?)?;
            }
            if let Some(pos_q_proj) = &l.pos_q_proj {
                let pq = self.heads_first(&pos_q_proj.forward(&r.rows.unsqueeze(0)?)?)?;
                let pq = (pq / scale)?;
                let p2c = k.broadcast_matmul(&pq.t()?)?;
                let p2c = p2c.contiguous()?.gather(&r.p2c, D::Minus1)?;
                scores = (scores + p2c.transpose(2, 3)?)?;
            }
        }
        let scores = scores.broadcast_add(bias)?;
        let probs = candle_nn::ops::softmax_last_dim(&scores)?;
        let ctx = probs
            .matmul(&v.contiguous()?)?
            .transpose(1, 2)?
            .reshape((b, s, h))?;
        let a = l.attn_norm.forward(&(l.attn_out.forward(&ctx)? + x)?)?;
        let i = self.act.forward(&l.intermediate.forward(&a)?)?;
        l.out_norm.forward(&(l.output.forward(&i)? + a)?)
    }
}

/// What every layer shares for one sequence length.
struct Relative {
    /// `rel_embeddings[max_rel - span .. max_rel + span]`.
    rows: Tensor,
    /// `[b, heads, s, s]` gather indices into the `2 * span` relative positions.
    c2p: Tensor,
    p2c: Tensor,
}

/// `pooler_hidden_act`: transformers' `ACT2FN` names; candle's activations lack tanh.
enum PoolerAct {
    Tanh,
    Other(Activation),
}

impl PoolerAct {
    fn parse(name: Option<&str>) -> Self {
        match name {
            Some("tanh") => PoolerAct::Tanh,
            other => PoolerAct::Other(activation(other)),
        }
    }

    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        match self {
            PoolerAct::Tanh => x.tanh(),
            PoolerAct::Other(a) => a.forward(x),
        }
    }
}

/// `DebertaForSequenceClassification`'s head: the context pooler (`pooler.dense` +
/// `pooler_hidden_act` on the first token), then `classifier`.
pub(crate) struct Head {
    dense: Linear,
    act: PoolerAct,
    classifier: Linear,
}

/// The classification head, from the root var builder.
pub(crate) fn head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    v1: &DebertaV1Config,
    labels: usize,
) -> Result<Head> {
    let h = cfg.hidden_size;
    let pooler = v1.pooler_hidden_size.unwrap_or(h);
    Ok(Head {
        dense: linear(h, pooler, vb.pp("pooler.dense"))?,
        // transformers' default `pooler_hidden_act` is "gelu", as `activation(None)`.
        act: PoolerAct::parse(v1.pooler_hidden_act.as_deref()),
        // ContextPooler.output_dim is hidden_size, whatever the pooler's width.
        classifier: linear(h, labels, vb.pp("classifier"))?,
    })
}

impl ClassifierHead for Head {
    fn forward(&self, cls: &Tensor) -> Result<Tensor> {
        self.classifier
            .forward(&self.act.forward(&self.dense.forward(cls)?)?)
    }
}

impl CandleEncoder for DebertaV1Encoder {
    fn hidden_states(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        _positions: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        self.forward(ids, type_ids, mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_att_type_reads_lists_and_joined_strings() {
        let parse = |json: &str| -> Vec<String> {
            let c: DebertaV1Config = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"));
            c.pos_att_type.unwrap_or_default().entries()
        };
        assert_eq!(parse(r#"{"pos_att_type": "c2p|p2c"}"#), ["c2p", "p2c"]);
        assert_eq!(parse(r#"{"pos_att_type": "P2C | c2p"}"#), ["p2c", "c2p"]);
        assert_eq!(parse(r#"{"pos_att_type": ["c2p"]}"#), ["c2p"]);
        assert_eq!(parse(r#"{"pos_att_type": null}"#), Vec::<String>::new());
        assert!(parse("{}").is_empty());
    }

    #[test]
    fn defaults_follow_debertaconfig() {
        let c: DebertaV1Config = serde_json::from_str("{}").unwrap_or_else(|e| panic!("{e}"));
        assert!(!c.relative_attention);
        assert_eq!(c.max_relative_positions, -1);
        assert!(c.position_biased_input);
        assert!(!c.talking_head);
    }
}
