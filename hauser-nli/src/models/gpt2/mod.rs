//! GPT-2 (pre-LayerNorm blocks, causal attention, LM head tied to the token embeddings): its
//! settings, its weight names (listed once, in [`load_block`] and [`load_top`]), candle's
//! padded forward pass and the packed copy made from the same modules (its forward pass in
//! `packed`). candle-transformers has no GPT-2 (only GPT-BigCode), so the model is here.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{embedding, layer_norm, Activation, Embedding, LayerNorm, Linear, VarBuilder};

use crate::candle_ops::{activation, additive_mask};
use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::config::{check_layers, ModelConfig};
use crate::cpu_kernels::{linear_parts, norm_parts, packed_act, values, PackedLayer};

pub(crate) mod packed;

use packed::{split_counts, PackedCausalLm};

/// GPT-2 checkpoints: `GPT2LMHeadModel` keeps the model under `transformer.`, `GPT2Model` bare.
pub(crate) const SPEC: Spec = Spec {
    model_types: &["gpt2"],
    prefixes: &["transformer"],
    probe: "wte.weight",
    bpe_specials: BpeSpecials::None,
};

/// Rows sent through the LM head at once (GPT-2: 512 x 50,257 f32 logits, about 100 MB).
const HEAD_ROWS: usize = 512;

/// The settings GPT-2 is built with, from `config.json`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gpt2Config {
    pub hidden: usize,
    pub inner: usize,
    pub layers: usize,
    pub heads: usize,
    pub vocab: usize,
    pub positions: usize,
    pub eps: f64,
    pub act: Activation,
}

impl Gpt2Config {
    /// GPT-2's settings with transformers' defaults (`n_inner` 4 x `n_embd`, `gelu_new`,
    /// epsilon 1e-5).
    ///
    /// # Errors
    /// A hidden size that the heads do not divide, as a message.
    pub(crate) fn new(cfg: &ModelConfig) -> std::result::Result<Self, String> {
        let h = cfg.hidden_size;
        if cfg.num_attention_heads == 0 || !h.is_multiple_of(cfg.num_attention_heads) {
            return Err(format!(
                "n_embd {h} is not a multiple of n_head {}",
                cfg.num_attention_heads
            ));
        }
        Ok(Self {
            hidden: h,
            inner: cfg.intermediate_size.unwrap_or(4 * h),
            layers: cfg.num_hidden_layers,
            heads: cfg.num_attention_heads,
            vocab: cfg.vocab_size,
            positions: cfg.max_position_embeddings,
            eps: cfg.layer_norm_eps.unwrap_or(1e-5),
            act: activation(cfg.hidden_act.as_deref().or(Some("gelu_new"))),
        })
    }
}

/// GPT-2's `Conv1D`: weights stored `[in, out]`, i.e. transposed relative to `Linear`.
fn conv1d(i: usize, o: usize, vb: VarBuilder<'_>) -> candle_core::Result<Linear> {
    let w = vb.get((i, o), "weight")?.t()?.contiguous()?;
    let b = vb.get(o, "bias")?;
    Ok(Linear::new(w, Some(b)))
}

struct Block {
    ln_1: LayerNorm,
    c_attn: Linear,
    c_proj: Linear,
    ln_2: LayerNorm,
    c_fc: Linear,
    mlp_proj: Linear,
}

/// Block `i` of the model in `base` (narrowed to the base-model prefix).
/// The `n_layer` blocks a config claims, looked up in the weights before anything is loaded
/// (see [`check_layers`]).
fn check_depth(base: &VarBuilder<'_>, c: &Gpt2Config) -> candle_core::Result<()> {
    check_layers(base, "n_layer", c.layers, |i| format!("h.{i}.ln_1.weight"))
}

fn load_block(base: &VarBuilder<'_>, c: &Gpt2Config, i: usize) -> candle_core::Result<Block> {
    let (h, eps) = (c.hidden, c.eps);
    let b = base.pp(format!("h.{i}"));
    Ok(Block {
        ln_1: layer_norm(h, eps, b.pp("ln_1"))?,
        c_attn: conv1d(h, 3 * h, b.pp("attn.c_attn"))?,
        c_proj: conv1d(h, h, b.pp("attn.c_proj"))?,
        ln_2: layer_norm(h, eps, b.pp("ln_2"))?,
        c_fc: conv1d(h, c.inner, b.pp("mlp.c_fc"))?,
        mlp_proj: conv1d(c.inner, h, b.pp("mlp.c_proj"))?,
    })
}

/// The token and position embeddings and the final norm.
fn load_top(
    base: &VarBuilder<'_>,
    c: &Gpt2Config,
) -> candle_core::Result<(Embedding, Embedding, LayerNorm)> {
    Ok((
        embedding(c.vocab, c.hidden, base.pp("wte"))?,
        embedding(c.positions, c.hidden, base.pp("wpe"))?,
        layer_norm(c.hidden, c.eps, base.pp("ln_f"))?,
    ))
}

/// candle's modules of the model.
pub(crate) struct Modules {
    cfg: Gpt2Config,
    wte: Embedding,
    wpe: Embedding,
    blocks: Vec<Block>,
    ln_f: LayerNorm,
}

/// candle's modules of the model in `base`.
pub(crate) fn modules(base: &VarBuilder<'_>, c: &Gpt2Config) -> candle_core::Result<Modules> {
    check_depth(base, c)?;
    let (wte, wpe, ln_f) = load_top(base, c)?;
    let blocks = (0..c.layers)
        .map(|i| load_block(base, c, i))
        .collect::<candle_core::Result<Vec<_>>>()?;
    Ok(Modules {
        cfg: *c,
        wte,
        wpe,
        blocks,
        ln_f,
    })
}

/// The packed copy of the model in `base`, made from candle's modules block by block, so that
/// candle's tensors for at most one block exist beside it; `None` for an activation the
/// packed kernels lack.
pub(crate) fn pack(
    base: &VarBuilder<'_>,
    c: &Gpt2Config,
) -> candle_core::Result<Option<PackedCausalLm>> {
    let Some(act) = packed_act(c.act) else {
        return Ok(None);
    };
    check_depth(base, c)?;
    let (wte, wpe, ln_f) = load_top(base, c)?;
    let (wte, wpe) = (values(wte.embeddings())?, values(wpe.embeddings())?);
    let (lnf_g, lnf_b, _) = norm_parts(&ln_f)?;
    let layers = (0..c.layers)
        .map(|i| pack_block(&load_block(base, c, i)?))
        .collect::<candle_core::Result<Vec<_>>>()?;
    Ok(Some(PackedCausalLm {
        hidden: c.hidden,
        heads: c.heads,
        inner: c.inner,
        vocab: c.vocab,
        act,
        eps: c.eps as f32,
        wte,
        wpe,
        layers,
        lnf_g,
        lnf_b,
    }))
}

fn pack_block(b: &Block) -> candle_core::Result<PackedLayer> {
    let (ln1_g, ln1_b, _) = norm_parts(&b.ln_1)?;
    let (ln2_g, ln2_b, _) = norm_parts(&b.ln_2)?;
    let (qkv_w, qkv_b) = linear_parts(&b.c_attn)?;
    let (out_w, out_b) = linear_parts(&b.c_proj)?;
    let (inter_w, inter_b) = linear_parts(&b.c_fc)?;
    let (ffn_w, ffn_b) = linear_parts(&b.mlp_proj)?;
    Ok(PackedLayer {
        ln1_g,
        ln1_b,
        qkv_w,
        qkv_b,
        out_w,
        out_b,
        ln2_g,
        ln2_b,
        inter_w,
        inter_b,
        ffn_w,
        ffn_b,
    })
}

impl Modules {
    fn device(&self) -> &Device {
        self.wte.embeddings().device()
    }

    /// Final hidden states `[b, s, h]` (after `ln_f`) of a right-padded batch.
    fn hidden(&self, ids: &[&[u32]]) -> candle_core::Result<Tensor> {
        self.hidden_probed(ids, false).map(|(x, _)| x)
    }

    /// The first layer (0 = embeddings, i = block i) whose output holds NaN or infinity,
    /// `None` when every block's output is finite (the fault is then in the final norm or the
    /// head). Runs the batch again with a check after each block: a diagnosis, not a hot path.
    pub(crate) fn first_non_finite_layer(
        &self,
        ids: &[&[u32]],
    ) -> candle_core::Result<Option<usize>> {
        self.hidden_probed(ids, true).map(|(_, layer)| layer)
    }

    /// [`Self::hidden`], optionally stopping at the first layer whose output is not finite
    /// (padded rows are finite whenever real rows are: they embed token 0 at a valid position).
    fn hidden_probed(
        &self,
        ids: &[&[u32]],
        probe: bool,
    ) -> candle_core::Result<(Tensor, Option<usize>)> {
        // x * 0 is 0 where x is finite, NaN elsewhere.
        let finite = |x: &Tensor| -> candle_core::Result<bool> {
            let s = x
                .affine(0.0, 0.0)?
                .to_dtype(DType::F32)?
                .sum_all()?
                .to_scalar::<f32>()?;
            Ok(s == 0.0)
        };
        let dev = self.device();
        let heads = self.cfg.heads;
        let b = ids.len();
        let s = ids.iter().map(|x| x.len()).max().unwrap_or(1).max(1);
        let mut flat = Vec::with_capacity(b * s);
        let mut mask = Vec::with_capacity(b * s);
        for x in ids {
            flat.extend_from_slice(x);
            flat.extend(std::iter::repeat_n(0u32, s - x.len()));
            mask.extend(std::iter::repeat_n(1u32, x.len()));
            mask.extend(std::iter::repeat_n(0u32, s - x.len()));
        }
        let input = Tensor::from_vec(flat, (b, s), dev)?;
        let mask = Tensor::from_vec(mask, (b, s), dev)?;
        let pos = Tensor::arange(0u32, s as u32, dev)?;
        let mut x = self
            .wte
            .forward(&input)?
            .broadcast_add(&self.wpe.forward(&pos)?)?;
        // Causal mask plus key padding; padded query rows are never read.
        let causal: Vec<f32> = (0..s)
            .flat_map(|i| (0..s).map(move |j| if j <= i { 0.0 } else { -1e9 }))
            .collect();
        let causal = Tensor::from_vec(causal, (1, 1, s, s), dev)?.to_dtype(x.dtype())?;
        let bias = additive_mask(&mask, x.dtype())?.broadcast_add(&causal)?;
        let h = x.dim(2)?;
        let d = h / heads;
        if probe && !finite(&x)? {
            return Ok((x, Some(0)));
        }
        for (layer, blk) in self.blocks.iter().enumerate() {
            let a = blk.ln_1.forward(&x)?;
            let qkv = blk.c_attn.forward(&a)?;
            let split = |i: usize| -> candle_core::Result<Tensor> {
                qkv.narrow(2, i * h, h)?
                    .reshape((b, s, heads, d))?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let (q, k, v) = (split(0)?, split(1)?, split(2)?);
            let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?.broadcast_add(&bias)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let ctx = probs.matmul(&v)?.transpose(1, 2)?.reshape((b, s, h))?;
            x = (x + blk.c_proj.forward(&ctx)?)?;
            let m = blk.ln_2.forward(&x)?;
            let m = blk
                .mlp_proj
                .forward(&self.cfg.act.forward(&blk.c_fc.forward(&m)?)?)?;
            x = (x + m)?;
            if probe && !finite(&x)? {
                return Ok((x, Some(layer + 1)));
            }
        }
        Ok((self.ln_f.forward(&x)?, None))
    }

    /// The LM head's logits `[vocab]` (f32) after the last token of each non-empty sequence.
    pub(crate) fn next_logits(&self, batch: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let hidden = self.hidden(batch)?;
        let mut rows = Vec::with_capacity(batch.len());
        for (i, ids) in batch.iter().enumerate() {
            if ids.is_empty() {
                candle_core::bail!("next-token logits need at least one token");
            }
            rows.push(hidden.get(i)?.narrow(0, ids.len() - 1, 1)?);
        }
        let head = self.wte.embeddings().t()?;
        Tensor::cat(&rows, 0)?
            .matmul(&head)?
            .to_dtype(DType::F32)?
            .to_vec2::<f32>()
    }

    /// `log p(ids[t] | ids[..t])` for `t >= 1` of each sequence of a batch. Only the rows that
    /// predict a token go through the (tied) LM head, [`HEAD_ROWS`] at a time, so memory stays
    /// bounded whatever the batch: full `[b, s, vocab]` logits of 64 inputs of 130 tokens are
    /// 1.7 GB for GPT-2, and log-softmax and copies multiply that.
    pub(crate) fn logprobs(
        &self,
        batch: &[&[u32]],
        from: &[usize],
    ) -> candle_core::Result<Vec<Vec<f32>>> {
        let hidden = self.hidden(batch)?;
        let mut rows = Vec::new();
        let mut targets = Vec::new();
        let mut counts = Vec::with_capacity(batch.len());
        for (i, (ids, &f)) in batch.iter().zip(from).enumerate() {
            let f = f.max(1);
            let n = ids.len().saturating_sub(f);
            counts.push(n);
            if n > 0 {
                rows.push(hidden.get(i)?.narrow(0, f - 1, n)?);
                targets.extend_from_slice(&ids[f..]);
            }
        }
        let mut flat = Vec::with_capacity(targets.len());
        if !rows.is_empty() {
            let rows = Tensor::cat(&rows, 0)?;
            let head = self.wte.embeddings().t()?;
            let mut start = 0;
            while start < targets.len() {
                let n = HEAD_ROWS.min(targets.len() - start);
                let logits = rows
                    .narrow(0, start, n)?
                    .matmul(&head)?
                    .to_dtype(DType::F32)?;
                let lp = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
                let index = Tensor::from_slice(&targets[start..start + n], (n, 1), self.device())?;
                flat.extend(lp.gather(&index, 1)?.flatten_all()?.to_vec1::<f32>()?);
                start += n;
            }
        }
        Ok(split_counts(&flat, &counts))
    }
}
