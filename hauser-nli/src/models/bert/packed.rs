//! The BERT-layout encoder on packed sequences, with its layer norms after each residual sum
//! (BERT, RoBERTa...) or before each block (XLM-RoBERTa XL).
//!
//! A batch is stored as its sequences' tokens one after another (`[tokens, hidden]`, no
//! padding), so the projections and the feed-forward block are single matrix products over
//! every real token of the batch, and attention runs per sequence without a mask. The result
//! equals the padded computation with an attention mask (masked keys have zero weight), up to
//! float rounding.

use crate::cpu_kernels::attention::{attention, attention_leading, leading_queries, leading_rows};
use crate::cpu_kernels::block::{
    pre_norm_block, pre_norm_qkv, pre_norm_tail, BiasOrder, BlockShape,
};
use crate::cpu_kernels::gemm::{matmul, GemmError, View};
use crate::cpu_kernels::math::{add_layer_norm, bias_activate, layer_norm, Act};
use crate::cpu_kernels::scratch::{fill_rows, with_scratch, Buffers, Parts};
use crate::cpu_kernels::{check_finite, PackedError, PackedLayer};

/// A layer norm's scale, shift and epsilon.
#[derive(Debug, Clone)]
pub(crate) struct Norm {
    pub g: Vec<f32>,
    pub b: Vec<f32>,
    pub eps: f32,
}

/// Where an encoder's layer norms sit (as [`super::Norms`]).
#[derive(Debug, Clone)]
pub(crate) enum Placement {
    /// BERT's: `emb` after the embeddings, each layer's two norms after its residual sums
    /// (`ln1` after attention, `ln2` after the feed-forward block).
    Post { emb: Norm },
    /// XLM-RoBERTa XL's: no norm after the embeddings, each layer's norms on the copy its
    /// blocks read (`ln1` before attention, `ln2` before the feed-forward block) while the
    /// residual stream stays raw, and `last` after the last layer. As transformers'
    /// `XLMRobertaXLEncoder` reports hidden states (and candle's path here), `last` applies to
    /// the last hidden state only: the earlier ones are the raw stream.
    Pre { last: Norm },
}

/// A BERT-layout encoder (BERT, RoBERTa, XLM-RoBERTa, MiniLM, XLM-RoBERTa XL) in plain f32
/// buffers.
#[derive(Debug, Clone)]
pub(crate) struct PackedEncoder {
    pub hidden: usize,
    /// Width of the embedding tables (the hidden size, except factorised embeddings).
    pub emb_width: usize,
    /// Factorised embeddings' projection to the hidden size: weight `[emb_width, hidden]`
    /// input-major, and bias.
    pub projection: Option<(Vec<f32>, Vec<f32>)>,
    /// Per hidden state after the embeddings, the indices into `layers` that produce it (one
    /// each; a whole shared group for ALBERT).
    pub steps: Vec<Vec<usize>>,
    pub heads: usize,
    pub inter: usize,
    pub act: Act,
    /// Every layer's norms' epsilon.
    pub eps: f32,
    pub norms: Placement,
    /// `[vocab, emb_width]`.
    pub word: Vec<f32>,
    /// `[max_positions, emb_width]`.
    pub position: Vec<f32>,
    /// `[type_vocab, emb_width]`, absent when the model has no segment embedding.
    pub token_type: Option<Vec<f32>>,
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

impl PackedEncoder {
    /// Hidden states of layer `layer` (0 = embedding output) for each sequence, as
    /// `len * hidden` row-major values. Runs on the calling thread. With `lead`, sequence `s`
    /// gets only its first `lead[s]` rows of layer `layer` (see [`Self::forward_visit`]).
    ///
    /// # Errors
    /// A token, segment or position id outside its embedding table; the first layer (up to
    /// `layer`) whose output is not finite.
    pub(crate) fn forward(
        &self,
        seqs: &[SeqRef<'_>],
        layer: usize,
        lead: Option<&[usize]>,
    ) -> std::result::Result<Vec<Vec<f32>>, PackedError> {
        let mut out = vec![Vec::new(); seqs.len()];
        self.forward_visit(seqs, layer, lead, &mut |l, i, rows| {
            if l == layer {
                out[i] = rows.to_vec();
            }
        })?;
        Ok(out)
    }

    /// Runs the layers up to `upto` and hands every sequence's hidden states of every layer
    /// `0..=upto` to `visit(layer, sequence, rows)` (`len * hidden` values), so that a caller
    /// that combines all layers (COMET's scalar mix) never holds more than one of them.
    ///
    /// With `lead`, the caller reads nothing of layer `upto` but the first `lead[s]` tokens of
    /// sequence `s` (a classification head or CometKiwi's mix: the first token; XCOMET's word
    /// tags: the hypothesis' tokens): where the layer allows it ([`Self::leading_alike`]),
    /// that layer computes keys and values for every token but the rest (attention output,
    /// projections, feed-forward block, norms) for those rows only, and `visit` gets
    /// `min(lead[s], len)` rows of it, equal bit for bit to the whole layer's. In a BERT-base
    /// model read at its first token that skips about 7% of the products.
    ///
    /// # Errors
    /// As [`Self::forward`].
    pub(crate) fn forward_visit(
        &self,
        seqs: &[SeqRef<'_>],
        upto: usize,
        lead: Option<&[usize]>,
        visit: &mut dyn FnMut(usize, usize, &[f32]),
    ) -> std::result::Result<(), PackedError> {
        let h = self.hidden;
        let total: usize = seqs.iter().map(|s| s.ids.len()).sum();
        // `x` holds `held[s]` rows of sequence `s` (all of them when `None`); the first
        // `shown[s]` go to `visit`.
        let mut emit =
            |layer: usize, x: &[f32], held: Option<&[usize]>, shown: Option<&[usize]>| {
                let mut start = 0;
                for (i, s) in seqs.iter().enumerate() {
                    let len = s.ids.len();
                    let rows = held.map_or(len, |k| k[i]);
                    let show = shown.map_or(rows, |k| k[i].min(rows));
                    visit(layer, i, &x[start..start + show * h]);
                    start += rows * h;
                }
            };
        let mut x = self.embed(seqs, total)?;
        if let Placement::Post { emb } = &self.norms {
            layer_norm(&mut x, self.emb_width, &emb.g, &emb.b, emb.eps);
        }
        if let Some((w, b)) = &self.projection {
            let mut up = vec![0f32; total * h];
            fill_rows(&mut up, h, b);
            matmul(
                &mut up,
                h,
                View::dense(&x, total, self.emb_width),
                View::dense(w, self.emb_width, h),
                1.0,
                true,
            )?;
            x = up;
        }
        let depth = self.steps.len();
        if depth == 0 {
            self.last_norm(&mut x);
        }
        check_finite(&x, Some(0))?;
        emit(0, &x, None, None);
        if upto == 0 {
            return Ok(());
        }
        // The rows kept of each sequence where layer `upto` runs for its leading tokens only.
        let kept: Option<Vec<usize>> = lead.filter(|_| self.leading_alike(seqs)).map(|lead| {
            seqs.iter()
                .zip(lead)
                .map(|(s, &n)| leading_rows(s.ids.len(), n))
                .collect()
        });
        let longest = seqs.iter().map(|s| s.ids.len()).max().unwrap_or(0);
        with_scratch(total, h, self.inter, longest, |buf| {
            self.steps[..upto.min(depth)]
                .iter()
                .enumerate()
                .try_for_each(|(i, step)| {
                    // Layer `upto` for its leading rows only, or the step's layers whole.
                    let mut leading = None;
                    match (&kept, step.split_last()) {
                        (Some(kept), Some((&l, before))) if i + 1 == upto => {
                            for &b in before {
                                self.run_layer(&self.layers[b], seqs, &mut x, buf)?;
                            }
                            let rows = self.layer_leading(&self.layers[l], seqs, kept, &x, buf)?;
                            leading = Some((rows, kept));
                        }
                        _ => {
                            for &l in step {
                                self.run_layer(&self.layers[l], seqs, &mut x, buf)?;
                            }
                        }
                    }
                    let (out, held, shown) = match &mut leading {
                        Some((rows, kept)) => (rows, Some(kept.as_slice()), lead),
                        None => (&mut x, None, None),
                    };
                    if i + 1 == depth {
                        self.last_norm(out);
                    }
                    check_finite(out, Some(i + 1))?;
                    emit(i + 1, out, held, shown);
                    Ok::<(), PackedError>(())
                })
        })
    }

    /// Whether [`Self::layer_leading`] gives rows of the whole layer bit for bit on `seqs`:
    /// products whose blocking cannot depend on their row count. The `gemm` crate splits the
    /// inner dimension by the same rule for any row count when the output is wider than 64
    /// columns, and not at all when the inner dimension is at most 512; a product meeting
    /// neither (not found in released models) keeps the whole layer.
    fn leading_alike(&self, seqs: &[SeqRef<'_>]) -> bool {
        let alike = |n: usize, k: usize| n > 64 || k <= 512;
        let (h, d) = (self.hidden, self.hidden / self.heads.max(1));
        alike(3 * h, h)
            && alike(h, h)
            && alike(self.inter, h)
            && alike(h, self.inter)
            && seqs.iter().all(|s| {
                let len = s.ids.len();
                alike(len, d) && alike(d, len)
            })
    }

    /// One layer over every row of `x`, in place.
    fn run_layer(
        &self,
        l: &PackedLayer,
        seqs: &[SeqRef<'_>],
        x: &mut [f32],
        buf: &mut Buffers,
    ) -> Result<(), GemmError> {
        let lens = seqs.iter().map(|s| s.ids.len());
        match self.norms {
            Placement::Post { .. } => {
                let h = self.hidden;
                let p = buf.parts(x.len() / h, h);
                self.post_qkv(l, x, p.qkv)?;
                attention(lens, h, self.heads, false, p.qkv, p.ctx, p.scores)?;
                self.post_tail(l, p.ctx, x, p.mid, p.inter)
            }
            Placement::Pre { .. } => {
                pre_norm_block(l, &self.shape(), lens, false, BiasOrder::First, x, buf)
            }
        }
    }

    /// [`Self::run_layer`] for the first `kept[s]` rows of each sequence `s` only (see
    /// `leading_rows`): queries, keys and values for every token (the kept ones attend to all
    /// of them), then the attention of the first queries (`leading_queries`), the output
    /// projection, the feed-forward block and the norms on the kept rows. Returns them,
    /// `kept[s] * hidden` values per sequence, end to end.
    fn layer_leading(
        &self,
        l: &PackedLayer,
        seqs: &[SeqRef<'_>],
        kept: &[usize],
        x: &[f32],
        buf: &mut Buffers,
    ) -> Result<Vec<f32>, GemmError> {
        let h = self.hidden;
        let Parts {
            qkv,
            ctx,
            mid,
            inter,
            scores,
        } = buf.parts(x.len() / h, h);
        match self.norms {
            Placement::Post { .. } => self.post_qkv(l, x, qkv)?,
            Placement::Pre { .. } => pre_norm_qkv(l, &self.shape(), x, mid, qkv)?,
        }
        let lens = seqs.iter().map(|s| s.ids.len());
        attention_leading(lens, h, self.heads, kept, qkv, ctx, scores)?;
        // The kept rows of the attention output and of the layer input (the residual).
        let rows: usize = kept.iter().sum();
        let mut io = Vec::with_capacity(rows * h);
        let mut attended = Vec::with_capacity(rows * h);
        let (mut start, mut at) = (0, 0);
        for (s, &n) in seqs.iter().zip(kept) {
            let len = s.ids.len();
            io.extend_from_slice(&x[start * h..(start + n) * h]);
            attended.extend_from_slice(&ctx[at * h..(at + n) * h]);
            start += len;
            at += if len == 0 { 0 } else { leading_queries(len, n) };
        }
        match self.norms {
            Placement::Post { .. } => self.post_tail(l, &attended, &mut io, mid, inter)?,
            Placement::Pre { .. } => pre_norm_tail(
                l,
                &self.shape(),
                &attended,
                BiasOrder::First,
                &mut io,
                mid,
                inter,
            )?,
        }
        Ok(io)
    }

    /// A post-LayerNorm layer's queries, keys and values for every row of `x` into `qkv`.
    fn post_qkv(&self, l: &PackedLayer, x: &[f32], qkv: &mut [f32]) -> Result<(), GemmError> {
        let h = self.hidden;
        fill_rows(qkv, 3 * h, &l.qkv_b);
        matmul(
            qkv,
            3 * h,
            View::dense(x, x.len() / h, h),
            View::dense(&l.qkv_w, h, 3 * h),
            1.0,
            true,
        )
    }

    /// The rest of a post-LayerNorm layer on the rows of `x` whose attention output is `ctx`:
    /// `mid = LayerNorm(ctx W_o + b_o + x)`, then `x = LayerNorm(act(mid W_i + b_i) W_f + b_f +
    /// mid)`, in place. `mid` and `inter` are scratch of at least `x`'s rows.
    fn post_tail(
        &self,
        l: &PackedLayer,
        ctx: &[f32],
        x: &mut [f32],
        mid: &mut [f32],
        inter: &mut [f32],
    ) -> Result<(), GemmError> {
        let h = self.hidden;
        let wide = self.inter;
        let rows = x.len() / h;
        let (mid, inter) = (&mut mid[..rows * h], &mut inter[..rows * wide]);
        matmul(
            mid,
            h,
            View::dense(ctx, rows, h),
            View::dense(&l.out_w, h, h),
            1.0,
            false,
        )?;
        add_layer_norm(mid, x, &l.out_b, &l.ln1_g, &l.ln1_b, self.eps);
        matmul(
            inter,
            wide,
            View::dense(mid, rows, h),
            View::dense(&l.inter_w, h, wide),
            1.0,
            false,
        )?;
        bias_activate(inter, &l.inter_b, self.act);
        matmul(
            x,
            h,
            View::dense(inter, rows, wide),
            View::dense(&l.ffn_w, wide, h),
            1.0,
            false,
        )?;
        add_layer_norm(x, mid, &l.ffn_b, &l.ln2_g, &l.ln2_b, self.eps);
        Ok(())
    }

    /// The pre-LayerNorm layouts' norm after the last layer, in place; nothing for
    /// post-LayerNorm ones.
    fn last_norm(&self, x: &mut [f32]) {
        if let Placement::Pre { last } = &self.norms {
            layer_norm(x, self.hidden, &last.g, &last.b, last.eps);
        }
    }

    fn embed(&self, seqs: &[SeqRef<'_>], total: usize) -> std::result::Result<Vec<f32>, String> {
        let h = self.emb_width;
        let table = |t, i, what| table_row(t, h, i, what);
        let mut x = Vec::with_capacity(total * h);
        for s in seqs {
            for (t, (&id, &ty)) in s.ids.iter().zip(s.type_ids).enumerate() {
                let start = x.len();
                x.extend_from_slice(table(&self.word, id as usize, "token")?);
                let row = &mut x[start..];
                if let Some(tt) = &self.token_type {
                    // A single-segment model (RoBERTa) takes all-zero segment ids, whatever
                    // the tokenizer's post-processor assigned to a pair's second sentence.
                    let ty = if tt.len() == h { 0 } else { ty };
                    let seg = table(tt, ty as usize, "segment")?;
                    row.iter_mut().zip(seg).for_each(|(a, b)| *a += b);
                }
                let pos = table(&self.position, t + self.position_offset, "position")?;
                row.iter_mut().zip(pos).for_each(|(a, b)| *a += b);
            }
        }
        Ok(x)
    }

    /// The block settings of this encoder's layers.
    fn shape(&self) -> BlockShape {
        BlockShape {
            hidden: self.hidden,
            heads: self.heads,
            inter: self.inter,
            eps: self.eps,
            act: self.act,
        }
    }
}
