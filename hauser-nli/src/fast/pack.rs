//! Copying a post-LayerNorm encoder's candle modules into the packed layout.

use candle_core::{DType, Result, Tensor};
use candle_nn::{Activation, Embedding, LayerNorm, Linear};

use super::encoder::{PackedEncoder, PackedLayer};
use super::math::Act;

/// One layer's modules, in BERT's naming (DistilBERT: `q_lin`... `sa_layer_norm`, `ffn.lin1`,
/// `ffn.lin2`, `output_layer_norm`).
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

/// An encoder's modules: embeddings, embedding LayerNorm, layers.
pub(crate) struct EncoderModules<'a> {
    pub word: &'a Embedding,
    pub position: &'a Embedding,
    pub token_type: Option<&'a Embedding>,
    pub norm: &'a LayerNorm,
    pub layers: Vec<LayerModules<'a>>,
    pub heads: usize,
    pub act: Activation,
    pub position_offset: usize,
}

fn values(t: &Tensor) -> Result<Vec<f32>> {
    t.to_dtype(DType::F32)?.flatten_all()?.to_vec1()
}

/// A linear layer's weight as `[in, out]` (PyTorch stores `[out, in]`).
fn input_major(l: &Linear) -> Result<Tensor> {
    l.weight().t()?.contiguous()
}

fn bias(l: &Linear) -> Result<Vec<f32>> {
    match l.bias() {
        Some(b) => values(b),
        None => Ok(vec![0.0; l.weight().dim(0)?]),
    }
}

fn norm(n: &LayerNorm) -> Result<(Vec<f32>, Vec<f32>, f32)> {
    let g = values(n.weight())?;
    let b = match n.bias() {
        Some(b) => values(b)?,
        None => vec![0.0; g.len()],
    };
    Ok((g, b, n.eps() as f32))
}

/// The packed copy of `m`, or `None` when it uses something the packed path lacks (an
/// activation other than GELU, tanh-GELU, ReLU or SiLU; RMS-style norms; layer norms with
/// different epsilons).
pub(crate) fn pack(m: &EncoderModules<'_>) -> Result<Option<PackedEncoder>> {
    let act = match m.act {
        Activation::Gelu => Act::Gelu,
        Activation::NewGelu | Activation::GeluPytorchTanh => Act::GeluTanh,
        Activation::Relu => Act::Relu,
        Activation::Silu => Act::Silu,
        _ => return Ok(None),
    };
    let norms = std::iter::once(m.norm)
        .chain(m.layers.iter().flat_map(|l| [l.attn_norm, l.out_norm]))
        .collect::<Vec<_>>();
    if norms.iter().any(|n| !n.remove_mean()) {
        return Ok(None);
    }
    let eps = m.layers.first().map_or(m.norm.eps(), |l| l.attn_norm.eps());
    if m.layers
        .iter()
        .any(|l| l.attn_norm.eps() != eps || l.out_norm.eps() != eps)
    {
        return Ok(None);
    }
    let (emb_g, emb_b, emb_eps) = norm(m.norm)?;
    let layers = m
        .layers
        .iter()
        .map(|l| {
            let qkv = Tensor::cat(
                &[
                    input_major(l.query)?,
                    input_major(l.key)?,
                    input_major(l.value)?,
                ],
                1,
            )?;
            let (ln1_g, ln1_b, _) = norm(l.attn_norm)?;
            let (ln2_g, ln2_b, _) = norm(l.out_norm)?;
            Ok(PackedLayer {
                qkv_w: values(&qkv)?,
                qkv_b: [bias(l.query)?, bias(l.key)?, bias(l.value)?].concat(),
                out_w: values(&input_major(l.attn_out)?)?,
                out_b: bias(l.attn_out)?,
                ln1_g,
                ln1_b,
                inter_w: values(&input_major(l.intermediate)?)?,
                inter_b: bias(l.intermediate)?,
                ffn_w: values(&input_major(l.output)?)?,
                ffn_b: bias(l.output)?,
                ln2_g,
                ln2_b,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let hidden = m.word.embeddings().dim(1)?;
    let inter = match m.layers.first() {
        Some(l) => l.intermediate.weight().dim(0)?,
        None => 4 * hidden,
    };
    Ok(Some(PackedEncoder {
        hidden,
        heads: m.heads,
        inter,
        act,
        emb_eps,
        eps: eps as f32,
        word: values(m.word.embeddings())?,
        position: values(m.position.embeddings())?,
        token_type: m.token_type.map(|t| values(t.embeddings())).transpose()?,
        emb_g,
        emb_b,
        layers,
        position_offset: m.position_offset,
    }))
}
