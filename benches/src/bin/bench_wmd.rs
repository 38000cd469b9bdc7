//! Timing driver for `tools/bench/bench_wmd.py`: Word Mover's Distance of line-aligned,
//! pre-tokenised (space-separated) hypothesis and reference files, on one thread and then on all
//! cores (the two must agree bit for bit), with gensim's defaults
//! (unit-normalised vectors). Writes one distance per line to `OUT` and prints one JSON object
//! with the load and scoring times.
//!
//! Usage: `bench_wmd VECTORS HYP REF OUT`

use std::path::Path;
use std::time::Instant;

use figlang_metrics::wmd::{wmdistance, WordVectors};
use hauser_benches::read_lines;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(args.len() == 5, "usage: bench_wmd VECTORS HYP REF OUT");
    let t = Instant::now();
    let vectors = WordVectors::load(Path::new(&args[1]), None, None).expect("vectors");
    let t_load = t.elapsed().as_secs_f64();
    let hyps = read_lines(&args[2]);
    let refs = read_lines(&args[3]);
    let pair = |(h, r): (&String, &String)| {
        let h: Vec<&str> = h.split(' ').filter(|t| !t.is_empty()).collect();
        let r: Vec<&str> = r.split(' ').filter(|t| !t.is_empty()).collect();
        wmdistance(&vectors, &h, &r, true)
    };
    let t = Instant::now();
    let d: Vec<f64> = hyps.iter().zip(&refs).map(pair).collect();
    let t_pairs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let parallel: Vec<f64> = hyps.par_iter().zip(&refs).map(pair).collect();
    let t_parallel = t.elapsed().as_secs_f64();
    assert!(
        parallel
            .iter()
            .zip(&d)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "parallel and sequential distances differ"
    );
    let text: String = d.iter().map(|x| format!("{x}\n")).collect();
    std::fs::write(&args[4], text).expect("write distances");
    println!(
        "{{\"n\": {}, \"load_s\": {t_load}, \"pairs_s\": {t_pairs}, \"pairs_parallel_s\": {t_parallel}, \"threads\": {}, \"vocab\": {}, \"dim\": {}}}",
        hyps.len(),
        rayon::current_num_threads(),
        vectors.len(),
        vectors.dim()
    );
}
