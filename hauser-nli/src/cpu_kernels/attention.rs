//! Scaled dot-product attention over sequences laid end to end, shared by the encoder and the
//! causal LM.

use super::gemm::{matmul, GemmError, View};
use super::math::softmax_rows;

/// Attention of every sequence (lengths `lens`, in order, rows laid end to end) and head, from
/// `qkv` (`[tokens, 3 * hidden]`: queries, keys, values side by side) into `ctx`
/// (`[tokens, hidden]`). `scores` holds at least the longest length squared. With `causal`,
/// query i sees keys 0..=i only and later keys get weight exactly 0; otherwise every key of the
/// sequence (no padding exists to mask).
pub(crate) fn attention(
    lens: impl Iterator<Item = usize>,
    hidden: usize,
    heads: usize,
    causal: bool,
    qkv: &[f32],
    ctx: &mut [f32],
    scores: &mut [f32],
) -> Result<(), GemmError> {
    let scale = head_scale(hidden, heads);
    attention_with(lens, hidden, heads, scale, causal, None, qkv, ctx, scores)
}

/// Adds a head's additive score bias to one sequence's `len x len` scores:
/// `(head, len, scores)`.
pub(crate) type ScoreBias<'a> = &'a dyn Fn(usize, usize, &mut [f32]);

/// [`attention`] with the scores scaled by `scale` (T5: 1, its scale is folded into the
/// weights) and, before the softmax, `bias` added (T5's relative-position bias). `hidden` is
/// the width of the heads together (T5's `heads * d_kv`, which need not be its model width).
#[allow(clippy::too_many_arguments)]
pub(crate) fn attention_with(
    lens: impl Iterator<Item = usize>,
    hidden: usize,
    heads: usize,
    scale: f32,
    causal: bool,
    bias: Option<ScoreBias<'_>>,
    qkv: &[f32],
    ctx: &mut [f32],
    scores: &mut [f32],
) -> Result<(), GemmError> {
    attend(
        lens,
        hidden,
        heads,
        scale,
        causal,
        bias,
        &|_, len| len,
        qkv,
        ctx,
        scores,
    )
}

/// Attention of the first queries of every sequence only, [`leading_queries`] of them for a
/// sequence of which `rows[s]` leading rows are wanted (a head that reads the first tokens of
/// the last layer needs no other row), into `ctx` laid out with those queries end to end.
/// Each row equals the full attention's bit for bit.
pub(crate) fn attention_leading(
    lens: impl Iterator<Item = usize>,
    hidden: usize,
    heads: usize,
    rows: &[usize],
    qkv: &[f32],
    ctx: &mut [f32],
    scores: &mut [f32],
) -> Result<(), GemmError> {
    let scale = head_scale(hidden, heads);
    let queries = |s: usize, len: usize| leading_queries(len, rows.get(s).copied().unwrap_or(len));
    attend(
        lens, hidden, heads, scale, false, None, &queries, qkv, ctx, scores,
    )
}

/// The usual scale of attention scores, one over the square root of a head's width.
fn head_scale(hidden: usize, heads: usize) -> f32 {
    1.0 / ((hidden / heads) as f32).sqrt()
}

/// The rows a layer computed for the first `wanted` tokens of a sequence of `len` tokens
/// keeps: at least two (a one-row product would take the `gemm` crate's matrix-vector path,
/// whose summation order differs from its kernels'), at most `len`.
pub(crate) fn leading_rows(len: usize, wanted: usize) -> usize {
    wanted.max(2).min(len)
}

/// The queries [`attention_leading`] computes for a sequence of `len` tokens of which `rows`
/// rows are kept: at least `rows`, and enough that the score product takes the same `gemm`
/// path as the whole `len x len` one. `gemm` computes products of at most 256 outputs whose
/// left operand is row-major and right operand column-major (queries times transposed keys)
/// with horizontal dot-product kernels of another summation order; the whole product uses them
/// exactly when `len <= 16`.
pub(crate) fn leading_queries(len: usize, rows: usize) -> usize {
    if len <= 16 {
        rows.min(len)
    } else {
        rows.max(256 / len + 1).min(len)
    }
}

/// The attention of [`attention_with`] for the first `queries(s, len)` queries of sequence `s`
/// (all its keys), their context rows end to end in `ctx`.
#[allow(clippy::too_many_arguments)]
fn attend(
    lens: impl Iterator<Item = usize>,
    hidden: usize,
    heads: usize,
    scale: f32,
    causal: bool,
    bias: Option<ScoreBias<'_>>,
    queries: &dyn Fn(usize, usize) -> usize,
    qkv: &[f32],
    ctx: &mut [f32],
    scores: &mut [f32],
) -> Result<(), GemmError> {
    let h = hidden;
    let d = h / heads;
    let mut r0 = 0;
    let mut c0 = 0;
    for (s, len) in lens.enumerate() {
        if len == 0 {
            continue;
        }
        let nq = queries(s, len);
        // The bias callback fills whole `len x len` score matrices.
        debug_assert!(bias.is_none() || nq == len);
        let scores = &mut scores[..nq * len];
        for head in 0..heads {
            let q = r0 * 3 * h + head * d;
            let k = q + h;
            let v = q + 2 * h;
            // Rows of one head's queries, keys or values (`len x d`, row stride 3h), or their
            // transpose.
            let part = |off: usize, transposed: bool, rows: usize| {
                let (rows, cols) = if transposed { (d, rows) } else { (rows, d) };
                let (row_stride, col_stride) = if transposed { (1, 3 * h) } else { (3 * h, 1) };
                View {
                    data: &qkv[off..],
                    rows,
                    cols,
                    row_stride,
                    col_stride,
                }
            };
            matmul(
                scores,
                len,
                part(q, false, nq),
                part(k, true, len),
                scale,
                false,
            )?;
            if let Some(add) = bias {
                add(head, len, scores);
            }
            if causal {
                for (i, row) in scores.chunks_exact_mut(len).enumerate() {
                    softmax_rows(&mut row[..=i], i + 1);
                    row[i + 1..].fill(0.0);
                }
            } else {
                softmax_rows(scores, len);
            }
            matmul(
                &mut ctx[c0 * h + head * d..],
                h,
                View::dense(scores, nq, len),
                part(v, false, len),
                1.0,
                false,
            )?;
        }
        r0 += len;
        c0 += nq;
    }
    Ok(())
}
