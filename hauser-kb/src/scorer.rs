//! HAUSER's knowledge-base criteria as [`Scorer`]s.
//!
//! Aggregation follows the reference scorers: a candidate's raw score averages its components
//! (a component with a missing topic or vehicle scores 0, like the reference's unmatched `-`).
//! A candidate with an empty component list gets NaN, which hauser-core's normalisation turns
//! into 0, exactly as the reference replaces the NaN of `np.mean([])` by 0 (for creativity the
//! reference applies that before its logarithm, giving -ln(1 + 0) = 0: the same value).

use std::sync::Arc;

use hauser_core::adapter::per_candidate;
use hauser_core::{CandidateGroup, Components, Criterion, Scorer, Signature};

use crate::kb::Kb;
use crate::VERSION;

fn signature(kb: &Kb, criterion: &Criterion, formula: &str) -> Signature {
    Signature::new(criterion.as_str(), VERSION)
        .with("kb", kb.checksum())
        .with("clean", kb.normalizer().name())
        .with(
            "plausibility",
            if kb.has_plausibility() { "kb" } else { "1" },
        )
        .with("agg", "mean")
        .with("formula", formula)
}

fn mean(xs: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = xs.len();
    xs.sum::<f64>() / n as f64
}

/// relevance_raw = mean over components of relevance(topic, vehicle).
#[derive(Debug, Clone)]
pub struct RelevanceScorer {
    kb: Arc<Kb>,
}

impl RelevanceScorer {
    /// A scorer over a shared knowledge base.
    pub fn new(kb: Arc<Kb>) -> Self {
        Self { kb }
    }

    /// The raw score of one candidate's components (NaN when there are none).
    pub fn raw(&self, components: &[Components]) -> f64 {
        mean(components.iter().map(|c| match (&c.topic, &c.vehicle) {
            (Some(t), Some(v)) => self.kb.relevance(t, v),
            _ => 0.0,
        }))
    }
}

impl Scorer for RelevanceScorer {
    fn criterion(&self) -> Criterion {
        Criterion::Relevance
    }
    fn signature(&self) -> Signature {
        signature(&self.kb, &Criterion::Relevance, "mean(sum_p n*P)")
    }
    fn needs_components(&self) -> bool {
        true
    }
    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        per_candidate(groups, |c| Ok(self.raw(c.components()?)))
    }
}

/// creativity_raw = -ln(1 + mean over components of N(vehicle)).
#[derive(Debug, Clone)]
pub struct CreativityScorer {
    kb: Arc<Kb>,
}

impl CreativityScorer {
    /// A scorer over a shared knowledge base.
    pub fn new(kb: Arc<Kb>) -> Self {
        Self { kb }
    }

    /// The raw score of one candidate's components (NaN when there are none).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use hauser_core::Components;
    /// use hauser_kb::{CreativityScorer, KbBuilder, Normalizer, ingest::TripletSink};
    /// let mut b = KbBuilder::new(Normalizer::Reference);
    /// b.add("he", "brave", "a lion", 3.0, None)?;
    /// let s = CreativityScorer::new(Arc::new(b.build_in_memory()?));
    /// let raw = s.raw(&[Components::new("he", "a lion", "ran"), Components::new("he", "a dodo", "ran")]);
    /// assert_eq!(raw, -(1.0f64 + 1.5).ln());
    /// assert!(s.raw(&[]).is_nan());
    /// # Ok::<(), hauser_kb::KbError>(())
    /// ```
    pub fn raw(&self, components: &[Components]) -> f64 {
        let m = mean(components.iter().map(|c| match &c.vehicle {
            Some(v) => self.kb.vehicle_count(v),
            None => 0.0,
        }));
        -(m + 1.0).ln()
    }
}

impl Scorer for CreativityScorer {
    fn criterion(&self) -> Criterion {
        Criterion::Creativity
    }
    fn signature(&self) -> Signature {
        signature(&self.kb, &Criterion::Creativity, "-ln(1+mean N(v))")
    }
    fn needs_components(&self) -> bool {
        true
    }
    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        per_candidate(groups, |c| Ok(self.raw(c.components()?)))
    }
}
