//! The pre-LayerNorm transformer block, shared by GPT-2 (causal) and XLM-RoBERTa XL
//! (bidirectional): each sub-block reads a layer-normed copy of the residual stream and adds
//! its projection back to the raw stream.

use super::attention::attention;
use super::gemm::{matmul, GemmError, View};
use super::layer::PackedLayer;
use super::math::{add_rows, bias_activate, layer_norm, Act};
use super::scratch::{fill_rows, Buffers};

/// The sizes and settings a block runs with.
pub(crate) struct BlockShape {
    pub hidden: usize,
    pub heads: usize,
    /// Width of the feed-forward block's inner layer.
    pub inter: usize,
    pub eps: f32,
    pub act: Act,
}

/// When the two output projections' biases join the residual stream: before the product
/// (`First`, the XLM-RoBERTa XL path) or after it (`Last`, GPT-2's). Float addition is not
/// associative, so each model keeps the order its packed path has always used and its results
/// stay bit for bit what they were when the tests against candle were written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BiasOrder {
    First,
    Last,
}

/// One pre-LayerNorm block over sequences of lengths `lens` laid end to end in `x`
/// (`[tokens, hidden]`), updated in place. With `causal`, each token attends to itself and the
/// tokens before it only.
pub(crate) fn pre_norm_block(
    l: &PackedLayer,
    shape: &BlockShape,
    lens: impl Iterator<Item = usize>,
    causal: bool,
    bias: BiasOrder,
    x: &mut [f32],
    buf: &mut Buffers,
) -> Result<(), GemmError> {
    let h = shape.hidden;
    let p = buf.parts(x.len() / h, h);
    pre_norm_qkv(l, shape, x, p.mid, p.qkv)?;
    attention(lens, h, shape.heads, causal, p.qkv, p.ctx, p.scores)?;
    pre_norm_tail(l, shape, p.ctx, bias, x, p.mid, p.inter)
}

/// The queries, keys and values of a pre-LayerNorm block for every row of `x` into `qkv`
/// (`normed` is scratch of `x`'s size).
pub(crate) fn pre_norm_qkv(
    l: &PackedLayer,
    shape: &BlockShape,
    x: &[f32],
    normed: &mut [f32],
    qkv: &mut [f32],
) -> Result<(), GemmError> {
    let h = shape.hidden;
    let total = x.len() / h;
    normed.copy_from_slice(x);
    layer_norm(normed, h, &l.ln1_g, &l.ln1_b, shape.eps);
    fill_rows(qkv, 3 * h, &l.qkv_b);
    matmul(
        qkv,
        3 * h,
        View::dense(normed, total, h),
        View::dense(&l.qkv_w, h, 3 * h),
        1.0,
        true,
    )
}

/// The rest of a pre-LayerNorm block on the rows of `x` whose attention output is `ctx` (one
/// row each): the output projection and the feed-forward block added to the raw stream `x`,
/// in place. `mid` and `inter` are scratch of at least `x`'s rows.
pub(crate) fn pre_norm_tail(
    l: &PackedLayer,
    shape: &BlockShape,
    ctx: &[f32],
    bias: BiasOrder,
    x: &mut [f32],
    mid: &mut [f32],
    inter: &mut [f32],
) -> Result<(), GemmError> {
    let h = shape.hidden;
    let wide = shape.inter;
    let rows = x.len() / h;
    let (normed, inter) = (&mut mid[..rows * h], &mut inter[..rows * wide]);
    residual(
        x,
        h,
        View::dense(ctx, rows, h),
        View::dense(&l.out_w, h, h),
        &l.out_b,
        bias,
    )?;
    normed.copy_from_slice(x);
    layer_norm(normed, h, &l.ln2_g, &l.ln2_b, shape.eps);
    matmul(
        inter,
        wide,
        View::dense(normed, rows, h),
        View::dense(&l.inter_w, h, wide),
        1.0,
        false,
    )?;
    bias_activate(inter, &l.inter_b, shape.act);
    residual(
        x,
        h,
        View::dense(inter, rows, wide),
        View::dense(&l.ffn_w, wide, h),
        &l.ffn_b,
        bias,
    )
}

/// `x += a w + b`, the bias added in `order`.
fn residual(
    x: &mut [f32],
    h: usize,
    a: View<'_>,
    w: View<'_>,
    b: &[f32],
    order: BiasOrder,
) -> Result<(), GemmError> {
    if order == BiasOrder::First {
        add_rows(x, b);
    }
    matmul(x, h, a, w, 1.0, true)?;
    if order == BiasOrder::Last {
        add_rows(x, b);
    }
    Ok(())
}
