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
}

impl CometClass {
    /// The `class_identifier` value.
    pub fn identifier(self) -> &'static str {
        match self {
            CometClass::Regression => "regression_metric",
            CometClass::Referenceless => "referenceless_regression_metric",
        }
    }
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
    #[serde(default = "softmax")]
    layer_transformation: String,
    // COMET's model classes default to layer norm on.
    #[serde(default = "yes")]
    layer_norm: bool,
    #[serde(default = "hidden")]
    hidden_sizes: Vec<usize>,
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
fn softmax() -> String {
    "softmax".into()
}
fn yes() -> bool {
    true
}
fn hidden() -> Vec<usize> {
    vec![3072, 1024]
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
            other => {
                return Err(format!(
                    "class_identifier {other:?} is not supported (supported: regression_metric, referenceless_regression_metric)"
                ))
            }
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
        let layer = match &raw.layer {
            None => LayerChoice::Mix,
            Some(serde_yaml_ng::Value::String(s)) if s == "mix" => LayerChoice::Mix,
            Some(serde_yaml_ng::Value::Number(n)) if n.as_u64().is_some() => {
                LayerChoice::Index(n.as_u64().unwrap_or_default() as usize)
            }
            Some(other) => {
                return Err(format!(
                    "layer {other:?} is neither \"mix\" nor a layer index"
                ))
            }
        };
        // unbabel-comet >= 2.2.4 maps `sparsemax_patch` to softmax (its issue #244); any other
        // name but `sparsemax` is softmax in its LayerwiseAttention too.
        let layer_transformation = match raw.layer_transformation.as_str() {
            "sparsemax" => LayerTransform::Sparsemax,
            "softmax" | "sparsemax_patch" => LayerTransform::Softmax,
            other => {
                return Err(format!(
                "layer_transformation {other:?} is not one of softmax, sparsemax, sparsemax_patch"
            ))
            }
        };
        if raw.hidden_sizes.is_empty() {
            return Err("hidden_sizes is empty".into());
        }
        Ok(Self {
            class,
            encoder_model: raw.encoder_model,
            pretrained_model: raw.pretrained_model,
            pool,
            layer,
            layer_transformation,
            layer_norm: raw.layer_norm,
            hidden_sizes: raw.hidden_sizes,
            activations: raw.activations,
            final_activation: raw.final_activation,
        })
    }
}
