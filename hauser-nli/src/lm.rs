//! GPT-2 as a causal LM: token log-probabilities, sequence and conditional log-likelihood,
//! perplexity. The architecture itself (weights, candle's forward pass, packing) is in
//! `models::gpt2`.

use std::path::PathBuf;

use crate::batch::Batching;
use crate::config::ModelConfig;
use crate::cpu_kernels::{all_finite, PackedError};
use crate::error::{infer_err, NliError, Result};
use crate::model::LoadOptions;
use crate::models::gpt2::packed::PackedCausalLm;
use crate::models::gpt2::{self, Gpt2Config, Modules};
use crate::models::CAUSAL_ARCHITECTURES;
use crate::packed_or_candle::sealed::{HasEngines, Switch};
use crate::packed_or_candle::{Engines, WeightsHandle};
use crate::source::ModelSource;
use crate::tokenize::TextEncoder;
use crate::weights::{narrowed, open_tracked, WeightsAt, BUFFERS};

/// Log-likelihood of one input.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenLogProbs {
    /// Token ids of the input.
    pub ids: Vec<u32>,
    /// `log p(ids[i] | ids[..i])` for `i >= 1` (the first token has no context).
    pub logprobs: Vec<f32>,
}

impl TokenLogProbs {
    /// Sum of the token log-probabilities.
    pub fn sum(&self) -> f64 {
        self.logprobs.iter().map(|&x| x as f64).sum()
    }

    /// exp(-mean log-probability); NaN when there is no scored token.
    pub fn perplexity(&self) -> f64 {
        (-self.sum() / self.logprobs.len() as f64).exp()
    }
}

/// A GPT-2 language model with its tokenizer.
pub struct CausalLm {
    source: ModelSource,
    text: TextEncoder,
    cfg: Gpt2Config,
    /// The packed CPU kernels' copy of the weights and candle's modules, built only if
    /// candle's path is asked for where the packed copy exists.
    engines: Engines<PackedCausalLm, Modules>,
    max_len: usize,
    batching: Batching,
    weights: PathBuf,
    eos: Option<u32>,
}

impl std::fmt::Debug for CausalLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CausalLm")
            .field("source", &self.source)
            .field("weights", &self.weights)
            .finish()
    }
}

impl HasEngines for CausalLm {
    fn engines(&self) -> &dyn Switch {
        &self.engines
    }

    fn engines_mut(&mut self) -> &mut dyn Switch {
        &mut self.engines
    }
}

impl CausalLm {
    /// Loads a GPT-2 checkpoint (`GPT2LMHeadModel` or `GPT2Model`; the LM head is tied to
    /// the token embeddings, as in GPT-2).
    ///
    /// # Errors
    /// Missing files, another architecture, or bad weights, named with the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let name = source.name();
        let cfg_path = source.required("config.json")?;
        let (config, raw) = ModelConfig::load(&name, &cfg_path)?;
        // A list (some newer configs) keeps its first id.
        let eos = match raw.get("eos_token_id") {
            Some(serde_json::Value::Array(ids)) => ids.first().and_then(|v| v.as_u64()),
            Some(v) => v.as_u64(),
            None => None,
        }
        .and_then(|v| u32::try_from(v).ok());
        if !gpt2::SPEC.model_types.contains(&config.model_type.as_str()) {
            return Err(NliError::UnsupportedArchitecture {
                model: name,
                model_type: config.model_type,
                usage: "causal LM",
                supported: CAUSAL_ARCHITECTURES,
            });
        }
        let cfg = Gpt2Config::new(&config).map_err(|message| NliError::Invalid {
            model: name.clone(),
            message,
        })?;
        let (device, dtype) = opts.device.open(&name, opts.precision)?;
        let (vb, weights, ledger) = open_tracked(source, &WeightsAt::Model, dtype, &device)?;
        let werr = |e: candle_core::Error| NliError::Weights {
            model: name.clone(),
            path: weights.clone(),
            message: e.to_string(),
        };
        let prefix = gpt2::SPEC.base_prefix(&vb);
        let base = narrowed(&vb, prefix);
        let handle = WeightsHandle {
            source: source.clone(),
            at: WeightsAt::Model,
            dtype,
            device: device.clone(),
            prefix,
        };
        let engines = Engines::new(
            handle,
            &base,
            |b| gpt2::pack(b, &cfg),
            |b| gpt2::modules(b, &cfg),
        )
        .map_err(werr)?;
        // transformers' GPT2LMHeadModel ignores these too (`_keys_to_ignore_on_load_*`).
        ledger.check(
            &name,
            &weights,
            "causal LM",
            "",
            &[
                BUFFERS[0],
                (
                    "*.attn.bias",
                    "the causal mask buffer of older checkpoints, rebuilt at run time",
                ),
                (
                    "*.attn.masked_bias",
                    "the masking constant buffer of older checkpoints",
                ),
                (
                    "lm_head.weight",
                    "tied to the token embeddings (wte): the same tensor, read once",
                ),
            ],
        )?;
        let max_len = cfg.positions;
        let text =
            TextEncoder::load_with(source, &config.model_type, gpt2::SPEC.bpe_specials, max_len)?;
        // `wte` was read as `[vocab_size, n_embd]`, so `cfg.vocab` is its row count.
        crate::vocab::check(
            &source.name(),
            &text,
            cfg.vocab,
            &weights,
            crate::vocab::Spare::Any,
        )?;
        Ok(Self {
            source: source.clone(),
            text,
            cfg,
            engines,
            max_len,
            batching: opts.batching,
            weights,
            eos,
        })
    }

    /// The batching settings (recorded in signatures: the batch layout can move a score in
    /// its last bits).
    pub fn batching(&self) -> Batching {
        self.batching
    }

    /// The model's source.
    pub fn source(&self) -> &ModelSource {
        &self.source
    }

    /// The tokenizer.
    pub fn text_encoder(&self) -> &TextEncoder {
        &self.text
    }

    /// The context window in tokens (GPT-2's `n_positions`): the longest sequence
    /// [`Self::logprobs_of_ids`] accepts.
    pub fn context_len(&self) -> usize {
        self.max_len
    }

    /// Per-token log-probabilities of token-id sequences (each at most the context size).
    ///
    /// # Errors
    /// A sequence longer than the context window ([`Self::context_len`]), an inference
    /// failure, or [`NliError::NonFinite`] naming the first layer whose output holds NaN or
    /// infinity.
    pub fn logprobs_of_ids(&self, seqs: &[Vec<u32>]) -> Result<Vec<Vec<f32>>> {
        self.logprobs_of_ids_from(seqs, &vec![1; seqs.len()])
    }

    /// [`Self::logprobs_of_ids`] for the tokens at positions `from[i]..` of each sequence only
    /// (a position below 1 counts as 1): `log p(ids[t] | ids[..t])` for `t >= from[i]`. Only
    /// those positions go through the LM head, which saves its cost on a context whose own
    /// likelihood is not wanted (zero-shot scoring of a continuation).
    ///
    /// # Errors
    /// As [`Self::logprobs_of_ids`]; `from` of another length than `seqs`.
    pub fn logprobs_of_ids_from(&self, seqs: &[Vec<u32>], from: &[usize]) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        if from.len() != seqs.len() {
            return Err(NliError::Invalid {
                model: name,
                message: format!(
                    "{} start positions for {} sequences",
                    from.len(),
                    seqs.len()
                ),
            });
        }
        if let Some(long) = seqs.iter().find(|s| s.len() > self.max_len) {
            return Err(NliError::Invalid {
                model: name.clone(),
                message: format!(
                    "{} tokens exceed the context of {}",
                    long.len(),
                    self.max_len
                ),
            });
        }
        self.per_batch(
            seqs,
            |packed, batch, idx| {
                let starts: Vec<usize> = idx.iter().map(|&i| from[i]).collect();
                packed.logprobs(batch, &starts)
            },
            |m, batch, idx| {
                let starts: Vec<usize> = idx.iter().map(|&i| from[i]).collect();
                m.logprobs(batch, &starts)
            },
        )
    }

    /// Runs `packed` (the packed kernels, batches in parallel) or `candle` (candle's padded
    /// path, batch by batch) on the length-bucketed batches of `seqs`, each given the batch
    /// and its indices into `seqs`, and returns one row per sequence in input order. A candle
    /// batch with a non-finite value is run again layer by layer to name the layer.
    fn per_batch(
        &self,
        seqs: &[Vec<u32>],
        packed: impl Fn(
                &PackedCausalLm,
                &[&[u32]],
                &[usize],
            ) -> std::result::Result<Vec<Vec<f32>>, PackedError>
            + Sync
            + Send,
        candle: impl Fn(&Modules, &[&[u32]], &[usize]) -> candle_core::Result<Vec<Vec<f32>>>,
    ) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        let lengths: Vec<usize> = seqs.iter().map(Vec::len).collect();
        if let Some(p) = self.engines.packed() {
            return self.batching.par_packed(&lengths, &name, |idx| {
                let batch: Vec<&[u32]> = idx.iter().map(|&i| seqs[i].as_slice()).collect();
                packed(p, &batch, idx)
            });
        }
        let e = infer_err(&name);
        let m = self.engines.candle(|b| gpt2::modules(b, &self.cfg))?;
        self.batching.run_padded(&lengths, |idx| {
            let batch: Vec<&[u32]> = idx.iter().map(|&i| seqs[i].as_slice()).collect();
            let rows = candle(m, &batch, idx).map_err(&e)?;
            if !rows.iter().all(|r| all_finite(r)) {
                // Only now is the batch run again, layer by layer, to find where it went wrong.
                let layer = m.first_non_finite_layer(&batch).map_err(&e)?;
                return Err(NliError::NonFinite {
                    model: name.clone(),
                    layer,
                });
            }
            Ok(rows)
        })
    }

    /// The next-token logits (`[vocab]`, before any softmax) after the last token of each
    /// sequence, what [`Self::generate`] decodes from. Sequences are batched as
    /// [`Self::logprobs_of_ids`] batches them.
    ///
    /// # Errors
    /// An empty sequence or one longer than the context window, an inference failure, or
    /// [`NliError::NonFinite`].
    pub fn next_token_logits(&self, seqs: &[Vec<u32>]) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        if let Some(bad) = seqs.iter().find(|s| s.is_empty() || s.len() > self.max_len) {
            return Err(NliError::Invalid {
                model: name,
                message: format!(
                    "next-token logits need 1 to {} tokens, got {}",
                    self.max_len,
                    bad.len()
                ),
            });
        }
        self.per_batch(
            seqs,
            |packed, batch, _| packed.next_logits(batch),
            |m, batch, _| m.next_logits(batch),
        )
    }

    /// The end-of-text token id from the model's config (`eos_token_id`), if any.
    pub fn eos_token_id(&self) -> Option<u32> {
        self.eos
    }

    /// Token log-probabilities of texts (tokenized without special tokens, as transformers'
    /// GPT-2 tokenizer does).
    ///
    /// # Errors
    /// Tokenizer or inference failures; texts longer than the context.
    pub fn token_logprobs(&self, texts: &[&str]) -> Result<Vec<TokenLogProbs>> {
        let ids = texts
            .iter()
            .map(|t| self.text.encode_plain(t))
            .collect::<Result<Vec<_>>>()?;
        let lps = self.logprobs_of_ids(&ids)?;
        Ok(ids
            .into_iter()
            .zip(lps)
            .map(|(ids, logprobs)| TokenLogProbs { ids, logprobs })
            .collect())
    }

    /// Sequence log-likelihoods (sum over tokens after the first).
    ///
    /// # Errors
    /// As [`Self::token_logprobs`].
    pub fn sequence_logprob(&self, texts: &[&str]) -> Result<Vec<f64>> {
        Ok(self
            .token_logprobs(texts)?
            .iter()
            .map(TokenLogProbs::sum)
            .collect())
    }

    /// Perplexities, exp(-mean token log-probability).
    ///
    /// # Errors
    /// As [`Self::token_logprobs`].
    pub fn perplexity(&self, texts: &[&str]) -> Result<Vec<f64>> {
        Ok(self
            .token_logprobs(texts)?
            .iter()
            .map(TokenLogProbs::perplexity)
            .collect())
    }

    /// `log p(continuation | context)`: context and continuation are tokenized separately
    /// and concatenated, and only the continuation's tokens are summed.
    ///
    /// # Errors
    /// An empty context, tokenizer or inference failures.
    pub fn conditional_logprob(&self, pairs: &[(&str, &str)]) -> Result<Vec<f64>> {
        let mut seqs = Vec::with_capacity(pairs.len());
        let mut starts = Vec::with_capacity(pairs.len());
        for (ctx, cont) in pairs {
            let mut c = self.text.encode_plain(ctx)?;
            if c.is_empty() {
                return Err(NliError::Invalid {
                    model: self.source.name(),
                    message: "conditional log-probability needs a non-empty context".into(),
                });
            }
            // Only the continuation's tokens go through the LM head.
            starts.push(c.len());
            c.extend(self.text.encode_plain(cont)?);
            seqs.push(c);
        }
        let lps = self.logprobs_of_ids_from(&seqs, &starts)?;
        Ok(lps
            .iter()
            .map(|lp| lp.iter().map(|&x| x as f64).sum())
            .collect())
    }
}
