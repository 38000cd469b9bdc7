//! Throughput of GPT-2 token log-probabilities on CPU, driven by `tools/bench/bench_gpt2.sh` (which
//! runs transformers on the same token ids in the same run).
//!
//! Usage: `bench_gpt2 MODEL_DIR IDS_JSON BATCH_SIZE REPEATS`. Prints one JSON object: the
//! best-of-REPEATS seconds of the packed CPU kernels and of candle's padded path (one run), and
//! the sum of all log-probabilities of each.

use std::time::Instant;

use hauser_nli::PackedCpu;
use hauser_nli::{Batching, CausalLm, LoadOptions, ModelSource};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        return Err("usage: bench_gpt2 MODEL_DIR IDS_JSON BATCH REPEATS".into());
    }
    let seqs: Vec<Vec<u32>> = serde_json::from_str(&std::fs::read_to_string(&args[2])?)?;
    let batch_size: usize = args[3].parse()?;
    let repeats: usize = args[4].parse()?;
    let opts = LoadOptions {
        batching: Batching {
            batch_size,
            bucketed: true,
        },
        ..LoadOptions::default()
    };
    let mut lm = CausalLm::load(&ModelSource::Dir(args[1].clone().into()), &opts)?;
    let time = |lm: &CausalLm, n: usize| -> Result<(f64, f64), Box<dyn std::error::Error>> {
        let mut best = f64::INFINITY;
        let mut sum = 0.0;
        for _ in 0..n {
            let t = Instant::now();
            let lps = lm.logprobs_of_ids(&seqs)?;
            best = best.min(t.elapsed().as_secs_f64());
            sum = lps.iter().flatten().map(|&x| x as f64).sum();
        }
        Ok((best, sum))
    };
    let (packed, sum_packed) = time(&lm, repeats)?;
    lm.set_packed_cpu(false);
    let (candle, sum_candle) = time(&lm, 1)?;
    println!(
        "{}",
        serde_json::json!({
            "sequences": seqs.len(),
            "tokens": seqs.iter().map(Vec::len).sum::<usize>(),
            "packed": packed,
            "candle": candle,
            "sum_packed": sum_packed,
            "sum_candle": sum_candle,
        })
    );
    Ok(())
}
