//! Fluency as perplexity under a causal language model (GPT-2).
//!
//! Perplexity = exp(mean negative log-likelihood of the scored tokens). Which tokens are scored
//! depends on the beginning-of-sequence convention, which changes the numbers, so it is explicit:
//! - [`BosMode::None`]: the text's own tokens only; the first token has no context and is not
//!   scored. This is what `transformers` computes with `model(ids, labels=ids)`.
//! - [`BosMode::Prepend`]: `<|endoftext|>` is prepended, so every token of the text is scored
//!   (the convention of lm-evaluation-harness and of most sentence-fluency scripts).
//!
//! A text longer than the model's context (GPT-2's `n_positions`, BOS included) is cut to its
//! first context-length tokens, as Hugging Face `evaluate`'s perplexity does
//! (`truncation=True`); [`Perplexity::score`] says which texts were cut, so that no line makes
//! a whole run fail and none is shortened silently.

use hauser_core::Signature;
use hauser_nli::CausalLm;
use hauser_nli::PackedCpu;

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

/// Per-text perplexities and which texts were truncated to the context.
#[derive(Debug, Clone, PartialEq)]
pub struct PerplexityScores {
    /// Perplexity of each text (NaN when no token is scored).
    pub perplexity: Vec<f64>,
    /// 0-based indices of the texts cut to the model's context, in order.
    pub truncated: Vec<usize>,
    /// The context length in tokens that texts were cut to.
    pub context: usize,
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
    /// `perplexity|model:gpt2|rev:main|bos:none|batch:16|kernels:packed-cpu|version:0.1.0`.
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
            .with("batch", self.lm.batching().batch_size)
            .with("kernels", self.lm.kernels())
    }

    /// Mean negative log-likelihood per scored token of each text (NaN when no token is
    /// scored, e.g. a one-token text without BOS), and the indices of the texts cut to the
    /// context.
    fn nll_and_truncated(&self, texts: &[&str]) -> NeuralResult<(Vec<f64>, Vec<usize>)> {
        let context = self.lm.context_len();
        let mut seqs = Vec::with_capacity(texts.len());
        let mut truncated = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            let mut ids = Vec::new();
            if let (BosMode::Prepend, Some(bos)) = (self.bos, self.bos_id) {
                ids.push(bos);
            }
            ids.extend(self.lm.text_encoder().encode_plain(t)?);
            if ids.len() > context {
                ids.truncate(context);
                truncated.push(i);
            }
            seqs.push(ids);
        }
        let lps = self.lm.logprobs_of_ids(&seqs)?;
        let nll = lps
            .iter()
            .map(|lp| -lp.iter().map(|&x| x as f64).sum::<f64>() / lp.len() as f64)
            .collect();
        Ok((nll, truncated))
    }

    /// Mean negative log-likelihood per scored token of each text (NaN when no token is
    /// scored, e.g. a one-token text without BOS); texts longer than the context are cut to
    /// it (see the module documentation).
    ///
    /// # Errors
    /// Tokenizer or inference failures (e.g. non-finite activations).
    pub fn mean_nll(&self, texts: &[&str]) -> NeuralResult<Vec<f64>> {
        Ok(self.nll_and_truncated(texts)?.0)
    }

    /// Perplexity of each text (texts longer than the context are cut to it).
    ///
    /// # Errors
    /// As [`Self::mean_nll`].
    pub fn perplexity(&self, texts: &[&str]) -> NeuralResult<Vec<f64>> {
        Ok(self.mean_nll(texts)?.into_iter().map(f64::exp).collect())
    }

    /// Perplexity of each text with the list of texts cut to the context.
    ///
    /// # Errors
    /// As [`Self::mean_nll`].
    pub fn score(&self, texts: &[&str]) -> NeuralResult<PerplexityScores> {
        let (nll, truncated) = self.nll_and_truncated(texts)?;
        Ok(PerplexityScores {
            perplexity: nll.into_iter().map(f64::exp).collect(),
            truncated,
            context: self.lm.context_len(),
        })
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
