//! Reproducibility signatures, in the spirit of sacreBLEU's.
//!
//! A signature lists everything needed to reproduce a score: the metric, the crate version and
//! any settings (tokenizer, model id and revision, KB checksum, weights). It renders as
//! `name|key:value|...|version:X`, keys in insertion order.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A metric or scorer signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signature {
    /// Metric or criterion name.
    pub name: String,
    /// Version of the implementation (crate version).
    pub version: String,
    /// Settings in insertion order.
    pub fields: Vec<(String, String)>,
}

impl Signature {
    /// A signature with no settings yet.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            fields: Vec::new(),
        }
    }

    /// Adds a setting (builder style).
    pub fn with(mut self, key: impl Into<String>, value: impl fmt::Display) -> Self {
        self.fields.push((key.into(), value.to_string()));
        self
    }

    /// The value of a setting, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (key, value) in &self.fields {
            write!(f, "|{key}:{value}")?;
        }
        write!(f, "|version:{}", self.version)
    }
}

/// The version of this crate, for signatures.
pub const CORE_VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_fields_in_order_then_version() {
        let sig = Signature::new("relevance", "0.1.0")
            .with("kb", "sha256:ab12")
            .with("agg", "mean");
        assert_eq!(
            sig.to_string(),
            "relevance|kb:sha256:ab12|agg:mean|version:0.1.0"
        );
        assert_eq!(sig.get("agg"), Some("mean"));
        assert_eq!(sig.get("missing"), None);
    }
}
