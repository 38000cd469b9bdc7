//! Copying a BERT-layout encoder's candle modules (post- or pre-LayerNorm) into the packed
//! layout.

use candle_core::{DType, Result, Tensor};
use candle_nn::{Activation, Embedding, LayerNorm, Linear};

use super::encoder::{Norm, PackedEncoder, Placement};
use super::layer::PackedLayer;
use super::math::Act;

/// One layer's modules by role (BERT's naming; `arch::bert::LayerNames` maps other
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

/// A tensor's values as one f32 buffer.
pub(crate) fn values(t: &Tensor) -> Result<Vec<f32>> {
    t.to_dtype(DType::F32)?.flatten_all()?.to_vec1()
}

/// A linear layer's weight as `[in, out]` (PyTorch stores `[out, in]`).
fn input_major(l: &Linear) -> Result<Tensor> {
    l.weight().t()?.contiguous()
}

/// Linear layers' weights input-major and side by side (`[in, sum of outs]`): projections
/// the kernels run as one product.
pub(crate) fn input_major_values(ls: &[&Linear]) -> Result<Vec<f32>> {
    let parts = ls
        .iter()
        .map(|l| input_major(l))
        .collect::<Result<Vec<_>>>()?;
    values(&Tensor::cat(&parts, 1)?)
}

/// A linear layer as the packed kernels hold it: the weight input-major (`[in, out]`) and
/// the bias (zeros when it has none).
pub(crate) fn linear_parts(l: &Linear) -> Result<(Vec<f32>, Vec<f32>)> {
    Ok((values(&input_major(l)?)?, bias(l)?))
}

fn bias(l: &Linear) -> Result<Vec<f32>> {
    match l.bias() {
        Some(b) => values(b),
        None => Ok(vec![0.0; l.weight().dim(0)?]),
    }
}

/// A layer norm's scale, shift (zeros when it has none) and epsilon.
pub(crate) fn norm_parts(n: &LayerNorm) -> Result<(Vec<f32>, Vec<f32>, f32)> {
    let g = values(n.weight())?;
    let b = match n.bias() {
        Some(b) => values(b)?,
        None => vec![0.0; g.len()],
    };
    Ok((g, b, n.eps() as f32))
}

/// The packed kernels' version of a candle activation, if they have it (GELU, tanh-GELU,
/// ReLU, SiLU).
pub(crate) fn packed_act(act: Activation) -> Option<Act> {
    match act {
        Activation::Gelu => Some(Act::Gelu),
        Activation::NewGelu | Activation::GeluPytorchTanh => Some(Act::GeluTanh),
        Activation::Relu => Some(Act::Relu),
        Activation::Silu => Some(Act::Silu),
        _ => None,
    }
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
