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
    let scale = 1.0 / ((hidden / heads) as f32).sqrt();
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
    let h = hidden;
    let d = h / heads;
    let mut r0 = 0;
    for len in lens {
        if len == 0 {
            continue;
        }
        let scores = &mut scores[..len * len];
        for head in 0..heads {
            let q = r0 * 3 * h + head * d;
            let k = q + h;
            let v = q + 2 * h;
            // Rows of one head's queries, keys or values (`len x d`, row stride 3h), or their
            // transpose.
            let part = |off: usize, transposed: bool| {
                let (rows, cols) = if transposed { (d, len) } else { (len, d) };
                let (row_stride, col_stride) = if transposed { (1, 3 * h) } else { (3 * h, 1) };
                View {
                    data: &qkv[off..],
                    rows,
                    cols,
                    row_stride,
                    col_stride,
                }
            };
            matmul(scores, len, part(q, false), part(k, true), scale, false)?;
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
                &mut ctx[r0 * h + head * d..],
                h,
                View::dense(scores, len, len),
                part(v, false),
                1.0,
                false,
            )?;
        }
        r0 += len;
    }
    Ok(())
}
