//! Copying a BERT-layout encoder's candle modules (post- or pre-LayerNorm) into the packed
//! layout ([`PackedEncoder`]).

use candle_core::{Result, Tensor};
use candle_nn::{Activation, Embedding, LayerNorm, Linear, VarBuilder};

use super::encoder::{
    last_norm, layer_plan, load_embeddings, load_layer_at, projection, LayerModules,
};
use super::packed::{Norm, PackedEncoder, Placement};
use super::Layout;
use crate::candle_ops::activation;
use crate::config::ModelConfig;
use crate::cpu_kernels::{
    bias, input_major, linear_parts, norm_parts, packed_act, values, PackedLayer,
};

/// An encoder's embedding modules and the settings every layer shares; the layers themselves
/// are loaded and packed one at a time (see [`pack`]).
pub(crate) struct EncoderModules {
    pub word: Embedding,
    pub position: Embedding,
    pub token_type: Option<Embedding>,
    /// The norm after the embeddings (post-LayerNorm layouts).
    pub norm: Option<LayerNorm>,
    /// The norm after the last layer (pre-LayerNorm layouts).
    pub last_norm: Option<LayerNorm>,
    pub heads: usize,
    pub act: Activation,
    pub position_offset: usize,
    /// The projection of factorised embeddings to the hidden size (ALBERT).
    pub projection: Option<Linear>,
}

/// One layer in the packed layout with its LayerNorm epsilon, or `None` when its two norms
/// differ from each other or are RMS-style.
pub(crate) fn pack_layer(l: &LayerModules<'_>) -> Result<Option<(PackedLayer, f64)>> {
    let eps = l.attn_norm.eps();
    if !l.attn_norm.remove_mean() || !l.out_norm.remove_mean() || l.out_norm.eps() != eps {
        return Ok(None);
    }
    let qkv = Tensor::cat(
        &[
            input_major(l.query)?,
            input_major(l.key)?,
            input_major(l.value)?,
        ],
        1,
    )?;
    let (ln1_g, ln1_b, _) = norm_parts(l.attn_norm)?;
    let (ln2_g, ln2_b, _) = norm_parts(l.out_norm)?;
    let (out_w, out_b) = linear_parts(l.attn_out)?;
    let (inter_w, inter_b) = linear_parts(l.intermediate)?;
    let (ffn_w, ffn_b) = linear_parts(l.output)?;
    let layer = PackedLayer {
        qkv_w: values(&qkv)?,
        qkv_b: [bias(l.query)?, bias(l.key)?, bias(l.value)?].concat(),
        out_w,
        out_b,
        ln1_g,
        ln1_b,
        inter_w,
        inter_b,
        ffn_w,
        ffn_b,
        ln2_g,
        ln2_b,
    };
    Ok(Some((layer, eps)))
}

/// The packed copy of an encoder with embeddings `m` and `n_layers` layers, or `None` when it
/// uses something the packed path lacks (an activation other than GELU, tanh-GELU, ReLU or
/// SiLU; RMS-style norms; layer norms with different epsilons; a norm after the embeddings and
/// one after the last layer both, or neither, which no layout the kernels run has).
///
/// `layer(i)` loads distinct layer `i` and packs it with [`pack_layer`]; layers are asked for
/// in order. `steps` lists, per hidden state after the embeddings, the distinct layers that
/// produce it (one each, or a shared group).
/// The embeddings' candle tensors are dropped once copied and each layer's can be dropped as
/// soon as it is packed, so packing never holds more than one tensor group twice.
pub(crate) fn pack(
    m: EncoderModules,
    n_layers: usize,
    steps: Vec<Vec<usize>>,
    mut layer: impl FnMut(usize) -> Result<Option<(PackedLayer, f64)>>,
) -> Result<Option<PackedEncoder>> {
    let Some(act) = packed_act(m.act) else {
        return Ok(None);
    };
    let to_norm = |n: &LayerNorm| -> Result<Option<Norm>> {
        if !n.remove_mean() {
            return Ok(None);
        }
        let (g, b, eps) = norm_parts(n)?;
        Ok(Some(Norm { g, b, eps }))
    };
    let norms = match (&m.norm, &m.last_norm) {
        (Some(n), None) => to_norm(n)?.map(|emb| Placement::Post { emb }),
        (None, Some(n)) => to_norm(n)?.map(|last| Placement::Pre { last }),
        _ => None,
    };
    let Some(norms) = norms else {
        return Ok(None);
    };
    let fallback_eps = match &norms {
        Placement::Post { emb } => emb.eps,
        Placement::Pre { last } => last.eps,
    };
    let emb_width = m.word.embeddings().dim(1)?;
    let projection = m.projection.as_ref().map(linear_parts).transpose()?;
    let hidden = match &m.projection {
        Some(p) => p.weight().dim(0)?,
        None => emb_width,
    };
    let word = values(m.word.embeddings())?;
    let position = values(m.position.embeddings())?;
    let token_type = m.token_type.map(|t| values(t.embeddings())).transpose()?;
    let (heads, position_offset) = (m.heads, m.position_offset);
    drop((m.word, m.position, m.norm, m.last_norm, m.projection));
    let mut eps = None;
    let mut layers = Vec::with_capacity(n_layers);
    for i in 0..n_layers {
        let Some((l, e)) = layer(i)? else {
            return Ok(None);
        };
        if *eps.get_or_insert(e) != e {
            return Ok(None);
        }
        layers.push(l);
    }
    let inter = layers
        .first()
        .map_or(4 * hidden, |l: &PackedLayer| l.inter_b.len());
    if steps.iter().flatten().any(|&i| i >= layers.len()) {
        candle_core::bail!("a layer step names a layer the encoder does not have");
    }
    Ok(Some(PackedEncoder {
        hidden,
        emb_width,
        projection,
        steps,
        heads,
        inter,
        act,
        eps: eps.map_or(fallback_eps, |e| e as f32),
        norms,
        word,
        position,
        token_type,
        layers,
        position_offset,
    }))
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
