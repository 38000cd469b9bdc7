//! The criteria HAUSER scores, and how each is normalised.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Which end of a criterion's raw scale is good.
///
/// Normalisation maps the best raw score of a group to 1 in both cases, so quality, the
/// reranker and every report read normalised scores as higher-is-better.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Direction {
    /// A larger raw score is better (all HAUSER criteria, BERTScore, style strength).
    #[default]
    HigherIsBetter,
    /// A smaller raw score is better (perplexity, edit distance...).
    LowerIsBetter,
}

/// How min-max normalisation treats a group whose raw scores are all equal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum TieRule {
    /// Every candidate gets 0.5 (HAUSER's rule for all criteria but sentiment consistency).
    Half,
    /// Every candidate gets 0 when the shared score is negative, 0.5 otherwise (HAUSER's rule for
    /// sentiment consistency: equally negative shifts are all bad, not neutral).
    ZeroIfNegative,
    /// Every candidate gets this value, clamped to [0, 1] (NaN counts as 0), e.g. `Constant(0.0)`
    /// for a criterion where "no candidate stands out" should not earn any credit.
    Constant(f64),
}

/// A scoring criterion. The five HAUSER criteria have fixed names used as output keys; other
/// scorers (BERTScore, perplexity...) use [`Criterion::Other`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Criterion {
    /// Topic-vehicle relevance from a simile knowledge base.
    Relevance,
    /// 1 - P(contradiction) between literal and simile.
    LogicalConsistency,
    /// Shift of the literal's sentiment probability in the simile.
    SentimentConsistency,
    /// -ln(1 + vehicle frequency).
    Creativity,
    /// Mean vehicle length in word tokens.
    Informativeness,
    /// The weighted HAUSER quality, derived from relevance and the two consistencies.
    Quality,
    /// Any other per-candidate score.
    Other(String),
}

impl Criterion {
    /// The five HAUSER criteria, in output order.
    pub const HAUSER: [Criterion; 5] = [
        Criterion::Relevance,
        Criterion::LogicalConsistency,
        Criterion::SentimentConsistency,
        Criterion::Creativity,
        Criterion::Informativeness,
    ];

    /// The output key: `relevance`, `logical_consistency`, ... or the custom name.
    pub fn as_str(&self) -> &str {
        match self {
            Criterion::Relevance => "relevance",
            Criterion::LogicalConsistency => "logical_consistency",
            Criterion::SentimentConsistency => "sentiment_consistency",
            Criterion::Creativity => "creativity",
            Criterion::Informativeness => "informativeness",
            Criterion::Quality => "quality",
            Criterion::Other(name) => name,
        }
    }

    /// The direction of this criterion's raw scores: higher is better for every built-in
    /// criterion. A scorer of a lower-is-better [`Criterion::Other`] says so through
    /// [`crate::Scorer::direction`].
    pub fn direction(&self) -> Direction {
        Direction::HigherIsBetter
    }

    /// The default tie rule of this criterion (a scorer may override it with
    /// [`crate::Scorer::tie_rule`]).
    pub fn tie_rule(&self) -> TieRule {
        match self {
            Criterion::SentimentConsistency => TieRule::ZeroIfNegative,
            _ => TieRule::Half,
        }
    }
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
