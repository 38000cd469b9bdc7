//! Loading a transformer encoder (config, weights, tokenizer) and running padded batches.

use std::path::PathBuf;

use candle_core::{Device, Tensor};
use candle_nn::VarBuilder;

use crate::batch::Batching;
use crate::config::ModelConfig;
use crate::device::{DeviceSpec, Precision};
use crate::error::{infer_err, NliError, Result};
use crate::models::bert::packed::PackedEncoder;
use crate::models::{Arch, Backbone, ENCODER_ARCHITECTURES};
use crate::packed_or_candle::sealed::{HasEngines, Switch};
use crate::packed_or_candle::{Engines, WeightsHandle};
use crate::source::ModelSource;
use crate::tokenize::{Encoded, TextEncoder};
use crate::weights::{narrowed, open_tracked, KnownUnused, Ledger, WeightsAt, BUFFERS};

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

/// A loaded transformer encoder with its tokenizer: the shared engine of the classifier and
/// the embedder.
pub struct TransformerModel {
    pub(crate) source: ModelSource,
    pub(crate) config: ModelConfig,
    pub(crate) raw_config: serde_json::Value,
    pub(crate) arch: Arch,
    /// The packed CPU kernels' copy of the weights (f32 on the CPU, BERT layout) and candle's
    /// modules for the padded forward pass, built only if that path is asked for where the
    /// packed copy exists.
    pub(crate) engines: Engines<PackedEncoder, Backbone>,
    /// Positions taken before the first token (RoBERTa: padding index + 1).
    position_offset: usize,
    pub(crate) text: TextEncoder,
    pub(crate) device: Device,
    pub(crate) batching: Batching,
    pub(crate) weights: PathBuf,
    /// The base-model prefix of the checkpoint's tensor names (`bert`, `roberta`...).
    pub(crate) base_prefix: Option<&'static str>,
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

impl HasEngines for TransformerModel {
    fn engines(&self) -> &dyn Switch {
        &self.engines
    }

    fn engines_mut(&mut self) -> &mut dyn Switch {
        &mut self.engines
    }
}

impl TransformerModel {
    /// Loads the encoder of `source`; returns the model, the root var builder (for heads) and
    /// the ledger of the tensors read, which the caller checks with [`Self::check_weights`]
    /// once its head is loaded.
    pub(crate) fn load(
        source: &ModelSource,
        opts: &LoadOptions,
        usage: &'static str,
    ) -> Result<(Self, VarBuilder<'static>, Ledger)> {
        Self::load_from(source, &WeightsAt::Model, opts, usage)
    }

    /// [`Self::load`] with the weights read from `at` (config and tokenizer from `source`).
    pub(crate) fn load_from(
        source: &ModelSource,
        at: &WeightsAt,
        opts: &LoadOptions,
        usage: &'static str,
    ) -> Result<(Self, VarBuilder<'static>, Ledger)> {
        let name = source.name();
        let cfg_path = source.required("config.json")?;
        let (config, raw_config) = ModelConfig::load(&name, &cfg_path)?;
        let (device, dtype) = opts.device.open(&name, opts.precision)?;
        let mt = config.model_type.as_str();
        let Some(arch) = Arch::parse(mt, &raw_config) else {
            return Err(NliError::UnsupportedArchitecture {
                model: name,
                model_type: mt.to_string(),
                usage,
                supported: ENCODER_ARCHITECTURES,
            });
        };
        // A bad config is a config error, not a weights error.
        let mut arch = arch.map_err(|e| NliError::Config {
            model: name.clone(),
            path: cfg_path.clone(),
            message: e.to_string(),
        })?;
        let (vb, weights, ledger) = open_tracked(source, at, dtype, &device)?;
        let werr = |e: candle_core::Error| NliError::Weights {
            model: name.clone(),
            path: weights.clone(),
            message: e.to_string(),
        };
        let spec = arch.kind().spec();
        let prefix = spec.base_prefix(&vb);
        let base = narrowed(&vb, prefix);
        arch.adopt_weights(&base, &config);
        let handle = WeightsHandle {
            source: source.clone(),
            at: at.clone(),
            dtype,
            device: device.clone(),
            prefix,
        };
        // The packed copy is read from the file layer by layer; candle's modules are built
        // only where it does not exist.
        let engines = Engines::new(
            handle,
            &base,
            |b| arch.pack(b, &config),
            |b| arch.backbone(b, &config),
        )
        .map_err(werr)?;
        let position_offset = arch.position_offset(&config);
        let max_pos = config
            .max_position_embeddings
            .saturating_sub(position_offset);
        let mut max_len = max_pos.max(1);
        if let Some(n) = tokenizer_max_len(source)? {
            max_len = max_len.min(n);
        }
        if let Some(n) = opts.max_len {
            max_len = max_len.min(n);
        }
        let mut text =
            TextEncoder::load_with(source, &config.model_type, spec.bpe_specials, max_len)?;
        text.adopt_reference_truncation(&config.model_type);
        // The word embeddings were read as `[vocab_size, width]` (candle checks the shape), so
        // `vocab_size` is their row count.
        crate::vocab::check(
            &name,
            &text,
            config.vocab_size,
            &weights,
            crate::vocab::Spare::Any,
        )?;
        Ok((
            Self {
                source: source.clone(),
                config,
                raw_config,
                arch,
                engines,
                position_offset,
                text,
                device,
                batching: opts.batching,
                weights,
                base_prefix: prefix,
            },
            vb,
            ledger,
        ))
    }

    /// Fails naming every tensor of the checkpoint under `scope` that the load did not read
    /// (`what` names the model and head in the message): [`BUFFERS`] and `known` list those
    /// the reference ignores as well, each with its reason.
    pub(crate) fn check_weights(
        &self,
        ledger: &Ledger,
        what: &str,
        scope: &str,
        known: &[KnownUnused],
    ) -> Result<()> {
        let all: Vec<KnownUnused> = BUFFERS.iter().chain(known).copied().collect();
        ledger.check(&self.source.name(), &self.weights, what, scope, &all)
    }

    /// The base-model prefix with its dot (`roberta.`), or `""` for a bare base model.
    pub(crate) fn base_scope(&self) -> String {
        self.base_prefix.map_or(String::new(), |p| format!("{p}."))
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

    /// The width of the hidden states (`hidden_size`, DistilBERT's `dim`, GPT-2's `n_embd`):
    /// the length of a mean-pooled embedding.
    pub fn hidden_size(&self) -> usize {
        self.config.hidden_size
    }

    /// Number of hidden-state tensors a forward pass exposes: `layers + 1` for every encoder
    /// architecture, the embedding output first (transformers' `hidden_states[0]`), the
    /// last layer last.
    pub fn exposed_layers(&self) -> usize {
        self.config.num_hidden_layers + 1
    }

    /// Runs one padded batch: hidden states (see [`Self::exposed_layers`]).
    pub(crate) fn forward(&self, encs: &[&Encoded]) -> Result<Vec<Tensor>> {
        let name = self.source.name();
        let e = infer_err(&name);
        let backbone = self
            .engines
            .candle(|b| self.arch.backbone(b, &self.config))?;
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
            let off = self.position_offset as u32;
            pos.extend((0..n as u32).map(|i| i + off));
            pos.extend(std::iter::repeat_n(0u32, s - n));
            mask.extend(std::iter::repeat_n(1u32, n));
            mask.extend(std::iter::repeat_n(0u32, s - n));
        }
        let t = |v: Vec<u32>| Tensor::from_vec(v, (b, s), &self.device);
        let ids = t(ids).map_err(&e)?;
        let types = t(types).map_err(&e)?;
        let mask = t(mask).map_err(&e)?;
        let pos = t(pos).map_err(&e)?;
        backbone
            .hidden_states(&ids, &types, &pos, &mask)
            .map_err(&e)
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
