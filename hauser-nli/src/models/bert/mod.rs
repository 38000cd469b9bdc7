//! The BERT-layout encoder (BERT, RoBERTa, XLM-RoBERTa, CamemBERT, MiniLM; DistilBERT, ALBERT
//! and XLM-RoBERTa XL through their own layouts) with every layer's output: its specs, the
//! [`Layout`] of a checkpoint, the classification and multiple-choice heads here; candle's
//! modules and forward pass in `encoder`, the packed CPU copy in `packed` and the copy from
//! candle's modules to it in `pack`.
//!
//! candle-transformers' `BertModel` returns only the last layer and numbers positions from 0,
//! which is wrong for RoBERTa (positions start after the padding index). BERTScore-style uses
//! need any layer, so this module keeps the same weight layout but exposes all hidden states.
//! The layer code is written once against roles (query, key... output norm); a [`LayerNames`]
//! table says where a checkpoint keeps each role, so DistilBERT, whose layers are BERT's under
//! other names, loads and packs through the same functions.

mod encoder;
mod pack;
pub(crate) mod packed;

use candle_core::{Module, Result, Tensor};
use candle_nn::{linear, Linear, VarBuilder};

use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::classifier_head::ClassifierHead;
use crate::config::ModelConfig;
use crate::mlm_head::MlmNames;

pub(crate) use encoder::BertEncoder;
pub(crate) use pack::pack_encoder;

/// BERT (and MiniLM, which is a BERT checkpoint), and BLEURT's BERT-based checkpoints in the
/// PyTorch port's layout (`BleurtForSequenceClassification`: the encoder under `bleurt.`).
pub(crate) const BERT: Spec = Spec {
    model_types: &["bert", "bleurt"],
    prefixes: &["bert", "bleurt"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::None,
};

/// The RoBERTa family: BERT's layers, positions numbered after the padding index.
pub(crate) const ROBERTA: Spec = Spec {
    model_types: &["roberta", "xlm-roberta", "camembert"],
    // Some RoBERTa-derived checkpoints were saved from BERT classes.
    prefixes: &["roberta", "bert"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::Roberta,
};

/// `BertForMaskedLM`'s `cls.predictions`.
pub(crate) const MLM_BERT: MlmNames = MlmNames {
    dense: "cls.predictions.transform.dense",
    norm: "cls.predictions.transform.LayerNorm",
    bias: "cls.predictions.bias",
    decoder: "cls.predictions.decoder",
    exact_gelu: false,
};

/// `RobertaForMaskedLM`'s `lm_head`.
pub(crate) const MLM_ROBERTA: MlmNames = MlmNames {
    dense: "lm_head.dense",
    norm: "lm_head.layer_norm",
    bias: "lm_head.bias",
    decoder: "lm_head.decoder",
    exact_gelu: true,
};

/// Where a BERT-layout checkpoint keeps each role's tensors: layer `i`'s roles live under
/// `{layers}.{i}.{role}`.
#[derive(Debug)]
pub(crate) struct LayerNames {
    pub layers: &'static str,
    pub query: &'static str,
    pub key: &'static str,
    pub value: &'static str,
    pub attn_out: &'static str,
    pub attn_norm: &'static str,
    pub intermediate: &'static str,
    pub output: &'static str,
    pub out_norm: &'static str,
}

/// BERT's own names.
pub(crate) const BERT_NAMES: LayerNames = LayerNames {
    layers: "encoder.layer",
    query: "attention.self.query",
    key: "attention.self.key",
    value: "attention.self.value",
    attn_out: "attention.output.dense",
    attn_norm: "attention.output.LayerNorm",
    intermediate: "intermediate.dense",
    output: "output.dense",
    out_norm: "output.LayerNorm",
};

/// Everything that differs between checkpoints of the BERT layout.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Where each role's tensors are.
    pub names: &'static LayerNames,
    /// Epsilon of every layer norm.
    pub eps: f64,
    /// Segment-embedding rows; 0 when the model has no segment embedding.
    pub token_types: usize,
    /// Positions taken before the first token (RoBERTa: padding index + 1).
    pub position_offset: usize,
    /// Width of the embeddings when it differs from the hidden size (ALBERT's factorised
    /// embeddings), with the linear map from it to the hidden size.
    pub factorised: Option<Factorised>,
    /// Layers shared across the depth (ALBERT), `None` for one set of weights per layer.
    pub groups: Option<Groups>,
    /// Where the layer norms are.
    pub norms: Norms,
}

/// Where a layout's layer norms sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Norms {
    /// BERT's: after the embeddings and after each residual sum.
    Post,
    /// XLM-RoBERTa XL's: before each block (the residual stream is not normalised), none after
    /// the embeddings, and `last` after the last layer.
    Pre { last: &'static str },
}

/// Embeddings narrower than the hidden size, projected up before the first layer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Factorised {
    /// The embedding width.
    pub width: usize,
    /// Where the projection to the hidden size is.
    pub projection: &'static str,
}

/// Layer weights shared across the depth: `count` groups of `inner` layers; group `g`'s layer
/// `j` lives under `{names.layers}.{g}.{inner_name}.{j}`, and step `i` of the
/// `num_hidden_layers` steps runs all layers of one group (see [`group_of`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Groups {
    pub count: usize,
    pub inner: usize,
    pub inner_name: &'static str,
}

/// The group step `i` of `depth` runs: transformers' `int(i / (depth / count))`, in floating
/// point as there (ALBERT's `AlbertTransformer.forward`).
pub(crate) fn group_of(i: usize, depth: usize, count: usize) -> usize {
    (i as f64 / (depth as f64 / count as f64)) as usize
}

/// BLEURT's projection of the embeddings to the hidden size (bleurt-pytorch's
/// `BleurtEncoder.embedding_projection`), relative to the base model.
pub(crate) const BLEURT_PROJECTION: &str = "encoder.embedding_projection";

/// The layout of a BERT (`roberta: false`) or RoBERTa-family checkpoint; `projection` is
/// BLEURT's embedding width when its embeddings are projected to the hidden size.
pub(crate) fn layout(cfg: &ModelConfig, roberta: bool, projection: Option<usize>) -> Layout {
    Layout {
        names: &BERT_NAMES,
        eps: cfg.layer_norm_eps.unwrap_or(1e-12),
        token_types: cfg.type_vocab_size.unwrap_or(2),
        // RoBERTa numbers positions from `padding_idx + 1`, BERT from 0.
        position_offset: if roberta {
            cfg.pad_token_id.unwrap_or(1) as usize + 1
        } else {
            0
        },
        factorised: projection.map(|width| Factorised {
            width,
            projection: BLEURT_PROJECTION,
        }),
        groups: None,
        norms: Norms::Post,
    }
}

/// The head of `BertForSequenceClassification` (pooler: dense + tanh on `[CLS]`, then the
/// classifier) or of RoBERTa's (`classifier.dense` + tanh, then `classifier.out_proj`, on
/// `<s>`): the same computation under two sets of names.
pub(crate) struct TanhHead {
    dense: Linear,
    out: Linear,
}

/// The classification head of a BERT (`roberta: false`) or RoBERTa-family checkpoint, from
/// the root var builder.
pub(crate) fn head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    labels: usize,
    roberta: bool,
) -> Result<TanhHead> {
    let (dense, out) = if roberta {
        ("classifier.dense", "classifier.out_proj")
    } else if vb.contains_tensor("bleurt.pooler.dense.weight") {
        ("bleurt.pooler.dense", "classifier")
    } else {
        ("bert.pooler.dense", "classifier")
    };
    tanh_head(vb, cfg, labels, dense, out)
}

/// A [`TanhHead`] whose dense layer and output layer are at `dense` and `out`.
pub(crate) fn tanh_head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    labels: usize,
    dense: &str,
    out: &str,
) -> Result<TanhHead> {
    let h = cfg.hidden_size;
    Ok(TanhHead {
        dense: linear(h, h, vb.pp(dense))?,
        out: linear(h, labels, vb.pp(out))?,
    })
}

impl ClassifierHead for TanhHead {
    fn forward(&self, cls: &Tensor) -> Result<Tensor> {
        self.out.forward(&self.dense.forward(cls)?.tanh()?)
    }
}
