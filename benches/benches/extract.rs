//! Throughput of the rule-based component extractor (similes per second, one thread).
//!
//! Inputs: the 12,495 generated candidates of `hauser/simile_candidates_raw.json` with their
//! literal sentences (the simile-generation setting) and the same candidates without literal
//! (the corpus setting), from the shared data when present; otherwise a small built-in set.
//! Run: `cargo bench -p hauser-benches --bench extract`.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hauser_core::ComponentExtractor;
use hauser_extract::RuleExtractor;

fn shared_data() -> PathBuf {
    std::env::var_os("HAUSER_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

/// (simile, literal) pairs.
fn inputs() -> Vec<(String, String)> {
    let path = shared_data().join("hauser/simile_candidates_raw.json");
    if let Ok(text) = std::fs::read_to_string(&path) {
        let groups: Vec<serde_json::Value> = serde_json::from_str(&text).expect("raw JSON array");
        let mut out = Vec::new();
        for g in groups {
            let literal = g["origin_sentence"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            for c in g["cands"].as_array().into_iter().flatten() {
                out.push((c.as_str().unwrap_or_default().to_string(), literal.clone()));
            }
        }
        return out;
    }
    eprintln!("{} not found: benchmarking a built-in set", path.display());
    [
        (
            "The old dog slept like a log by the fire.",
            "The old dog slept by the fire .",
        ),
        (
            "Her laugh rang out like a bell across the yard.",
            "Her laugh rang out across the yard .",
        ),
        (
            "The rumour spread through the school like wildfire.",
            "The rumour spread through the school .",
        ),
        (
            "He was as quiet as a mouse during the meeting.",
            "He was quiet during the meeting .",
        ),
        (
            "The clouds that hung over the valley looked like torn cotton.",
            "The clouds that hung over the valley looked grey .",
        ),
    ]
    .into_iter()
    .map(|(s, l)| (s.to_string(), l.to_string()))
    .collect()
}

fn bench(c: &mut Criterion) {
    let data = inputs();
    let x = RuleExtractor::new();
    // Parse the embedded lexicon before timing.
    let _ = x.extract("warm like toast", None);
    let mut g = c.benchmark_group("extract");
    g.throughput(Throughput::Elements(data.len() as u64));
    g.sample_size(10);
    g.bench_function(format!("with_literal/{}", data.len()), |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (s, l) in &data {
                n += x.extract(s, Some(l)).map(|v| v.len()).unwrap_or(0);
            }
            n
        })
    });
    g.bench_function(format!("simile_only/{}", data.len()), |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (s, _) in &data {
                n += x.extract(s, None).map(|v| v.len()).unwrap_or(0);
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
