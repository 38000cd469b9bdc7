#!/usr/bin/env python3
"""Benchmark: 10,000 bootstrap resamples of a segment-level meta-evaluation over 640 items,
figlang_metrics::stats (Rust) side by side with the equivalent NumPy/SciPy code, in one run.

Usage (from the workspace root):
    "$(bash tools/pyref.sh)" tools/bench/bench_stats.py [--resamples 10000] [--repeats 5]

Data: the formality style table (8 systems x 80 sources = 640 outputs, human = mean of the two
style ratings, metric = reg.pt16) from ../shared/data/formality, or a seeded synthetic table of
the same shape when that folder is absent. Each resample draws the 80 segments with replacement
and recomputes (1) the system-level Pearson of the per-system means, (2) the mean WMT17 tau over
the drawn segments (taus are per segment, computed once - the same shortcut in both), (3) the
pooled Pearson over the drawn items. Percentile 95% intervals.

Python variants:
  scipy_loop   - one scipy.stats.pearsonr call per correlation per resample (typical user code)
  numpy_vector - all resamples at once with NumPy matrix operations (the fastest NumPy form)
Rust: `cargo run --release -p hauser-benches --bin bench_bootstrap`,
with 1 thread (RAYON_NUM_THREADS=1) and with all cores. The two sides draw different random
streams, so their intervals agree only up to Monte Carlo error; point estimates agree exactly.
"""

import argparse
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy
from scipy import stats

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_table():
    data = pathlib.Path(os.environ.get("HAUSER_SHARED_DATA", ROOT.parent / "shared" / "data")) / "formality"
    rows = []
    if data.is_dir():
        systems = sorted(p.name.split(".")[0] for p in data.glob("*.human.txt") if not p.name.startswith("REF."))
        for s in systems:
            for i, line in enumerate((data / f"{s}.reg.pt16.txt").read_text().splitlines()):
                c = line.split("\t")
                rows.append((s, str(i), (float(c[5]) + float(c[8])) / 2, float(c[16])))
        source = "formality reg.pt16 (shared data)"
    else:
        rng = np.random.default_rng(0)
        for s in range(8):
            for g in range(80):
                h = rng.normal(50 + 3 * s, 15)
                rows.append((f"sys{s}", str(g), h, h / 50 + rng.normal(0, 0.5)))
        source = "synthetic 8 x 80 (seed 0)"
    return rows, source


def wmt_tau(h, m):
    c = d = 0
    for i in range(len(h)):
        for j in range(i + 1, len(h)):
            if h[i] == h[j]:
                continue
            if (h[i] - h[j]) * (m[i] - m[j]) > 0:
                c += 1
            else:
                d += 1
    return (c - d) / (c + d) if c + d else np.nan


def matrices(rows):
    systems = sorted({r[0] for r in rows})
    segments = sorted({r[1] for r in rows}, key=int)
    H = np.zeros((len(systems), len(segments)))
    M = np.zeros_like(H)
    for s, g, h, m in rows:
        H[systems.index(s), segments.index(g)] = h
        M[systems.index(s), segments.index(g)] = m
    return H, M


def ci(values):
    v = np.asarray(values)
    v = v[~np.isnan(v)]
    return [float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))]


def scipy_loop(H, M, taus, resamples, rng):
    S = H.shape[1]
    sys_r, tau, pooled = [], [], []
    for _ in range(resamples):
        idx = rng.integers(0, S, S)
        h, m = H[:, idx], M[:, idx]
        sys_r.append(stats.pearsonr(m.mean(axis=1), h.mean(axis=1)).statistic)
        tau.append(np.nanmean(taus[idx]))
        pooled.append(stats.pearsonr(m.ravel(), h.ravel()).statistic)
    return ci(sys_r), ci(tau), ci(pooled)


def rowwise_pearson(x, y):
    xm = x - x.mean(axis=1, keepdims=True)
    ym = y - y.mean(axis=1, keepdims=True)
    return (xm * ym).sum(axis=1) / np.sqrt((xm * xm).sum(axis=1) * (ym * ym).sum(axis=1))


def numpy_vector(H, M, taus, resamples, rng):
    S = H.shape[1]
    idx = rng.integers(0, S, (resamples, S))
    counts = np.zeros((resamples, S))
    np.add.at(counts, (np.repeat(np.arange(resamples), S), idx.ravel()), 1.0)
    sys_h = counts @ H.T / S
    sys_m = counts @ M.T / S
    sys_r = rowwise_pearson(sys_m, sys_h)
    defined = ~np.isnan(taus)
    tau = (counts[:, defined] @ taus[defined]) / counts[:, defined].sum(axis=1)
    # pooled Pearson from weighted moments of each segment's items
    hm, mm = H - H.mean(), M - M.mean()
    n = counts.sum(axis=1) * H.shape[0]
    sx, sy = counts @ mm.sum(0), counts @ hm.sum(0)
    sxx, syy, sxy = counts @ (mm * mm).sum(0), counts @ (hm * hm).sum(0), counts @ (mm * hm).sum(0)
    pooled = (sxy - sx * sy / n) / np.sqrt((sxx - sx * sx / n) * (syy - sy * sy / n))
    return ci(sys_r), ci(tau), ci(pooled)


def timed(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return out, times[0], times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--resamples", type=int, default=10000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rows, source = load_table()
    H, M = matrices(rows)
    taus = np.array([wmt_tau(H[:, g], M[:, g]) for g in range(H.shape[1])])
    point = {
        "system_pearson": float(stats.pearsonr(M.mean(1), H.mean(1)).statistic),
        "segment_kendall_wmt": float(np.nanmean(taus)),
        "segment_pearson": float(stats.pearsonr(M.ravel(), H.ravel()).statistic),
    }
    print(f"data: {source}, {H.size} items; resamples {args.resamples}, repeats {args.repeats}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} logical CPUs; python {platform.python_version()}, "
          f"numpy {np.__version__}, scipy {scipy.__version__}")

    with tempfile.TemporaryDirectory() as tmp:
        tsv = pathlib.Path(tmp) / "table.tsv"
        tsv.write_text("system\tsegment\thuman\tmetric\n" + "".join(f"{s}\t{g}\t{h!r}\t{m!r}\n" for s, g, h, m in rows))
        build = ["cargo", "build", "--release", "-q", "-p", "hauser-benches", "--bin", "bench_bootstrap"]
        subprocess.run(build, cwd=ROOT, check=True)
        exe = ROOT / "target" / "release" / "bench_bootstrap"
        rust = {}
        for threads in ("1", str(os.cpu_count())):
            env = dict(os.environ, RAYON_NUM_THREADS=threads)
            out = subprocess.run([str(exe), str(tsv), str(args.resamples), str(args.repeats)],
                                 env=env, check=True, capture_output=True, text=True).stdout
            rust[threads] = json.loads(out)

    r1 = rust["1"]
    for k, v in point.items():
        assert abs(r1[k] - v) < 1e-12, (k, r1[k], v)
    print("point estimates equal (1e-12):", {k: round(v, 4) for k, v in point.items()})

    rng = np.random.default_rng(2024)
    loop_out, loop_best, loop_med = timed(lambda: scipy_loop(H, M, taus, args.resamples, rng), max(1, args.repeats // 2))
    vec_out, vec_best, vec_med = timed(lambda: numpy_vector(H, M, taus, args.resamples, rng), args.repeats)

    print("\n95% intervals (system Pearson | segment WMT tau | pooled Pearson)")
    print("  rust        ", r1["system_pearson_ci"], r1["segment_kendall_wmt_ci"], r1["segment_pearson_ci"])
    print("  scipy_loop  ", *loop_out)
    print("  numpy_vector", *vec_out)
    print("\nmedian wall time of one 10k-resample bootstrap")
    for name, t in [("rust, 1 thread", r1["median_s"]),
                    (f"rust, {rust[str(os.cpu_count())]['threads']} threads", rust[str(os.cpu_count())]["median_s"]),
                    ("numpy_vector", vec_med), ("scipy_loop", loop_med)]:
        print(f"  {name:18s} {t * 1000:10.2f} ms")
    print(f"\nratio numpy_vector / rust(1 thread): {vec_med / r1['median_s']:.1f}x")
    print(f"ratio scipy_loop / rust(1 thread):   {loop_med / r1['median_s']:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
