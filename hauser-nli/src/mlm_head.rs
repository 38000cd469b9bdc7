//! The masked-LM heads of transformers' `BertForMaskedLM`, `RobertaForMaskedLM` and
//! `AlbertForMaskedLM`: one computation (dense, activation, layer norm, decoder onto the
//! vocabulary plus a bias) under three sets of names ([`MlmNames`], declared by the `bert`
//! and `albert` modules of `models`).
//!
//! The decoder's weight is tied to the word embeddings in all three, and transformers 5 saves
//! it only when untied, so it is read from the decoder when the checkpoint has it and from the
//! word embeddings otherwise; the bias likewise from `{head}.bias` or `{decoder}.bias`.

use candle_core::{Module, Result, Tensor};
use candle_nn::{layer_norm, linear, Activation, LayerNorm, Linear, VarBuilder};

use crate::candle_ops::activation;
use crate::config::ModelConfig;

/// Where an architecture keeps its masked-LM head (each architecture module declares its own).
#[derive(Debug)]
pub(crate) struct MlmNames {
    pub dense: &'static str,
    pub norm: &'static str,
    pub bias: &'static str,
    pub decoder: &'static str,
    /// RoBERTa's head applies exact GELU whatever `hidden_act` says; BERT's and ALBERT's
    /// apply `hidden_act`.
    pub exact_gelu: bool,
}

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
