//! Fill-mask top-k (`hauser_nli::MaskedLm::top_k`, the NewsMet candidate generation's first
//! step), driven by `tools/bench/bench_mlm.sh`, which runs the same with transformers in the same
//! run.
//!
//! Usage: `bench_mlm MODEL_DIR TEXTS K BATCH REPEATS` (TEXTS: one masked text per line). Prints
//! one JSON object: the best-of-REPEATS seconds, the top-1 ids, the sum of the top-1
//! probabilities and every text's top-k ids (checksums to compare with transformers).

use std::time::Instant;

use hauser_nli::PackedCpu;
use hauser_nli::{Batching, LoadOptions, MaskedLm, ModelSource};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        return Err("usage: bench_mlm MODEL_DIR TEXTS K BATCH REPEATS".into());
    }
    let text = std::fs::read_to_string(&args[2])?;
    let texts: Vec<&str> = text.lines().collect();
    let k: usize = args[3].parse()?;
    let opts = LoadOptions {
        batching: Batching {
            batch_size: args[4].parse()?,
            bucketed: true,
        },
        ..LoadOptions::default()
    };
    let repeats: usize = args[5].parse()?;
    let mlm = MaskedLm::load(&ModelSource::Dir(args[1].clone().into()), &opts)?;
    let mut best = f64::INFINITY;
    let mut out = Vec::new();
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        out = mlm.top_k(&texts, k)?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    let first: Vec<_> = out.iter().map(|t| &t[0]).collect();
    println!(
        "{}",
        serde_json::json!({
            "items": texts.len(),
            "seconds": best,
            "kernels": mlm.model().kernels(),
            "top1": first.iter().map(|f| f[0].id).collect::<Vec<_>>(),
            "sum_top1": first.iter().map(|f| f64::from(f[0].prob)).sum::<f64>(),
            "topk_ids": first.iter().map(|f| f.iter().map(|x| x.id).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
    );
    Ok(())
}
