//! MetricX-23 and MetricX-24 (google-research/metricx): an mT5 encoder-decoder regressor whose
//! score is the logit of `<extra_id_10>` at the first decoder step, clamped to [0, 25]
//! (an error score: lower is better). Inputs are built, tokenised and cut as the repository's
//! `predict.py` builds them.

use candle_core::Device;

use crate::batch::Batching;
use crate::device::Precision;
use crate::error::{NliError, Result};
use crate::model::LoadOptions;
use crate::models::t5::model::T5Model;
use crate::models::t5::packed::PackedT5;
use crate::models::t5::T5Config;
use crate::packed_or_candle::sealed::{HasEngines, Switch};
use crate::packed_or_candle::{Engines, WeightsHandle};
use crate::source::ModelSource;
use crate::tokenize::TextEncoder;
use crate::weights::{open_tracked, WeightsAt};

/// The token whose logit is the score (id 250089 in mT5's vocabulary, which MetricX's
/// `MT5ForRegression` hard-codes; looked up here so that other vocabularies work).
pub const SCORE_TOKEN: &str = "<extra_id_10>";

/// The decoder input of the single step (`decoder_input_ids` 0: the pad id T5 starts with).
const DECODER_START: u32 = 0;

/// The bounds MetricX clamps its predictions to.
pub const SCORE_RANGE: (f32, f32) = (0.0, 25.0);

/// Which release's input format to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MetricxVersion {
    /// MetricX-24 (hybrid): `source: S candidate: H reference: R`, or without a reference
    /// (quality estimation) `source: S candidate: H`; a missing source is the empty string.
    #[default]
    V24,
    /// MetricX-23: `candidate: H reference: R`, or for the QE models `candidate: H source: S`.
    V23,
}

impl MetricxVersion {
    /// `24` or `23`.
    pub fn number(self) -> u32 {
        match self {
            MetricxVersion::V24 => 24,
            MetricxVersion::V23 => 23,
        }
    }

    /// predict.py's `--max_input_length` of the repository's README for this release (the
    /// length the models were trained with): 1536 for MetricX-24, 1024 for MetricX-23.
    pub fn default_max_input_length(self) -> usize {
        match self {
            MetricxVersion::V24 => 1536,
            MetricxVersion::V23 => 1024,
        }
    }
}

/// One segment to score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricxInput<'a> {
    /// The source, if any.
    pub source: Option<&'a str>,
    /// The hypothesis (candidate translation).
    pub hypothesis: &'a str,
    /// The reference; `None` scores without one (quality estimation).
    pub reference: Option<&'a str>,
}

impl MetricxInput<'_> {
    /// The model input as predict.py's `_make_input` writes it for `version`.
    ///
    /// MetricX-24 reads the source with or without a reference (the README passes `""` for a
    /// source that is not available), and without a reference it is quality estimation
    /// (predict.py `--qe`), which needs the source. MetricX-23's reference-based models read no
    /// source and its QE models no reference.
    ///
    /// # Errors
    /// A message naming what the version cannot take or lacks.
    pub fn template(&self, version: MetricxVersion) -> std::result::Result<String, String> {
        let h = self.hypothesis;
        match (version, self.source, self.reference) {
            (MetricxVersion::V24, s, Some(r)) => Ok(format!(
                "source: {} candidate: {h} reference: {r}",
                s.unwrap_or_default()
            )),
            (MetricxVersion::V24, Some(s), None) => Ok(format!("source: {s} candidate: {h}")),
            (MetricxVersion::V23, None, Some(r)) => Ok(format!("candidate: {h} reference: {r}")),
            (MetricxVersion::V23, Some(s), None) => Ok(format!("candidate: {h} source: {s}")),
            (MetricxVersion::V23, Some(_), Some(_)) => {
                Err("MetricX-23 takes a source (QE models) or a reference, not both".into())
            }
            (_, None, None) => {
                Err("MetricX needs a reference or, for quality estimation, a source".into())
            }
        }
    }
}

/// The tokenizer MetricX's README runs predict.py with (`--tokenizer google/mt5-xl`), for
/// checkpoints that ship none.
pub const DEFAULT_TOKENIZER: &str = "google/mt5-xl";

/// The tokenizer of a MetricX checkpoint: its own (`tokenizer.json` or `spiece.model`), else
/// [`DEFAULT_TOKENIZER`].
///
/// # Errors
/// A file of the checkpoint that cannot be looked up (hub errors).
pub fn default_tokenizer(source: &ModelSource) -> Result<ModelSource> {
    let own =
        source.optional("tokenizer.json")?.is_some() || source.optional("spiece.model")?.is_some();
    Ok(if own {
        source.clone()
    } else {
        ModelSource::parse(DEFAULT_TOKENIZER)
    })
}

/// One prediction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricxPrediction {
    /// The score, the logit clamped to [0, 25]; lower is better.
    pub score: f32,
    /// The logit before the clamp.
    pub logit: f32,
    /// Whether the input was cut to the maximum input length.
    pub truncated: bool,
}

/// A MetricX checkpoint (`MT5ForRegression`'s tensors: `shared`, `encoder`, `decoder`,
/// `lm_head`) with its mT5 tokenizer.
///
/// On the CPU in f32 it runs on the packed kernels (unpadded batches, one decoder step for
/// the whole batch); elsewhere, or after [`PackedCpu::set_packed_cpu`](crate::PackedCpu::set_packed_cpu)`(false)`, on candle's padded
/// path.
pub struct MetricxModel {
    source: ModelSource,
    tokenizer_source: ModelSource,
    config: T5Config,
    /// The packed copy (f32 on the CPU) and candle's modules, the latter built only where
    /// there is no packed copy or candle's path is asked for.
    engines: Engines<PackedT5, T5Model>,
    device: Device,
    text: TextEncoder,
    token: u32,
    batching: Batching,
    precision: Precision,
}

impl std::fmt::Debug for MetricxModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricxModel")
            .field("source", &self.source)
            .field("tokenizer", &self.tokenizer_source)
            .field("token", &self.token)
            .finish()
    }
}

impl HasEngines for MetricxModel {
    fn engines(&self) -> &dyn Switch {
        &self.engines
    }

    fn engines_mut(&mut self) -> &mut dyn Switch {
        &mut self.engines
    }
}

impl MetricxModel {
    /// Loads the checkpoint `source` (its `config.json` and `model.safetensors` or
    /// `pytorch_model.bin`) and the tokenizer `tokenizer` (`tokenizer.json` or `spiece.model`;
    /// the released MetricX checkpoints ship none and predict.py reads google/mt5-xl's),
    /// cutting inputs to `max_input_length` tokens as predict.py's tokenizer call does (the
    /// `</s>` it appends included, then removed).
    ///
    /// Every tensor of the checkpoint must be used, or the load fails naming the unused ones.
    ///
    /// # Errors
    /// Missing files, a config that is not a T5-family one or lacks a size (named), an
    /// unknown `feed_forward_proj`, a tokenizer without `<extra_id_10>`, missing, misshapen or
    /// unused tensors, `max_input_length` below 2.
    pub fn load(
        source: &ModelSource,
        tokenizer: &ModelSource,
        opts: &LoadOptions,
        max_input_length: usize,
    ) -> Result<Self> {
        let name = source.name();
        if max_input_length < 2 {
            return Err(NliError::Invalid {
                model: name,
                message: format!(
                    "a maximum input length of {max_input_length}: predict.py removes the </s> the tokenizer appends, so at least 2 tokens are needed"
                ),
            });
        }
        let cfg_path = source.required("config.json")?;
        let config = T5Config::load(&name, &cfg_path)?;
        let text = TextEncoder::load_t5(tokenizer, max_input_length)?;
        let token = text
            .token_to_id(SCORE_TOKEN)
            // mT5's released spiece.model holds its sentinels as the pieces `▁<extra_id_N>`
            // (google/mt5-xl's tokenizer adds no extra ids), id 250089 for this one.
            .or_else(|| text.token_to_id(&format!("▁{SCORE_TOKEN}")))
            .ok_or_else(|| NliError::Tokenizer {
                model: tokenizer.name(),
                message: format!(
                    "no {SCORE_TOKEN} (nor ▁{SCORE_TOKEN}) in the vocabulary: MetricX scores with the logit of that token"
                ),
            })?;
        let (device, dtype) = opts.device.open(&name, opts.precision)?;
        let (vb, path, ledger) = open_tracked(source, &WeightsAt::Model, dtype, &device)?;
        let handle = WeightsHandle {
            source: source.clone(),
            at: WeightsAt::Model,
            dtype,
            device: device.clone(),
            prefix: None,
        };
        // The packed copy is made from candle's modules, which are then dropped: the weights
        // are held once.
        let engines = Engines::new(
            handle,
            &vb,
            |b| {
                T5Model::load(b, &config, &[token])?
                    .pack(DECODER_START)
                    .map(Some)
            },
            |b| T5Model::load(b, &config, &[token]),
        )
        .map_err(|e| NliError::Weights {
            model: name.clone(),
            path: path.clone(),
            message: e.to_string(),
        })?;
        // `shared` was read as `[vocab_size, d_model]`, so `vocab_size` is its row count; T5's
        // rows are the vocabulary padded to a multiple of 128, so many more rows than ids mean
        // a tokenizer file cut short (or another model's).
        crate::vocab::check(
            &name,
            &text,
            config.vocab_size,
            &path,
            crate::vocab::Spare::Padding,
        )?;
        ledger.check(&name, &path, "MetricX (mT5) model", "", &[])?;
        Ok(Self {
            source: source.clone(),
            tokenizer_source: tokenizer.clone(),
            config,
            engines,
            device,
            text,
            token,
            batching: opts.batching,
            precision: opts.precision,
        })
    }

    /// The checkpoint.
    pub fn source(&self) -> &ModelSource {
        &self.source
    }

    /// Where the tokenizer came from.
    pub fn tokenizer_source(&self) -> &ModelSource {
        &self.tokenizer_source
    }

    /// The tokenizer (its `max_len` is the maximum input length).
    pub fn text_encoder(&self) -> &TextEncoder {
        &self.text
    }

    /// The vocabulary id whose logit is the score.
    pub fn score_token(&self) -> u32 {
        self.token
    }

    /// The feed-forward kind of the checkpoint (`relu`, `gated-gelu`).
    pub fn feed_forward(&self) -> &'static str {
        self.config.feed_forward.name()
    }

    /// The precision the weights run in: `f32`, `f16` or `bf16`.
    pub fn precision(&self) -> &'static str {
        match self.precision {
            Precision::F16 => "f16",
            Precision::Bf16 => "bf16",
            _ => "f32",
        }
    }

    /// Batch size and bucketing.
    pub fn batching(&self) -> Batching {
        self.batching
    }

    /// The model input's ids as predict.py gives them to the model: the text tokenised with
    /// `</s>` appended, cut to the maximum input length (the `</s>` kept), then its last
    /// token removed (`_remove_eos`). Also whether the text was cut.
    ///
    /// # Errors
    /// [`NliError::Tokenizer`] when the tokenizer fails.
    pub fn encode(&self, input: &str) -> Result<(Vec<u32>, bool)> {
        let enc = self.text.encode(input, None)?;
        let mut ids = enc.ids;
        ids.pop();
        Ok((ids, enc.truncated))
    }

    /// Scores every input with the `version`'s template (one prediction each, input order).
    ///
    /// # Errors
    /// [`NliError::Invalid`] for an input the version cannot take (see
    /// [`MetricxInput::template`]); tokenizer or inference failures; [`NliError::NonFinite`]
    /// when a logit is NaN.
    pub fn predict(
        &self,
        version: MetricxVersion,
        inputs: &[MetricxInput<'_>],
    ) -> Result<Vec<MetricxPrediction>> {
        let name = self.source.name();
        let mut encoded = Vec::with_capacity(inputs.len());
        for (i, x) in inputs.iter().enumerate() {
            let text = x.template(version).map_err(|m| NliError::Invalid {
                model: name.clone(),
                message: format!("input {i}: {m}"),
            })?;
            encoded.push(self.encode(&text)?);
        }
        let lengths: Vec<usize> = encoded.iter().map(|(ids, _)| ids.len()).collect();
        let logits = self.logits(&encoded, &lengths)?;
        let mut out = Vec::with_capacity(inputs.len());
        for (row, (_, truncated)) in logits.into_iter().zip(&encoded) {
            let logit = row.first().copied().unwrap_or(f32::NAN);
            if logit.is_nan() {
                return Err(NliError::NonFinite {
                    model: name,
                    layer: None,
                });
            }
            out.push(MetricxPrediction {
                score: logit.clamp(SCORE_RANGE.0, SCORE_RANGE.1),
                logit,
                truncated: *truncated,
            });
        }
        Ok(out)
    }

    /// The score row's logits of every encoded input, in input order: packed batches in
    /// parallel, or candle's padded batches.
    fn logits(&self, encoded: &[(Vec<u32>, bool)], lengths: &[usize]) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        if let Some(packed) = self.engines.packed() {
            return self.batching.par_packed(lengths, &name, |idx| {
                let ids: Vec<&[u32]> = idx.iter().map(|&i| encoded[i].0.as_slice()).collect();
                packed.first_step_logits(&ids)
            });
        }
        let model = self
            .engines
            .candle(|b| T5Model::load(b, &self.config, &[self.token]))?;
        self.batching.run_padded(lengths, |batch| {
            let ids: Vec<&[u32]> = batch.iter().map(|&i| encoded[i].0.as_slice()).collect();
            model
                .first_step_logits(&ids, DECODER_START)
                .map_err(crate::error::infer_err(&name))
        })
    }

    /// The device the model runs on.
    pub fn device(&self) -> &Device {
        &self.device
    }
}
