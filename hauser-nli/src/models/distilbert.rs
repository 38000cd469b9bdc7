//! DistilBERT: BERT's post-LayerNorm layers under other names, without segment embeddings.
//!
//! candle-transformers' `DistilBertModel` returns only the last layer and keeps its embedding
//! and block structs private, so they cannot be driven layer by layer. DistilBERT's layer is
//! BERT's (attention, output projection + residual + norm, feed-forward + residual + norm), so
//! it runs through the BERT module's code, candle and packed alike, with [`NAMES`] mapping its
//! weight names (`transformer.layer.{i}.attention.q_lin`...) onto BERT's roles. Its outputs are
//! `hidden_states` of transformers' `DistilBertModel(..., output_hidden_states=True)`.

use candle_core::{Module, Result, Tensor};
use candle_nn::{linear, Linear, VarBuilder};

use super::bert::{LayerNames, Layout, Norms};
use crate::checkpoint_spec::{BpeSpecials, Spec};
use crate::classifier_head::ClassifierHead;
use crate::config::ModelConfig;

/// DistilBERT checkpoints (`DistilBertModel`, or a task model's `distilbert.` prefix).
pub(crate) const SPEC: Spec = Spec {
    model_types: &["distilbert"],
    prefixes: &["distilbert"],
    probe: "embeddings.word_embeddings.weight",
    bpe_specials: BpeSpecials::None,
};

/// DistilBERT's weight names for BERT's roles.
pub(crate) const NAMES: LayerNames = LayerNames {
    layers: "transformer.layer",
    query: "attention.q_lin",
    key: "attention.k_lin",
    value: "attention.v_lin",
    attn_out: "attention.out_lin",
    attn_norm: "sa_layer_norm",
    intermediate: "ffn.lin1",
    output: "ffn.lin2",
    out_norm: "output_layer_norm",
};

/// The BERT layout of a DistilBERT checkpoint: no segment embeddings, positions from 0, and
/// the epsilon transformers hard-codes for every DistilBERT layer norm (the config has none).
/// DistilBERT's `activation` (`gelu`, exact, or `relu`) is read as `hidden_act` by the config.
pub(crate) fn layout() -> Layout {
    Layout {
        names: &NAMES,
        eps: 1e-12,
        token_types: 0,
        position_offset: 0,
        factorised: None,
        groups: None,
        norms: Norms::Post,
    }
}

/// `DistilBertForSequenceClassification`'s head: `pre_classifier` + ReLU, then `classifier`.
pub(crate) struct Head {
    pre: Linear,
    classifier: Linear,
}

/// The classification head, from the root var builder.
pub(crate) fn head(vb: &VarBuilder<'_>, cfg: &ModelConfig, labels: usize) -> Result<Head> {
    let h = cfg.hidden_size;
    Ok(Head {
        pre: linear(h, h, vb.pp("pre_classifier"))?,
        classifier: linear(h, labels, vb.pp("classifier"))?,
    })
}

impl ClassifierHead for Head {
    fn forward(&self, cls: &Tensor) -> Result<Tensor> {
        self.classifier.forward(&self.pre.forward(cls)?.relu()?)
    }
}
