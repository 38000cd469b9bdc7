//! Helpers shared by the golden tests.
#![allow(dead_code)]

use serde_json::Value;

/// Loads a fixture from `tests/fixtures/`.
pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A JSON array of strings.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

/// Collects `|got - want| > tol` failures with a label.
#[derive(Default)]
pub struct Mismatches(pub Vec<String>);

impl Mismatches {
    pub fn check(&mut self, label: impl FnOnce() -> String, got: f64, want: f64, tol: f64) {
        let close = (got - want).abs() <= tol;
        if !close {
            self.0.push(format!("{}: got {got}, want {want}", label()));
        }
    }
    pub fn assert_none(&self) {
        assert!(
            self.0.is_empty(),
            "{} mismatches:\n{}",
            self.0.len(),
            self.0
                .iter()
                .take(40)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
