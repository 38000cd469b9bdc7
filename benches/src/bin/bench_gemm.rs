//! GEMM peak of this machine, as the packed CPU kernels run their products: the `gemm` crate's
//! f32 kernel, single-threaded per product (`Parallelism::None`), one independent product
//! stream per thread, as hauser-nli's kernels parallelise over batches. The learned-metric
//! benchmark (`tools/bench/bench_learned.sh`) divides each model's GEMM rate by this peak.
//!
//! Usage: `bench_gemm [THREADS] [SECONDS_PER_SHAPE]` (default: the available cores, 1 s).
//! Prints one JSON object: GFLOP/s per shape `m x k x n` (the transformer products of the
//! benchmarked models' widths at a few row counts) and the best of them (`peak_gflops`).

use std::time::{Duration, Instant};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// `m x k x n` products: attention projections, feed-forward in and out, of widths 768 and 1024.
const SHAPES: [(usize, usize, usize); 9] = [
    (64, 768, 768),
    (64, 768, 3072),
    (64, 3072, 768),
    (256, 768, 768),
    (256, 768, 3072),
    (256, 3072, 768),
    (256, 1024, 4096),
    (1024, 768, 3072),
    (1024, 1024, 4096),
];

/// `dst = lhs * rhs` for dense row-major operands, through the same `gemm` call as the packed
/// kernels' front (`hauser-nli/src/cpu_kernels/gemm.rs`).
fn product(dst: &mut [f32], lhs: &[f32], rhs: &[f32], (m, k, n): (usize, usize, usize)) {
    assert!(lhs.len() >= m * k && rhs.len() >= k * n && dst.len() >= m * n);
    // SAFETY: the assertion keeps every address gemm forms (dense row-major strides, rows < m,
    // columns < n, inner < k) inside the three slices; `dst` is borrowed mutably, so it cannot
    // alias the operands.
    #[allow(unsafe_code)]
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            false,
            lhs.as_ptr(),
            1,
            k as isize,
            rhs.as_ptr(),
            1,
            n as isize,
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// GFLOP/s of `threads` threads each running the product back to back for `secs`.
fn rate(shape: (usize, usize, usize), threads: usize, secs: f64) -> f64 {
    let (m, k, n) = shape;
    let products: Vec<u64> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let lhs: Vec<f32> = (0..m * k).map(|i| ((i + t) % 7) as f32 * 0.1).collect();
                    let rhs: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 * 0.1).collect();
                    let mut dst = vec![0f32; m * n];
                    // One product outside the clock (first touch of the buffers).
                    product(&mut dst, &lhs, &rhs, shape);
                    let until = Instant::now() + Duration::from_secs_f64(secs);
                    let mut count = 0u64;
                    while Instant::now() < until {
                        product(&mut dst, &lhs, &rhs, shape);
                        count += 1;
                    }
                    count
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).collect()
    });
    let flops = 2.0 * (m * k * n) as f64 * products.iter().sum::<u64>() as f64;
    flops / secs / 1e9
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().collect();
    let threads = match args.get(1) {
        Some(t) => t.parse()?,
        None => std::thread::available_parallelism()?.get(),
    };
    let secs: f64 = match args.get(2) {
        Some(s) => s.parse()?,
        None => 1.0,
    };
    let mut per_shape = serde_json::Map::new();
    let mut peak = 0f64;
    for shape in SHAPES {
        let r = rate(shape, threads, secs);
        peak = peak.max(r);
        per_shape.insert(format!("{}x{}x{}", shape.0, shape.1, shape.2), r.into());
    }
    println!(
        "{}",
        serde_json::json!({"threads": threads, "peak_gflops": peak, "gflops": per_shape})
    );
    Ok(())
}
