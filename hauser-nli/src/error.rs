//! Typed errors of the inference crate; every variant names the model it concerns.

use std::path::PathBuf;

use thiserror::Error;

/// Errors raised while resolving, loading or running a model.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum NliError {
    /// A file the model needs is missing from its directory or the hub cache.
    #[error("model {model}: missing file {file}{hint}")]
    MissingFile {
        /// Model id or directory.
        model: String,
        /// The missing file (or the alternatives that were looked for).
        file: String,
        /// Extra context, e.g. why the hub could not be reached.
        hint: String,
    },
    /// A local model path (absolute, `./`, `../`, or otherwise not a hub id) that is not a
    /// directory; such a path is never looked up on the hub.
    #[error("model {model}: {path} {problem} (a local model must be a directory holding config.json, weights and tokenizer files)")]
    NotADirectory {
        /// Model directory as given.
        model: String,
        /// The path.
        path: PathBuf,
        /// `does not exist`, `is a regular file, not a directory`...
        problem: &'static str,
    },
    /// A layer's output holds NaN or infinite values: the weights or the config (e.g. a
    /// negative `layer_norm_eps`) make the model's numbers meaningless.
    #[error("model {model}: non-finite activations (NaN or infinity) in {}; check the weights and config.json (e.g. layer_norm_eps)", stage_text(*.layer))]
    NonFinite {
        /// Model id or directory.
        model: String,
        /// The first layer whose output is not finite, numbered as hidden states (0 = the
        /// embedding output, the last layer = `num_hidden_layers`); `None` for what follows
        /// the layers (a classifier head, GPT-2's final norm and LM head).
        layer: Option<usize>,
    },
    /// The hub could not be reached and the cache holds nothing for this model.
    #[error("model {model}: cannot fetch {file} from the hub ({reason}) and it is not in the cache at {cache}")]
    Hub {
        /// Model id.
        model: String,
        /// File asked for.
        file: String,
        /// The hub error, or `HF_HUB_OFFLINE is set`.
        reason: String,
        /// The cache directory searched.
        cache: PathBuf,
    },
    /// A file could not be read.
    #[error("model {model}: {path}: {source}")]
    Io {
        /// Model id or directory.
        model: String,
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// `config.json` is malformed or lacks a field.
    #[error("model {model}: {path}: invalid config: {message}")]
    Config {
        /// Model id or directory.
        model: String,
        /// The config file.
        path: PathBuf,
        /// What is wrong (serde's message carries line and column).
        message: String,
    },
    /// The architecture (`model_type`) is not supported for this use.
    #[error("model {model}: unsupported architecture {model_type:?} for {usage} (supported: {supported})")]
    UnsupportedArchitecture {
        /// Model id or directory.
        model: String,
        /// The `model_type` found in the config.
        model_type: String,
        /// What it was loaded for.
        usage: &'static str,
        /// The supported architectures.
        supported: &'static str,
    },
    /// Weights are missing or have the wrong shape.
    #[error("model {model}: cannot load weights from {path}: {message}")]
    Weights {
        /// Model id or directory.
        model: String,
        /// The weights file.
        path: PathBuf,
        /// Candle's message (names the tensor and the shapes).
        message: String,
    },
    /// The tokenizer could not be loaded or failed on an input.
    #[error("model {model}: tokenizer: {message}")]
    Tokenizer {
        /// Model id or directory.
        model: String,
        /// What went wrong.
        message: String,
    },
    /// The tokenizer and the input embedding matrix disagree: the tokenizer can emit an id
    /// the matrix has no row for (an added token beyond the rows), or, for T5-family models,
    /// it holds far fewer ids than the matrix has rows (a vocabulary file cut short, or the
    /// tokenizer of another model).
    #[error("model {model}: tokenizer {tokenizer} emits ids 0..{ids} (highest {highest}) but the input embedding matrix of {weights} has {rows} rows: {problem}", highest = .ids.saturating_sub(1))]
    Vocabulary {
        /// Model id or directory.
        model: String,
        /// The tokenizer file.
        tokenizer: PathBuf,
        /// One more than the highest id the tokenizer can emit (special and added tokens
        /// included).
        ids: usize,
        /// The weights file.
        weights: PathBuf,
        /// The rows of the input embedding matrix.
        rows: usize,
        /// Which rule fails.
        problem: String,
    },
    /// A label was not found in the model's label map.
    #[error("model {model}: no label {label:?} in id2label {known:?} (use a label override for LABEL_0-style maps)")]
    Label {
        /// Model id or directory.
        model: String,
        /// The label asked for.
        label: String,
        /// The labels the model has.
        known: Vec<String>,
    },
    /// An option or input is invalid.
    #[error("model {model}: {message}")]
    Invalid {
        /// Model id or directory.
        model: String,
        /// What is wrong.
        message: String,
    },
    /// The tensor computation failed.
    #[error("model {model}: inference failed: {message}")]
    Inference {
        /// Model id or directory.
        model: String,
        /// Candle's message.
        message: String,
    },
}

impl NliError {
    /// Whether the device ran out of memory (an allocation of candle's CUDA or Metal backend,
    /// or of cuBLAS, failed): what a smaller batch can cure. Candle reports these as text only,
    /// so the message is matched.
    pub fn is_out_of_memory(&self) -> bool {
        match self {
            NliError::Inference { message, .. } => {
                let m = message.to_ascii_lowercase();
                m.contains("out_of_memory")
                    || m.contains("out of memory")
                    || m.contains("cublas_status_alloc_failed")
            }
            _ => false,
        }
    }
}

fn stage_text(layer: Option<usize>) -> String {
    match layer {
        Some(0) => "the output of layer 0 (the embeddings)".into(),
        Some(l) => format!("the output of layer {l}"),
        None => "the output head (after the last layer)".into(),
    }
}

/// Result alias for this crate.
pub type Result<T, E = NliError> = std::result::Result<T, E>;

/// Attaches the model name to a candle error raised during inference.
pub(crate) fn infer_err(model: &str) -> impl Fn(candle_core::Error) -> NliError + '_ {
    move |e| NliError::Inference {
        model: model.to_string(),
        message: e.to_string(),
    }
}
