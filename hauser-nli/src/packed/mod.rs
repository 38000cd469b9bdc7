//! The packed CPU kernels: f32 inference for BERT-layout encoders and GPT-2 on unpadded
//! sequences laid end to end.
//!
//! candle's CPU path pads every batch, runs each operation as a separate pass over freshly
//! allocated tensors and evaluates the exact GELU with scalar libm calls; on the MiniLM
//! benchmark that made it about three times slower than PyTorch. This path keeps the same
//! weights in plain f32 buffers, packs each batch without padding, fuses bias and residual
//! additions into the matrix products (the `gemm` crate, which candle itself uses), and runs
//! independent batches on rayon's threads, each single-threaded, so results do not depend on
//! the number of threads. It is used for f32 inference on the CPU; candle's path remains the
//! reference for other devices and precisions, and the tests compare the two.

mod attention;
mod causal;
mod encoder;
mod gemm;
mod math;
mod pack;
mod scratch;

pub(crate) use causal::{per_sequence, CausalLayer, PackedCausalLm};
pub(crate) use encoder::{PackedEncoder, SeqRef};
pub(crate) use pack::{
    linear_parts, norm_parts, pack, pack_layer, packed_act, values, EncoderModules, LayerModules,
};
