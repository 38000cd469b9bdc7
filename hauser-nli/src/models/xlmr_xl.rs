//! XLM-RoBERTa XL and XXL (`model_type: xlm-roberta-xl`, facebook/xlm-roberta-xl; XCOMET-XL's
//! and -XXL's encoder): RoBERTa's embeddings and layers with the layer norms moved before each
//! block (pre-LayerNorm), no layer norm after the embeddings, and one after the last layer
//! (`encoder.LayerNorm`), applied to the last hidden state only, as transformers'
//! `XLMRobertaXLEncoder` reports its hidden states.

use super::bert::{LayerNames, Layout, Norms};
use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::config::ModelConfig;

/// The XL family. The packed kernels run its pre-LayerNorm layers (`Placement::Pre`): its entry
/// in `models::ARCHITECTURES` says it is packed.
pub(crate) const SPEC: Spec = Spec {
    model_types: &["xlm-roberta-xl"],
    prefixes: &["roberta"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::Roberta,
};

/// `XLMRobertaXLLayer`'s names: the attention's norm is `attention.self_attn_layer_norm`, the
/// feed-forward's the layer's own `LayerNorm`.
const NAMES: LayerNames = LayerNames {
    layers: "encoder.layer",
    query: "attention.self.query",
    key: "attention.self.key",
    value: "attention.self.value",
    attn_out: "attention.output.dense",
    attn_norm: "attention.self_attn_layer_norm",
    intermediate: "intermediate.dense",
    output: "output.dense",
    out_norm: "LayerNorm",
};

/// The layout: RoBERTa's positions and segments, pre-LayerNorm layers.
pub(crate) fn layout(cfg: &ModelConfig) -> Layout {
    Layout {
        names: &NAMES,
        eps: cfg.layer_norm_eps.unwrap_or(1e-5),
        token_types: cfg.type_vocab_size.unwrap_or(1),
        position_offset: cfg.pad_token_id.unwrap_or(1) as usize + 1,
        factorised: None,
        groups: None,
        norms: Norms::Pre {
            last: "encoder.LayerNorm",
        },
    }
}
