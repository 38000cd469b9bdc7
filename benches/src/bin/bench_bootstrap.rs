//! Timing of `bootstrap_meta_eval` for `tools/bench/bench_stats.py` (which runs the NumPy/SciPy
//! equivalent in the same run and reports the ratio).
//!
//! Usage: `bench_bootstrap FILE.tsv RESAMPLES REPEATS` with a TSV of
//! `system<TAB>segment<TAB>human<TAB>metric` rows (header line first). Prints one JSON object:
//! the point estimates, the intervals and the best / median wall time of the repeats.

use std::time::Instant;

use figlang_metrics::stats::{bootstrap_meta_eval, meta_evaluate, BootstrapConfig, MetaEvalData};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        return Err("usage: bench_bootstrap FILE.tsv RESAMPLES REPEATS".into());
    }
    let text = std::fs::read_to_string(&args[1])?;
    let resamples: usize = args[2].parse()?;
    let repeats: usize = args[3].parse()?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != 4 {
            return Err(format!("line {}: expected 4 cells", i + 1).into());
        }
        rows.push((
            cells[0].to_string(),
            cells[1].to_string(),
            cells[2].parse::<f64>()?,
            cells[3].parse::<f64>()?,
        ));
    }
    let data = MetaEvalData::from_rows(rows)?;
    let report = meta_evaluate(&data)?;
    let config = BootstrapConfig {
        resamples,
        seed: 2024,
        level: 0.95,
    };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..repeats {
        let start = Instant::now();
        last = Some(bootstrap_meta_eval(&data, &config)?);
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let b = last.ok_or("REPEATS must be at least 1")?;
    println!(
        "{{\"n_items\": {}, \"system_pearson\": {}, \"segment_kendall_wmt\": {}, \"segment_pearson\": {}, \
         \"system_pearson_ci\": [{}, {}], \"segment_kendall_wmt_ci\": [{}, {}], \"segment_pearson_ci\": [{}, {}], \
         \"threads\": {}, \"best_s\": {}, \"median_s\": {}}}",
        data.n_items(),
        report.system_pearson.statistic,
        report.segment_kendall_wmt,
        report.segment_pearson.statistic,
        b.system_pearson.low,
        b.system_pearson.high,
        b.segment_kendall_wmt.low,
        b.segment_kendall_wmt.high,
        b.segment_pearson.low,
        b.segment_pearson.high,
        rayon::current_num_threads(),
        times[0],
        times[times.len() / 2],
    );
    Ok(())
}
