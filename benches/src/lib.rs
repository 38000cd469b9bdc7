//! Benchmarks of the hauser-rs crates live in `benches/benches/`; run them with
//! `cargo bench -p hauser-benches`. This library holds shared input generators.
//!
//! ```
//! let groups = hauser_benches::synthetic_groups(3, 5);
//! assert_eq!(groups.len(), 3);
//! ```
#![deny(missing_docs)]

use hauser_core::{CandidateGroup, Components};

/// `n` groups of `k` candidates with components, deterministic (no RNG needed).
pub fn synthetic_groups(n: usize, k: usize) -> Vec<CandidateGroup> {
    (0..n)
        .map(|i| {
            let cands: Vec<String> = (0..k)
                .map(|j| format!("Sentence {i} like vehicle {j}."))
                .collect();
            let comps = (0..k)
                .map(|j| {
                    let vehicle = vec!["big"; (i + j) % 4].join(" ") + " vehicle";
                    vec![Components::new(format!("topic{i}"), vehicle.trim(), "is")]
                })
                .collect();
            CandidateGroup::new(format!("Sentence {i}."), cands)
                .with_components(comps)
                .expect("one component list per candidate")
        })
        .collect()
}

/// The lines of a text file, for the benchmark drivers (`src/bin/`); panics naming the file when
/// it cannot be read, which ends a benchmark run with a clear message.
pub fn read_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::to_string)
        .collect()
}
