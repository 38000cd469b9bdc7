//! GPT-2 (pre-LayerNorm blocks, causal attention, tied LM head) in plain f32 buffers: token
//! log-probabilities of unpadded sequences laid end to end, as the encoder path does.

use crate::cpu_kernels::block::{pre_norm_block, BiasOrder, BlockShape};
use crate::cpu_kernels::gemm::{matmul, GemmError, View};
use crate::cpu_kernels::math::{layer_norm, log_sum_exp_rows, Act};
use crate::cpu_kernels::scratch::{with_scratch, Buffers};
use crate::cpu_kernels::{check_finite, PackedError, PackedLayer};

/// A GPT-2 language model in the packed layout.
#[derive(Debug, Clone)]
pub(crate) struct PackedCausalLm {
    pub hidden: usize,
    pub heads: usize,
    pub inner: usize,
    pub vocab: usize,
    pub act: Act,
    pub eps: f32,
    /// `[vocab, hidden]`: token embeddings and, tied, the LM head.
    pub wte: Vec<f32>,
    /// `[positions, hidden]`.
    pub wpe: Vec<f32>,
    /// GPT-2's blocks, its `c_fc` and `mlp.c_proj` as `inter` and `ffn`.
    pub layers: Vec<PackedLayer>,
    pub lnf_g: Vec<f32>,
    pub lnf_b: Vec<f32>,
}

/// Rows sent through the LM head at once: 256 x 50,257 f32 logits (about 51 MB) for GPT-2.
const HEAD_ROWS: usize = 256;

impl PackedCausalLm {
    /// `log p(ids[t] | ids[..t])` for `t >= 1` of each sequence. Runs on the calling thread.
    ///
    /// # Errors
    /// A token id outside the vocabulary or a sequence longer than the position table; the
    /// first layer whose output is not finite (0 = embeddings, `None` = the final norm or the
    /// LM head).
    pub(crate) fn logprobs(
        &self,
        seqs: &[&[u32]],
        from: &[usize],
    ) -> std::result::Result<Vec<Vec<f32>>, PackedError> {
        let x = self.final_hidden(seqs)?;
        let lps = self.head(seqs, from, &x)?;
        for lp in &lps {
            check_finite(lp, None)?;
        }
        Ok(lps)
    }

    /// The LM head's logits `[vocab]` after the last token of each (non-empty) sequence: what
    /// a decoder samples the next token from.
    ///
    /// # Errors
    /// As [`Self::logprobs`]; an empty sequence.
    pub(crate) fn next_logits(
        &self,
        seqs: &[&[u32]],
    ) -> std::result::Result<Vec<Vec<f32>>, PackedError> {
        if seqs.iter().any(|s| s.is_empty()) {
            return Err(PackedError::Failed(
                "next-token logits need at least one token".into(),
            ));
        }
        let x = self.final_hidden(seqs)?;
        let (h, v) = (self.hidden, self.vocab);
        let mut rows = Vec::with_capacity(seqs.len() * h);
        let mut end = 0;
        for s in seqs {
            end += s.len();
            rows.extend_from_slice(&x[(end - 1) * h..end * h]);
        }
        let mut out = Vec::with_capacity(seqs.len());
        for part in rows.chunks(HEAD_ROWS * h) {
            let n = part.len() / h;
            let mut logits = vec![0f32; n * v];
            matmul(
                &mut logits,
                v,
                View::dense(part, n, h),
                self.wte_t(),
                1.0,
                false,
            )?;
            out.extend(logits.chunks_exact(v).map(<[f32]>::to_vec));
        }
        for l in &out {
            check_finite(l, None)?;
        }
        Ok(out)
    }

    /// Final hidden rows (after `ln_f`) of sequences laid end to end.
    fn final_hidden(&self, seqs: &[&[u32]]) -> std::result::Result<Vec<f32>, PackedError> {
        let h = self.hidden;
        let total: usize = seqs.iter().map(|s| s.len()).sum();
        let longest = seqs.iter().map(|s| s.len()).max().unwrap_or(0);
        let mut x = self.embed(seqs, total)?;
        check_finite(&x, Some(0))?;
        with_scratch(total, h, self.inner, longest, |buf| {
            self.layers.iter().enumerate().try_for_each(|(i, l)| {
                self.block(l, seqs, &mut x, buf)?;
                check_finite(&x, Some(i + 1))
            })
        })?;
        layer_norm(&mut x, h, &self.lnf_g, &self.lnf_b, self.eps);
        check_finite(&x, None)?;
        Ok(x)
    }

    /// The tied LM head as a `[hidden, vocab]` view of the token embeddings.
    fn wte_t(&self) -> View<'_> {
        View {
            data: &self.wte,
            rows: self.hidden,
            cols: self.vocab,
            row_stride: 1,
            col_stride: self.hidden,
        }
    }

    fn embed(&self, seqs: &[&[u32]], total: usize) -> std::result::Result<Vec<f32>, String> {
        let h = self.hidden;
        let mut x = Vec::with_capacity(total * h);
        for s in seqs {
            for (t, &id) in s.iter().enumerate() {
                let tok = self
                    .wte
                    .get(id as usize * h..(id as usize + 1) * h)
                    .ok_or_else(|| {
                        format!("token id {id} outside the vocabulary ({})", self.vocab)
                    })?;
                let pos = self.wpe.get(t * h..(t + 1) * h).ok_or_else(|| {
                    format!(
                        "position {t} outside the table ({} rows)",
                        self.wpe.len() / h
                    )
                })?;
                x.extend(tok.iter().zip(pos).map(|(a, b)| a + b));
            }
        }
        Ok(x)
    }

    /// One GPT-2 block: layer norms before attention and the MLP, biases after the products.
    fn block(
        &self,
        l: &PackedLayer,
        seqs: &[&[u32]],
        x: &mut [f32],
        buf: &mut Buffers,
    ) -> Result<(), GemmError> {
        let shape = BlockShape {
            hidden: self.hidden,
            heads: self.heads,
            inter: self.inner,
            eps: self.eps,
            act: self.act,
        };
        let lens = seqs.iter().map(|s| s.len());
        pre_norm_block(l, &shape, lens, true, BiasOrder::Last, x, buf)
    }

    /// Log-probabilities of the tokens `t >= from[i]` (at least 1) of each sequence from the
    /// final hidden rows `x`: only those rows go through the LM head.
    fn head(&self, seqs: &[&[u32]], from: &[usize], x: &[f32]) -> Result<Vec<Vec<f32>>, GemmError> {
        let (h, v) = (self.hidden, self.vocab);
        // (row of x, target id) for every position that predicts a token.
        let mut preds = Vec::new();
        let mut r0 = 0;
        let mut counts = Vec::with_capacity(seqs.len());
        for (s, &f) in seqs.iter().zip(from) {
            let f = f.max(1);
            preds.extend((f..s.len()).map(|t| (r0 + t - 1, s[t])));
            counts.push(s.len().saturating_sub(f));
            r0 += s.len();
        }
        let wte_t = self.wte_t();
        let chunk = HEAD_ROWS.min(preds.len());
        let mut rows = vec![0f32; chunk * h];
        let mut logits = vec![0f32; chunk * v];
        let mut lse = vec![0f32; chunk];
        let mut flat = Vec::with_capacity(preds.len());
        for part in preds.chunks(HEAD_ROWS) {
            let n = part.len();
            for (dst, &(r, _)) in rows.chunks_exact_mut(h).zip(part) {
                dst.copy_from_slice(&x[r * h..(r + 1) * h]);
            }
            let logits = &mut logits[..n * v];
            matmul(logits, v, View::dense(&rows, n, h), wte_t, 1.0, false)?;
            // Targets were checked against the vocabulary when embedding.
            let picked: Vec<f32> = part
                .iter()
                .enumerate()
                .map(|(i, &(_, id))| logits[i * v + id as usize])
                .collect();
            log_sum_exp_rows(logits, v, &mut lse[..n]);
            flat.extend(picked.iter().zip(&lse).map(|(p, z)| p - z));
        }
        Ok(split_counts(&flat, &counts))
    }
}

/// Splits values laid end to end into runs of `counts`.
pub(crate) fn split_counts(flat: &[f32], counts: &[usize]) -> Vec<Vec<f32>> {
    let mut at = 0;
    counts
        .iter()
        .map(|&n| {
            let v = flat[at..at + n].to_vec();
            at += n;
            v
        })
        .collect()
}
