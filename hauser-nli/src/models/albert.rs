//! ALBERT: BERT's post-LayerNorm layers under other names, with factorised embeddings (an
//! embedding width below the hidden size, projected up by `embedding_hidden_mapping_in`) and
//! layer weights shared across the depth (`num_hidden_groups` groups of `inner_group_num`
//! layers).
//!
//! candle-transformers has no ALBERT. Its layer is BERT's (attention, `dense` + residual +
//! `LayerNorm`, `ffn` + activation + `ffn_output` + residual + `full_layer_layer_norm`), so it
//! runs through the BERT module's code, candle and packed alike, with [`NAMES`] and the
//! layout's [`Factorised`] and [`Groups`] (shared layers are packed once and run at every
//! step of their group).

use candle_nn::VarBuilder;
use serde::Deserialize;

use super::bert::{tanh_head, Factorised, Groups, LayerNames, Layout, Norms, TanhHead};
use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::config::ModelConfig;
use crate::mlm_head::MlmNames;

/// ALBERT checkpoints (`AlbertModel`, or a task model's `albert.` prefix). ALBERT's
/// tokenizer is SentencePiece; a checkpoint needs its `tokenizer.json` (the hub's ALBERT
/// repositories have one).
pub(crate) const SPEC: Spec = Spec {
    model_types: &["albert"],
    prefixes: &["albert"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::None,
};

/// ALBERT's weight names for BERT's roles, relative to a group's layer
/// (`encoder.albert_layer_groups.{g}.albert_layers.{j}`).
pub(crate) const NAMES: LayerNames = LayerNames {
    layers: "encoder.albert_layer_groups",
    query: "attention.query",
    key: "attention.key",
    value: "attention.value",
    attn_out: "attention.dense",
    attn_norm: "attention.LayerNorm",
    intermediate: "ffn",
    output: "ffn_output",
    out_norm: "full_layer_layer_norm",
};

/// `AlbertForMaskedLM`'s `predictions` (its dense layer maps the hidden size down to the
/// embedding width).
pub(crate) const MLM: MlmNames = MlmNames {
    dense: "predictions.dense",
    norm: "predictions.LayerNorm",
    bias: "predictions.bias",
    decoder: "predictions.decoder",
    exact_gelu: false,
};

/// The settings only ALBERT has, with transformers' `AlbertConfig` defaults.
#[derive(Debug, Clone, Copy, Deserialize)]
pub(crate) struct AlbertSettings {
    #[serde(default = "default_embedding_size")]
    pub embedding_size: usize,
    #[serde(default = "one")]
    pub num_hidden_groups: usize,
    #[serde(default = "one")]
    pub inner_group_num: usize,
}

fn default_embedding_size() -> usize {
    128
}

fn one() -> usize {
    1
}

/// The BERT layout of an ALBERT checkpoint: segments, positions from 0, factorised
/// embeddings and shared layer groups.
pub(crate) fn layout(cfg: &ModelConfig, s: &AlbertSettings) -> Layout {
    Layout {
        names: &NAMES,
        eps: cfg.layer_norm_eps.unwrap_or(1e-12),
        token_types: cfg.type_vocab_size.unwrap_or(2),
        position_offset: 0,
        factorised: Some(Factorised {
            width: s.embedding_size,
            projection: "encoder.embedding_hidden_mapping_in",
        }),
        groups: Some(Groups {
            count: s.num_hidden_groups,
            inner: s.inner_group_num,
            inner_name: "albert_layers",
        }),
        norms: Norms::Post,
    }
}

/// `AlbertForSequenceClassification`'s head: the base model's `pooler` + tanh on `[CLS]`,
/// then `classifier`.
pub(crate) fn head(
    vb: &VarBuilder<'_>,
    cfg: &ModelConfig,
    labels: usize,
) -> candle_core::Result<TanhHead> {
    tanh_head(vb, cfg, labels, "albert.pooler", "classifier")
}
