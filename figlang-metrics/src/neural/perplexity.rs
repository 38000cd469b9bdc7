//! Fluency as perplexity under a causal language model (GPT-2).
//!
//! Perplexity = exp(mean negative log-likelihood of the scored tokens). Which tokens are scored
//! depends on the beginning-of-sequence convention, which changes the numbers, so it is explicit:
//! - [`BosMode::None`]: the text's own tokens only; the first token has no context and is not
//!   scored. This is what `transformers` computes with `model(ids, labels=ids)`.
//! - [`BosMode::Prepend`]: `<|endoftext|>` is prepended, so every token of the text is scored
//!   (the convention of lm-evaluation-harness and of most sentence-fluency scripts).

use hauser_core::Signature;
use hauser_nli::CausalLm;

use crate::neural::error::{NeuralError, NeuralResult};

/// Beginning-of-sequence convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum BosMode {
    /// Score tokens 2..n of the text (transformers' `labels=input_ids`).
    #[default]
    None,
    /// Prepend the BOS/EOS token and score all n tokens.
    Prepend,
}

/// Sentence perplexity with a causal LM.
#[derive(Debug)]
pub struct Perplexity {
    lm: CausalLm,
    model_id: String,
    bos: BosMode,
    bos_id: Option<u32>,
}

impl Perplexity {
    /// Wraps a loaded causal LM.
    ///
    /// # Errors
    /// [`NeuralError::Input`] when `BosMode::Prepend` is asked for and the tokenizer has no
    /// `<|endoftext|>` token.
    pub fn new(lm: CausalLm, model_id: &str, bos: BosMode) -> NeuralResult<Self> {
        let bos_id = lm.text_encoder().tokenizer().token_to_id("<|endoftext|>");
        if bos == BosMode::Prepend && bos_id.is_none() {
            return Err(NeuralError::Input(format!(
                "model {model_id}: no <|endoftext|> token to prepend"
            )));
        }
        Ok(Self {
            lm,
            model_id: model_id.to_string(),
            bos,
            bos_id,
        })
    }

    /// The reproducibility signature, e.g.
    /// `perplexity|model:gpt2|rev:main|bos:none|kernels:packed-cpu|version:0.1.0`.
    pub fn signature(&self) -> Signature {
        Signature::new("perplexity", crate::VERSION)
            .with("model", &self.model_id)
            .with("rev", self.lm.source().revision())
            .with(
                "bos",
                match self.bos {
                    BosMode::None => "none",
                    BosMode::Prepend => "prepend",
                },
            )
            .with("kernels", self.lm.kernels())
    }

    /// Mean negative log-likelihood per scored token of each text (NaN when no token is
    /// scored, e.g. a one-token text without BOS).
    ///
    /// # Errors
    /// Tokenizer or inference failures; texts longer than the context.
    pub fn mean_nll(&self, texts: &[&str]) -> NeuralResult<Vec<f64>> {
        let mut seqs = Vec::with_capacity(texts.len());
        for t in texts {
            let mut ids = Vec::new();
            if let (BosMode::Prepend, Some(bos)) = (self.bos, self.bos_id) {
                ids.push(bos);
            }
            ids.extend(self.lm.text_encoder().encode_plain(t)?);
            seqs.push(ids);
        }
        let lps = self.lm.logprobs_of_ids(&seqs)?;
        Ok(lps
            .iter()
            .map(|lp| -lp.iter().map(|&x| x as f64).sum::<f64>() / lp.len() as f64)
            .collect())
    }

    /// Perplexity of each text.
    ///
    /// # Errors
    /// As [`Self::mean_nll`].
    pub fn perplexity(&self, texts: &[&str]) -> NeuralResult<Vec<f64>> {
        Ok(self.mean_nll(texts)?.into_iter().map(f64::exp).collect())
    }

    /// System score: the mean sentence perplexity (NaN sentences excluded).
    ///
    /// # Errors
    /// As [`Self::mean_nll`].
    pub fn system_perplexity(&self, texts: &[&str]) -> NeuralResult<f64> {
        let ppl: Vec<f64> = self
            .perplexity(texts)?
            .into_iter()
            .filter(|p| p.is_finite())
            .collect();
        Ok(ppl.iter().sum::<f64>() / ppl.len() as f64)
    }
}
