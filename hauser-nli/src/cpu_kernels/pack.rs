//! Copying candle modules (linear layers, layer norms, activations) into the plain f32
//! buffers the packed kernels read; each architecture's packing (`models::*`) is built on these.

use candle_core::{DType, Result, Tensor};
use candle_nn::{Activation, LayerNorm, Linear};

use super::math::Act;

/// A tensor's values as one f32 buffer.
pub(crate) fn values(t: &Tensor) -> Result<Vec<f32>> {
    t.to_dtype(DType::F32)?.flatten_all()?.to_vec1()
}

/// A linear layer's weight as `[in, out]` (PyTorch stores `[out, in]`).
pub(crate) fn input_major(l: &Linear) -> Result<Tensor> {
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

/// A linear layer's bias (zeros when it has none).
pub(crate) fn bias(l: &Linear) -> Result<Vec<f32>> {
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
