//! The subset of a transformers `config.json` this crate reads.

use std::collections::BTreeMap;
use std::path::Path;

use candle_nn::VarBuilder;
use serde::Deserialize;

use crate::candle_ops::ACTIVATIONS;
use crate::error::{NliError, Result};

/// The largest size a config field may hold (2^31 - 1, i.e. `i32::MAX`, as tensor dimensions
/// of the exported checkpoints are).
pub(crate) const MAX_CONFIG_SIZE: usize = i32::MAX as usize;

/// Fields shared by the supported architectures; names follow transformers.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelConfig {
    /// `bert`, `roberta`, `xlm-roberta`, `distilbert`, `deberta-v2`, `gpt2`...
    #[serde(default)]
    pub model_type: String,
    /// Hidden size (BERT family, DeBERTa).
    #[serde(default, alias = "dim", alias = "n_embd")]
    pub hidden_size: usize,
    /// Number of layers.
    #[serde(default, alias = "n_layers", alias = "n_layer")]
    pub num_hidden_layers: usize,
    /// Attention heads.
    #[serde(default, alias = "n_heads", alias = "n_head")]
    pub num_attention_heads: usize,
    /// Feed-forward size.
    #[serde(default, alias = "hidden_dim", alias = "n_inner")]
    pub intermediate_size: Option<usize>,
    /// Activation name (`gelu`, `gelu_new`, `relu`...).
    #[serde(default, alias = "activation", alias = "activation_function")]
    pub hidden_act: Option<String>,
    /// Largest position.
    #[serde(default, alias = "n_positions")]
    pub max_position_embeddings: usize,
    /// Number of token types (segments).
    #[serde(default)]
    pub type_vocab_size: Option<usize>,
    /// Layer-norm epsilon.
    #[serde(default, alias = "layer_norm_epsilon")]
    pub layer_norm_eps: Option<f64>,
    /// Padding token id.
    #[serde(default)]
    pub pad_token_id: Option<u32>,
    /// Vocabulary size.
    #[serde(default)]
    pub vocab_size: usize,
    /// Label names by class index.
    #[serde(default)]
    pub id2label: BTreeMap<String, String>,
    /// Model classes the checkpoint was saved from.
    #[serde(default)]
    pub architectures: Vec<String>,
}

/// Sizes every supported architecture needs, under each name transformers gives them: a
/// missing one would read as 0 and surface later as a shape error naming a tensor instead of
/// the key.
const REQUIRED: [(&str, &[&str]); 5] = [
    ("hidden_size", &["hidden_size", "dim", "n_embd"]),
    (
        "num_hidden_layers",
        &["num_hidden_layers", "n_layers", "n_layer"],
    ),
    (
        "num_attention_heads",
        &["num_attention_heads", "n_heads", "n_head"],
    ),
    (
        "max_position_embeddings",
        &["max_position_embeddings", "n_positions"],
    ),
    ("vocab_size", &["vocab_size"]),
];

/// Keys naming an activation, with the names each may hold besides [`ACTIVATIONS`]
/// (DeBERTa's pooler also takes `tanh`).
const ACTIVATION_KEYS: [(&str, &[&str]); 4] = [
    ("hidden_act", &[]),
    ("activation", &[]),
    ("activation_function", &[]),
    ("pooler_hidden_act", &["tanh"]),
];

/// Missing sizes and unknown activation names, named by their key.
fn check_keys(raw: &serde_json::Value) -> std::result::Result<(), String> {
    for (field, names) in REQUIRED {
        match names.iter().find_map(|n| raw.get(*n).map(|v| (*n, v))) {
            None => {
                return Err(format!(
                    "{field} is missing (looked for {})",
                    names.join(", ")
                ))
            }
            Some((key, v)) if v.as_u64() == Some(0) => {
                return Err(format!("{key} is 0"));
            }
            Some(_) => {}
        }
    }
    for (key, extra) in ACTIVATION_KEYS {
        let Some(v) = raw.get(key) else { continue };
        // DistilBERT's `activation` and GPT-2's `activation_function` are the only spellings
        // of those models; null means transformers' default.
        if v.is_null() {
            continue;
        }
        let known = v
            .as_str()
            .is_some_and(|a| ACTIVATIONS.contains(&a) || extra.contains(&a));
        if !known {
            return Err(format!(
                "{key} = {v} is not an activation this crate runs (known: {}{})",
                ACTIVATIONS.join(", "),
                extra.iter().map(|e| format!(", {e}")).collect::<String>()
            ));
        }
    }
    Ok(())
}

impl ModelConfig {
    /// Reads and parses `config.json`.
    ///
    /// # Errors
    /// [`NliError::Io`] or [`NliError::Config`] naming the model and file.
    pub fn load(model: &str, path: &Path) -> Result<(Self, serde_json::Value)> {
        let text = std::fs::read_to_string(path).map_err(|source| NliError::Io {
            model: model.into(),
            path: path.into(),
            source,
        })?;
        let bad = |message: String| NliError::Config {
            model: model.into(),
            path: path.into(),
            message,
        };
        let raw: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let cfg: ModelConfig =
            serde_json::from_value(raw.clone()).map_err(|e| bad(e.to_string()))?;
        if cfg.model_type.is_empty() {
            return Err(bad("no model_type".into()));
        }
        check_keys(&raw).map_err(bad)?;
        // Sizes multiply each other into buffer lengths; a value no real model has is refused
        // here rather than overflowing (or asking for terabytes) later.
        let sizes = [
            ("hidden_size", Some(cfg.hidden_size)),
            ("num_hidden_layers", Some(cfg.num_hidden_layers)),
            ("num_attention_heads", Some(cfg.num_attention_heads)),
            ("intermediate_size", cfg.intermediate_size),
            ("max_position_embeddings", Some(cfg.max_position_embeddings)),
            ("type_vocab_size", cfg.type_vocab_size),
            ("vocab_size", Some(cfg.vocab_size)),
        ];
        for (field, value) in sizes {
            if let Some(v) = value.filter(|&v| v > MAX_CONFIG_SIZE) {
                return Err(bad(format!(
                    "{field} = {v} is larger than any model this crate can run (at most {MAX_CONFIG_SIZE})"
                )));
            }
        }
        Ok((cfg, raw))
    }

    /// Labels in class-index order; `LABEL_i` for indices the map lacks.
    pub fn labels(&self, num_labels: usize) -> Vec<String> {
        (0..num_labels)
            .map(|i| {
                self.id2label
                    .get(&i.to_string())
                    .cloned()
                    .unwrap_or_else(|| format!("LABEL_{i}"))
            })
            .collect()
    }
}

/// Checks that the weights in `vb` hold the `depth` layers that config.json's `key` claims,
/// before a loader builds anything per layer: a plan, names or buffers sized by the claimed
/// depth would otherwise grow without bound for a config that says 10^9 layers over a
/// checkpoint of three. `first(i)` is the name (relative to `vb`) of the first tensor the
/// loader reads for layer `i`; probing stops at the first one missing, so the cost is the
/// number of layers really there. The error names that tensor in full.
///
/// # Errors
/// A candle error naming the first missing tensor (the loaders wrap it as
/// [`NliError::Weights`]).
pub(crate) fn check_layers(
    vb: &VarBuilder<'_>,
    key: &str,
    depth: usize,
    first: impl Fn(usize) -> String,
) -> candle_core::Result<()> {
    for i in 0..depth {
        let name = first(i);
        if !vb.contains_tensor(&name) {
            let prefix = vb.prefix();
            let full = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}.{name}")
            };
            candle_core::bail!(
                "config.json's {key} is {depth}, but the weights have no layer {i}: tensor {full} is missing"
            );
        }
    }
    Ok(())
}
