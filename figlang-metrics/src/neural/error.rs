//! Errors of the neural metrics.

use thiserror::Error;

/// An error of BERTScore, perplexity or style strength.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum NeuralError {
    /// Loading or running the model failed.
    #[error(transparent)]
    Model(#[from] hauser_nli::NliError),
    /// The inputs are inconsistent (e.g. a candidate without references).
    #[error("invalid input: {0}")]
    Input(String),
    /// The baseline file is malformed or lacks the layer.
    #[error("baseline {path}: {message}")]
    Baseline {
        /// The baseline file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// No layer was given and the model has no known default.
    #[error("no default BERTScore layer is known for model {0}; choose a layer")]
    NoDefaultLayer(String),
}

/// Result alias of the neural metrics.
pub type NeuralResult<T> = std::result::Result<T, NeuralError>;
