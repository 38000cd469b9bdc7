//! COMET (unbabel-comet 2.x) models, read from a checkpoint directory: the encoder, the
//! layer-wise attention, pooling and the feed-forward estimator of the estimator classes, and
//! the unified classes (CometKiwi, XCOMET) with their word-level head.

mod head;
mod hparams;
mod pairs;
mod unified;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{Device, Tensor};

pub use hparams::{CometClass, CometHparams, LayerChoice, LayerTransform, Pooling, Segment};
pub use unified::{CometPrediction, CometSegment, ErrorSpan};

use self::head::{pool, Activation, Estimator, ScalarMix};
use self::unified::WordHead;
use crate::config::ModelConfig;
use crate::error::{NliError, Result};
use crate::model::{LoadOptions, TransformerModel};
use crate::source::ModelSource;
use crate::weights::{open_tracked, WeightsAt, BUFFERS};

/// Sentences embedded per call of the encoder: bounds the per-token states held at once.
const CHUNK: usize = 1024;

/// One segment to score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CometInput<'a> {
    /// Source sentence (`""` for the paper's COMET-w, which scores without the source).
    pub src: &'a str,
    /// Hypothesis (system output).
    pub mt: &'a str,
    /// Reference; required by regression models, unused by reference-free ones.
    pub reference: Option<&'a str>,
}

/// A COMET estimator loaded from a checkpoint directory.
///
/// The directory is what unbabel-comet 2.x downloads or trains: `hparams.yaml` and
/// `checkpoints/model.ckpt` (a PyTorch Lightning checkpoint, read by candle's pickle reader;
/// no Python). The encoder's `config.json` and tokenizer come from `pretrained_model` in
/// `hparams.yaml`: a directory relative to the model directory when one exists there, the
/// model directory itself when it holds `config.json`, else that hub id (`xlm-roberta-large`).
pub struct CometModel {
    dir: PathBuf,
    hparams: CometHparams,
    encoder: TransformerModel,
    mix: Option<ScalarMix>,
    /// The hidden state pooled when there is no mix.
    layer: usize,
    estimator: Estimator,
    /// The unified classes' word-level head.
    word: Option<WordHead>,
    /// The longest joined sequence of the unified classes (COMET's `max_positions`).
    max_positions: usize,
    /// Whether span texts get transformers' `clean_up_tokenization` (the tokenizer's
    /// `clean_up_tokenization_spaces`).
    clean_up_spaces: bool,
    device: Device,
}

impl std::fmt::Debug for CometModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CometModel")
            .field("dir", &self.dir)
            .field("hparams", &self.hparams)
            .finish()
    }
}

impl CometModel {
    /// Loads the model in `dir`.
    ///
    /// # Errors
    /// A missing `hparams.yaml` or checkpoint, an unsupported class, encoder or activation,
    /// missing or misshapen tensors, named with the directory.
    pub fn load(dir: &Path, opts: &LoadOptions) -> Result<Self> {
        let name = dir.display().to_string();
        if !dir.is_dir() {
            return Err(NliError::NotADirectory {
                model: name,
                path: dir.to_path_buf(),
                problem: if dir.exists() {
                    "is not a directory"
                } else {
                    "does not exist"
                },
            });
        }
        let hp_path = dir.join("hparams.yaml");
        if !hp_path.is_file() {
            return Err(missing(&name, "hparams.yaml"));
        }
        let hparams = CometHparams::load(&name, &hp_path)?;
        let ckpt = dir.join("checkpoints").join("model.ckpt");
        if !ckpt.is_file() {
            return Err(missing(&name, "checkpoints/model.ckpt"));
        }
        let invalid = |message: String| NliError::Config {
            model: name.clone(),
            path: hp_path.clone(),
            message,
        };
        // COMET picks the encoder class from `encoder_model`, whatever the config says; the
        // config's `model_type` must name the same architecture, or the layers would differ.
        let expected: &[&str] = match hparams.encoder_model.as_str() {
            "XLM-RoBERTa" => &["xlm-roberta", "roberta"],
            "XLM-RoBERTa-XL" => &["xlm-roberta-xl"],
            "BERT" => &["bert"],
            other => {
                return Err(invalid(format!(
                    "encoder_model {other:?} is not supported (supported: XLM-RoBERTa, XLM-RoBERTa-XL, BERT)"
                )))
            }
        };
        let act = Activation::parse(&hparams.activations).ok_or_else(|| {
            invalid(format!(
                "activations {:?} is not supported",
                hparams.activations
            ))
        })?;
        let final_act = match &hparams.final_activation {
            None => None,
            Some(a) => Some(
                Activation::parse(a)
                    .ok_or_else(|| invalid(format!("final_activation {a:?} is not supported")))?,
            ),
        };
        let source = encoder_source(dir, &hparams.pretrained_model);
        let cfg_path = source.required("config.json")?;
        let (config, _) = ModelConfig::load(&source.name(), &cfg_path)?;
        if !expected.contains(&config.model_type.as_str()) {
            return Err(NliError::Config {
                model: name.clone(),
                path: cfg_path.clone(),
                message: format!(
                    "model_type {:?} is not the architecture of encoder_model {:?} in hparams.yaml (expected {})",
                    config.model_type,
                    hparams.encoder_model,
                    expected.join(" or ")
                ),
            });
        }
        // COMET's encoders: max_positions = max_position_embeddings - 2, and sentences are
        // tokenised with max_length = max_positions - 2.
        let comet_len = config.max_position_embeddings.saturating_sub(4).max(2);
        let seg_len = opts.max_len.map_or(comet_len, |n| n.min(comet_len));
        let mut enc_opts = *opts;
        enc_opts.max_len = Some(seg_len);
        let at = WeightsAt::Checkpoint {
            path: ckpt.clone(),
            key: "state_dict",
            prefix: "encoder.model",
        };
        let (mut encoder, _, ledger) =
            TransformerModel::load_from(&source, &at, &enc_opts, "COMET encoder")?;
        // COMET passes `max_length` to the tokenizer, so the tokenizer's own
        // `model_max_length` (which the load above applies) does not cut its inputs.
        encoder.text_encoder_mut().set_max_len(seg_len);
        let (device, _) = opts.device.open(&name, opts.precision)?;
        let werr = |e: candle_core::Error| NliError::Weights {
            model: name.clone(),
            path: ckpt.clone(),
            message: e.to_string(),
        };
        // The head is small: it runs in f32 whatever the encoder's precision.
        let whole = WeightsAt::Checkpoint {
            path: ckpt.clone(),
            key: "state_dict",
            prefix: "",
        };
        let (vb, _, head_ledger) = open_tracked(&source, &whole, candle_core::DType::F32, &device)?;
        let states = encoder.exposed_layers();
        let (mix, layer) = match hparams.layer {
            LayerChoice::Mix => {
                let la = vb.pp("layerwise_attention");
                let raw = (0..states)
                    .map(|i| {
                        la.get(1, &format!("scalar_parameters.{i}"))
                            .and_then(|t| t.to_vec1::<f32>())
                            .map(|v| v[0])
                    })
                    .collect::<candle_core::Result<Vec<f32>>>()
                    .map_err(werr)?;
                let gamma = la
                    .get(1, "gamma")
                    .and_then(|t| t.to_vec1::<f32>())
                    .map_err(werr)?[0];
                let mix = ScalarMix::new(
                    &raw,
                    gamma,
                    hparams.layer_transformation,
                    hparams.layer_norm,
                );
                (Some(mix), states - 1)
            }
            LayerChoice::Index(i) if i < states => (None, i),
            LayerChoice::Index(i) => {
                return Err(invalid(format!(
                    "layer {i} is out of range: the encoder has {states} hidden states"
                )))
            }
        };
        let h = config.hidden_size;
        let in_dim = match hparams.class {
            CometClass::Regression => 6 * h,
            CometClass::Referenceless => 4 * h,
            CometClass::Unified | CometClass::Xcomet => h,
        };
        let word = match hparams.word_layer {
            Some(l) if l >= states => {
                return Err(invalid(format!(
                    "word_layer {l} is out of range: the encoder has {states} hidden states"
                )))
            }
            Some(l) => {
                let classes = hparams.error_labels.len() + 1;
                let tag = vb.pp("hidden2tag");
                let weight = tag
                    .get((classes, h), "weight")
                    .and_then(|t| t.flatten_all())
                    .and_then(|t| t.to_vec1::<f32>())
                    .map_err(werr)?;
                let bias = tag
                    .get(classes, "bias")
                    .and_then(|t| t.to_vec1::<f32>())
                    .map_err(werr)?;
                let mut tags = vec!["O".to_string()];
                tags.extend(hparams.error_labels.iter().map(|l| format!("I-{l}")));
                Some(WordHead {
                    weight,
                    bias,
                    tags,
                    layer: l,
                })
            }
            None => None,
        };
        let clean_up_spaces = tokenizer_flag(&source, "clean_up_tokenization_spaces")?;
        let estimator = Estimator::load(
            &vb.pp("estimator"),
            in_dim,
            &hparams.hidden_sizes,
            act,
            final_act,
        )
        .map_err(werr)?;
        ledger.absorb(&head_ledger);
        ledger.check(
            &name,
            &ckpt,
            "COMET model",
            "",
            &[
                BUFFERS[0],
                BUFFERS[1],
                (
                    "layerwise_attention.dropout_*",
                    "the layer-dropout buffers of COMET's LayerwiseAttention, used in training only",
                ),
                (
                    "wordloss.*",
                    "the class weights of the word-level loss (cross_entropy_weights), used in training only",
                ),
                (
                    "encoder.model.pooler.*",
                    "the encoder's pooler: COMET reads hidden states, never the pooled output",
                ),
            ],
        )?;
        Ok(Self {
            dir: dir.to_path_buf(),
            hparams,
            encoder,
            mix,
            layer,
            estimator,
            word,
            max_positions: comet_len + 2,
            clean_up_spaces,
            device,
        })
    }

    /// The settings read from `hparams.yaml`.
    pub fn hparams(&self) -> &CometHparams {
        &self.hparams
    }

    /// The encoder (tokenizer, batching, kernels).
    pub fn encoder(&self) -> &TransformerModel {
        &self.encoder
    }

    /// Mutable access to the encoder (batching, packed kernels).
    pub fn encoder_mut(&mut self) -> &mut TransformerModel {
        &mut self.encoder
    }

    /// The model directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the model scores without a reference (quality estimation): the
    /// reference-free class, and the unified ones that do not need one.
    pub fn is_referenceless(&self) -> bool {
        match self.hparams.class {
            CometClass::Referenceless => true,
            CometClass::Regression => false,
            CometClass::Unified | CometClass::Xcomet => {
                self.hparams.input_segments != [Segment::Ref]
            }
        }
    }

    /// Whether the model reads references when it is given them (the regression class, and
    /// the unified ones whose `input_segments` name `ref`).
    pub fn takes_references(&self) -> bool {
        match self.hparams.class {
            CometClass::Regression => true,
            CometClass::Referenceless => false,
            CometClass::Unified | CometClass::Xcomet => {
                self.hparams.input_segments.contains(&Segment::Ref)
            }
        }
    }

    /// Whether the model reads sources: all but the unified ones with `[mt, ref]`.
    pub fn takes_sources(&self) -> bool {
        !self.hparams.class.is_unified() || self.hparams.input_segments.contains(&Segment::Src)
    }

    /// Pooled sentence embeddings, as COMET's `get_sentence_embedding` computes them.
    ///
    /// # Errors
    /// Tokenizer or inference failures.
    pub fn sentence_embeddings(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let h = self.encoder.config.hidden_size;
        let pooling = self.hparams.pool;
        // `default` pooling reads the last layer's first token, whatever the mix says.
        let (mix, layer) = match pooling {
            Pooling::Default => (None, self.encoder.exposed_layers() - 1),
            _ => (self.mix.as_ref(), self.layer),
        };
        let fold = move |l: usize, rows: &[f32], acc: &mut [f32]| match mix {
            Some(m) => m.add(l, rows, acc),
            None if l == layer => acc.copy_from_slice(rows),
            None => {}
        };
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(CHUNK) {
            let inputs: Vec<(&str, Option<&str>)> = chunk.iter().map(|t| (*t, None)).collect();
            let (encs, _) = self.encoder.encode_all(&inputs)?;
            let states =
                self.encoder
                    .fold_layers(&encs, layer, None, &|i| encs[i].ids.len() * h, &fold)?;
            out.extend(states.iter().map(|s| pool(pooling, s, h)));
        }
        Ok(out)
    }

    /// Scores every input (one score each, in input order). Each distinct sentence is
    /// encoded once.
    ///
    /// # Errors
    /// [`NliError::Invalid`] when a regression model gets an input without a reference;
    /// tokenizer or inference failures.
    pub fn score(&self, inputs: &[CometInput<'_>]) -> Result<Vec<f32>> {
        if self.hparams.class.is_unified() {
            let segments: Vec<CometSegment<'_>> = inputs
                .iter()
                .map(|x| CometSegment {
                    src: Some(x.src),
                    mt: x.mt,
                    reference: x.reference,
                })
                .collect();
            return Ok(self
                .predict(&segments)?
                .into_iter()
                .map(|p| p.score)
                .collect());
        }
        let name = self.dir.display().to_string();
        let with_ref = !self.is_referenceless();
        if with_ref {
            if let Some(i) = inputs.iter().position(|x| x.reference.is_none()) {
                return Err(NliError::Invalid {
                    model: name,
                    message: format!("input {i} has no reference; this regression model needs one"),
                });
            }
        }
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut texts: Vec<&str> = Vec::new();
        for x in inputs {
            for t in [Some(x.src), Some(x.mt), x.reference.filter(|_| with_ref)]
                .into_iter()
                .flatten()
            {
                if !index.contains_key(t) {
                    index.insert(t, texts.len());
                    texts.push(t);
                }
            }
        }
        let emb = self.sentence_embeddings(&texts)?;
        // Built and scored a block of rows at a time (see `pairs`): all the rows at once took
        // `inputs * 6 * hidden` floats.
        let mut out = Vec::with_capacity(inputs.len());
        self.estimate_rows(
            inputs.len(),
            |i| {
                let x = &inputs[i];
                let r = x.reference.filter(|_| with_ref);
                (
                    emb[index[x.mt]].as_slice(),
                    r.map(|r| emb[index[r]].as_slice()),
                    emb[index[x.src]].as_slice(),
                )
            },
            &mut |_, scores| {
                out.extend(scores);
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// The estimator on `rows` feature rows (row-major in `features`).
    fn estimate(&self, features: Vec<f32>, rows: usize) -> Result<Vec<f32>> {
        if rows == 0 {
            return Ok(Vec::new());
        }
        let e = |e: candle_core::Error| NliError::Inference {
            model: self.dir.display().to_string(),
            message: e.to_string(),
        };
        let width = features.len() / rows;
        let t = Tensor::from_vec(features, (rows, width), &self.device).map_err(e)?;
        self.estimator.forward(&t).map_err(e)
    }
}

fn missing(model: &str, file: &str) -> NliError {
    NliError::MissingFile {
        model: model.to_string(),
        file: file.to_string(),
        hint: " (a COMET model directory holds hparams.yaml and checkpoints/model.ckpt)".into(),
    }
}

/// A boolean of the encoder's `tokenizer_config.json` (false when absent, as transformers
/// defaults it).
fn tokenizer_flag(source: &ModelSource, key: &str) -> Result<bool> {
    let Some(p) = source.optional("tokenizer_config.json")? else {
        return Ok(false);
    };
    let v: serde_json::Value = std::fs::read_to_string(&p)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    Ok(v.get(key).and_then(|b| b.as_bool()).unwrap_or(false))
}

/// The encoder a COMET checkpoint directory names in its `hparams.yaml` (`pretrained_model`),
/// resolved as [`CometModel::load`] resolves it, without loading or fetching anything; `None`
/// when `dir` holds no readable `hparams.yaml`. Programs use it to keep their outputs off the
/// encoder's files, which a run reads as much as the checkpoint's own.
pub fn comet_encoder_source(dir: &Path) -> Option<ModelSource> {
    let path = dir.join("hparams.yaml");
    // A FIFO or device there would block or never end; the loader refuses those itself.
    if !path.is_file() {
        return None;
    }
    let hp = CometHparams::load(&dir.display().to_string(), &path).ok()?;
    Some(encoder_source(dir, &hp.pretrained_model))
}

/// Where the encoder's config and tokenizer are: see [`CometModel`].
fn encoder_source(dir: &Path, pretrained: &str) -> ModelSource {
    let rel = dir.join(pretrained);
    if !pretrained.is_empty() && rel.is_dir() {
        return ModelSource::Dir(rel);
    }
    if dir.join("config.json").is_file() {
        return ModelSource::Dir(dir.to_path_buf());
    }
    ModelSource::parse(pretrained)
}
