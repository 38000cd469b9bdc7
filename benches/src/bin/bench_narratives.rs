//! Zero-shot scoring of figurative narratives (`figlang_tasks::narratives::score_zero_shot`:
//! 4 conditional log-likelihoods per item), driven by `tools/bench/bench_narratives.sh`, which runs
//! the same scoring with transformers in the same run.
//!
//! Usage: `bench_narratives MODEL_DIR DATA_JSONL ITEMS BATCH REPEATS`. Prints one JSON object: the
//! best-of-REPEATS seconds, the items and the sum of the `lm` and `dcpmi` scores (a checksum).

use std::time::Instant;

use figlang_tasks::narratives::{read_split, score_zero_shot, ZeroShotConfig};
use hauser_nli::{Batching, CausalLm, LoadOptions, ModelSource};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        return Err("usage: bench_narratives MODEL_DIR DATA_JSONL ITEMS BATCH REPEATS".into());
    }
    let mut split = read_split(args[2].as_ref())?;
    split.items.truncate(args[3].parse()?);
    let batch_size: usize = args[4].parse()?;
    let repeats: usize = args[5].parse()?;
    let opts = LoadOptions {
        batching: Batching {
            batch_size,
            bucketed: true,
        },
        ..LoadOptions::default()
    };
    let lm = CausalLm::load(&ModelSource::Dir(args[1].clone().into()), &opts)?;
    let cfg = ZeroShotConfig::default();
    let mut best = f64::INFINITY;
    let mut sums = (0.0, 0.0);
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        let r = score_zero_shot(&lm, &split.items, &cfg)?;
        best = best.min(t.elapsed().as_secs_f64());
        let opts = r.iter().flat_map(|x| x.options.iter());
        sums = opts.fold((0.0, 0.0), |(a, b), o| (a + o.lm, b + o.dcpmi));
    }
    println!(
        "{}",
        serde_json::json!({"items": split.items.len(), "seconds": best, "sum_lm": sums.0, "sum_dcpmi": sums.1})
    );
    Ok(())
}
