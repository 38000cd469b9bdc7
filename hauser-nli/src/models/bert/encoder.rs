//! candle's BERT-layout encoder: loading its modules (embeddings, layers, shared groups,
//! norms) by a [`Layout`]'s names and the padded forward pass returning every layer's output.

use candle_core::{Module, Result, Tensor};
use candle_nn::{
    embedding, layer_norm, linear, Activation, Embedding, LayerNorm, Linear, VarBuilder,
};

use super::{group_of, Layout, Norms};
use crate::candle_ops::{activation, additive_mask, attention};
use crate::config::{check_layers, ModelConfig};
use crate::models::CandleEncoder;

/// One layer's modules by role (BERT's naming; [`super::LayerNames`] maps other
/// checkpoints' names, DistilBERT's and XLM-RoBERTa XL's, onto these roles). In a
/// pre-LayerNorm layer `attn_norm` is the norm before attention and `out_norm` the one before
/// the feed-forward block.
pub(crate) struct LayerModules<'a> {
    pub query: &'a Linear,
    pub key: &'a Linear,
    pub value: &'a Linear,
    pub attn_out: &'a Linear,
    pub attn_norm: &'a LayerNorm,
    pub intermediate: &'a Linear,
    pub output: &'a Linear,
    pub out_norm: &'a LayerNorm,
}

pub(crate) struct Layer {
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
pub(crate) struct Embeddings {
    pub word: Embedding,
    pub position: Embedding,
    pub token_type: Option<Embedding>,
    /// `None` for pre-LayerNorm layouts.
    pub norm: Option<LayerNorm>,
}

pub(crate) fn load_embeddings(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    lay: &Layout,
) -> Result<Embeddings> {
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
pub(crate) fn layer_plan(
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
pub(crate) fn projection(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    lay: &Layout,
) -> Result<Option<Linear>> {
    lay.factorised
        .map(|f| linear(f.width, cfg.hidden_size, vb.pp(f.projection)))
        .transpose()
}

/// The norm after the last layer of pre-LayerNorm layouts.
pub(crate) fn last_norm(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    lay: &Layout,
) -> Result<Option<LayerNorm>> {
    match lay.norms {
        Norms::Post => Ok(None),
        Norms::Pre { last } => Ok(Some(layer_norm(cfg.hidden_size, lay.eps, vb.pp(last))?)),
    }
}

/// Layer `l`'s modules (`l` narrowed to the layer's path).
pub(crate) fn load_layer_at(l: VarBuilder<'_>, cfg: &ModelConfig, lay: &Layout) -> Result<Layer> {
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
    /// The layer's modules by role.
    pub(crate) fn modules(&self) -> LayerModules<'_> {
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

impl CandleEncoder for BertEncoder {
    fn hidden_states(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        positions: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        self.forward(ids, type_ids, positions, mask)
    }
}
