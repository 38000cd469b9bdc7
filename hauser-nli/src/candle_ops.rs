//! candle operations shared by several architectures' padded forward passes.

use candle_core::{DType, Module, Result, Tensor};
use candle_nn::{Activation, Linear};

/// The transformers activation names (`ACT2FN` keys) the encoders here run; `config.json`
/// naming any other is refused when it is read (`ModelConfig::load`).
pub(crate) const ACTIVATIONS: &[&str] = &[
    "gelu",
    "gelu_new",
    "gelu_pytorch_tanh",
    "gelu_fast",
    "relu",
    "silu",
    "swish",
];

/// Maps a transformers activation name to candle's (`gelu`, exact, when absent, as
/// transformers' default). Names outside [`ACTIVATIONS`] never get here: the config loader
/// refuses them.
pub(crate) fn activation(name: Option<&str>) -> Activation {
    match name.unwrap_or("gelu") {
        "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Activation::NewGelu,
        "relu" => Activation::Relu,
        "silu" | "swish" => Activation::Silu,
        _ => Activation::Gelu,
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
