//! Loading a transformer encoder (config, weights, tokenizer) and running padded batches.

use std::path::PathBuf;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::debertav2;

use crate::batch::Batching;
use crate::bert::BertEncoder;
use crate::config::ModelConfig;
use crate::deberta::DebertaEncoder;
use crate::device::{DeviceSpec, Precision};
use crate::distilbert::DistilBertEncoder;
use crate::error::{infer_err, NliError, Result};
use crate::fast::{pack, PackedEncoder};
use crate::source::ModelSource;
use crate::tokenize::{Encoded, TextEncoder};

/// How a model is loaded and run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoadOptions {
    /// Device (CPU by default).
    pub device: DeviceSpec,
    /// Precision (f32 by default; f16/bf16 only on a GPU).
    pub precision: Precision,
    /// Batch size and length bucketing.
    pub batching: Batching,
    /// A lower maximum input length than the model's, in tokens.
    pub max_len: Option<usize>,
}

/// Encoder architectures, by `model_type`.
pub const ENCODER_ARCHITECTURES: &str =
    "bert, roberta, xlm-roberta, camembert, distilbert, deberta-v2";

pub(crate) enum Backbone {
    Bert(BertEncoder),
    DistilBert(DistilBertEncoder),
    Deberta(Box<DebertaEncoder>),
}

/// Opens the weights of `source` as a var builder: `model.safetensors` (memory-mapped),
/// else `pytorch_model.bin`.
pub(crate) fn open_weights(
    source: &ModelSource,
    dtype: DType,
    device: &Device,
) -> Result<(VarBuilder<'static>, PathBuf)> {
    let (path, kind) = source.first_of(&["model.safetensors", "pytorch_model.bin"])?;
    let werr = |e: candle_core::Error| NliError::Weights {
        model: source.name(),
        path: path.clone(),
        message: e.to_string(),
    };
    let vb = if kind == 0 {
        // SAFETY: the file is mapped read-only; like every mmap-based loader (transformers,
        // safetensors) this assumes no other process truncates the file while it is in use.
        #[allow(unsafe_code)]
        unsafe { VarBuilder::from_mmaped_safetensors(std::slice::from_ref(&path), dtype, device) }
            .map_err(werr)?
    } else {
        VarBuilder::from_pth(&path, dtype, device).map_err(werr)?
    };
    Ok((vb, path))
}

/// A loaded transformer encoder with its tokenizer: the shared engine of the classifier and
/// the embedder.
pub struct TransformerModel {
    pub(crate) source: ModelSource,
    pub(crate) config: ModelConfig,
    pub(crate) raw_config: serde_json::Value,
    pub(crate) backbone: Backbone,
    pub(crate) text: TextEncoder,
    pub(crate) device: Device,
    pub(crate) batching: Batching,
    pub(crate) weights: PathBuf,
    /// A plain-buffer copy of the weights for the packed CPU kernels (f32 on the CPU, BERT
    /// layout), and whether to use it.
    pub(crate) packed: Option<Box<PackedEncoder>>,
    pub(crate) use_packed: bool,
}

impl std::fmt::Debug for TransformerModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransformerModel")
            .field("source", &self.source)
            .field("model_type", &self.config.model_type)
            .field("weights", &self.weights)
            .finish()
    }
}

impl TransformerModel {
    /// Loads the encoder of `source`; returns the model and the root var builder (for heads).
    pub(crate) fn load(
        source: &ModelSource,
        opts: &LoadOptions,
        usage: &'static str,
    ) -> Result<(Self, VarBuilder<'static>)> {
        let name = source.name();
        let cfg_path = source.required("config.json")?;
        let (config, raw_config) = ModelConfig::load(&name, &cfg_path)?;
        let (device, dtype) = opts.device.open(&name, opts.precision)?;
        let mt = config.model_type.as_str();
        let supported = matches!(
            mt,
            "bert" | "roberta" | "xlm-roberta" | "camembert" | "distilbert" | "deberta-v2"
        );
        if !supported {
            return Err(NliError::UnsupportedArchitecture {
                model: name,
                model_type: mt.to_string(),
                usage,
                supported: ENCODER_ARCHITECTURES,
            });
        }
        let (vb, weights) = open_weights(source, dtype, &device)?;
        let werr = |e: candle_core::Error| NliError::Weights {
            model: name.clone(),
            path: weights.clone(),
            message: e.to_string(),
        };
        let cerr = |e: serde_json::Error| NliError::Config {
            model: name.clone(),
            path: cfg_path.clone(),
            message: e.to_string(),
        };
        let roberta = matches!(mt, "roberta" | "xlm-roberta" | "camembert");
        let prefix = base_prefix(&vb, mt);
        let base = match prefix {
            Some(p) => vb.pp(p),
            None => vb.clone(),
        };
        let (backbone, max_pos) = match mt {
            "distilbert" => {
                let m = DistilBertEncoder::load(base, &config).map_err(werr)?;
                (Backbone::DistilBert(m), config.max_position_embeddings)
            }
            "deberta-v2" => {
                let c: debertav2::Config =
                    serde_json::from_value(raw_config.clone()).map_err(cerr)?;
                let m = DebertaEncoder::load(base, &c).map_err(werr)?;
                (
                    Backbone::Deberta(Box::new(m)),
                    config.max_position_embeddings,
                )
            }
            _ => {
                let m = BertEncoder::load(base, &config, roberta).map_err(werr)?;
                let max = config.max_position_embeddings - m.position_offset();
                (Backbone::Bert(m), max)
            }
        };
        let mut max_len = max_pos.max(1);
        if let Some(n) = tokenizer_max_len(source)? {
            max_len = max_len.min(n);
        }
        if let Some(n) = opts.max_len {
            max_len = max_len.min(n);
        }
        let text = TextEncoder::load(source, mt, max_len)?;
        let packed = if device.is_cpu() && dtype == DType::F32 {
            match &backbone {
                Backbone::Bert(m) => pack(&m.modules()),
                Backbone::DistilBert(m) => pack(&m.modules()),
                Backbone::Deberta(_) => Ok(None),
            }
            .map_err(werr)?
            .map(Box::new)
        } else {
            None
        };
        Ok((
            Self {
                source: source.clone(),
                config,
                raw_config,
                backbone,
                text,
                device,
                batching: opts.batching,
                weights,
                packed,
                use_packed: true,
            },
            vb,
        ))
    }

    /// The model's source.
    pub fn source(&self) -> &ModelSource {
        &self.source
    }

    /// `model_type` from the config.
    pub fn model_type(&self) -> &str {
        &self.config.model_type
    }

    /// The weights file name (`model.safetensors` or `pytorch_model.bin`).
    pub fn weights_file(&self) -> String {
        self.weights
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The tokenizer.
    pub fn text_encoder(&self) -> &TextEncoder {
        &self.text
    }

    /// Mutable tokenizer access (e.g. to lower the maximum length).
    pub fn text_encoder_mut(&mut self) -> &mut TextEncoder {
        &mut self.text
    }

    /// The batching settings.
    pub fn batching(&self) -> Batching {
        self.batching
    }

    /// Changes the batching settings.
    pub fn set_batching(&mut self, batching: Batching) {
        self.batching = batching;
    }

    /// Number of hidden-state tensors a forward pass exposes: `layers + 1` for every encoder
    /// architecture, the embedding output first (transformers' `hidden_states[0]`), the
    /// last layer last.
    pub fn exposed_layers(&self) -> usize {
        self.config.num_hidden_layers + 1
    }

    /// Runs one padded batch: hidden states (see [`Self::exposed_layers`]) and the `[b, s]`
    /// f32 mask.
    pub(crate) fn forward(&self, encs: &[&Encoded]) -> Result<(Vec<Tensor>, Tensor)> {
        let name = self.source.name();
        let e = infer_err(&name);
        let b = encs.len();
        let s = encs.iter().map(|x| x.ids.len()).max().unwrap_or(0).max(1);
        let pad = self.config.pad_token_id.unwrap_or(0);
        let (mut ids, mut types, mut pos, mut mask) = (
            Vec::with_capacity(b * s),
            Vec::with_capacity(b * s),
            Vec::with_capacity(b * s),
            Vec::with_capacity(b * s),
        );
        // A model with a single segment embedding (RoBERTa) takes all-zero segment ids, whatever
        // the tokenizer's post-processor assigned to a pair's second sentence.
        let one_segment = self.config.type_vocab_size.unwrap_or(2) < 2;
        for x in encs {
            let n = x.ids.len();
            ids.extend_from_slice(&x.ids);
            ids.extend(std::iter::repeat_n(pad, s - n));
            if one_segment {
                types.extend(std::iter::repeat_n(0u32, n));
            } else {
                types.extend_from_slice(&x.type_ids);
            }
            types.extend(std::iter::repeat_n(0u32, s - n));
            let p = match &self.backbone {
                Backbone::Bert(m) => m.positions(n),
                _ => (0..n as u32).collect(),
            };
            pos.extend(p);
            pos.extend(std::iter::repeat_n(0u32, s - n));
            mask.extend(std::iter::repeat_n(1u32, n));
            mask.extend(std::iter::repeat_n(0u32, s - n));
        }
        let t = |v: Vec<u32>| Tensor::from_vec(v, (b, s), &self.device);
        let ids = t(ids).map_err(&e)?;
        let types = t(types).map_err(&e)?;
        let mask = t(mask).map_err(&e)?;
        let states = match &self.backbone {
            Backbone::Bert(m) => {
                let pos = t(pos).map_err(&e)?;
                m.forward(&ids, &types, &pos, &mask).map_err(&e)?
            }
            Backbone::DistilBert(m) => {
                let pos = t(pos).map_err(&e)?;
                m.forward(&ids, &pos, &mask).map_err(&e)?
            }
            Backbone::Deberta(m) => m.forward(&ids, &types, &mask).map_err(&e)?,
        };
        let maskf = mask.to_dtype(DType::F32).map_err(&e)?;
        Ok((states, maskf))
    }

    /// Tokenizes inputs (sentences or pairs); returns encodings and how many were truncated.
    pub(crate) fn encode_all(
        &self,
        inputs: &[(&str, Option<&str>)],
    ) -> Result<(Vec<Encoded>, usize)> {
        let encs = inputs
            .iter()
            .map(|(a, b)| self.text.encode(a, *b))
            .collect::<Result<Vec<_>>>()?;
        let truncated = encs.iter().filter(|e| e.truncated).count();
        Ok((encs, truncated))
    }
}

/// The base-model prefix of a task checkpoint (`bert.`, `roberta.`...), if it has one.
fn base_prefix(vb: &VarBuilder<'_>, model_type: &str) -> Option<&'static str> {
    let candidates: &[&'static str] = match model_type {
        "distilbert" => &["distilbert"],
        "deberta-v2" => &["deberta"],
        "bert" => &["bert"],
        _ => &["roberta", "bert"],
    };
    candidates
        .iter()
        .copied()
        .find(|p| vb.contains_tensor(&format!("{p}.embeddings.word_embeddings.weight")))
}

/// `model_max_length` from `tokenizer_config.json` or `max_seq_length` from
/// sentence-transformers' `sentence_bert_config.json`, when given.
fn tokenizer_max_len(source: &ModelSource) -> Result<Option<usize>> {
    let mut best: Option<usize> = None;
    for (file, key) in [
        ("tokenizer_config.json", "model_max_length"),
        ("sentence_bert_config.json", "max_seq_length"),
    ] {
        let Some(p) = source.optional(file)? else {
            continue;
        };
        let v: serde_json::Value = std::fs::read_to_string(&p)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        // transformers writes a huge sentinel when no limit is known; only real limits count.
        if let Some(n) = v
            .get(key)
            .and_then(|n| n.as_u64())
            .filter(|&n| n < 1_000_000)
        {
            best = Some(best.map_or(n as usize, |b| b.min(n as usize)));
        }
    }
    Ok(best)
}
