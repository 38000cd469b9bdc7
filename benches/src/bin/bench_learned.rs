//! Throughput of the learned MT metrics on CPU (BLEURT, COMET of every class, MetricX), driven
//! by `tools/bench/bench_learned.sh`, which runs the reference packages on the same inputs in the
//! same run.
//!
//! Usage: `bench_learned KIND MODEL INPUT_JSONL BATCH_SIZE REPEATS` with KIND `bleurt`,
//! `comet`, `metricx` or `bertscore` (F1 of `mt` against `ref` at layer 17); INPUT_JSONL holds `{"src", "mt", "ref"}` per line (COMET reads what
//! the model takes: a QE model no reference). Prints one JSON object: the load time, the
//! best-of-REPEATS scoring time, the sum of the scores (checked against the reference's), and
//! the floating-point operations of the model's matrix products in one run
//! ([`hauser_nli::gemm_flops`], `gemm_gflop`) with the rate they ran at (`gemm_gflops`).

use std::time::Instant;

use figlang_metrics::neural::{BertScore, BertScoreOptions, Bleurt, Comet, MetricX};
use hauser_nli::{
    gemm_flops, Batching, CometModel, Embedder, LoadOptions, MetricxModel, MetricxVersion,
    ModelSource, SequenceClassifier,
};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        return Err("usage: bench_learned KIND MODEL INPUT_JSONL BATCH_SIZE REPEATS".into());
    }
    let (kind, model) = (args[1].as_str(), args[2].as_str());
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&args[3])?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let col = |k: &str| -> Vec<String> {
        rows.iter()
            .map(|r| r[k].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let (src, mt, rf) = (col("src"), col("mt"), col("ref"));
    let s: Vec<&str> = src.iter().map(String::as_str).collect();
    let m: Vec<&str> = mt.iter().map(String::as_str).collect();
    let r: Vec<&str> = rf.iter().map(String::as_str).collect();
    let opts = LoadOptions {
        batching: Batching {
            batch_size: args[4].parse()?,
            bucketed: true,
        },
        ..LoadOptions::default()
    };
    let repeats: usize = args[5].parse()?;
    let t = Instant::now();
    let mut run: Box<dyn FnMut() -> Res<Vec<f64>>> = match kind {
        "bleurt" => {
            let b = Bleurt::new(
                SequenceClassifier::load(&ModelSource::Dir(model.into()), &opts)?,
                "bench",
            )?;
            Box::new(move || Ok(b.score(&m, &r)?))
        }
        "comet" => {
            let model = CometModel::load(std::path::Path::new(model), &opts)?;
            let refs = if model.takes_references() {
                r
            } else {
                Vec::new()
            };
            let mut c = Comet::new(model, "bench");
            Box::new(move || Ok(c.score(Some(&s), &m, &refs)?))
        }
        "bertscore" => {
            // A RoBERTa-large-shaped encoder at bert_score's default layer for roberta-large.
            let embedder = Embedder::load(&ModelSource::Dir(model.into()), &opts)?;
            let options = BertScoreOptions {
                layer: Some(17),
                batch_size: opts.batching.batch_size,
                ..BertScoreOptions::default()
            };
            let b = BertScore::new(embedder, "roberta-large", options)?;
            let refs: Vec<Vec<&str>> = r.iter().map(|x| vec![*x]).collect();
            Box::new(move || Ok(b.score(&m, &refs)?.iter().map(|p| p.f1).collect()))
        }
        "metricx" => {
            let source = ModelSource::Dir(model.into());
            let mx = MetricxModel::load(&source, &source, &opts, 1536)?;
            let mut x = MetricX::new(mx, "bench", MetricxVersion::V24);
            Box::new(move || Ok(x.score(Some(&s), &m, Some(&r))?))
        }
        other => return Err(format!("unknown kind {other}").into()),
    };
    let load = t.elapsed().as_secs_f64();
    let mut best = f64::INFINITY;
    let mut checksum = 0.0;
    // The matrix products of one run (the same in every run: same inputs, same batches).
    let mut flops = 0;
    for _ in 0..repeats {
        let f0 = gemm_flops();
        let t = Instant::now();
        let scores = run()?;
        best = best.min(t.elapsed().as_secs_f64());
        flops = gemm_flops() - f0;
        checksum = scores.iter().sum();
    }
    let gflop = flops as f64 / 1e9;
    println!(
        "{}",
        serde_json::json!({
            "load": load, "seconds": best, "n": rows.len(), "checksum": checksum,
            "gemm_gflop": gflop, "gemm_gflops": gflop / best,
        })
    );
    Ok(())
}
