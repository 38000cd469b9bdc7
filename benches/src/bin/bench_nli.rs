//! Throughput of sentence embeddings and pair classification on CPU, driven by
//! `tools/bench/bench_nli.sh` (which runs PyTorch on the same inputs in the same run).
//!
//! Usage: `bench_nli EMBED_MODEL_DIR CLS_MODEL_DIR SENTENCES_FILE BATCH_SIZE REPEATS N_PAIRS`
//! (pairs: sentence i with sentence i + 1, for the first N_PAIRS sentences).
//! Prints one JSON object with the best-of-REPEATS seconds per task: embeddings through the
//! packed CPU kernels and through candle's padded path, pair classification (packed).

use std::time::Instant;

use hauser_nli::PackedCpu;
use hauser_nli::{Batching, Embedder, LoadOptions, ModelSource, SequenceClassifier};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 7 {
        return Err(
            "usage: bench_nli EMBED_MODEL CLS_MODEL SENTENCES BATCH REPEATS N_PAIRS".into(),
        );
    }
    let n_pairs: usize = args[6].parse()?;
    let text = std::fs::read_to_string(&args[3])?;
    let sentences: Vec<&str> = text.lines().collect();
    let batch_size: usize = args[4].parse()?;
    let repeats: usize = args[5].parse()?;
    let opts = |bucketed| LoadOptions {
        batching: Batching {
            batch_size,
            bucketed,
        },
        ..LoadOptions::default()
    };
    let best = |f: &mut dyn FnMut() -> Result<(), Box<dyn std::error::Error>>| {
        let mut best = f64::INFINITY;
        for _ in 0..repeats {
            let t = Instant::now();
            f()?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok::<f64, Box<dyn std::error::Error>>(best)
    };
    let mut report = serde_json::Map::new();
    // The packed CPU kernels (the default), then candle's padded path for comparison.
    for (packed, prefix) in [(true, "embed"), (false, "candle_embed")] {
        for bucketed in [true, false] {
            let mut e = Embedder::load(&ModelSource::Dir(args[1].clone().into()), &opts(bucketed))?;
            if e.model_mut().set_packed_cpu(packed) != packed {
                return Err("the packed CPU path is not available for this model".into());
            }
            let mut checksum = 0.0f64;
            let secs = best(&mut || {
                let v = e.embed(&sentences, None, true)?;
                checksum = v.vectors.iter().map(|x| x[0] as f64).sum();
                Ok(())
            })?;
            let key = format!("{prefix}_{}", if bucketed { "bucketed" } else { "naive" });
            report.insert(key.clone(), secs.into());
            report.insert(format!("{key}_checksum"), checksum.into());
        }
    }
    let pairs: Vec<(&str, Option<&str>)> = sentences
        .iter()
        .zip(sentences.iter().cycle().skip(1))
        .map(|(a, b)| (*a, Some(*b)))
        .take(n_pairs)
        .collect();
    for bucketed in [true, false] {
        let c =
            SequenceClassifier::load(&ModelSource::Dir(args[2].clone().into()), &opts(bucketed))?;
        let secs = best(&mut || {
            c.predict(&pairs)?;
            Ok(())
        })?;
        let key = if bucketed {
            "pairs_bucketed"
        } else {
            "pairs_naive"
        };
        report.insert(key.into(), secs.into());
    }
    report.insert("sentences".into(), sentences.len().into());
    report.insert("pairs".into(), pairs.len().into());
    println!("{}", serde_json::Value::Object(report));
    Ok(())
}
