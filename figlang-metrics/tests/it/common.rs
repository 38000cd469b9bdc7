//! Helpers shared by the golden tests.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;

/// `REL` under the reference data folder (`HAUSER_SHARED_DATA`, else `../shared/data` beside the
/// workspace). Panics naming the asset when it is absent: the tests calling this are `#[ignore]`d
/// and only run on purpose (tools/test.sh runs them when the data is there), so missing data
/// must fail, not pass unchecked.
pub fn shared_data(rel: &str) -> PathBuf {
    let root = std::env::var_os("HAUSER_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data")),
        PathBuf::from,
    );
    let path = root.join(rel);
    assert!(
        path.exists(),
        "needs ../shared/data: {} not found (set HAUSER_SHARED_DATA to the reference data folder)",
        path.display()
    );
    path
}

/// The WordNet 3.0 database directory (`WORDNET_DIR`, else Debian's `/usr/share/wordnet`).
/// Panics naming the asset when it is absent, for the same reason as [`shared_data`].
pub fn wordnet_dir() -> String {
    let dir = std::env::var("WORDNET_DIR")
        .unwrap_or_else(|_| figlang_metrics::text::wordnet::DEFAULT_WORDNET_DIR.to_string());
    assert!(
        std::path::Path::new(&dir).join("data.noun").is_file(),
        "needs WordNet: no database at {dir} (apt-get install wordnet-base, or set WORDNET_DIR)"
    );
    dir
}

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
