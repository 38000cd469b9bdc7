//! GPT-2 as a causal LM: token log-probabilities, sequence and conditional log-likelihood,
//! perplexity. candle-transformers has no GPT-2 (only GPT-BigCode), so the model is here.

use std::path::PathBuf;

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{embedding, layer_norm, Embedding, LayerNorm, Linear, VarBuilder};

use crate::batch::{scatter, Batching};
use crate::bert::{activation, additive_mask};
use crate::config::ModelConfig;
use crate::error::{infer_err, NliError, Result};
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
    wte: Embedding,
    wpe: Embedding,
    blocks: Vec<Block>,
    ln_f: LayerNorm,
    heads: usize,
    act: candle_nn::Activation,
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
        let base = if vb.contains_tensor("transformer.wte.weight") {
            vb.pp("transformer")
        } else {
            vb.clone()
        };
        let h = cfg.hidden_size;
        let eps = cfg.layer_norm_eps.unwrap_or(1e-5);
        let inner = cfg.intermediate_size.unwrap_or(4 * h);
        let load = || -> candle_core::Result<_> {
            let wte = embedding(cfg.vocab_size, h, base.pp("wte"))?;
            let wpe = embedding(cfg.max_position_embeddings, h, base.pp("wpe"))?;
            let blocks = (0..cfg.num_hidden_layers)
                .map(|i| {
                    let b = base.pp(format!("h.{i}"));
                    Ok(Block {
                        ln_1: layer_norm(h, eps, b.pp("ln_1"))?,
                        c_attn: conv1d(h, 3 * h, b.pp("attn.c_attn"))?,
                        c_proj: conv1d(h, h, b.pp("attn.c_proj"))?,
                        ln_2: layer_norm(h, eps, b.pp("ln_2"))?,
                        c_fc: conv1d(h, inner, b.pp("mlp.c_fc"))?,
                        mlp_proj: conv1d(inner, h, b.pp("mlp.c_proj"))?,
                    })
                })
                .collect::<candle_core::Result<Vec<_>>>()?;
            let ln_f = layer_norm(h, eps, base.pp("ln_f"))?;
            Ok((wte, wpe, blocks, ln_f))
        };
        let (wte, wpe, blocks, ln_f) = load().map_err(werr)?;
        if cfg.num_attention_heads == 0 || h % cfg.num_attention_heads != 0 {
            return Err(NliError::Invalid {
                model: name,
                message: format!(
                    "n_embd {h} is not a multiple of n_head {}",
                    cfg.num_attention_heads
                ),
            });
        }
        let max_len = cfg.max_position_embeddings;
        let text = TextEncoder::load(source, "gpt2", max_len)?;
        Ok(Self {
            source: source.clone(),
            text,
            wte,
            wpe,
            blocks,
            ln_f,
            heads: cfg.num_attention_heads,
            act: activation(cfg.hidden_act.as_deref().or(Some("gelu_new"))),
            max_len,
            device,
            batching: opts.batching,
            weights,
        })
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
    fn hidden(&self, ids: &[&[u32]]) -> candle_core::Result<Tensor> {
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
        let mut x = self
            .wte
            .forward(&input)?
            .broadcast_add(&self.wpe.forward(&pos)?)?;
        // Causal mask plus key padding; padded query rows are never read.
        let causal: Vec<f32> = (0..s)
            .flat_map(|i| (0..s).map(move |j| if j <= i { 0.0 } else { -1e9 }))
            .collect();
        let causal = Tensor::from_vec(causal, (1, 1, s, s), &self.device)?.to_dtype(x.dtype())?;
        let bias = additive_mask(&mask, x.dtype())?.broadcast_add(&causal)?;
        let h = x.dim(2)?;
        let d = h / self.heads;
        for blk in &self.blocks {
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
        self.ln_f.forward(&x)
    }

    /// `log p(ids[t] | ids[..t])` for `t >= 1` of each sequence of a batch. Only the rows that
    /// predict a token go through the (tied) LM head, [`HEAD_ROWS`] at a time, so memory stays
    /// bounded whatever the batch: full `[b, s, vocab]` logits of 64 inputs of 130 tokens are
    /// 1.7 GB for GPT-2, and log-softmax and copies multiply that.
    fn batch_logprobs(&self, batch: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let hidden = self.hidden(batch)?;
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
            let head = self.wte.embeddings().t()?;
            let mut start = 0;
            while start < targets.len() {
                let n = HEAD_ROWS.min(targets.len() - start);
                let logits = rows.narrow(0, start, n)?.matmul(&head)?.to_dtype(DType::F32)?;
                let lp = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
                let index = Tensor::from_slice(&targets[start..start + n], (n, 1), &self.device)?;
                flat.extend(lp.gather(&index, 1)?.flatten_all()?.to_vec1::<f32>()?);
                start += n;
            }
        }
        let mut out = Vec::with_capacity(batch.len());
        let mut at = 0;
        for ids in batch {
            let n = ids.len().saturating_sub(1);
            out.push(flat[at..at + n].to_vec());
            at += n;
        }
        Ok(out)
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
        let mut out = Vec::new();
        for idx in self.batching.plan(&lengths) {
            let batch: Vec<&[u32]> = idx.iter().map(|&i| seqs[i].as_slice()).collect();
            let rows = self.batch_logprobs(&batch).map_err(&e)?;
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
