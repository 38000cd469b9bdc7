//! A COMET checkpoint's `hparams.yaml`: the settings that decide how a score is computed.

use std::path::Path;

use serde::Deserialize;

use crate::error::{NliError, Result};

/// Which estimator a checkpoint holds (`class_identifier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CometClass {
    /// `regression_metric`: source, hypothesis and reference (`wmt20-comet-da`,
    /// `wmt22-comet-da`); features `[h; r; h*r; |h-r|; h*s; |h-s|]`.
    Regression,
    /// `referenceless_regression_metric`: source and hypothesis only (quality estimation);
    /// features `[h; s; h*s; |h-s|]`.
    Referenceless,
    /// `unified_metric` (CometKiwi, wmt23-cometkiwi): the hypothesis and the source and/or
    /// reference encoded as one sequence, the first token's mixed states to the estimator;
    /// with both, the mean of the `[mt, src]`, `[mt, ref]` and `[mt, src, ref]` scores.
    Unified,
    /// `xcomet_metric` (XCOMET): a unified model with a word-level head whose error spans
    /// (minor, major, critical) give an MQM score that joins the regression scores.
    Xcomet,
}

impl CometClass {
    /// The `class_identifier` value.
    pub fn identifier(self) -> &'static str {
        match self {
            CometClass::Regression => "regression_metric",
            CometClass::Referenceless => "referenceless_regression_metric",
            CometClass::Unified => "unified_metric",
            CometClass::Xcomet => "xcomet_metric",
        }
    }

    /// Whether the class encodes its inputs as one sequence (`unified_metric`,
    /// `xcomet_metric`).
    pub fn is_unified(self) -> bool {
        matches!(self, CometClass::Unified | CometClass::Xcomet)
    }
}

/// A text a unified model can take next to the hypothesis (`input_segments`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// The source.
    Src,
    /// The reference.
    Ref,
}

/// Which encoder states feed the pooling (`layer`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerChoice {
    /// `mix`: the layer-wise attention (scalar mix) over all hidden states.
    Mix,
    /// One hidden state (0 = the embedding output).
    Index(usize),
}

/// Sentence pooling (`pool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// Mean over the real tokens, special tokens included.
    Avg,
    /// Element-wise maximum over the real tokens.
    Max,
    /// The first token of the chosen states.
    Cls,
    /// The first token of the last layer, whatever `layer` says (COMET's `default`).
    Default,
}

/// The scalar mix's normalisation of its layer weights (`layer_transformation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerTransform {
    /// Softmax; also what unbabel-comet >= 2.2.4 applies for `sparsemax_patch`.
    Softmax,
    /// Sparsemax (entmax's).
    Sparsemax,
}

/// The parsed settings.
#[derive(Debug, Clone, PartialEq)]
pub struct CometHparams {
    /// Estimator class.
    pub class: CometClass,
    /// `encoder_model` (`XLM-RoBERTa`, `BERT`).
    pub encoder_model: String,
    /// `pretrained_model`: the encoder's config and tokenizer (hub id or path).
    pub pretrained_model: String,
    /// Pooling.
    pub pool: Pooling,
    /// Layer choice.
    pub layer: LayerChoice,
    /// Scalar-mix weight normalisation.
    pub layer_transformation: LayerTransform,
    /// Whether the scalar mix normalises each layer over a sentence's tokens first.
    pub layer_norm: bool,
    /// Hidden sizes of the feed-forward estimator.
    pub hidden_sizes: Vec<usize>,
    /// Activation of the hidden layers (a torch.nn name as COMET title-cases it).
    pub activations: String,
    /// Activation after the last layer, if any.
    pub final_activation: Option<String>,
    /// Unified models: what follows the hypothesis in `input_segments` (`[mt, src]` is
    /// CometKiwi's quality estimation, `[mt, ref]` needs references); empty otherwise.
    pub input_segments: Vec<Segment>,
    /// Unified models with a word-level head: the hidden state it reads (`word_layer`).
    pub word_layer: Option<usize>,
    /// The word-level head's error severities (`error_labels`), after the label `O`.
    pub error_labels: Vec<String>,
}

#[derive(Deserialize)]
struct Raw {
    class_identifier: String,
    #[serde(default = "xlmr")]
    encoder_model: String,
    #[serde(default = "xlmr_large")]
    pretrained_model: String,
    #[serde(default = "avg")]
    pool: String,
    #[serde(default)]
    layer: Option<serde_yaml_ng::Value>,
    /// The unified classes' name for `layer`.
    #[serde(default)]
    sent_layer: Option<serde_yaml_ng::Value>,
    #[serde(default)]
    layer_transformation: Option<String>,
    #[serde(default)]
    layer_norm: Option<bool>,
    #[serde(default)]
    hidden_sizes: Option<Vec<usize>>,
    #[serde(default)]
    input_segments: Option<Vec<String>>,
    #[serde(default)]
    word_level_training: Option<bool>,
    #[serde(default)]
    word_layer: Option<usize>,
    #[serde(default)]
    error_labels: Option<Vec<String>>,
    #[serde(default = "tanh")]
    activations: String,
    #[serde(default)]
    final_activation: Option<String>,
}

fn xlmr() -> String {
    "XLM-RoBERTa".into()
}
fn xlmr_large() -> String {
    "xlm-roberta-large".into()
}
fn avg() -> String {
    "avg".into()
}
fn tanh() -> String {
    "Tanh".into()
}

impl CometHparams {
    /// Reads `hparams.yaml`.
    ///
    /// # Errors
    /// [`NliError::Io`] when it cannot be read, [`NliError::Config`] when a value is not one
    /// COMET defines (or a model class this crate does not run, e.g. `unified_metric`).
    pub fn load(model: &str, path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| NliError::Io {
            model: model.to_string(),
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text).map_err(|message| NliError::Config {
            model: model.to_string(),
            path: path.to_path_buf(),
            message,
        })
    }

    /// Parses the text of `hparams.yaml`.
    ///
    /// # Errors
    /// A message naming the bad key.
    pub fn parse(text: &str) -> std::result::Result<Self, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let raw: Raw = serde_yaml_ng::from_str(text).map_err(|e| e.to_string())?;
        let class = match raw.class_identifier.as_str() {
            "regression_metric" => CometClass::Regression,
            "referenceless_regression_metric" => CometClass::Referenceless,
            "unified_metric" => CometClass::Unified,
            "xcomet_metric" => CometClass::Xcomet,
            other => {
                return Err(format!(
                    "class_identifier {other:?} is not supported (supported: regression_metric, referenceless_regression_metric, unified_metric, xcomet_metric)"
                ))
            }
        };
        // Each class's own defaults (unbabel-comet 2.2.7's constructors) for what
        // `hparams.yaml` leaves out.
        let (default_transform, default_norm, default_hidden, default_word_layer) = match class {
            CometClass::Regression | CometClass::Referenceless => {
                ("softmax", true, vec![3072, 1024], 24)
            }
            CometClass::Unified => ("sparsemax", true, vec![3072, 1024], 24),
            CometClass::Xcomet => ("sparsemax", false, vec![2560, 1280], 36),
        };
        let pool = match raw.pool.as_str() {
            "avg" => Pooling::Avg,
            "max" => Pooling::Max,
            "cls" => Pooling::Cls,
            "default" => Pooling::Default,
            other => {
                return Err(format!(
                    "pool {other:?} is not one of avg, max, cls, default"
                ))
            }
        };
        let layer_value = if class.is_unified() {
            &raw.sent_layer
        } else {
            &raw.layer
        };
        let layer_key = if class.is_unified() {
            "sent_layer"
        } else {
            "layer"
        };
        let layer = match layer_value {
            None => LayerChoice::Mix,
            Some(serde_yaml_ng::Value::String(s)) if s == "mix" => LayerChoice::Mix,
            Some(serde_yaml_ng::Value::Number(n)) if n.as_u64().is_some() => {
                LayerChoice::Index(n.as_u64().unwrap_or_default() as usize)
            }
            Some(other) => {
                return Err(format!(
                    "{layer_key} {other:?} is neither \"mix\" nor a layer index"
                ))
            }
        };
        // unbabel-comet >= 2.2.4 maps `sparsemax_patch` to softmax (its issue #244); any other
        // name but `sparsemax` is softmax in its LayerwiseAttention too.
        let layer_transformation = match raw
            .layer_transformation
            .as_deref()
            .unwrap_or(default_transform)
        {
            "sparsemax" => LayerTransform::Sparsemax,
            "softmax" | "sparsemax_patch" => LayerTransform::Softmax,
            other => {
                return Err(format!(
                "layer_transformation {other:?} is not one of softmax, sparsemax, sparsemax_patch"
            ))
            }
        };
        let hidden_sizes = raw.hidden_sizes.clone().unwrap_or(default_hidden);
        if hidden_sizes.is_empty() {
            return Err("hidden_sizes is empty".into());
        }
        let (input_segments, word_layer, error_labels) =
            unified_settings(class, &raw, default_word_layer)?;
        Ok(Self {
            class,
            encoder_model: raw.encoder_model,
            pretrained_model: raw.pretrained_model,
            pool,
            layer,
            layer_transformation,
            layer_norm: raw.layer_norm.unwrap_or(default_norm),
            hidden_sizes,
            activations: raw.activations,
            final_activation: raw.final_activation,
            input_segments,
            word_layer,
            error_labels,
        })
    }
}

type UnifiedSettings = (Vec<Segment>, Option<usize>, Vec<String>);

/// `input_segments`, the word layer and the error labels of a unified class, as its
/// constructor settles them: XCOMET always takes `[mt, src, ref]`, always has the word-level
/// head, and only the labels minor, major, critical (unbabel-comet asserts them).
fn unified_settings(
    class: CometClass,
    raw: &Raw,
    default_word_layer: usize,
) -> std::result::Result<UnifiedSettings, String> {
    if !class.is_unified() {
        return Ok((Vec::new(), None, Vec::new()));
    }
    let xcomet = class == CometClass::Xcomet;
    let segments = if xcomet {
        vec!["mt".to_string(), "src".into(), "ref".into()]
    } else {
        raw.input_segments
            .clone()
            .unwrap_or_else(|| vec!["mt".into(), "src".into(), "ref".into()])
    };
    let parsed = match segments.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["mt", "src"] => vec![Segment::Src],
        ["mt", "ref"] => vec![Segment::Ref],
        ["mt", "src", "ref"] => vec![Segment::Src, Segment::Ref],
        _ => {
            return Err(format!(
                "input_segments {segments:?} is not one of [mt, src], [mt, ref], [mt, src, ref]"
            ))
        }
    };
    let word_level = xcomet || raw.word_level_training.unwrap_or(false);
    let default_labels = if xcomet {
        vec!["minor", "major", "critical"]
    } else {
        vec!["minor", "major"]
    };
    let labels = raw
        .error_labels
        .clone()
        .unwrap_or_else(|| default_labels.iter().map(|s| s.to_string()).collect());
    if xcomet && labels != ["minor", "major", "critical"] {
        return Err(format!(
            "error_labels {labels:?}: xcomet_metric takes [minor, major, critical] only"
        ));
    }
    if word_level && labels.is_empty() {
        return Err("error_labels is empty".into());
    }
    let word_layer = word_level.then(|| raw.word_layer.unwrap_or(default_word_layer));
    Ok((
        parsed,
        word_layer,
        if word_level { labels } else { Vec::new() },
    ))
}
