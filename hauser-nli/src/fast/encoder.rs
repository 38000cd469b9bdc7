//! The BERT-layout encoder on packed sequences.
//!
//! A batch is stored as its sequences' tokens one after another (`[tokens, hidden]`, no
//! padding), so the projections and the feed-forward block are single matrix products over
//! every real token of the batch, and attention runs per sequence without a mask. The result
//! equals the padded computation with an attention mask (masked keys have zero weight), up to
//! float rounding.

use super::gemm::{matmul, View};
use super::math::{activate, layer_norm, softmax_rows, Act};

/// One transformer layer's weights, projections stored input-major (`[in, out]`).
#[derive(Debug, Clone)]
pub(crate) struct PackedLayer {
    /// Query, key and value projections side by side: `[hidden, 3 * hidden]`.
    pub qkv_w: Vec<f32>,
    pub qkv_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
    pub ln1_g: Vec<f32>,
    pub ln1_b: Vec<f32>,
    pub inter_w: Vec<f32>,
    pub inter_b: Vec<f32>,
    pub ffn_w: Vec<f32>,
    pub ffn_b: Vec<f32>,
    pub ln2_g: Vec<f32>,
    pub ln2_b: Vec<f32>,
}

/// A BERT-layout encoder (BERT, RoBERTa, XLM-RoBERTa, MiniLM) in plain f32 buffers.
#[derive(Debug, Clone)]
pub(crate) struct PackedEncoder {
    pub hidden: usize,
    pub heads: usize,
    pub inter: usize,
    pub act: Act,
    pub emb_eps: f32,
    pub eps: f32,
    /// `[vocab, hidden]`.
    pub word: Vec<f32>,
    /// `[max_positions, hidden]`.
    pub position: Vec<f32>,
    /// `[type_vocab, hidden]`, absent when the model has no segment embedding.
    pub token_type: Option<Vec<f32>>,
    pub emb_g: Vec<f32>,
    pub emb_b: Vec<f32>,
    pub layers: Vec<PackedLayer>,
    /// First position id (RoBERTa: padding index + 1).
    pub position_offset: usize,
}

/// One input sequence: token ids and segment ids.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SeqRef<'a> {
    pub ids: &'a [u32],
    pub type_ids: &'a [u32],
}

/// Row `i` of a `[rows, h]` table.
fn table_row<'t>(
    t: &'t [f32],
    h: usize,
    i: usize,
    what: &str,
) -> std::result::Result<&'t [f32], String> {
    t.get(i * h..(i + 1) * h).ok_or_else(|| {
        format!(
            "{what} id {i} outside the embedding table ({} rows)",
            t.len() / h
        )
    })
}

fn fill_rows(dst: &mut [f32], width: usize, row: &[f32]) {
    for r in dst.chunks_exact_mut(width) {
        r.copy_from_slice(row);
    }
}

fn add_rows(dst: &mut [f32], width: usize, row: &[f32]) {
    for r in dst.chunks_exact_mut(width) {
        r.iter_mut().zip(row).for_each(|(x, b)| *x += b);
    }
}

impl PackedEncoder {
    /// Hidden states of layer `layer` (0 = embedding output) for each sequence, as
    /// `len * hidden` row-major values. Runs on the calling thread.
    ///
    /// # Errors
    /// A token, segment or position id outside its embedding table.
    pub(crate) fn forward(
        &self,
        seqs: &[SeqRef<'_>],
        layer: usize,
    ) -> std::result::Result<Vec<Vec<f32>>, String> {
        let h = self.hidden;
        let total: usize = seqs.iter().map(|s| s.ids.len()).sum();
        let mut x = self.embed(seqs, total)?;
        layer_norm(&mut x, h, &self.emb_g, &self.emb_b, self.emb_eps);
        if layer > 0 {
            let longest = seqs.iter().map(|s| s.ids.len()).max().unwrap_or(0);
            let mut buf = Buffers {
                qkv: vec![0f32; total * 3 * h],
                ctx: vec![0f32; total * h],
                mid: vec![0f32; total * h],
                inter: vec![0f32; total * self.inter],
                scores: vec![0f32; longest * longest],
            };
            for l in &self.layers[..layer.min(self.layers.len())] {
                self.layer(l, seqs, &mut x, &mut buf);
            }
        }
        let mut out = Vec::with_capacity(seqs.len());
        let mut start = 0;
        for s in seqs {
            let end = start + s.ids.len() * h;
            out.push(x[start..end].to_vec());
            start = end;
        }
        Ok(out)
    }

    fn embed(&self, seqs: &[SeqRef<'_>], total: usize) -> std::result::Result<Vec<f32>, String> {
        let h = self.hidden;
        let table = |t, i, what| table_row(t, h, i, what);
        let mut x = Vec::with_capacity(total * h);
        for s in seqs {
            for (t, (&id, &ty)) in s.ids.iter().zip(s.type_ids).enumerate() {
                let start = x.len();
                x.extend_from_slice(table(&self.word, id as usize, "token")?);
                let row = &mut x[start..];
                if let Some(tt) = &self.token_type {
                    let seg = table(tt, ty as usize, "segment")?;
                    row.iter_mut().zip(seg).for_each(|(a, b)| *a += b);
                }
                let pos = table(&self.position, t + self.position_offset, "position")?;
                row.iter_mut().zip(pos).for_each(|(a, b)| *a += b);
            }
        }
        Ok(x)
    }

    fn layer(&self, l: &PackedLayer, seqs: &[SeqRef<'_>], x: &mut [f32], buf: &mut Buffers) {
        let h = self.hidden;
        let total = x.len() / h;
        fill_rows(&mut buf.qkv, 3 * h, &l.qkv_b);
        matmul(
            &mut buf.qkv,
            3 * h,
            View::dense(x, total, h),
            View::dense(&l.qkv_w, h, 3 * h),
            1.0,
            true,
        );
        self.attention(seqs, buf);
        // mid = LayerNorm(x + ctx W_o + b_o)
        buf.mid.copy_from_slice(x);
        add_rows(&mut buf.mid, h, &l.out_b);
        matmul(
            &mut buf.mid,
            h,
            View::dense(&buf.ctx, total, h),
            View::dense(&l.out_w, h, h),
            1.0,
            true,
        );
        layer_norm(&mut buf.mid, h, &l.ln1_g, &l.ln1_b, self.eps);
        // x = LayerNorm(mid + act(mid W_i + b_i) W_f + b_f)
        fill_rows(&mut buf.inter, self.inter, &l.inter_b);
        matmul(
            &mut buf.inter,
            self.inter,
            View::dense(&buf.mid, total, h),
            View::dense(&l.inter_w, h, self.inter),
            1.0,
            true,
        );
        activate(&mut buf.inter, self.act);
        x.copy_from_slice(&buf.mid);
        add_rows(x, h, &l.ffn_b);
        matmul(
            x,
            h,
            View::dense(&buf.inter, total, self.inter),
            View::dense(&l.ffn_w, self.inter, h),
            1.0,
            true,
        );
        layer_norm(x, h, &l.ln2_g, &l.ln2_b, self.eps);
    }

    /// Scaled dot-product attention of every sequence and head, from `buf.qkv` into `buf.ctx`.
    fn attention(&self, seqs: &[SeqRef<'_>], buf: &mut Buffers) {
        let h = self.hidden;
        let d = h / self.heads;
        let scale = 1.0 / (d as f32).sqrt();
        let mut r0 = 0;
        for s in seqs {
            let len = s.ids.len();
            if len == 0 {
                continue;
            }
            let scores = &mut buf.scores[..len * len];
            for head in 0..self.heads {
                let q = r0 * 3 * h + head * d;
                let k = q + h;
                let v = q + 2 * h;
                let rows = |off: usize, cols_major: bool| {
                    let (row_stride, col_stride) = if cols_major { (1, 3 * h) } else { (3 * h, 1) };
                    View {
                        data: &buf.qkv[off..],
                        rows: if cols_major { d } else { len },
                        cols: if cols_major { len } else { d },
                        row_stride,
                        col_stride,
                    }
                };
                matmul(scores, len, rows(q, false), rows(k, true), scale, false);
                softmax_rows(scores, len);
                matmul(
                    &mut buf.ctx[r0 * h + head * d..],
                    h,
                    View::dense(scores, len, len),
                    rows(v, false),
                    1.0,
                    false,
                );
            }
            r0 += len;
        }
    }
}

/// Scratch space of one forward pass.
struct Buffers {
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    mid: Vec<f32>,
    inter: Vec<f32>,
    scores: Vec<f32>,
}
