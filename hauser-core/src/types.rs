//! Data types: simile components, candidates and groups of candidates.

use serde::{Deserialize, Serialize};

use crate::error::{CoreError, Result};

/// The parts of one comparison inside a simile: "the boy (topic) ran (event) like the wind (vehicle)".
///
/// Any part may be unknown (`None`): extractors set only what they found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Components {
    /// What is compared (the tenor), e.g. "he".
    pub topic: Option<String>,
    /// What it is compared to, e.g. "a child".
    pub vehicle: Option<String>,
    /// The word the comparison attaches to, usually a verb, e.g. "wept".
    pub event: Option<String>,
}

impl Components {
    /// Components with all three parts known.
    pub fn new(
        topic: impl Into<String>,
        vehicle: impl Into<String>,
        event: impl Into<String>,
    ) -> Self {
        Self {
            topic: Some(topic.into()),
            vehicle: Some(vehicle.into()),
            event: Some(event.into()),
        }
    }

    /// The triple as JSON-friendly optional strings `[topic, vehicle, event]`.
    pub fn as_triple(&self) -> [Option<&str>; 3] {
        [
            self.topic.as_deref(),
            self.vehicle.as_deref(),
            self.event.as_deref(),
        ]
    }

    /// Builds components from a `[topic, vehicle, event]` triple; empty strings count as unknown.
    pub fn from_triple(triple: [Option<String>; 3]) -> Self {
        let [topic, vehicle, event] = triple.map(|part| part.filter(|s| !s.trim().is_empty()));
        Self {
            topic,
            vehicle,
            event,
        }
    }
}

/// One generated simile and, optionally, its components.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The simile sentence.
    pub text: String,
    /// Components of every comparison in the simile, when known (given or extracted).
    pub components: Option<Vec<Components>>,
}

impl Candidate {
    /// A candidate without components.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            components: None,
        }
    }

    /// A candidate with known components.
    pub fn with_components(text: impl Into<String>, components: Vec<Components>) -> Self {
        Self {
            text: text.into(),
            components: Some(components),
        }
    }
}

/// A literal sentence and the simile candidates generated from it.
///
/// Normalisation and reranking happen within a group, exactly as HAUSER normalises per literal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CandidateGroup {
    /// Caller's identifier; `None` means "use the position in the input".
    pub id: Option<String>,
    /// The literal sentence the candidates were generated from.
    pub literal: String,
    /// The simile candidates, in the caller's order.
    pub candidates: Vec<Candidate>,
}

impl CandidateGroup {
    /// A group from a literal and candidate texts, without components.
    pub fn new<I, S>(literal: impl Into<String>, candidates: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            id: None,
            literal: literal.into(),
            candidates: candidates.into_iter().map(|c| Candidate::new(c)).collect(),
        }
    }

    /// Sets the group id.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Attaches one component list per candidate.
    ///
    /// # Errors
    /// [`CoreError::ComponentCountMismatch`] when the number of lists differs from the number of candidates.
    pub fn with_components(mut self, components: Vec<Vec<Components>>) -> Result<Self> {
        if components.len() != self.candidates.len() {
            return Err(CoreError::ComponentCountMismatch {
                group: self.label(0),
                components: components.len(),
                candidates: self.candidates.len(),
            });
        }
        for (candidate, comps) in self.candidates.iter_mut().zip(components) {
            candidate.components = Some(comps);
        }
        Ok(self)
    }

    /// The group's id, or its index in the input when it has none.
    pub fn label(&self, index: usize) -> String {
        self.id.clone().unwrap_or_else(|| index.to_string())
    }

    /// Number of candidates.
    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    /// True when the group has no candidates.
    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// True when every candidate carries components.
    pub fn has_components(&self) -> bool {
        self.candidates.iter().all(|c| c.components.is_some())
    }
}
