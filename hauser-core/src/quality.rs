//! HAUSER's quality score: a weighted sum of normalised relevance, logical consistency and
//! sentiment consistency.

use serde::{Deserialize, Serialize};

use crate::criterion::Criterion;
use crate::error::{CoreError, Result};

/// What to do when a part of the quality score did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub enum MissingPart {
    /// No quality is reported unless every part with a non-zero weight ran (default): a partial
    /// sum is on a different scale and would silently mislead.
    #[default]
    Omit,
    /// Use the parts that ran, with their weights rescaled to sum to the original total.
    Renormalize,
}

/// Weights of the quality score. Defaults to the paper's best (3/6, 2/6, 1/6).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QualityWeights {
    /// Weight of relevance (alpha).
    pub relevance: f64,
    /// Weight of logical consistency (beta).
    pub logical: f64,
    /// Weight of sentiment consistency (gamma).
    pub sentiment: f64,
    /// Behaviour when a part is missing.
    pub missing: MissingPart,
}

impl Default for QualityWeights {
    fn default() -> Self {
        Self {
            relevance: 3.0 / 6.0,
            logical: 2.0 / 6.0,
            sentiment: 1.0 / 6.0,
            missing: MissingPart::Omit,
        }
    }
}

impl QualityWeights {
    /// Weights from three values (relevance, logical, sentiment).
    ///
    /// # Errors
    /// [`CoreError::InvalidWeights`] when a weight is negative or not finite, or all are zero.
    pub fn new(relevance: f64, logical: f64, sentiment: f64) -> Result<Self> {
        let w = Self {
            relevance,
            logical,
            sentiment,
            missing: MissingPart::Omit,
        };
        w.validate()?;
        Ok(w)
    }

    /// Parses `"a,b,c"`; each part may be a decimal or a fraction such as `3/6`.
    ///
    /// # Errors
    /// [`CoreError::InvalidWeights`] on a malformed string or invalid weights.
    pub fn parse(text: &str) -> Result<Self> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(CoreError::InvalidWeights(format!(
                "expected three comma-separated weights, got {text:?}"
            )));
        }
        let mut values = [0.0; 3];
        for (slot, part) in values.iter_mut().zip(&parts) {
            *slot = parse_number(part)?;
        }
        Self::new(values[0], values[1], values[2])
    }

    /// Sets the missing-part policy.
    pub fn with_missing(mut self, missing: MissingPart) -> Self {
        self.missing = missing;
        self
    }

    fn validate(&self) -> Result<()> {
        let ws = [self.relevance, self.logical, self.sentiment];
        if ws.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(CoreError::InvalidWeights(format!(
                "weights must be finite and non-negative, got {ws:?}"
            )));
        }
        if ws.iter().all(|w| *w == 0.0) {
            return Err(CoreError::InvalidWeights("all weights are zero".into()));
        }
        Ok(())
    }

    /// The parts and their weights.
    pub fn parts(&self) -> [(Criterion, f64); 3] {
        [
            (Criterion::Relevance, self.relevance),
            (Criterion::LogicalConsistency, self.logical),
            (Criterion::SentimentConsistency, self.sentiment),
        ]
    }

    /// Quality of every candidate from the normalised scores that ran, or `None` when a part
    /// with non-zero weight is missing under [`MissingPart::Omit`] (or every weighted part is
    /// missing under [`MissingPart::Renormalize`]).
    pub fn combine(&self, normalized: &[(Criterion, Vec<f64>)], n: usize) -> Option<Vec<f64>> {
        let total: f64 = self.parts().iter().map(|(_, w)| w).sum();
        let mut present = Vec::new();
        for (criterion, weight) in self.parts() {
            if weight == 0.0 {
                continue;
            }
            match normalized.iter().find(|(c, _)| *c == criterion) {
                Some((_, scores)) if scores.len() == n => present.push((weight, scores)),
                _ if self.missing == MissingPart::Omit => return None,
                _ => {}
            }
        }
        let used: f64 = present.iter().map(|(w, _)| w).sum();
        if present.is_empty() || used == 0.0 {
            return None;
        }
        let scale = total / used;
        Some(
            (0..n)
                .map(|i| present.iter().map(|(w, s)| w * scale * s[i]).sum())
                .collect(),
        )
    }
}

fn parse_number(text: &str) -> Result<f64> {
    let bad = || CoreError::InvalidWeights(format!("not a number or fraction: {text:?}"));
    match text.split_once('/') {
        Some((num, den)) => {
            let num: f64 = num.trim().parse().map_err(|_| bad())?;
            let den: f64 = den.trim().parse().map_err(|_| bad())?;
            if den == 0.0 {
                return Err(bad());
            }
            Ok(num / den)
        }
        None => text.parse().map_err(|_| bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> Vec<(Criterion, Vec<f64>)> {
        vec![
            (Criterion::Relevance, vec![1.0, 0.0]),
            (Criterion::LogicalConsistency, vec![0.0, 1.0]),
            (Criterion::SentimentConsistency, vec![0.5, 0.5]),
        ]
    }

    #[test]
    fn default_weights_are_three_two_one_sixths() {
        let q = QualityWeights::default().combine(&parts(), 2).unwrap();
        assert!((q[0] - (3.0 / 6.0 + 0.5 / 6.0)).abs() < 1e-15);
        assert!((q[1] - (2.0 / 6.0 + 0.5 / 6.0)).abs() < 1e-15);
    }

    #[test]
    fn custom_weights_apply() {
        let w = QualityWeights::parse("1, 0, 0").unwrap();
        assert_eq!(w.combine(&parts(), 2).unwrap(), vec![1.0, 0.0]);
        let w = QualityWeights::parse("1/2,1/2,0").unwrap();
        assert_eq!(w.combine(&parts(), 2).unwrap(), vec![0.5, 0.5]);
    }

    #[test]
    fn missing_part_omits_quality_by_default() {
        let mut p = parts();
        p.remove(1);
        assert_eq!(QualityWeights::default().combine(&p, 2), None);
    }

    #[test]
    fn zero_weight_part_is_not_needed() {
        let mut p = parts();
        p.remove(1);
        let w = QualityWeights::new(1.0, 0.0, 1.0).unwrap();
        assert_eq!(w.combine(&p, 2).unwrap(), vec![1.5, 0.5]);
    }

    #[test]
    fn renormalize_rescales_present_weights() {
        let mut p = parts();
        p.remove(1); // logical missing: 3/6 and 1/6 scaled to sum to 1
        let w = QualityWeights::default().with_missing(MissingPart::Renormalize);
        let q = w.combine(&p, 2).unwrap();
        assert!((q[0] - (0.75 * 1.0 + 0.25 * 0.5)).abs() < 1e-15);
        assert!((q[1] - (0.25 * 0.5)).abs() < 1e-15);
        assert_eq!(w.combine(&[], 2), None);
    }

    #[test]
    fn invalid_weights_are_errors() {
        assert!(QualityWeights::new(-1.0, 1.0, 1.0).is_err());
        assert!(QualityWeights::new(0.0, 0.0, 0.0).is_err());
        assert!(QualityWeights::new(f64::NAN, 1.0, 1.0).is_err());
        assert!(QualityWeights::parse("1,2").is_err());
        assert!(QualityWeights::parse("1,x,2").is_err());
        assert!(QualityWeights::parse("1/0,1,1").is_err());
    }
}
