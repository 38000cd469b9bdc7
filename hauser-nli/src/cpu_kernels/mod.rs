//! The packed CPU kernels the architectures share: matrix products (`gemm`), attention over
//! unpadded sequences, vectorised math (GELU, softmax, norms), per-thread scratch buffers, the
//! transformer layer's weights and the pre-LayerNorm block, and the copy of candle modules
//! into plain buffers. Each architecture's packed model (BERT-layout encoders in
//! `models::bert`, GPT-2 in `models::gpt2`, T5 in `models::t5`) is built on them; it runs f32
//! inference on unpadded sequences laid end to end.
//!
//! candle's CPU path pads every batch, runs each operation as a separate pass over freshly
//! allocated tensors and evaluates the exact GELU with scalar libm calls; on the MiniLM
//! benchmark that made it about three times slower than PyTorch. This path keeps the same
//! weights in plain f32 buffers, packs each batch without padding, fuses bias and residual
//! additions into the matrix products (the `gemm` crate, which candle itself uses), and runs
//! independent batches on rayon's threads, each single-threaded, so results do not depend on
//! the number of threads. It is used for f32 inference on the CPU; candle's path remains the
//! reference for other devices and precisions, and the tests compare the two.

pub(crate) mod attention;
pub(crate) mod block;
pub(crate) mod gemm;
mod layer;
pub(crate) mod math;
mod pack;
pub(crate) mod scratch;

pub use gemm::gemm_flops;
pub(crate) use layer::PackedLayer;
pub(crate) use pack::{
    bias, input_major, input_major_values, linear_parts, norm_parts, packed_act, values,
};

/// Why a packed forward pass failed.
#[derive(Debug)]
pub(crate) enum PackedError {
    /// An id outside its table, a shape error: the message.
    Failed(String),
    /// The first layer whose output holds NaN or infinity (0 = embeddings; `None` = after the
    /// last layer).
    NonFinite(Option<usize>),
}

impl From<String> for PackedError {
    fn from(message: String) -> Self {
        Self::Failed(message)
    }
}

impl From<gemm::GemmError> for PackedError {
    fn from(e: gemm::GemmError) -> Self {
        Self::Failed(e.to_string())
    }
}

impl PackedError {
    /// The crate's error, naming `model`.
    pub(crate) fn into_nli(self, model: &str) -> crate::error::NliError {
        match self {
            Self::Failed(message) => crate::error::NliError::Inference {
                model: model.to_string(),
                message,
            },
            Self::NonFinite(layer) => crate::error::NliError::NonFinite {
                model: model.to_string(),
                layer,
            },
        }
    }
}

/// Whether every value is finite. `v * 0` is 0 for a finite value and NaN for NaN or an
/// infinity, and eight independent sums keep the loop vectorised: one cheap pass per layer
/// output, next to the layer's matrix products.
pub(crate) fn all_finite(x: &[f32]) -> bool {
    let mut acc = [0f32; 8];
    let mut chunks = x.chunks_exact(8);
    for c in &mut chunks {
        for (a, v) in acc.iter_mut().zip(c) {
            *a += v * 0.0;
        }
    }
    let rest: f32 = chunks.remainder().iter().map(|v| v * 0.0).sum();
    acc.iter().sum::<f32>() + rest == 0.0
}

/// `Ok` when `x` is finite, else [`PackedError::NonFinite`] at `layer`.
pub(crate) fn check_finite(x: &[f32], layer: Option<usize>) -> Result<(), PackedError> {
    if all_finite(x) {
        Ok(())
    } else {
        Err(PackedError::NonFinite(layer))
    }
}
