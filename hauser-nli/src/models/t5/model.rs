//! The T5 / mT5 encoder-decoder as transformers' `T5Stack` runs it, for one decoder step:
//! RMS layer norms (no mean, no bias, the variance in f32) before each sub-layer, attention
//! without the 1/sqrt(d) scale (T5 folds it into the initialisation), a relative-position bias
//! computed by the first layer of each stack and added in every layer, the relu or gated-gelu
//! feed-forward, the final norms. Only the head rows a caller asks for are kept: MetricX reads
//! one logit of a 250,112-row head.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{Embedding, Linear, VarBuilder};

use super::config::{relative_position_bucket, FeedForward, T5Config};
use super::packed::{
    PackedT5, T5CrossAttention, T5DecoderLayer, T5EncoderLayer, T5FeedForward, T5SelfAttention,
};
use crate::config::check_layers;
use crate::cpu_kernels::{input_major_values, values};

type CResult<T> = candle_core::Result<T>;

/// transformers' `T5LayerNorm`: `w * x / sqrt(mean(x^2) + eps)`, computed in f32 and cast
/// back to the weight's dtype when that is half precision.
struct RmsNorm {
    weight: Tensor,
    eps: f64,
}

impl RmsNorm {
    fn load(vb: &VarBuilder<'_>, d: usize, eps: f64) -> CResult<Self> {
        Ok(Self {
            weight: vb.get(d, "weight")?,
            eps,
        })
    }

    fn forward(&self, x: &Tensor) -> CResult<Tensor> {
        let x32 = x.to_dtype(DType::F32)?;
        let var = x32.sqr()?.mean_keepdim(D::Minus1)?;
        let y = x32.broadcast_div(&(var + self.eps)?.sqrt()?)?;
        y.to_dtype(self.weight.dtype())?.broadcast_mul(&self.weight)
    }
}

/// One attention block (`SelfAttention` or `EncDecAttention`): bias-free projections to
/// `heads x d_kv` and back.
struct Attention {
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    heads: usize,
    d_kv: usize,
    /// `relative_attention_bias` (buckets x heads): the first layer's self-attention only.
    bias: Option<Embedding>,
}

impl Attention {
    fn load(vb: &VarBuilder<'_>, cfg: &T5Config, with_bias: bool) -> CResult<Self> {
        let inner = cfg.num_heads * cfg.d_kv;
        let lin = |name: &str, i: usize, o: usize| candle_nn::linear_no_bias(i, o, vb.pp(name));
        let bias = if with_bias {
            let w = vb.get(
                (cfg.num_buckets, cfg.num_heads),
                "relative_attention_bias.weight",
            )?;
            Some(Embedding::new(w, cfg.num_heads))
        } else {
            None
        };
        Ok(Self {
            q: lin("q", cfg.d_model, inner)?,
            k: lin("k", cfg.d_model, inner)?,
            v: lin("v", cfg.d_model, inner)?,
            o: lin("o", inner, cfg.d_model)?,
            heads: cfg.num_heads,
            d_kv: cfg.d_kv,
            bias,
        })
    }

    /// `(batch, len, heads x d_kv)` to `(batch, heads, len, d_kv)`.
    fn split(&self, x: &Tensor) -> CResult<Tensor> {
        let (b, n, _) = x.dims3()?;
        x.reshape((b, n, self.heads, self.d_kv))?
            .transpose(1, 2)?
            .contiguous()
    }

    /// Attention of `x` over `kv`, scores plus `bias` (heads x queries x keys, mask folded in
    /// as transformers adds it to the position bias), softmax in f32, no scaling.
    fn forward(&self, x: &Tensor, kv: &Tensor, bias: &Tensor) -> CResult<Tensor> {
        let (b, n, _) = x.dims3()?;
        let q = self.split(&self.q.forward(x)?)?;
        let k = self.split(&self.k.forward(kv)?)?;
        let v = self.split(&self.v.forward(kv)?)?;
        let scores = q.matmul(&k.t()?)?.broadcast_add(bias)?;
        let p =
            candle_nn::ops::softmax_last_dim(&scores.to_dtype(DType::F32)?)?.to_dtype(v.dtype())?;
        let out = p
            .matmul(&v)?
            .transpose(1, 2)?
            .reshape((b, n, self.heads * self.d_kv))?;
        self.o.forward(&out)
    }

    /// The relative-position bias `(1, heads, queries, keys)` of this (first) layer.
    fn position_bias(
        &self,
        cfg: &T5Config,
        q: usize,
        k: usize,
        bidirectional: bool,
        dev: &Device,
    ) -> CResult<Tensor> {
        let Some(emb) = &self.bias else {
            candle_core::bail!("position bias asked of a layer without relative_attention_bias")
        };
        let mut buckets = Vec::with_capacity(q * k);
        for i in 0..q {
            for j in 0..k {
                let rel = j as i64 - i as i64;
                let b =
                    relative_position_bucket(rel, bidirectional, cfg.num_buckets, cfg.max_distance);
                buckets.push(b as u32);
            }
        }
        let ids = Tensor::from_vec(buckets, (q, k), dev)?;
        emb.forward(&ids)?.permute((2, 0, 1))?.unsqueeze(0)
    }
}

/// The feed-forward block.
enum Ff {
    Relu {
        wi: Linear,
        wo: Linear,
    },
    Gated {
        wi0: Linear,
        wi1: Linear,
        wo: Linear,
    },
}

impl Ff {
    fn load(vb: &VarBuilder<'_>, cfg: &T5Config) -> CResult<Self> {
        let (d, f) = (cfg.d_model, cfg.d_ff);
        let lin = |name: &str, i: usize, o: usize| candle_nn::linear_no_bias(i, o, vb.pp(name));
        Ok(match cfg.feed_forward {
            FeedForward::Relu => Ff::Relu {
                wi: lin("wi", d, f)?,
                wo: lin("wo", f, d)?,
            },
            FeedForward::GatedGelu => Ff::Gated {
                wi0: lin("wi_0", d, f)?,
                wi1: lin("wi_1", d, f)?,
                wo: lin("wo", f, d)?,
            },
        })
    }

    fn forward(&self, x: &Tensor) -> CResult<Tensor> {
        match self {
            Ff::Relu { wi, wo } => wo.forward(&wi.forward(x)?.relu()?),
            // candle's `gelu` is the tanh approximation, transformers' `gelu_new`.
            Ff::Gated { wi0, wi1, wo } => wo.forward(&(wi0.forward(x)?.gelu()? * wi1.forward(x)?)?),
        }
    }
}

/// transformers clamps each sub-layer's output in float16 (only) so that an overflow does not
/// turn into infinities: to the largest finite value, 1000 less when an infinity appeared.
fn clamp_f16(x: Tensor) -> CResult<Tensor> {
    if x.dtype() != DType::F16 {
        return Ok(x);
    }
    let max = 65504.0_f64;
    let inf = x
        .abs()?
        .to_dtype(DType::F32)?
        .max_all()?
        .to_scalar::<f32>()?
        .is_infinite();
    let c = if inf { max - 1000.0 } else { max };
    x.clamp(-c, c)
}

/// One layer: a self-attention, in the decoder a cross-attention, a feed-forward; each behind
/// its RMS norm, with a residual.
struct Block {
    self_norm: RmsNorm,
    self_attn: Attention,
    cross: Option<(RmsNorm, Attention)>,
    ff_norm: RmsNorm,
    ff: Ff,
}

impl Block {
    fn load(vb: &VarBuilder<'_>, cfg: &T5Config, decoder: bool, first: bool) -> CResult<Self> {
        let layer = vb.pp("layer");
        let d = cfg.d_model;
        let self_norm = RmsNorm::load(&layer.pp(0).pp("layer_norm"), d, cfg.eps)?;
        let self_attn = Attention::load(&layer.pp(0).pp("SelfAttention"), cfg, first)?;
        let (cross, ff_at) = if decoder {
            let norm = RmsNorm::load(&layer.pp(1).pp("layer_norm"), d, cfg.eps)?;
            let attn = Attention::load(&layer.pp(1).pp("EncDecAttention"), cfg, false)?;
            (Some((norm, attn)), 2)
        } else {
            (None, 1)
        };
        Ok(Self {
            self_norm,
            self_attn,
            cross,
            ff_norm: RmsNorm::load(&layer.pp(ff_at).pp("layer_norm"), d, cfg.eps)?,
            ff: Ff::load(&layer.pp(ff_at).pp("DenseReluDense"), cfg)?,
        })
    }

    fn forward(
        &self,
        x: &Tensor,
        bias: &Tensor,
        memory: Option<(&Tensor, &Tensor)>,
    ) -> CResult<Tensor> {
        let h = self.self_norm.forward(x)?;
        let mut x = clamp_f16((x + self.self_attn.forward(&h, &h, bias)?)?)?;
        if let (Some((norm, attn)), Some((states, mask))) = (&self.cross, memory) {
            let h = norm.forward(&x)?;
            x = clamp_f16((&x + attn.forward(&h, states, mask)?)?)?;
        }
        let h = self.ff_norm.forward(&x)?;
        clamp_f16((&x + self.ff.forward(&h)?)?)
    }
}

/// A T5-family encoder-decoder with the rows of its LM head that are asked for.
pub(crate) struct T5Model {
    cfg: T5Config,
    enc_embed: Embedding,
    dec_embed: Embedding,
    encoder: Vec<Block>,
    enc_norm: RmsNorm,
    decoder: Vec<Block>,
    dec_norm: RmsNorm,
    /// `(rows, d_model)`: the head rows of `head_ids`, in that order.
    head: Tensor,
    device: Device,
}

impl T5Model {
    /// Loads the stacks and the rows `head_ids` of the LM head from `vb` (transformers'
    /// names). The embeddings are `shared.weight`, or a stack's own `embed_tokens.weight`
    /// where the checkpoint keeps one (transformers ties them to `shared`; every name the file
    /// has is read). The head is `lm_head.weight`, or with tied embeddings and no such tensor
    /// the shared embeddings.
    pub(crate) fn load(vb: &VarBuilder<'_>, cfg: &T5Config, head_ids: &[u32]) -> CResult<Self> {
        // Both stacks are looked up before any block is loaded (see `check_layers`).
        for (name, key, n) in [
            ("encoder", "num_layers", cfg.num_layers),
            ("decoder", "num_decoder_layers", cfg.num_decoder_layers),
        ] {
            check_layers(vb, key, n, |i| {
                format!("{name}.block.{i}.layer.0.SelfAttention.q.weight")
            })?;
        }
        let (v, d) = (cfg.vocab_size, cfg.d_model);
        let shared = if vb.contains_tensor("shared.weight") {
            Some(vb.get((v, d), "shared.weight")?)
        } else {
            None
        };
        let embed = |stack: &str| -> CResult<Embedding> {
            let name = format!("{stack}.embed_tokens.weight");
            let w = match &shared {
                Some(s) if !vb.contains_tensor(&name) => s.clone(),
                _ => vb.get((v, d), &name)?,
            };
            Ok(Embedding::new(w, d))
        };
        let enc_embed = embed("encoder")?;
        let dec_embed = embed("decoder")?;
        let stack = |name: &str, n: usize, decoder: bool| -> CResult<Vec<Block>> {
            (0..n)
                .map(|i| Block::load(&vb.pp(name).pp("block").pp(i), cfg, decoder, i == 0))
                .collect()
        };
        let encoder = stack("encoder", cfg.num_layers, false)?;
        let decoder = stack("decoder", cfg.num_decoder_layers, true)?;
        let enc_norm = RmsNorm::load(&vb.pp("encoder").pp("final_layer_norm"), d, cfg.eps)?;
        let dec_norm = RmsNorm::load(&vb.pp("decoder").pp("final_layer_norm"), d, cfg.eps)?;
        let full = match &shared {
            Some(s) if cfg.tie_word_embeddings && !vb.contains_tensor("lm_head.weight") => {
                s.clone()
            }
            _ => vb.get((v, d), "lm_head.weight")?,
        };
        if let Some(&bad) = head_ids.iter().find(|&&i| i as usize >= v) {
            candle_core::bail!("head row {bad} is outside the vocabulary of {v} rows");
        }
        let ids = Tensor::new(head_ids, vb.device())?;
        // A copy of the rows, so that the full head (1 GB for mT5-large in f32) is freed.
        let head = full.index_select(&ids, 0)?.copy()?;
        Ok(Self {
            cfg: cfg.clone(),
            enc_embed,
            dec_embed,
            encoder,
            enc_norm,
            decoder,
            dec_norm,
            head,
            device: vb.device().clone(),
        })
    }

    /// The kept head rows' logits at the first decoder step (decoder input `start`) for a
    /// batch of encoder inputs, right-padded here: `(inputs, rows)`.
    pub(crate) fn first_step_logits(
        &self,
        inputs: &[&[u32]],
        start: u32,
    ) -> CResult<Vec<Vec<f32>>> {
        let b = inputs.len();
        let len = inputs.iter().map(|x| x.len()).max().unwrap_or(0);
        if b == 0 {
            return Ok(Vec::new());
        }
        if len == 0 {
            candle_core::bail!("an encoder input without tokens");
        }
        let dev = &self.device;
        let dtype = self.head.dtype();
        // transformers' extended mask: 0 for tokens, the dtype's lowest finite value for
        // padding (added to the scores, so a padded key gets no weight).
        let lowest = match dtype {
            DType::F16 => -65504.0,
            DType::BF16 => -3.389_531_4e38,
            _ => f32::MIN,
        };
        let mut ids = Vec::with_capacity(b * len);
        let mut mask = Vec::with_capacity(b * len);
        for x in inputs {
            ids.extend_from_slice(x);
            ids.extend(std::iter::repeat_n(0, len - x.len()));
            mask.extend((0..len).map(|i| if i < x.len() { 0.0 } else { lowest }));
        }
        let ids = Tensor::from_vec(ids, (b, len), dev)?;
        let mask = Tensor::from_vec(mask, (b, 1, 1, len), dev)?.to_dtype(dtype)?;
        let mut x = self.enc_embed.forward(&ids)?;
        let enc_bias = match self.encoder.first() {
            Some(l) => l.self_attn.position_bias(&self.cfg, len, len, true, dev)?,
            None => Tensor::zeros((1, self.cfg.num_heads, len, len), dtype, dev)?,
        };
        let enc_bias = enc_bias.to_dtype(dtype)?.broadcast_add(&mask)?;
        for layer in &self.encoder {
            x = layer.forward(&x, &enc_bias, None)?;
        }
        let memory = self.enc_norm.forward(&x)?;
        let start = Tensor::from_vec(vec![start; b], (b, 1), dev)?;
        let mut y = self.dec_embed.forward(&start)?;
        let dec_bias = match self.decoder.first() {
            Some(l) => l.self_attn.position_bias(&self.cfg, 1, 1, false, dev)?,
            None => Tensor::zeros((1, self.cfg.num_heads, 1, 1), dtype, dev)?,
        }
        .to_dtype(dtype)?;
        for layer in &self.decoder {
            y = layer.forward(&y, &dec_bias, Some((&memory, &mask)))?;
        }
        let mut y = self.dec_norm.forward(&y)?.squeeze(1)?;
        if self.cfg.tie_word_embeddings {
            // transformers (and MT5ForRegression) rescale before the head when tied.
            y = (y * (self.cfg.d_model as f64).powf(-0.5))?;
        }
        y.matmul(&self.head.t()?)?
            .to_dtype(DType::F32)?
            .to_vec2::<f32>()
    }

    /// The packed CPU copy (f32) for decoder start token `start`: projections input-major,
    /// a block's query, key and value side by side, the gated form's `wi_0` and `wi_1` side
    /// by side, and only what one decoder step reads of the decoder's embeddings and position
    /// bias (the start token's row, distance 0).
    pub(crate) fn pack(&self, start: u32) -> CResult<PackedT5> {
        let cfg = &self.cfg;
        let norm = |n: &RmsNorm| values(&n.weight);
        let self_attn = |a: &Attention| -> CResult<T5SelfAttention> {
            Ok(T5SelfAttention {
                norm: Vec::new(),
                qkv: input_major_values(&[&a.q, &a.k, &a.v])?,
                out: input_major_values(&[&a.o])?,
            })
        };
        let ff = |b: &Block| -> CResult<T5FeedForward> {
            let (wi, wo) = match &b.ff {
                Ff::Relu { wi, wo } => (input_major_values(&[wi])?, wo),
                Ff::Gated { wi0, wi1, wo } => (input_major_values(&[wi0, wi1])?, wo),
            };
            Ok(T5FeedForward {
                norm: norm(&b.ff_norm)?,
                wi,
                wo: input_major_values(&[wo])?,
            })
        };
        let encoder = self
            .encoder
            .iter()
            .map(|b| {
                Ok(T5EncoderLayer {
                    attn: T5SelfAttention {
                        norm: norm(&b.self_norm)?,
                        ..self_attn(&b.self_attn)?
                    },
                    ff: ff(b)?,
                })
            })
            .collect::<CResult<Vec<_>>>()?;
        let decoder = self
            .decoder
            .iter()
            .map(|b| {
                let Some((cross_norm, cross)) = &b.cross else {
                    candle_core::bail!("a decoder block without cross-attention");
                };
                Ok(T5DecoderLayer {
                    attn: T5SelfAttention {
                        norm: norm(&b.self_norm)?,
                        ..self_attn(&b.self_attn)?
                    },
                    cross: T5CrossAttention {
                        norm: norm(cross_norm)?,
                        q: input_major_values(&[&cross.q])?,
                        kv: input_major_values(&[&cross.k, &cross.v])?,
                        out: input_major_values(&[&cross.o])?,
                    },
                    ff: ff(b)?,
                })
            })
            .collect::<CResult<Vec<_>>>()?;
        let table = |a: Option<&Attention>| -> CResult<Vec<f32>> {
            match a.and_then(|a| a.bias.as_ref()) {
                Some(e) => values(e.embeddings()),
                None => Ok(Vec::new()),
            }
        };
        let position_bias = table(self.encoder.first().map(|b| &b.self_attn))?;
        let dec_table = table(self.decoder.first().map(|b| &b.self_attn))?;
        let heads = cfg.num_heads;
        let start_bias = if dec_table.is_empty() {
            vec![0.0; heads]
        } else {
            let at = relative_position_bucket(0, false, cfg.num_buckets, cfg.max_distance);
            dec_table[at * heads..(at + 1) * heads].to_vec()
        };
        let start_row = self
            .dec_embed
            .embeddings()
            .get(start as usize)
            .and_then(|r| values(&r))?;
        let head_scale = if cfg.tie_word_embeddings {
            (cfg.d_model as f64).powf(-0.5) as f32
        } else {
            1.0
        };
        Ok(PackedT5 {
            d_model: cfg.d_model,
            heads,
            d_kv: cfg.d_kv,
            d_ff: cfg.d_ff,
            gated: cfg.feed_forward == FeedForward::GatedGelu,
            eps: cfg.eps as f32,
            num_buckets: cfg.num_buckets,
            max_distance: cfg.max_distance,
            embed: values(self.enc_embed.embeddings())?,
            position_bias,
            encoder,
            encoder_norm: norm(&self.enc_norm)?,
            start: start_row,
            start_bias,
            decoder,
            decoder_norm: norm(&self.dec_norm)?,
            head: values(&self.head)?,
            head_scale,
        })
    }
}
