//! The masked-LM heads of transformers' `BertForMaskedLM`, `RobertaForMaskedLM` and
//! `AlbertForMaskedLM`: one computation (dense, activation, layer norm, decoder onto the
//! vocabulary plus a bias) under three sets of names.
//!
//! The decoder's weight is tied to the word embeddings in all three, and transformers 5 saves
//! it only when untied, so it is read from the decoder when the checkpoint has it and from the
//! word embeddings otherwise; the bias likewise from `{head}.bias` or `{decoder}.bias`.

use candle_core::{Module, Result, Tensor};
use candle_nn::{layer_norm, linear, Activation, LayerNorm, Linear, VarBuilder};

use crate::candle_ops::activation;
use crate::config::ModelConfig;

/// Where an architecture keeps its masked-LM head.
#[derive(Debug)]
pub(crate) struct MlmNames {
    dense: &'static str,
    norm: &'static str,
    bias: &'static str,
    decoder: &'static str,
    /// RoBERTa's head applies exact GELU whatever `hidden_act` says; BERT's and ALBERT's
    /// apply `hidden_act`.
    exact_gelu: bool,
}

/// `BertForMaskedLM`'s `cls.predictions`.
pub(crate) const BERT: MlmNames = MlmNames {
    dense: "cls.predictions.transform.dense",
    norm: "cls.predictions.transform.LayerNorm",
    bias: "cls.predictions.bias",
    decoder: "cls.predictions.decoder",
    exact_gelu: false,
};

/// `RobertaForMaskedLM`'s `lm_head`.
pub(crate) const ROBERTA: MlmNames = MlmNames {
    dense: "lm_head.dense",
    norm: "lm_head.layer_norm",
    bias: "lm_head.bias",
    decoder: "lm_head.decoder",
    exact_gelu: true,
};

/// `AlbertForMaskedLM`'s `predictions` (its dense layer maps the hidden size down to the
/// embedding width).
pub(crate) const ALBERT: MlmNames = MlmNames {
    dense: "predictions.dense",
    norm: "predictions.LayerNorm",
    bias: "predictions.bias",
    decoder: "predictions.decoder",
    exact_gelu: false,
};

/// A loaded masked-LM head: vocabulary logits from final hidden states.
pub(crate) struct MlmHead {
    dense: Linear,
    act: Activation,
    norm: LayerNorm,
    decoder: Linear,
}

impl MlmHead {
    /// Loads the head at `names` from the root var builder; `width` is the embedding width
    /// (the hidden size except for ALBERT) and `words` the word embeddings' tensor name, the
    /// decoder's weight when the checkpoint ties them.
    pub(crate) fn load(
        vb: &VarBuilder<'static>,
        cfg: &ModelConfig,
        names: &MlmNames,
        width: usize,
        words: &str,
    ) -> Result<Self> {
        let (h, v) = (cfg.hidden_size, cfg.vocab_size);
        let weight_at = format!("{}.weight", names.decoder);
        let weight = if vb.contains_tensor(&weight_at) {
            vb.get((v, width), &weight_at)?
        } else {
            vb.get((v, width), words)?
        };
        let bias = if vb.contains_tensor(names.bias) {
            vb.get(v, names.bias)?
        } else {
            vb.get(v, &format!("{}.bias", names.decoder))?
        };
        let act = if names.exact_gelu {
            Activation::Gelu
        } else {
            activation(cfg.hidden_act.as_deref())
        };
        Ok(Self {
            dense: linear(h, width, vb.pp(names.dense))?,
            act,
            norm: layer_norm(
                width,
                cfg.layer_norm_eps.unwrap_or(1e-12),
                vb.pp(names.norm),
            )?,
            decoder: Linear::new(weight, Some(bias)),
        })
    }

    /// Logits `[n, vocab]` of final hidden states `[n, hidden]`.
    pub(crate) fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let x = self.act.forward(&self.dense.forward(x)?)?;
        self.decoder.forward(&self.norm.forward(&x)?)
    }
}
