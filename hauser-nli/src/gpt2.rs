//! GPT-2 as a causal LM: token log-probabilities, sequence and conditional log-likelihood,
//! perplexity. candle-transformers has no GPT-2 (only GPT-BigCode), so the model is here.

use std::path::PathBuf;

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{embedding, layer_norm, Activation, Embedding, LayerNorm, Linear, VarBuilder};

use crate::batch::{scatter, Batching};
use crate::bert::{activation, additive_mask};
use crate::config::ModelConfig;
use crate::engines::{Engines, WeightsHandle};
use crate::error::{infer_err, NliError, Result};
use crate::fast::{packed_act, per_sequence, values, CausalLayer, PackedCausalLm};
use crate::model::{open_weights, LoadOptions};
use crate::source::ModelSource;
use crate::tokenize::TextEncoder;

/// Rows sent through the LM head at once (GPT-2: 512 x 50,257 f32 logits, about 100 MB).
const HEAD_ROWS: usize = 512;

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

/// candle's modules of the model.
struct Modules {
    wte: Embedding,
    wpe: Embedding,
    blocks: Vec<Block>,
    ln_f: LayerNorm,
}

/// The sizes the model is built with.
#[derive(Debug, Clone, Copy)]
struct Dims {
    hidden: usize,
    inner: usize,
    layers: usize,
    vocab: usize,
    positions: usize,
    eps: f64,
}

impl Dims {
    fn modules(&self, base: &VarBuilder<'_>) -> candle_core::Result<Modules> {
        let (h, eps) = (self.hidden, self.eps);
        let blocks = (0..self.layers)
            .map(|i| {
                let b = base.pp(format!("h.{i}"));
                Ok(Block {
                    ln_1: layer_norm(h, eps, b.pp("ln_1"))?,
                    c_attn: conv1d(h, 3 * h, b.pp("attn.c_attn"))?,
                    c_proj: conv1d(h, h, b.pp("attn.c_proj"))?,
                    ln_2: layer_norm(h, eps, b.pp("ln_2"))?,
                    c_fc: conv1d(h, self.inner, b.pp("mlp.c_fc"))?,
                    mlp_proj: conv1d(self.inner, h, b.pp("mlp.c_proj"))?,
                })
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Modules {
            wte: embedding(self.vocab, h, base.pp("wte"))?,
            wpe: embedding(self.positions, h, base.pp("wpe"))?,
            blocks,
            ln_f: layer_norm(h, eps, base.pp("ln_f"))?,
        })
    }

    /// The packed copy, read tensor by tensor from the file (`Conv1D` weights are already
    /// input-major); `None` for an activation the packed kernels lack.
    fn packed(
        &self,
        base: &VarBuilder<'_>,
        heads: usize,
        act: Activation,
    ) -> candle_core::Result<Option<PackedCausalLm>> {
        let Some(act) = packed_act(act) else {
            return Ok(None);
        };
        let (h, inner) = (self.hidden, self.inner);
        let get = |vb: &VarBuilder<'_>, shape: &[usize], name: &str| values(&vb.get(shape, name)?);
        let layers = (0..self.layers)
            .map(|i| {
                let b = base.pp(format!("h.{i}"));
                Ok(CausalLayer {
                    ln1_g: get(&b, &[h], "ln_1.weight")?,
                    ln1_b: get(&b, &[h], "ln_1.bias")?,
                    qkv_w: get(&b, &[h, 3 * h], "attn.c_attn.weight")?,
                    qkv_b: get(&b, &[3 * h], "attn.c_attn.bias")?,
                    out_w: get(&b, &[h, h], "attn.c_proj.weight")?,
                    out_b: get(&b, &[h], "attn.c_proj.bias")?,
                    ln2_g: get(&b, &[h], "ln_2.weight")?,
                    ln2_b: get(&b, &[h], "ln_2.bias")?,
                    fc_w: get(&b, &[h, inner], "mlp.c_fc.weight")?,
                    fc_b: get(&b, &[inner], "mlp.c_fc.bias")?,
                    proj_w: get(&b, &[inner, h], "mlp.c_proj.weight")?,
                    proj_b: get(&b, &[h], "mlp.c_proj.bias")?,
                })
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Some(PackedCausalLm {
            hidden: h,
            heads,
            inner,
            vocab: self.vocab,
            act,
            eps: self.eps as f32,
            wte: get(base, &[self.vocab, h], "wte.weight")?,
            wpe: get(base, &[self.positions, h], "wpe.weight")?,
            layers,
            lnf_g: get(base, &[h], "ln_f.weight")?,
            lnf_b: get(base, &[h], "ln_f.bias")?,
        }))
    }
}

/// Log-likelihood of one input.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenLogProbs {
    /// Token ids of the input.
    pub ids: Vec<u32>,
    /// `log p(ids[i] | ids[..i])` for `i >= 1` (the first token has no context).
    pub logprobs: Vec<f32>,
}

impl TokenLogProbs {
    /// Sum of the token log-probabilities.
    pub fn sum(&self) -> f64 {
        self.logprobs.iter().map(|&x| x as f64).sum()
    }

    /// exp(-mean log-probability); NaN when there is no scored token.
    pub fn perplexity(&self) -> f64 {
        (-self.sum() / self.logprobs.len() as f64).exp()
    }
}

/// A GPT-2 language model with its tokenizer.
pub struct CausalLm {
    source: ModelSource,
    text: TextEncoder,
    dims: Dims,
    /// The packed CPU kernels' copy of the weights and candle's modules, built only if
    /// candle's path is asked for where the packed copy exists.
    engines: Engines<PackedCausalLm, Modules>,
    heads: usize,
    act: Activation,
    max_len: usize,
    device: Device,
    batching: Batching,
    weights: PathBuf,
}

impl std::fmt::Debug for CausalLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CausalLm")
            .field("source", &self.source)
            .field("weights", &self.weights)
            .finish()
    }
}

impl CausalLm {
    /// Loads a GPT-2 checkpoint (`GPT2LMHeadModel` or `GPT2Model`; the LM head is tied to
    /// the token embeddings, as in GPT-2).
    ///
    /// # Errors
    /// Missing files, another architecture, or bad weights, named with the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let name = source.name();
        let cfg_path = source.required("config.json")?;
        let (cfg, _) = ModelConfig::load(&name, &cfg_path)?;
        if cfg.model_type != "gpt2" {
            return Err(NliError::UnsupportedArchitecture {
                model: name,
                model_type: cfg.model_type,
                usage: "causal LM",
                supported: "gpt2",
            });
        }
        let (device, dtype) = opts.device.open(&name, opts.precision)?;
        let (vb, weights) = open_weights(source, dtype, &device)?;
        let werr = |e: candle_core::Error| NliError::Weights {
            model: name.clone(),
            path: weights.clone(),
            message: e.to_string(),
        };
        // A `GPT2LMHeadModel` checkpoint keeps the model under `transformer.`.
        let prefix = vb
            .contains_tensor("transformer.wte.weight")
            .then_some("transformer");
        let base = match prefix {
            Some(p) => vb.pp(p),
            None => vb.clone(),
        };
        let h = cfg.hidden_size;
        let dims = Dims {
            hidden: h,
            inner: cfg.intermediate_size.unwrap_or(4 * h),
            layers: cfg.num_hidden_layers,
            vocab: cfg.vocab_size,
            positions: cfg.max_position_embeddings,
            eps: cfg.layer_norm_eps.unwrap_or(1e-5),
        };
        let act = activation(cfg.hidden_act.as_deref().or(Some("gelu_new")));
        if cfg.num_attention_heads == 0 || h % cfg.num_attention_heads != 0 {
            return Err(NliError::Invalid {
                model: name,
                message: format!(
                    "n_embd {h} is not a multiple of n_head {}",
                    cfg.num_attention_heads
                ),
            });
        }
        let heads = cfg.num_attention_heads;
        let handle = WeightsHandle {
            source: source.clone(),
            dtype,
            device: device.clone(),
            prefix,
        };
        let engines = Engines::new(
            handle,
            &base,
            |b| dims.packed(b, heads, act),
            |b| dims.modules(b),
        )
        .map_err(werr)?;
        let max_len = cfg.max_position_embeddings;
        let text = TextEncoder::load(source, "gpt2", max_len)?;
        Ok(Self {
            source: source.clone(),
            text,
            dims,
            engines,
            heads,
            act,
            max_len,
            device,
            batching: opts.batching,
            weights,
        })
    }

    /// Whether f32 CPU inference goes through the packed kernels (the default on the CPU).
    pub fn uses_packed_cpu(&self) -> bool {
        self.engines.packed().is_some()
    }

    /// Which code runs the model, for signatures: `packed-cpu` or `candle`.
    pub fn kernels(&self) -> &'static str {
        self.engines.kernels()
    }

    /// Switches the packed CPU kernels on (the default where available) or off (candle's
    /// padded forward pass); returns [`Self::uses_packed_cpu`]. candle's copy of the weights
    /// is built when first needed and dropped when the packed kernels are switched back on.
    pub fn set_packed_cpu(&mut self, on: bool) -> bool {
        self.engines.set_packed(on)
    }

    /// Whether candle's copy of the weights is in memory (see [`Self::set_packed_cpu`]).
    pub fn holds_candle_weights(&self) -> bool {
        self.engines.holds_candle()
    }

    /// The model's source.
    pub fn source(&self) -> &ModelSource {
        &self.source
    }

    /// The tokenizer.
    pub fn text_encoder(&self) -> &TextEncoder {
        &self.text
    }

    /// Final hidden states `[b, s, h]` (after `ln_f`) of a right-padded batch.
    fn hidden(&self, m: &Modules, ids: &[&[u32]]) -> candle_core::Result<Tensor> {
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
        let input = Tensor::from_vec(flat, (b, s), &self.device)?;
        let mask = Tensor::from_vec(mask, (b, s), &self.device)?;
        let pos = Tensor::arange(0u32, s as u32, &self.device)?;
        let mut x = m
            .wte
            .forward(&input)?
            .broadcast_add(&m.wpe.forward(&pos)?)?;
        // Causal mask plus key padding; padded query rows are never read.
        let causal: Vec<f32> = (0..s)
            .flat_map(|i| (0..s).map(move |j| if j <= i { 0.0 } else { -1e9 }))
            .collect();
        let causal = Tensor::from_vec(causal, (1, 1, s, s), &self.device)?.to_dtype(x.dtype())?;
        let bias = additive_mask(&mask, x.dtype())?.broadcast_add(&causal)?;
        let h = x.dim(2)?;
        let d = h / self.heads;
        for blk in &m.blocks {
            let a = blk.ln_1.forward(&x)?;
            let qkv = blk.c_attn.forward(&a)?;
            let split = |i: usize| -> candle_core::Result<Tensor> {
                qkv.narrow(2, i * h, h)?
                    .reshape((b, s, self.heads, d))?
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
                .forward(&self.act.forward(&blk.c_fc.forward(&m)?)?)?;
            x = (x + m)?;
        }
        m.ln_f.forward(&x)
    }

    /// `log p(ids[t] | ids[..t])` for `t >= 1` of each sequence of a batch. Only the rows that
    /// predict a token go through the (tied) LM head, [`HEAD_ROWS`] at a time, so memory stays
    /// bounded whatever the batch: full `[b, s, vocab]` logits of 64 inputs of 130 tokens are
    /// 1.7 GB for GPT-2, and log-softmax and copies multiply that.
    fn batch_logprobs(&self, m: &Modules, batch: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let hidden = self.hidden(m, batch)?;
        let mut rows = Vec::new();
        let mut targets = Vec::new();
        for (i, ids) in batch.iter().enumerate() {
            if ids.len() > 1 {
                rows.push(hidden.get(i)?.narrow(0, 0, ids.len() - 1)?);
                targets.extend_from_slice(&ids[1..]);
            }
        }
        let mut flat = Vec::with_capacity(targets.len());
        if !rows.is_empty() {
            let rows = Tensor::cat(&rows, 0)?;
            let head = m.wte.embeddings().t()?;
            let mut start = 0;
            while start < targets.len() {
                let n = HEAD_ROWS.min(targets.len() - start);
                let logits = rows
                    .narrow(0, start, n)?
                    .matmul(&head)?
                    .to_dtype(DType::F32)?;
                let lp = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
                let index = Tensor::from_slice(&targets[start..start + n], (n, 1), &self.device)?;
                flat.extend(lp.gather(&index, 1)?.flatten_all()?.to_vec1::<f32>()?);
                start += n;
            }
        }
        Ok(per_sequence(&flat, batch))
    }

    /// Per-token log-probabilities of token-id sequences (each at most the context size).
    ///
    /// # Errors
    /// A sequence longer than the context window, or an inference failure.
    pub fn logprobs_of_ids(&self, seqs: &[Vec<u32>]) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        let e = infer_err(&name);
        if let Some(long) = seqs.iter().find(|s| s.len() > self.max_len) {
            return Err(NliError::Invalid {
                model: name.clone(),
                message: format!(
                    "{} tokens exceed the context of {}",
                    long.len(),
                    self.max_len
                ),
            });
        }
        let lengths: Vec<usize> = seqs.iter().map(Vec::len).collect();
        if let Some(packed) = self.engines.packed() {
            return self.batching.par_packed(&lengths, &name, |idx| {
                let batch: Vec<&[u32]> = idx.iter().map(|&i| seqs[i].as_slice()).collect();
                packed.logprobs(&batch)
            });
        }
        let m = self.engines.candle(|b| self.dims.modules(b))?;
        let mut out = Vec::new();
        for idx in self.batching.plan(&lengths) {
            let batch: Vec<&[u32]> = idx.iter().map(|&i| seqs[i].as_slice()).collect();
            let rows = self.batch_logprobs(m, &batch).map_err(&e)?;
            out.push((idx, rows));
        }
        Ok(scatter(seqs.len(), out))
    }

    /// Token log-probabilities of texts (tokenized without special tokens, as transformers'
    /// GPT-2 tokenizer does).
    ///
    /// # Errors
    /// Tokenizer or inference failures; texts longer than the context.
    pub fn token_logprobs(&self, texts: &[&str]) -> Result<Vec<TokenLogProbs>> {
        let ids = texts
            .iter()
            .map(|t| self.text.encode_plain(t))
            .collect::<Result<Vec<_>>>()?;
        let lps = self.logprobs_of_ids(&ids)?;
        Ok(ids
            .into_iter()
            .zip(lps)
            .map(|(ids, logprobs)| TokenLogProbs { ids, logprobs })
            .collect())
    }

    /// Sequence log-likelihoods (sum over tokens after the first).
    ///
    /// # Errors
    /// As [`Self::token_logprobs`].
    pub fn sequence_logprob(&self, texts: &[&str]) -> Result<Vec<f64>> {
        Ok(self
            .token_logprobs(texts)?
            .iter()
            .map(TokenLogProbs::sum)
            .collect())
    }

    /// Perplexities, exp(-mean token log-probability).
    ///
    /// # Errors
    /// As [`Self::token_logprobs`].
    pub fn perplexity(&self, texts: &[&str]) -> Result<Vec<f64>> {
        Ok(self
            .token_logprobs(texts)?
            .iter()
            .map(TokenLogProbs::perplexity)
            .collect())
    }

    /// `log p(continuation | context)`: context and continuation are tokenized separately
    /// and concatenated, and only the continuation's tokens are summed.
    ///
    /// # Errors
    /// An empty context, tokenizer or inference failures.
    pub fn conditional_logprob(&self, pairs: &[(&str, &str)]) -> Result<Vec<f64>> {
        let mut seqs = Vec::with_capacity(pairs.len());
        let mut starts = Vec::with_capacity(pairs.len());
        for (ctx, cont) in pairs {
            let mut c = self.text.encode_plain(ctx)?;
            if c.is_empty() {
                return Err(NliError::Invalid {
                    model: self.source.name(),
                    message: "conditional log-probability needs a non-empty context".into(),
                });
            }
            starts.push(c.len() - 1);
            c.extend(self.text.encode_plain(cont)?);
            seqs.push(c);
        }
        let lps = self.logprobs_of_ids(&seqs)?;
        Ok(lps
            .iter()
            .zip(starts)
            .map(|(lp, s)| lp[s..].iter().map(|&x| x as f64).sum())
            .collect())
    }
}
