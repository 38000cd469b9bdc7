#!/usr/bin/env python3
"""PyTorch's f32 matrix-product rate on the shapes of benches/src/bin/bench_gemm.rs, for the
"GEMM share of peak" table of docs/PERFORMANCE.md ("Learned metrics"): the reference packages
run their products through `torch.mm`'s own threading (MKL or oneDNN), so this is the peak they
can reach on the machine, beside the `gemm` crate's that hauser's kernels reach.

    python tools/bench/bench_gemm.py [THREADS] [SECONDS_PER_SHAPE]

Prints one JSON object: GFLOP/s per shape `m x k x n` and the best (`peak_gflops`).
"""

import json
import os
import sys
import time

import torch

SHAPES = [(64, 768, 768), (64, 768, 3072), (64, 3072, 768), (256, 768, 768), (256, 768, 3072),
          (256, 3072, 768), (256, 1024, 4096), (1024, 768, 3072), (1024, 1024, 4096)]


def rate(m, k, n, secs):
    a, b = torch.randn(m, k), torch.randn(k, n)
    out = torch.empty(m, n)
    torch.mm(a, b, out=out)
    count, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < secs:
        torch.mm(a, b, out=out)
        count += 1
    return 2.0 * m * k * n * count / (time.perf_counter() - t0) / 1e9


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else os.cpu_count()
    secs = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    torch.set_num_threads(threads)
    per = {f"{m}x{k}x{n}": rate(m, k, n, secs) for m, k, n in SHAPES}
    print(json.dumps({"threads": threads, "torch": torch.__version__, "peak_gflops": max(per.values()),
                      "gflops": per}))


if __name__ == "__main__":
    main()
