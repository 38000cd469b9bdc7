//! Similes per second of the rule-based extractor on one thread, without criterion (a quick
//! check; the criterion benchmark is `cargo bench -p hauser-benches --bench extract`).
//!
//! Run: `cargo run --release -p hauser-benches --bin extract_throughput [RAW_JSON]`, with the
//! HAUSER candidates file (default `../shared/data/hauser/simile_candidates_raw.json`).

use std::time::Instant;

use hauser_core::ComponentExtractor;
use hauser_extract::RuleExtractor;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/hauser/simile_candidates_raw.json"
        )
        .to_string()
    });
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let groups: Vec<serde_json::Value> = match serde_json::from_str(&text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{path}: not a JSON array: {e}");
            std::process::exit(2);
        }
    };
    let mut pairs = Vec::new();
    for g in &groups {
        let literal = g["origin_sentence"].as_str().unwrap_or_default();
        for c in g["cands"].as_array().into_iter().flatten() {
            pairs.push((c.as_str().unwrap_or_default(), literal));
        }
    }
    let x = RuleExtractor::new();
    let t0 = Instant::now();
    let _ = x.extract("warm like toast", None);
    println!("lexicon load: {:.1} ms", t0.elapsed().as_secs_f64() * 1e3);
    for (label, with_literal) in [("with literal", true), ("simile only", false)] {
        let mut best = f64::MAX;
        let mut found = 0;
        for _ in 0..5 {
            let t = Instant::now();
            found = 0;
            for (s, l) in &pairs {
                let lit = with_literal.then_some(*l);
                found += x.extract(s, lit).map(|v| v.len()).unwrap_or(0);
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{label}: {} similes, {found} comparisons, best of 5: {:.3} s = {:.0} similes/s",
            pairs.len(),
            best,
            pairs.len() as f64 / best
        );
    }
}
