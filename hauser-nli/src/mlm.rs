//! Masked language models: transformers' `*ForMaskedLM` (BERT, RoBERTa, ALBERT) and the
//! fill-mask top-k of the NewsMet candidate generation.

use candle_core::Tensor;

use crate::classify::softmax;
use crate::cpu_kernels::all_finite;
use crate::error::{infer_err, NliError, Result};
use crate::mlm_head::MlmHead;
use crate::model::{LoadOptions, TransformerModel};
use crate::source::ModelSource;
use crate::tokenize::special_token;

/// Masked positions sent through the vocabulary projection at once: bounds the logits held
/// (`rows * vocab` floats) whatever the number of inputs.
const HEAD_CHUNK: usize = 256;

/// One filler of a masked position.
#[derive(Debug, Clone, PartialEq)]
pub struct Filler {
    /// Token id.
    pub id: u32,
    /// The token decoded on its own (`tokenizer.decode([id])`, special tokens kept), as
    /// transformers' fill-mask code gives it.
    pub token: String,
    /// Softmax probability over the vocabulary.
    pub prob: f32,
}

/// A masked LM with its tokenizer: vocabulary logits at the mask tokens of a text.
pub struct MaskedLm {
    model: TransformerModel,
    head: MlmHead,
    mask_id: u32,
    mask_token: String,
}

impl std::fmt::Debug for MaskedLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaskedLm")
            .field("model", &self.model)
            .field("mask_token", &self.mask_token)
            .finish()
    }
}

impl MaskedLm {
    /// Loads a `BertForMaskedLM`, `RobertaForMaskedLM` or `AlbertForMaskedLM` checkpoint
    /// (e.g. `albert-xxlarge-v2`, `roberta-base`). The mask token is the tokenizer config's
    /// `mask_token`, else `[MASK]` or `<mask>`, whichever the vocabulary has.
    ///
    /// # Errors
    /// Missing files, an architecture without a masked-LM head here, missing head weights,
    /// or a tokenizer without a mask token, named with the model.
    pub fn load(source: &ModelSource, opts: &LoadOptions) -> Result<Self> {
        let (mut model, vb, ledger) =
            TransformerModel::load(source, opts, "masked language modelling")?;
        let name = source.name();
        let head = match model.arch.mlm_head(&vb, &model.config) {
            Some(h) => h.map_err(|e| NliError::Weights {
                model: name.clone(),
                path: model.weights.clone(),
                message: format!("masked-LM head: {e}"),
            })?,
            None => {
                return Err(NliError::UnsupportedArchitecture {
                    model: name,
                    model_type: model.config.model_type.clone(),
                    usage: "masked language modelling",
                    supported: "bert, roberta, xlm-roberta, camembert, albert",
                })
            }
        };
        model.check_weights(
            &ledger,
            "masked-LM model",
            "",
            &[
                (
                    "*pooler.*",
                    "a pooler: transformers' *ForMaskedLM builds none (add_pooling_layer=False)",
                ),
                (
                    "cls.seq_relationship.*",
                    "BertForPreTraining's next-sentence head, which BertForMaskedLM has not",
                ),
                (
                    "*decoder.weight",
                    "tied to the word embeddings: the same tensor, read once",
                ),
                (
                    "*decoder.bias",
                    "tied to the head's bias: the same tensor, read once",
                ),
                (
                    "sop_classifier.*",
                    "AlbertForPreTraining's sentence-order head, which AlbertForMaskedLM has not",
                ),
            ],
        )?;
        let named = special_token(source, "mask_token")?;
        let mask_token = named
            .into_iter()
            .chain(["[MASK]".to_string(), "<mask>".to_string()])
            .find(|t| model.text.token_to_id(t).is_some())
            .ok_or_else(|| NliError::Tokenizer {
                model: name.clone(),
                message: "the tokenizer has no mask token ([MASK] or <mask>)".into(),
            })?;
        model.text.ensure_special(&mask_token)?;
        let mask_id = model.text.token_to_id(&mask_token).unwrap_or_default();
        Ok(Self {
            model,
            head,
            mask_id,
            mask_token,
        })
    }

    /// The underlying encoder.
    pub fn model(&self) -> &TransformerModel {
        &self.model
    }

    /// Mutable access to the encoder (batching, maximum length, kernels).
    pub fn model_mut(&mut self) -> &mut TransformerModel {
        &mut self.model
    }

    /// The mask token inputs write where a filler goes (`[MASK]`, `<mask>`).
    pub fn mask_token(&self) -> &str {
        &self.mask_token
    }

    /// The mask token's id.
    pub fn mask_token_id(&self) -> u32 {
        self.mask_id
    }

    /// Vocabulary logits at every mask token of every text: `[text][mask][vocab]`, masks in
    /// text order. Texts are batched as the model's batching says; only masked positions go
    /// through the vocabulary projection.
    ///
    /// # Errors
    /// [`NliError::Invalid`] naming the input (0-based) when a text has no mask token, or
    /// when truncation to the maximum length cut one off; tokenizer or inference failures.
    pub fn mask_logits(&self, texts: &[&str]) -> Result<Vec<Vec<Vec<f32>>>> {
        let name = self.model.source.name();
        let inputs: Vec<(&str, Option<&str>)> = texts.iter().map(|t| (*t, None)).collect();
        let (encs, _) = self.model.encode_all(&inputs)?;
        let mut positions = Vec::with_capacity(encs.len());
        for (i, (enc, text)) in encs.iter().zip(texts).enumerate() {
            let at: Vec<usize> = enc
                .ids
                .iter()
                .enumerate()
                .filter(|(_, &id)| id == self.mask_id)
                .map(|(p, _)| p)
                .collect();
            let written = text.matches(self.mask_token.as_str()).count();
            if at.is_empty() || (enc.truncated && at.len() < written) {
                return Err(NliError::Invalid {
                    model: name,
                    message: format!(
                        "input {i}: {} (the mask token is {})",
                        if at.is_empty() && !enc.truncated {
                            "no mask token"
                        } else {
                            "a mask token was cut off by truncation to the maximum length"
                        },
                        self.mask_token
                    ),
                });
            }
            positions.push(at);
        }
        let rows = self
            .model
            .layer_rows(&encs, self.model.exposed_layers() - 1, false)?;
        let h = self.model.config.hidden_size;
        let mut gathered = Vec::new();
        for (r, at) in rows.iter().zip(&positions) {
            for &p in at {
                gathered.extend_from_slice(&r[p * h..(p + 1) * h]);
            }
        }
        let n = gathered.len() / h.max(1);
        let mut logits: Vec<Vec<f32>> = Vec::with_capacity(n);
        let e = infer_err(&name);
        for start in (0..n).step_by(HEAD_CHUNK) {
            let m = HEAD_CHUNK.min(n - start);
            let chunk = gathered[start * h..(start + m) * h].to_vec();
            let out: Vec<Vec<f32>> = Tensor::from_vec(chunk, (m, h), &self.model.device)
                .and_then(|t| t.to_dtype(self.head_dtype()))
                .and_then(|t| self.head.forward(&t))
                .and_then(|t| t.to_dtype(candle_core::DType::F32))
                .and_then(|t| t.to_vec2())
                .map_err(&e)?;
            logits.extend(out);
        }
        if !logits.iter().all(|l| all_finite(l)) {
            return Err(NliError::NonFinite {
                model: name.clone(),
                layer: None,
            });
        }
        let mut it = logits.into_iter();
        Ok(positions
            .iter()
            .map(|at| it.by_ref().take(at.len()).collect())
            .collect())
    }

    /// The `k` most probable fillers of every mask token of every text, most probable first:
    /// `[text][mask][k]`. Probabilities are the softmax over the whole vocabulary (as
    /// `torch.softmax(logits).topk(k)`); equal probabilities keep the lower id first.
    ///
    /// # Errors
    /// As [`Self::mask_logits`].
    pub fn top_k(&self, texts: &[&str], k: usize) -> Result<Vec<Vec<Vec<Filler>>>> {
        let logits = self.mask_logits(texts)?;
        logits
            .into_iter()
            .map(|masks| {
                masks
                    .into_iter()
                    .map(|l| self.best(&softmax(&l), k))
                    .collect()
            })
            .collect()
    }

    fn best(&self, probs: &[f32], k: usize) -> Result<Vec<Filler>> {
        let mut order: Vec<u32> = (0..probs.len() as u32).collect();
        let by_prob = |a: &u32, b: &u32| {
            probs[*b as usize]
                .total_cmp(&probs[*a as usize])
                .then(a.cmp(b))
        };
        let k = k.min(order.len());
        if k < order.len() && k > 0 {
            order.select_nth_unstable_by(k - 1, by_prob);
        }
        order.truncate(k);
        order.sort_by(by_prob);
        order
            .into_iter()
            .map(|id| {
                Ok(Filler {
                    id,
                    token: self.model.text.decode(&[id], false)?,
                    prob: probs[id as usize],
                })
            })
            .collect()
    }

    /// The dtype the head's weights were loaded in (the model's).
    fn head_dtype(&self) -> candle_core::DType {
        self.model.engines.dtype()
    }
}
