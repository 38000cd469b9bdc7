#!/usr/bin/env python3
"""Golden fixture of comet-compare's statistics (figlang-metrics `neural::comet_compare`).

Reference: unbabel-comet 2.2.7's `comet/cli/compare.py` (`compare_command`,
`bootstrap_resampling`, `calculate_bootstrap`, EPS = 0.001), whose statistics are NumPy and
SciPy calls on the float32 segment scores. unbabel-comet itself is not imported (it needs
torch, pytorch-lightning and transformers < 5 for two small functions): the calls below are
the ones it makes, in its order, on the real NumPy and SciPy:

    seed_everything(1)                      -> np.random.seed(1)
    seg = np.array(scores, dtype="float32")  # systems x segments
    ids = np.random.choice(n, size=(max(int(n * sample_ratio), 1), num_splits), replace=True)
    sys = np.mean(np.take(seg, ids, axis=1), axis=1)
    per pair (itertools.combinations): delta = x - y; ties |delta| < EPS, x wins delta >= EPS,
    y wins delta <= -EPS, each / num_splits; x-mean = float(np.mean(x)), and
    scipy.stats.ttest_rel(x_seg, y_seg, alternative=...)

Versions: NumPy 2.4.6, SciPy 1.17.1 (comet 2.2.7 pins NumPy < 2: the legacy generator, the
float32 reductions and the float32 comparison with EPS are the same in 1.26). Tolerances in the
Rust test: bootstrap numbers exact (1e-12), t-test 1e-5 relative (SciPy keeps float32).
Run from the repository root: .cache/scipyref/bin/python tools/gen/gen_comet_compare_fixture.py
(a venv with numpy==2.4.6 scipy==1.17.1).
"""
import itertools
import json
from pathlib import Path

import numpy as np
import scipy
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "figlang-metrics/tests/fixtures/significance_comet_compare.json"
EPS = 0.001


def compare(scores, num_splits, sample_ratio, alternative):
    np.random.seed(1)
    seg = np.array(scores, dtype="float32")
    n = seg.shape[1]
    ids = np.random.choice(n, size=(max(int(n * sample_ratio), 1), num_splits), replace=True)
    sys_scores = np.mean(np.take(seg, ids, axis=1), axis=1)
    out = []
    for (x, xs), (y, ys) in itertools.combinations(enumerate(sys_scores), 2):
        delta = xs - ys
        ties = np.absolute(delta)
        t = stats.ttest_rel(seg[x], seg[y], alternative=alternative)
        out.append({
            "x": x,
            "y": y,
            "x_mean": float(np.mean(xs)),
            "y_mean": float(np.mean(ys)),
            "ties": float(len(ties[ties < EPS])) / num_splits,
            "x_wins": float(len(delta[delta >= EPS])) / num_splits,
            "y_wins": float(len(delta[delta <= -EPS])) / num_splits,
            "statistic": float(t.statistic),
            "p_value": float(t.pvalue),
        })
    return out


def main():
    rng = np.random.default_rng(2026)
    cases = []
    for n, k, num_splits, ratio, alt in [
        (40, 2, 300, 0.4, "two-sided"),
        (97, 3, 300, 0.4, "two-sided"),
        (25, 3, 50, 0.25, "less"),
        (12, 2, 1000, 0.01, "greater"),
        (200, 4, 120, 0.9, "two-sided"),
    ]:
        base = rng.uniform(0.3, 0.9, size=n)
        systems = [base]
        for j in range(1, k):
            # Close systems, so that ties and wins of both sides occur.
            systems.append(np.clip(base + rng.normal(0.004 * j, 0.05, size=n), 0, 1))
        scores = [[float(np.float32(v)) for v in s] for s in systems]
        cases.append({
            "scores": scores,
            "num_splits": num_splits,
            "sample_ratio": ratio,
            "alternative": alt,
            "pairs": compare(scores, num_splits, ratio, alt),
        })
    meta = {"numpy": np.__version__, "scipy": scipy.__version__, "reference": "unbabel-comet 2.2.7 comet/cli/compare.py"}
    OUT.write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
