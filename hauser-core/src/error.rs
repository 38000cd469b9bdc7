//! Typed errors of the core crate.

use thiserror::Error;

/// Errors raised by core types, scorers and the evaluation pipeline.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum CoreError {
    /// A group has no candidates: nothing can be normalised or ranked.
    #[error("group {group}: no candidates")]
    EmptyGroup {
        /// Group id or index.
        group: String,
    },
    /// Components were given for a different number of candidates than the group has.
    #[error("group {group}: {components} component lists for {candidates} candidates")]
    ComponentCountMismatch {
        /// Group id or index.
        group: String,
        /// Number of component lists.
        components: usize,
        /// Number of candidates.
        candidates: usize,
    },
    /// A scorer returned a number of scores different from the number of candidates.
    #[error("scorer {scorer}: returned {got} scores for {expected} candidates")]
    ScoreCountMismatch {
        /// Scorer name.
        scorer: String,
        /// Scores returned.
        got: usize,
        /// Candidates in the group.
        expected: usize,
    },
    /// A raw score is infinite, which makes min-max normalisation undefined.
    #[error("criterion {criterion}: raw score {value} of candidate {candidate} is not finite")]
    NonFiniteScore {
        /// Criterion name.
        criterion: String,
        /// Candidate index within the group.
        candidate: usize,
        /// The offending value.
        value: f64,
    },
    /// A criterion needs components that the candidate does not have.
    #[error("candidate {candidate}: no simile components (give them or configure an extractor)")]
    MissingComponents {
        /// Candidate index within the group.
        candidate: usize,
    },
    /// Weights must be finite and non-negative.
    #[error("invalid weights: {0}")]
    InvalidWeights(String),
    /// A scorer failed on a group.
    #[error("scorer {scorer}: {message}")]
    Scorer {
        /// Scorer name.
        scorer: String,
        /// What went wrong.
        message: String,
    },
    /// A component extractor failed.
    #[error("extractor {extractor}: {message}")]
    Extractor {
        /// Extractor name.
        extractor: String,
        /// What went wrong.
        message: String,
    },
    /// A Python-style component literal could not be parsed.
    #[error("cannot parse components literal at byte {offset}: {message}")]
    ComponentsLiteral {
        /// Byte offset of the problem in the literal.
        offset: usize,
        /// What was expected.
        message: String,
    },
}

impl CoreError {
    /// A [`CoreError::Scorer`] from a scorer name and any error or message, e.g. a model
    /// failure that [`crate::adapter::batched`] then reports for every group of the batch.
    pub fn scorer(scorer: impl Into<String>, message: impl std::fmt::Display) -> Self {
        Self::Scorer {
            scorer: scorer.into(),
            message: message.to_string(),
        }
    }
}

/// Result alias for the core crate.
pub type Result<T, E = CoreError> = std::result::Result<T, E>;
