//! The DeBERTa-v2/v3 encoder with every layer's output.
//!
//! candle-transformers' `DebertaV2Model` (and `DebertaV2Encoder`) return only the last layer,
//! and `DebertaV2Layer::forward` is private. Its embeddings, disentangled self-attention,
//! self-output, intermediate and output modules are public, so this module drives them layer
//! by layer itself; only the encoder-level glue is written here: the relative-position
//! embedding table (`encoder.rel_embeddings` with its optional `encoder.LayerNorm`), the
//! pairwise attention mask, and the convolution after the first layer of DeBERTa-v2
//! xlarge/xxlarge (`encoder.conv.*`; candle's `ConvLayer::forward` is unimplemented). The
//! outputs are `hidden_states` of transformers' `DebertaV2Model(..., output_hidden_states=True)`.

use candle_core::{Module, Result, Tensor};
use candle_nn::{conv1d, layer_norm, linear, Conv1d, Conv1dConfig, LayerNorm, Linear, VarBuilder};
use candle_transformers::models::debertav2::{
    Config, DebertaV2ContextPooler, DebertaV2DisentangledSelfAttention, DebertaV2Embeddings,
    DebertaV2Intermediate, DebertaV2Output, DebertaV2SelfOutput,
};

use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::classifier_head::ClassifierHead;
use crate::config::check_layers;
use crate::models::CandleEncoder;

/// DeBERTa-v2/v3 checkpoints (`DebertaV2Model`, or a task model's `deberta.` prefix).
pub(crate) const SPEC: Spec = Spec {
    model_types: &["deberta-v2"],
    prefixes: &["deberta"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::None,
};

struct Layer {
    attention: DebertaV2DisentangledSelfAttention,
    attention_out: DebertaV2SelfOutput,
    intermediate: DebertaV2Intermediate,
    output: DebertaV2Output,
}

/// transformers' `ConvLayer`: a same-padded 1-D convolution over the embedding output, added
/// to the first layer's output.
struct ConvLayer {
    conv: Conv1d,
    norm: LayerNorm,
    act: String,
}

impl ConvLayer {
    fn forward(&self, embeddings: &Tensor, first: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let m = mask.unsqueeze(2)?;
        let out = self
            .conv
            .forward(&embeddings.transpose(1, 2)?.contiguous()?)?
            .transpose(1, 2)?;
        let out = act(&self.act, &out.broadcast_mul(&m)?)?;
        self.norm.forward(&(first + out)?)?.broadcast_mul(&m)
    }
}

/// transformers' `ACT2FN` for the activations a DeBERTa `conv_act` can name.
fn act(name: &str, x: &Tensor) -> Result<Tensor> {
    match name {
        "tanh" => x.tanh(),
        "gelu" => x.gelu_erf(),
        "gelu_new" | "gelu_pytorch_tanh" => x.gelu(),
        "relu" => x.relu(),
        other => candle_core::bail!("unsupported conv_act {other:?}"),
    }
}

/// A DeBERTa-v2/v3 encoder (`DebertaV2Model` weights, the `deberta.` prefix already applied).
pub(crate) struct DebertaEncoder {
    embeddings: DebertaV2Embeddings,
    layers: Vec<Layer>,
    /// The relative-position table as every layer sees it (after the optional layer norm):
    /// constant, so computed once at load time.
    rel_embeddings: Option<Tensor>,
    conv: Option<ConvLayer>,
    types: bool,
}

impl DebertaEncoder {
    /// Loads from `vb` (already narrowed to the base-model prefix).
    pub(crate) fn load(vb: VarBuilder<'_>, cfg: &Config) -> Result<Self> {
        let h = cfg.hidden_size;
        // Every layer is looked up before anything is loaded (see `check_layers`).
        check_layers(&vb, "num_hidden_layers", cfg.num_hidden_layers, |i| {
            format!("encoder.layer.{i}.attention.self.query_proj.weight")
        })?;
        let embeddings = DebertaV2Embeddings::load(vb.pp("embeddings"), cfg)?;
        let enc = vb.pp("encoder");
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| {
                let l = enc.pp(format!("layer.{i}"));
                Ok(Layer {
                    attention: DebertaV2DisentangledSelfAttention::load(
                        l.pp("attention.self"),
                        cfg,
                    )?,
                    attention_out: DebertaV2SelfOutput::load(l.pp("attention.output"), cfg)?,
                    intermediate: DebertaV2Intermediate::load(l.clone(), cfg)?,
                    output: DebertaV2Output::load(l, cfg)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let rel_embeddings = if cfg.relative_attention {
            // Table size as in transformers' DebertaV2Encoder.
            let max_rel = if cfg.max_relative_positions < 1 {
                cfg.max_position_embeddings as isize
            } else {
                cfg.max_relative_positions
            };
            let size = match cfg.position_buckets {
                Some(b) if b > 0 => 2 * b,
                _ => 2 * max_rel,
            };
            let table = enc.get((size as usize, h), "rel_embeddings.weight")?;
            let norm_rel = cfg.norm_rel_ebd.as_deref().unwrap_or("none").to_lowercase();
            if norm_rel.split('|').any(|x| x.trim() == "layer_norm") {
                let norm = layer_norm(h, cfg.layer_norm_eps, enc.pp("LayerNorm"))?;
                Some(norm.forward(&table)?)
            } else {
                Some(table)
            }
        } else {
            None
        };
        let conv = match cfg.conv_kernel_size.unwrap_or(0) {
            0 => None,
            k => {
                let c = enc.pp("conv");
                let conf = Conv1dConfig {
                    padding: (k - 1) / 2,
                    groups: cfg.conv_groups.unwrap_or(1),
                    ..Default::default()
                };
                Some(ConvLayer {
                    conv: conv1d(h, h, k, conf, c.pp("conv"))?,
                    norm: layer_norm(h, cfg.layer_norm_eps, c.pp("LayerNorm"))?,
                    act: cfg.conv_act.clone().unwrap_or_else(|| "tanh".into()),
                })
            }
        };
        if let Some(c) = &conv {
            // Fail at load time, not on the first batch.
            act(
                &c.act,
                &Tensor::zeros(1, candle_core::DType::F32, vb.device())?,
            )?;
        }
        Ok(Self {
            embeddings,
            layers,
            rel_embeddings,
            conv,
            types: cfg.type_vocab_size > 0,
        })
    }

    /// Embedding output followed by every layer's output: `num_hidden_layers + 1` tensors
    /// `[b, s, h]`.
    ///
    /// `mask` is `[b, s]` (any dtype) with 1 for real tokens; positions are `0..s` for every
    /// row, as in transformers (right padding leaves real tokens' positions unchanged).
    pub(crate) fn forward(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        let types = self.types.then_some(type_ids);
        // Explicit `[b, s]` positions: with `position_biased_input`, candle adds its default
        // `[1, s, h]` position embeddings without broadcasting, which fails for batches > 1.
        let (b, s) = ids.dims2()?;
        let positions = Tensor::arange(0u32, s as u32, ids.device())?
            .unsqueeze(0)?
            .broadcast_as((b, s))?
            .contiguous()?;
        let emb = self
            .embeddings
            .forward(Some(ids), types, Some(&positions), Some(mask), None)?;
        let mask = mask.to_dtype(emb.dtype())?;
        // Query i may attend to key j when both are real tokens: `[b, 1, s, s]`.
        let pair = mask
            .unsqueeze(1)?
            .unsqueeze(2)?
            .broadcast_mul(&mask.unsqueeze(1)?.unsqueeze(3)?)?;
        let mut states = Vec::with_capacity(self.layers.len() + 1);
        states.push(emb.clone());
        let mut x = emb;
        for (i, l) in self.layers.iter().enumerate() {
            // Relative positions are rebuilt inside the attention from the same settings as
            // the encoder's (candle's builder is crate-private).
            let ctx = l
                .attention
                .forward(&x, &pair, None, None, self.rel_embeddings.as_ref())?;
            let a = l.attention_out.forward(&ctx, &x)?;
            let mut y = l.output.forward(&l.intermediate.forward(&a)?, &a)?;
            if i == 0 {
                if let Some(conv) = &self.conv {
                    y = conv.forward(&states[0], &y, &mask)?;
                }
            }
            states.push(y.clone());
            x = y;
        }
        Ok(states)
    }
}

/// `DebertaV2ForSequenceClassification`'s head: candle's context pooler, then `classifier`.
pub(crate) struct Head {
    pooler: DebertaV2ContextPooler,
    classifier: Linear,
}

/// The classification head, from the root var builder.
pub(crate) fn head(vb: &VarBuilder<'_>, cfg: &Config, labels: usize) -> Result<Head> {
    let out = cfg.pooler_hidden_size.unwrap_or(cfg.hidden_size);
    Ok(Head {
        pooler: DebertaV2ContextPooler::load(vb.clone(), cfg)?,
        classifier: linear(out, labels, vb.pp("classifier"))?,
    })
}

impl ClassifierHead for Head {
    fn forward(&self, cls: &Tensor) -> Result<Tensor> {
        // The context pooler takes the full sequence and picks the first token itself.
        self.classifier
            .forward(&self.pooler.forward(&cls.unsqueeze(1)?)?)
    }
}

impl CandleEncoder for DebertaEncoder {
    fn hidden_states(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        _positions: &Tensor,
        mask: &Tensor,
    ) -> Result<Vec<Tensor>> {
        self.forward(ids, type_ids, mask)
    }
}
