//! The BERT-layout encoder (BERT, RoBERTa, XLM-RoBERTa, CamemBERT, MiniLM; DistilBERT through
//! its own name table) with every layer's output.
//!
//! candle-transformers' `BertModel` returns only the last layer and numbers positions from 0,
//! which is wrong for RoBERTa (positions start after the padding index). BERTScore-style uses
//! need any layer, so this module keeps the same weight layout but exposes all hidden states.
//! The layer code is written once against roles (query, key... output norm); a [`LayerNames`]
//! table says where a checkpoint keeps each role, so DistilBERT, whose layers are BERT's under
//! other names, loads and packs through the same functions.

use candle_core::{Module, Result, Tensor};
use candle_nn::{
    embedding, layer_norm, linear, Activation, Embedding, LayerNorm, Linear, VarBuilder,
};

use super::head::ClassifierHead;
use super::ops::{activation, additive_mask, attention};
use super::spec::{BpeSpecials, Spec};
use crate::config::{check_layers, ModelConfig};
use crate::packed::{pack, pack_layer, EncoderModules, LayerModules, PackedEncoder};

/// BERT (and MiniLM, which is a BERT checkpoint), and BLEURT's BERT-based checkpoints in the
/// PyTorch port's layout (`BleurtForSequenceClassification`: the encoder under `bleurt.`).
pub(crate) const BERT: Spec = Spec {
    model_types: &["bert", "bleurt"],
    prefixes: &["bert", "bleurt"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::None,
    packed: true,
};

/// The RoBERTa family: BERT's layers, positions numbered after the padding index.
pub(crate) const ROBERTA: Spec = Spec {
    model_types: &["roberta", "xlm-roberta", "camembert"],
    // Some RoBERTa-derived checkpoints were saved from BERT classes.
    prefixes: &["roberta", "bert"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::Roberta,
    packed: true,
};

/// Where a BERT-layout checkpoint keeps each role's tensors: layer `i`'s roles live under
/// `{layers}.{i}.{role}`.
#[derive(Debug)]
pub(crate) struct LayerNames {
    pub layers: &'static str,
    pub query: &'static str,
    pub key: &'static str,
    pub value: &'static str,
    pub attn_out: &'static str,
    pub attn_norm: &'static str,
    pub intermediate: &'static str,
    pub output: &'static str,
    pub out_norm: &'static str,
}

/// BERT's own names.
pub(crate) const BERT_NAMES: LayerNames = LayerNames {
    layers: "encoder.layer",
    query: "attention.self.query",
    key: "attention.self.key",
    value: "attention.self.value",
    attn_out: "attention.output.dense",
    attn_norm: "attention.output.LayerNorm",
    intermediate: "intermediate.dense",
    output: "output.dense",
    out_norm: "output.LayerNorm",
};

/// Everything that differs between checkpoints of the BERT layout.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Where each role's tensors are.
    pub names: &'static LayerNames,
    /// Epsilon of every layer norm.
    pub eps: f64,
    /// Segment-embedding rows; 0 when the model has no segment embedding.
    pub token_types: usize,
    /// Positions taken before the first token (RoBERTa: padding index + 1).
    pub position_offset: usize,
    /// Width of the embeddings when it differs from the hidden size (ALBERT's factorised
    /// embeddings), with the linear map from it to the hidden size.
    pub factorised: Option<Factorised>,
    /// Layers shared across the depth (ALBERT), `None` for one set of weights per layer.
    pub groups: Option<Groups>,
    /// Where the layer norms are.
    pub norms: Norms,
}

/// Where a layout's layer norms sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Norms {
    /// BERT's: after the embeddings and after each residual sum.
    Post,
    /// XLM-RoBERTa XL's: before each block (the residual stream is not normalised), none after
    /// the embeddings, and `last` after the last layer.
    Pre { last: &'static str },
}

/// Embeddings narrower than the hidden size, projected up before the first layer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Factorised {
    /// The embedding width.
    pub width: usize,
    /// Where the projection to the hidden size is.
    pub projection: &'static str,
}

/// Layer weights shared across the depth: `count` groups of `inner` layers; group `g`'s layer
/// `j` lives under `{names.layers}.{g}.{inner_name}.{j}`, and step `i` of the
/// `num_hidden_layers` steps runs all layers of one group (see [`group_of`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Groups {
    pub count: usize,
    pub inner: usize,
    pub inner_name: &'static str,
}

/// The group step `i` of `depth` runs: transformers' `int(i / (depth / count))`, in floating
/// point as there (ALBERT's `AlbertTransformer.forward`).
pub(crate) fn group_of(i: usize, depth: usize, count: usize) -> usize {
    (i as f64 / (depth as f64 / count as f64)) as usize
}

/// BLEURT's projection of the embeddings to the hidden size (bleurt-pytorch's
/// `BleurtEncoder.embedding_projection`), relative to the base model.
pub(crate) const BLEURT_PROJECTION: &str = "encoder.embedding_projection";

/// The layout of a BERT (`roberta: false`) or RoBERTa-family checkpoint; `projection` is
/// BLEURT's embedding width when its embeddings are projected to the hidden size.
pub(crate) fn layout(cfg: &ModelConfig, roberta: bool, projection: Option<usize>) -> Layout {
    Layout {
        names: &BERT_NAMES,
        eps: cfg.layer_norm_eps.unwrap_or(1e-12),
        token_types: cfg.type_vocab_size.unwrap_or(2),
        // RoBERTa numbers positions from `padding_idx + 1`, BERT from 0.
        position_offset: if roberta {
            cfg.pad_token_id.unwrap_or(1) as usize + 1
        } else {
            0
        },
        factorised: projection.map(|width| Factorised {
            width,
            projection: BLEURT_PROJECTION,
        }),
        groups: None,
        norms: Norms::Post,
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
    /// After the embeddings (post-LayerNorm layouts).
    norm: Option<LayerNorm>,
    /// After the last layer (pre-LayerNorm layouts).
    last_norm: Option<LayerNorm>,
    /// The projection of factorised embeddings to the hidden size.
    projection: Option<Linear>,
    /// Distinct layers (shared ones once).
    layers: Vec<Layer>,
    /// Per hidden state after the embeddings, the indices into `layers` that produce it.
    steps: Vec<Vec<usize>>,
    heads: usize,
    act: Activation,
}

/// The embedding modules of a BERT-layout encoder.
struct Embeddings {
    word: Embedding,
    position: Embedding,
    token_type: Option<Embedding>,
    /// `None` for pre-LayerNorm layouts.
    norm: Option<LayerNorm>,
}

fn load_embeddings(vb: &VarBuilder<'_>, cfg: &ModelConfig, lay: &Layout) -> Result<Embeddings> {
    let h = cfg.hidden_size;
    if cfg.num_attention_heads == 0 || !h.is_multiple_of(cfg.num_attention_heads) {
        candle_core::bail!(
            "hidden_size {h} is not a multiple of num_attention_heads {}",
            cfg.num_attention_heads
        );
    }
    let w = lay.factorised.map_or(h, |f| f.width);
    let e = vb.pp("embeddings");
    Ok(Embeddings {
        word: embedding(cfg.vocab_size, w, e.pp("word_embeddings"))?,
        position: embedding(cfg.max_position_embeddings, w, e.pp("position_embeddings"))?,
        token_type: match lay.token_types {
            0 => None,
            n => Some(embedding(n, w, e.pp("token_type_embeddings"))?),
        },
        norm: match lay.norms {
            Norms::Post => Some(layer_norm(w, lay.eps, e.pp("LayerNorm"))?),
            Norms::Pre { .. } => None,
        },
    })
}

/// Where each distinct layer's weights are, and per hidden state after the embeddings the
/// indices of the layers that produce it: one layer each, or a whole shared group (ALBERT).
/// The layers are first looked up in `vb`, so that a config claiming more layers than the
/// weights hold fails naming the first missing tensor before anything is sized by its depth.
fn layer_plan(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    lay: &Layout,
) -> Result<(Vec<String>, Vec<Vec<usize>>)> {
    let depth = cfg.num_hidden_layers;
    let n = lay.names.layers;
    let probe = lay.names.query;
    let Some(g) = lay.groups else {
        check_layers(vb, "num_hidden_layers", depth, |i| {
            format!("{n}.{i}.{probe}.weight")
        })?;
        return Ok((
            (0..depth).map(|i| format!("{n}.{i}")).collect(),
            (0..depth).map(|i| vec![i]).collect(),
        ));
    };
    if g.count == 0 || g.inner == 0 || g.count > depth.max(1) {
        candle_core::bail!(
            "{} layer groups of {} layers cannot make {depth} layers",
            g.count,
            g.inner
        );
    }
    // Shared layers run `depth` times whatever the weights hold, so the depth cannot be
    // checked against them; a bound well above any published model keeps the per-step plan
    // (and the hidden states a forward pass returns) from being sized by an absurd claim.
    if depth > MAX_SHARED_DEPTH {
        candle_core::bail!(
            "num_hidden_layers = {depth} steps of shared layers is more than this crate runs (at most {MAX_SHARED_DEPTH}; published ALBERT models have 12 or 24)"
        );
    }
    check_layers(vb, "num_hidden_groups", g.count, |k| {
        format!("{n}.{k}.{}.0.{probe}.weight", g.inner_name)
    })?;
    for k in 0..g.count {
        check_layers(vb, "inner_group_num", g.inner, |j| {
            format!("{n}.{k}.{}.{j}.{probe}.weight", g.inner_name)
        })?;
    }
    let mut paths = Vec::new();
    for k in 0..g.count {
        for j in 0..g.inner {
            paths.push(format!("{n}.{k}.{}.{j}", g.inner_name));
        }
    }
    let steps = (0..depth)
        .map(|i| {
            let k = group_of(i, depth, g.count);
            (k * g.inner..(k + 1) * g.inner).collect()
        })
        .collect();
    Ok((paths, steps))
}

/// The most steps of shared layers (ALBERT's `num_hidden_layers`) a model may take.
pub(crate) const MAX_SHARED_DEPTH: usize = 4096;

/// The projection of factorised embeddings to the hidden size.
fn projection(vb: &VarBuilder<'_>, cfg: &ModelConfig, lay: &Layout) -> Result<Option<Linear>> {
    lay.factorised
        .map(|f| linear(f.width, cfg.hidden_size, vb.pp(f.projection)))
        .transpose()
}

/// The norm after the last layer of pre-LayerNorm layouts.
fn last_norm(vb: &VarBuilder<'_>, cfg: &ModelConfig, lay: &Layout) -> Result<Option<LayerNorm>> {
    match lay.norms {
        Norms::Post => Ok(None),
        Norms::Pre { last } => Ok(Some(layer_norm(cfg.hidden_size, lay.eps, vb.pp(last))?)),
    }
}

fn load_layer_at(l: VarBuilder<'_>, cfg: &ModelConfig, lay: &Layout) -> Result<Layer> {
    let h = cfg.hidden_size;
    let (n, eps) = (lay.names, lay.eps);
    let inter = cfg.intermediate_size.unwrap_or(4 * h);
    Ok(Layer {
        query: linear(h, h, l.pp(n.query))?,
        key: linear(h, h, l.pp(n.key))?,
        value: linear(h, h, l.pp(n.value))?,
        attn_out: linear(h, h, l.pp(n.attn_out))?,
        attn_norm: layer_norm(h, eps, l.pp(n.attn_norm))?,
        intermediate: linear(h, inter, l.pp(n.intermediate))?,
        output: linear(inter, h, l.pp(n.output))?,
        out_norm: layer_norm(h, eps, l.pp(n.out_norm))?,
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

/// The packed CPU copy of the encoder in `vb`, loaded layer by layer so that candle's tensors
/// for at most one layer exist beside it; `None` when the packed path cannot run this
/// configuration (see [`pack`]).
pub(crate) fn pack_encoder(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    lay: &Layout,
) -> Result<Option<PackedEncoder>> {
    let (paths, steps) = layer_plan(vb, cfg, lay)?;
    let emb = load_embeddings(vb, cfg, lay)?;
    let modules = EncoderModules {
        word: emb.word,
        position: emb.position,
        token_type: emb.token_type,
        norm: emb.norm,
        last_norm: last_norm(vb, cfg, lay)?,
        heads: cfg.num_attention_heads,
        act: activation(cfg.hidden_act.as_deref()),
        position_offset: lay.position_offset,
        projection: projection(vb, cfg, lay)?,
    };
    pack(modules, paths.len(), steps, |i| {
        pack_layer(&load_layer_at(vb.pp(&paths[i]), cfg, lay)?.modules())
    })
}

impl BertEncoder {
    /// Loads from `vb` (already narrowed to the base-model prefix).
    pub(crate) fn load(vb: VarBuilder<'_>, cfg: &ModelConfig, lay: &Layout) -> Result<Self> {
        let Embeddings {
            word,
            position,
            token_type,
            norm,
        } = load_embeddings(&vb, cfg, lay)?;
        let (paths, steps) = layer_plan(&vb, cfg, lay)?;
        let layers = paths
            .iter()
            .map(|at| load_layer_at(vb.pp(at), cfg, lay))
            .collect::<Result<Vec<_>>>()?;
        let projection = projection(&vb, cfg, lay)?;
        let last_norm = last_norm(&vb, cfg, lay)?;
        Ok(Self {
            word,
            position,
            token_type,
            norm,
            last_norm,
            projection,
            layers,
            steps,
            heads: cfg.num_attention_heads,
            act: activation(cfg.hidden_act.as_deref()),
        })
    }

    /// Embedding output followed by every layer's output: `num_layers + 1` tensors `[b, s, h]`.
    /// With factorised embeddings the first is the embeddings projected to the hidden size;
    /// with shared layer groups each later one is a whole group's output.
    ///
    /// `type_ids` are read only when the model has segment embeddings; `mask` is `[b, s]` with
    /// 1 for real tokens.
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
        if let Some(n) = &self.norm {
            x = n.forward(&x)?;
        }
        if let Some(p) = &self.projection {
            x = p.forward(&x)?;
        }
        let bias = additive_mask(mask, x.dtype())?;
        let mut states = Vec::with_capacity(self.steps.len() + 1);
        states.push(x.clone());
        for step in &self.steps {
            for &l in step {
                x = self.layer(&self.layers[l], &x, &bias)?;
            }
            states.push(x.clone());
        }
        // transformers' pre-LayerNorm encoders report the last state after the final norm.
        if let (Some(n), Some(last)) = (&self.last_norm, states.last_mut()) {
            *last = n.forward(last)?;
        }
        Ok(states)
    }

    fn layer(&self, l: &Layer, x: &Tensor, bias: &Tensor) -> Result<Tensor> {
        if self.last_norm.is_some() {
            // Pre-LayerNorm: each block reads a normalised copy and adds to the raw stream.
            let ctx = attention(
                &l.attn_norm.forward(x)?,
                &l.query,
                &l.key,
                &l.value,
                self.heads,
                bias,
            )?;
            let a = (l.attn_out.forward(&ctx)? + x)?;
            let i = self
                .act
                .forward(&l.intermediate.forward(&l.out_norm.forward(&a)?)?)?;
            return l.output.forward(&i)? + a;
        }
        let ctx = attention(x, &l.query, &l.key, &l.value, self.heads, bias)?;
        let a = l.attn_norm.forward(&(l.attn_out.forward(&ctx)? + x)?)?;
        let i = self.act.forward(&l.intermediate.forward(&a)?)?;
        l.out_norm.forward(&(l.output.forward(&i)? + a)?)
    }
}

/// The head of `BertForSequenceClassification` (pooler: dense + tanh on `[CLS]`, then the
/// classifier) or of RoBERTa's (`classifier.dense` + tanh, then `classifier.out_proj`, on
/// `<s>`): the same computation under two sets of names.
pub(crate) struct TanhHead {
    dense: Linear,
    out: Linear,
}

/// The classification head of a BERT (`roberta: false`) or RoBERTa-family checkpoint, from
/// the root var builder.
pub(crate) fn head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    labels: usize,
    roberta: bool,
) -> Result<TanhHead> {
    let (dense, out) = if roberta {
        ("classifier.dense", "classifier.out_proj")
    } else if vb.contains_tensor("bleurt.pooler.dense.weight") {
        ("bleurt.pooler.dense", "classifier")
    } else {
        ("bert.pooler.dense", "classifier")
    };
    tanh_head(vb, cfg, labels, dense, out)
}

/// A [`TanhHead`] whose dense layer and output layer are at `dense` and `out`.
pub(crate) fn tanh_head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    labels: usize,
    dense: &str,
    out: &str,
) -> Result<TanhHead> {
    let h = cfg.hidden_size;
    Ok(TanhHead {
        dense: linear(h, h, vb.pp(dense))?,
        out: linear(h, labels, vb.pp(out))?,
    })
}

/// The head of `BertForMultipleChoice` / `RobertaForMultipleChoice`: the base model's pooler
/// (dense + tanh on the first token) and `classifier` with one output, the choice's logit.
/// (RoBERTa's multiple-choice head uses the pooler, unlike its sequence-classification head.)
pub(crate) fn choice_head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    roberta: bool,
) -> Result<TanhHead> {
    let pooler = if roberta {
        "roberta.pooler.dense"
    } else {
        "bert.pooler.dense"
    };
    tanh_head(vb, cfg, 1, pooler, "classifier")
}

impl ClassifierHead for TanhHead {
    fn forward(&self, cls: &Tensor) -> Result<Tensor> {
        self.out.forward(&self.dense.forward(cls)?.tanh()?)
    }
}
