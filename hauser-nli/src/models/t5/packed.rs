//! The T5 / mT5 encoder and the decoder's first step on packed sequences (MetricX).
//!
//! The encoder is the BERT-layout kernels' scheme with T5's parts: RMS norms (no mean, no
//! shift) before each block on a copy while the residual stream stays raw, attention without
//! the 1/sqrt(d) scale plus the relative-position bias that the first layer's table gives
//! (one table, shared by every layer, as transformers passes `position_bias` on), bias-free
//! projections, and the ReLU (T5 v1.0) or gated-GELU (T5 v1.1, mT5) feed-forward block. The
//! decoder runs one step for every sequence of the batch at once: its self-attention sees the
//! single start position, its cross-attention each sequence's own encoder rows. Only the LM
//! head rows asked for are kept (MetricX reads one logit of 250,112).

use super::config::relative_position_bucket;
use crate::cpu_kernels::attention::attention_with;
use crate::cpu_kernels::gemm::{matmul, GemmError, View};
use crate::cpu_kernels::math::{activate, gated_gelu, rms_norm_into, softmax_rows, Act};
use crate::cpu_kernels::scratch::{with_scratch, Buffers};
use crate::cpu_kernels::PackedError;

/// A self-attention block: its RMS norm's scale, the query, key and value projections side
/// by side (`[d_model, 3 * inner]`, input-major) and the output projection
/// (`[inner, d_model]`).
#[derive(Debug, Clone)]
pub(crate) struct T5SelfAttention {
    pub norm: Vec<f32>,
    pub qkv: Vec<f32>,
    pub out: Vec<f32>,
}

/// The decoder's cross-attention: its norm, the query projection (`[d_model, inner]`), the
/// key and value projections of the encoder output side by side (`[d_model, 2 * inner]`) and
/// the output projection.
#[derive(Debug, Clone)]
pub(crate) struct T5CrossAttention {
    pub norm: Vec<f32>,
    pub q: Vec<f32>,
    pub kv: Vec<f32>,
    pub out: Vec<f32>,
}

/// A feed-forward block: its norm, `wi` (`[d_model, d_ff]`, or for the gated form `wi_0` and
/// `wi_1` side by side, `[d_model, 2 * d_ff]`) and `wo` (`[d_ff, d_model]`).
#[derive(Debug, Clone)]
pub(crate) struct T5FeedForward {
    pub norm: Vec<f32>,
    pub wi: Vec<f32>,
    pub wo: Vec<f32>,
}

/// An encoder layer.
#[derive(Debug, Clone)]
pub(crate) struct T5EncoderLayer {
    pub attn: T5SelfAttention,
    pub ff: T5FeedForward,
}

/// A decoder layer.
#[derive(Debug, Clone)]
pub(crate) struct T5DecoderLayer {
    pub attn: T5SelfAttention,
    pub cross: T5CrossAttention,
    pub ff: T5FeedForward,
}

/// A T5-family encoder-decoder for one decoder step, in plain f32 buffers.
#[derive(Debug, Clone)]
pub(crate) struct PackedT5 {
    pub d_model: usize,
    pub heads: usize,
    pub d_kv: usize,
    pub d_ff: usize,
    /// `gated-gelu` (else `relu`).
    pub gated: bool,
    pub eps: f32,
    pub num_buckets: usize,
    pub max_distance: usize,
    /// The encoder's token embeddings, `[vocab, d_model]`.
    pub embed: Vec<f32>,
    /// The encoder's first layer's `relative_attention_bias`, `[num_buckets, heads]`.
    pub position_bias: Vec<f32>,
    pub encoder: Vec<T5EncoderLayer>,
    pub encoder_norm: Vec<f32>,
    /// The decoder's embedding of its start token.
    pub start: Vec<f32>,
    /// Per head, the decoder's position bias at distance 0 (its only query and key).
    pub start_bias: Vec<f32>,
    pub decoder: Vec<T5DecoderLayer>,
    pub decoder_norm: Vec<f32>,
    /// The kept LM-head rows, `[rows, d_model]`.
    pub head: Vec<f32>,
    /// What the decoder output is multiplied by before the head (`d_model ** -0.5` with tied
    /// embeddings, else 1).
    pub head_scale: f32,
}

impl PackedT5 {
    fn inner(&self) -> usize {
        self.heads * self.d_kv
    }

    /// Width of the feed-forward block's first product.
    fn ff_width(&self) -> usize {
        if self.gated {
            2 * self.d_ff
        } else {
            self.d_ff
        }
    }

    /// The kept head rows' logits at the first decoder step for each input (token ids, none
    /// empty): one row per input, on the calling thread.
    ///
    /// # Errors
    /// An empty input or a token id outside the embedding table (named).
    pub(crate) fn first_step_logits(
        &self,
        inputs: &[&[u32]],
    ) -> std::result::Result<Vec<Vec<f32>>, PackedError> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let d = self.d_model;
        let lens: Vec<usize> = inputs.iter().map(|x| x.len()).collect();
        let total: usize = lens.iter().sum();
        let longest = lens.iter().copied().max().unwrap_or(0);
        if lens.contains(&0) {
            return Err(PackedError::Failed(
                "an encoder input without tokens".into(),
            ));
        }
        let mut x = Vec::with_capacity(total * d);
        for &id in inputs.iter().copied().flatten() {
            let row = self
                .embed
                .get(id as usize * d..(id as usize + 1) * d)
                .ok_or_else(|| {
                    format!(
                        "token id {id} outside the embedding table ({} rows)",
                        self.embed.len() / d
                    )
                })?;
            x.extend_from_slice(row);
        }
        let table = self.bias_table(longest);
        let width = d.max(self.inner());
        let logits = with_scratch(total, width, self.ff_width(), longest, |buf| {
            for l in &self.encoder {
                self.encoder_layer(l, &lens, &table, longest, &mut x, buf)?;
            }
            // The decoder attends to the normalised encoder output.
            let memory = &mut buf.mid[..total * d];
            rms_norm_into(&x, memory, &self.encoder_norm, self.eps);
            self.decode(&lens, memory, &mut buf.qkv, &mut buf.scores)
        })?;
        Ok(logits)
    }

    /// Per head, the position bias of every relative position `-(longest-1)..=longest-1`
    /// (`heads` rows of `2 * longest - 1`): the bias only depends on the key's distance from
    /// the query, so one row serves every query of every sequence of the batch.
    fn bias_table(&self, longest: usize) -> Vec<f32> {
        let span = (2 * longest).saturating_sub(1);
        let mut table = vec![0f32; self.heads * span];
        if self.encoder.is_empty() {
            return table;
        }
        for (k, rel) in (-(longest as i64 - 1)..longest as i64).enumerate() {
            let bucket = relative_position_bucket(rel, true, self.num_buckets, self.max_distance);
            for h in 0..self.heads {
                table[h * span + k] = self.position_bias[bucket * self.heads + h];
            }
        }
        table
    }

    fn encoder_layer(
        &self,
        l: &T5EncoderLayer,
        lens: &[usize],
        table: &[f32],
        longest: usize,
        x: &mut [f32],
        buf: &mut Buffers,
    ) -> Result<(), GemmError> {
        let (d, inner) = (self.d_model, self.inner());
        let total = x.len() / d;
        let span = (2 * longest).saturating_sub(1);
        let (qkv, ctx, mid, wide) = (
            &mut buf.qkv[..total * 3 * inner],
            &mut buf.ctx[..total * inner],
            &mut buf.mid[..total * d],
            &mut buf.inter[..total * self.ff_width()],
        );
        rms_norm_into(x, mid, &l.attn.norm, self.eps);
        rows_matmul(
            qkv,
            3 * inner,
            View::dense(mid, total, d),
            View::dense(&l.attn.qkv, d, 3 * inner),
            1.0,
            false,
        )?;
        // Query i's bias for key j is the table's entry at relative position j - i: row i of
        // the scores takes a contiguous stretch of the head's table row.
        let add_bias = |head: usize, len: usize, scores: &mut [f32]| {
            let row0 = head * span + longest - 1;
            for (i, row) in scores.chunks_exact_mut(len).enumerate() {
                let from = &table[row0 - i..row0 - i + len];
                row.iter_mut().zip(from).for_each(|(s, b)| *s += b);
            }
        };
        attention_with(
            lens.iter().copied(),
            inner,
            self.heads,
            1.0,
            false,
            Some(&add_bias),
            qkv,
            ctx,
            &mut buf.scores,
        )?;
        rows_matmul(
            x,
            d,
            View::dense(ctx, total, inner),
            View::dense(&l.attn.out, inner, d),
            1.0,
            true,
        )?;
        self.feed_forward(&l.ff, x, mid, wide)
    }

    /// `x += FFN(RMS(x))` over `x`'s rows, with `mid` and `wide` as scratch.
    fn feed_forward(
        &self,
        ff: &T5FeedForward,
        x: &mut [f32],
        mid: &mut [f32],
        wide: &mut [f32],
    ) -> Result<(), GemmError> {
        let d = self.d_model;
        let rows = x.len() / d;
        let (f, w) = (self.d_ff, self.ff_width());
        rms_norm_into(x, mid, &ff.norm, self.eps);
        rows_matmul(
            wide,
            w,
            View::dense(mid, rows, d),
            View::dense(&ff.wi, d, w),
            1.0,
            false,
        )?;
        if self.gated {
            gated_gelu(wide, f);
        } else {
            activate(wide, Act::Relu);
        }
        // The gated form's products sit in the first half of each row of `2 * d_ff`.
        let hidden = View {
            data: wide,
            rows,
            cols: f,
            row_stride: w,
            col_stride: 1,
        };
        rows_matmul(x, d, hidden, View::dense(&ff.wo, f, d), 1.0, true)
    }

    /// The decoder's first step for every sequence (lengths `lens`) over `memory`, the
    /// normalised encoder output; the kept head rows' logits. `kv` (`2 * inner` per encoder
    /// row) and `scores` (the longest length) are scratch.
    fn decode(
        &self,
        lens: &[usize],
        memory: &[f32],
        kv: &mut [f32],
        scores: &mut [f32],
    ) -> Result<Vec<Vec<f32>>, GemmError> {
        let (d, inner, dk) = (self.d_model, self.inner(), self.d_kv);
        let b = lens.len();
        let total = memory.len() / d;
        let mut y: Vec<f32> = self.start.repeat(b);
        let mut h = vec![0f32; b * d];
        let mut proj = vec![0f32; b * 3 * inner];
        let mut ctx = vec![0f32; b * inner];
        let mut wide = vec![0f32; b * self.ff_width()];
        for l in &self.decoder {
            // Self-attention over the one decoder position: the softmax of a single score is
            // exactly 1 (NaN when the score is not finite, as the padded path gives), so the
            // context is the value itself.
            rms_norm_into(&y, &mut h, &l.attn.norm, self.eps);
            rows_matmul(
                &mut proj,
                3 * inner,
                View::dense(&h, b, d),
                View::dense(&l.attn.qkv, d, 3 * inner),
                1.0,
                false,
            )?;
            for (r, c) in ctx.chunks_exact_mut(inner).enumerate() {
                let row = &proj[r * 3 * inner..(r + 1) * 3 * inner];
                for head in 0..self.heads {
                    let at = head * dk;
                    let q = &row[at..at + dk];
                    let k = &row[inner + at..inner + at + dk];
                    let s: f32 =
                        q.iter().zip(k).map(|(a, b)| a * b).sum::<f32>() + self.start_bias[head];
                    let p = if s.is_finite() { 1.0 } else { f32::NAN };
                    let v = &row[2 * inner + at..2 * inner + at + dk];
                    c[at..at + dk]
                        .iter_mut()
                        .zip(v)
                        .for_each(|(o, v)| *o = p * v);
                }
            }
            rows_matmul(
                &mut y,
                d,
                View::dense(&ctx, b, inner),
                View::dense(&l.attn.out, inner, d),
                1.0,
                true,
            )?;
            // Cross-attention: one query per sequence over its own encoder rows.
            rms_norm_into(&y, &mut h, &l.cross.norm, self.eps);
            let q = &mut proj[..b * inner];
            rows_matmul(
                q,
                inner,
                View::dense(&h, b, d),
                View::dense(&l.cross.q, d, inner),
                1.0,
                false,
            )?;
            let kv = &mut kv[..total * 2 * inner];
            rows_matmul(
                kv,
                2 * inner,
                View::dense(memory, total, d),
                View::dense(&l.cross.kv, d, 2 * inner),
                1.0,
                false,
            )?;
            let mut r0 = 0;
            for (r, &len) in lens.iter().enumerate() {
                let scores = &mut scores[..len];
                for head in 0..self.heads {
                    let at = head * dk;
                    let query = View {
                        data: &q[r * inner + at..],
                        rows: 1,
                        cols: dk,
                        row_stride: inner,
                        col_stride: 1,
                    };
                    let keys = View {
                        data: &kv[r0 * 2 * inner + at..],
                        rows: dk,
                        cols: len,
                        row_stride: 1,
                        col_stride: 2 * inner,
                    };
                    matmul(scores, len, query, keys, 1.0, false)?;
                    softmax_rows(scores, len);
                    let values = View {
                        data: &kv[r0 * 2 * inner + inner + at..],
                        rows: len,
                        cols: dk,
                        row_stride: 2 * inner,
                        col_stride: 1,
                    };
                    matmul(
                        &mut ctx[r * inner + at..],
                        inner,
                        View::dense(scores, 1, len),
                        values,
                        1.0,
                        false,
                    )?;
                }
                r0 += len;
            }
            rows_matmul(
                &mut y,
                d,
                View::dense(&ctx, b, inner),
                View::dense(&l.cross.out, inner, d),
                1.0,
                true,
            )?;
            self.feed_forward(&l.ff, &mut y, &mut h, &mut wide)?;
        }
        rms_norm_into(&y, &mut h, &self.decoder_norm, self.eps);
        let rows = self.head.len() / d;
        if rows == 0 {
            return Ok(vec![Vec::new(); b]);
        }
        let mut logits = vec![0f32; b * rows];
        let head = View {
            data: &self.head,
            rows: d,
            cols: rows,
            row_stride: 1,
            col_stride: d,
        };
        // One sequence at a time: with this transposed head gemm picks its path by the
        // product's size (a horizontal kernel up to 256 outputs, else matrix-vector), so a
        // product over the whole batch would sum differently past 256 sequences.
        for (out, row) in logits.chunks_exact_mut(rows).zip(h.chunks_exact(d)) {
            matmul(
                out,
                rows,
                View::dense(row, 1, d),
                head,
                self.head_scale,
                false,
            )?;
        }
        Ok(logits.chunks(rows).map(<[f32]>::to_vec).collect())
    }
}

/// [`matmul`] over the rows of a batch (`lhs` has one row per token or per sequence), giving
/// every row the same bits whatever the number of rows, so that scores do not move with the
/// batch size (issue 37, item 9a). gemm 0.19 sums a one-row product on its matrix-vector path
/// in another order than its blocked kernel, which gives each row the same bits at any row
/// count (its depth blocking depends on the depth and the cache, not on the rows, when the
/// product is wider than 64 columns or no deeper than 512, as every T5 projection is); a
/// single row is therefore run as two copies of itself.
fn rows_matmul(
    dst: &mut [f32],
    dst_stride: usize,
    lhs: View<'_>,
    rhs: View<'_>,
    scale: f32,
    accumulate: bool,
) -> Result<(), GemmError> {
    if lhs.rows != 1 {
        return matmul(dst, dst_stride, lhs, rhs, scale, accumulate);
    }
    let (k, n) = (lhs.cols, rhs.cols);
    let row: Vec<f32> = (0..k)
        .map(|c| lhs.data.get(c * lhs.col_stride).copied())
        .collect::<Option<_>>()
        .ok_or(GemmError::OutOfBounds("left operand"))?;
    let out = dst
        .get_mut(..n)
        .ok_or(GemmError::OutOfBounds("destination"))?;
    let mut two = out.repeat(2);
    matmul(
        &mut two,
        n,
        View::dense(&row.repeat(2), 2, k),
        rhs,
        scale,
        accumulate,
    )?;
    out.copy_from_slice(&two[..n]);
    Ok(())
}
