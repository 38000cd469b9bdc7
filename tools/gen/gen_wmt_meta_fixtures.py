#!/usr/bin/env python3
"""Generate the golden fixture of figlang_stats' WMT meta-evaluation statistics.

Usage: PYTHONPATH=/path/to/mt-metrics-eval "$(bash tools/pyref.sh)" tools/gen/gen_wmt_meta_fixtures.py

Writes figlang-stats/tests/fixtures/stats_wmt_meta.json from Google's mt-metrics-eval, pinned at
commit 68a481aea1a787392d55af8f76ac8ef40c5f4664 (`git archive` that commit of
https://github.com/google-research/mt-metrics-eval and put its root on PYTHONPATH; its setup.py
pulls apache_beam and dacite, which only data.py's parallel paths and ratings.py's file loading
use, so this script stubs those two modules instead of installing them). NumPy and SciPy versions: tools/requirements.txt.

What is recorded, each from mt-metrics-eval's own functions on random data, heavily tied data,
all-tied vectors, one system, and missing human scores (None, written as null) including whole
missing rows and columns:

- `kendall_variants`: stats.KendallVariants (variants b, c, 23, acc23; metric tie thresholds
  epsilon 0 and above).
- `average_correlation`: stats.AverageCorrelation (average_by none / item / sys,
  replace_nans_with_zeros, macro) around KendallVariants, scipy.stats.pearsonr / spearmanr /
  kendalltau.
- `ties_opt`: stats.KendallWithTiesOpt (variants 23 and acc23, all pairs; and pairs sampled at a
  rate with the global NumPy stream seeded by np.random.seed).
- `pairwise_accuracy`: stats.Agreement per group, pooled over groups as
  data.CompareMetricsWithGlobalAccuracy pools its language pairs.
- `spa`: stats.PairwiseConfidenceError (soft pairwise accuracy, 1000 permutations, seed 4) on
  scores on a grid of quarters, where float32 sums are exact whatever the order; `spa_real` on
  unrounded scores, where they are not (compared within `spa_real_tolerance`).
- `clusters`: data.AssignRanks on random significance matrices.
- `perm_sig_diff`: stats.PermutationSigDiff (PERM-BOTH, `scores`) and
  stats.PairwisePermutationSigDiff (`pairs`), each after np.random.seed(seed), with and without
  early stopping.
- `rng_draws`: np.random.random_sample after np.random.seed, and
  default_rng(seed).random(dtype=float32), the draws behind the two items above.

The Rust golden tests (figlang-stats/tests/it/stats_golden_wmt.rs) compare within `tolerance`.
"""

import json
import math
import pathlib
import sys
import types
import warnings

import numpy as np
import scipy
import scipy.stats

for _name in ("apache_beam", "dacite"):  # imported by data.py / ratings.py, unused here
    sys.modules.setdefault(_name, types.ModuleType(_name))
from mt_metrics_eval import data, stats  # noqa: E402

COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"
OUT = pathlib.Path(__file__).resolve().parents[2] / "figlang-stats" / "tests" / "fixtures"
warnings.simplefilter("ignore")


def num(v):
    if v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


def vec(v):
    return [num(x) for x in v]


def gold_list(a):
    """NaN entries of a float array become None, mt-metrics-eval's missing score."""
    return [None if (x is None or math.isnan(x)) else float(x) for x in a]


def kendall_variant_cases(rng):
    vectors = {
        "n2": ([1.0, 2.0], [0.3, 0.1]),
        "n3_metric_tie": ([1.0, 2.0, 3.0], [0.5, 0.5, 0.9]),
        "all_ties_human": ([2.0] * 6, [0.1, 0.5, 0.2, 0.9, 0.4, 0.3]),
        "all_ties_both": ([1.0] * 5, [3.0] * 5),
    }
    x = rng.normal(size=30)
    vectors["random_n30"] = (x.tolist(), (0.6 * x + rng.normal(size=30)).tolist())
    h = rng.integers(0, 4, size=40).astype(float)
    vectors["many_ties_n40"] = (h.tolist(), np.round(h / 3 + rng.normal(scale=0.4, size=40), 1).tolist())
    h = -rng.choice([0.0, 0.0, 0.0, 1.0, 5.0, 6.0, 25.0], size=60)
    vectors["mqm_like_n60"] = (h.tolist(), np.round(h / 10 + rng.normal(scale=0.5, size=60), 2).tolist())
    out = []
    for name, (h, m) in vectors.items():
        results = []
        for variant in ["b", "c", "23", "acc23"]:
            for eps in [0.0, 0.05, 0.3, 1.0]:
                if variant == "c" and eps > 0:
                    continue
                tau = stats.KendallVariants(h, m, variant=variant, epsilon=eps)[0]
                results.append({"variant": variant, "epsilon": eps, "value": num(tau)})
        out.append({"name": name, "human": vec(h), "metric": vec(m), "results": results})
    return out


def matrices(rng):
    """(name, num_sys, gold with None, metric) packed row-major by system."""
    out = []
    s, n = 6, 12
    g = rng.normal(size=(s, n))
    out.append(("random_6x12", s, g, 0.5 * g + rng.normal(size=(s, n))))
    g = rng.integers(0, 3, size=(s, n)).astype(float)
    m = np.round(g / 2 + rng.normal(scale=0.6, size=(s, n)), 1)
    out.append(("many_ties_6x12", s, g, m))
    g = -rng.choice([0.0, 0.0, 1.0, 5.0, 25.0], size=(5, 20))
    m = np.round(g / 10 + rng.normal(scale=0.4, size=(5, 20)), 2)
    g = g.astype(object)
    g[rng.random(size=g.shape) < 0.15] = np.nan
    g[:, 3] = np.nan  # a missing item (a column)
    g[2, :] = np.nan  # a missing system (a row)
    g[:, 7] = np.nan
    g[0, 7] = -1.0  # an item with one human score
    out.append(("mqm_nan_rows_5x20", 5, g, m))
    g = np.full((4, 8), 3.0)
    out.append(("all_ties_human_4x8", 4, g, rng.normal(size=(4, 8))))
    g = rng.normal(size=(4, 8))
    m = np.tile(np.round(rng.normal(size=(1, 8)), 1), (4, 1))  # constant within items
    out.append(("metric_constant_items_4x8", 4, g, m))
    g = rng.normal(size=(1, 15))
    out.append(("one_system_1x15", 1, g, g + rng.normal(size=(1, 15))))
    return [(name, ns, gold_list(np.asarray(g, dtype=float).ravel()), np.asarray(m, dtype=float).ravel().tolist())
            for name, ns, g, m in out]


def average_correlation_cases(mats):
    fcns = {
        "kendall_variants": stats.KendallVariants,
        "pearson": scipy.stats.pearsonr,
        "spearman": scipy.stats.spearmanr,
        "kendall": scipy.stats.kendalltau,
    }
    setups = [
        ("kendall_variants", {"variant": "b"}),
        ("kendall_variants", {"variant": "c"}),
        ("kendall_variants", {"variant": "23", "epsilon": 0.2}),
        ("kendall_variants", {"variant": "acc23"}),
        ("kendall_variants", {"variant": "acc23", "epsilon": 0.1}),
        ("pearson", {}),
        ("spearman", {}),
        ("kendall", {"variant": "b"}),
        ("kendall", {"variant": "c"}),
    ]
    out = []
    for name, ns, g, m in mats:
        results = []
        for fname, args in setups:
            for avg in ["none", "item", "sys"]:
                for nan_zero in [False, True]:
                    for macro in [True, False]:
                        if avg == "none" and (nan_zero or not macro):
                            continue
                        corr, _, n = stats.AverageCorrelation(
                            fcns[fname], ns, avg, True, nan_zero, macro, **args)(g, m)
                        results.append({
                            "fcn": fname, "args": args, "average_by": avg,
                            "replace_nans_with_zeros": nan_zero, "macro": macro,
                            "value": num(corr), "n": int(n),
                        })
        out.append({"name": name, "num_sys": ns, "gold": g, "metric": m, "results": results})
    return out


def ties_opt_cases(mats):
    out = []
    for name, ns, g, m in mats:
        results = []
        for avg in ["none", "item", "sys"]:
            for variant in ["acc23", "23"]:
                for rate, seed in [(1.0, None), (0.3, 11)]:
                    if seed is not None:
                        np.random.seed(seed)
                    try:
                        tau, eps, res = stats.KendallWithTiesOpt(g, m, variant, ns, avg, rate)
                    except ZeroDivisionError:
                        continue  # no pair at all (mt-metrics-eval raises)
                    results.append({
                        "variant": variant, "average_by": avg, "sample_rate": rate, "seed": seed,
                        "tau": num(tau), "epsilon": num(eps), "num_thresholds": len(res.thresholds),
                        "thresholds_head": vec(res.thresholds[:20]), "taus_head": vec(res.taus[:20]),
                    })
        out.append({"name": name, "num_sys": ns, "gold": g, "metric": m, "results": results})
    return out


def pairwise_accuracy_cases(rng):
    groups = []
    h = rng.normal(size=12)
    groups.append((h.tolist(), (h + rng.normal(scale=0.7, size=12)).tolist()))
    h = rng.integers(0, 4, size=10).astype(float)
    groups.append((h.tolist(), np.round(h + rng.normal(scale=1.0, size=10)).tolist()))
    h = rng.normal(size=8).tolist()
    h[2] = None
    h[5] = None
    groups.append((h, rng.normal(size=8).tolist()))
    groups.append(([1.0] * 4, [0.2, 0.2, 0.3, 0.1]))
    groups.append(([1.5], [0.3]))  # one system, no pair
    per_group = []
    agree_all, pairs_all = 0, 0
    for h, m in groups:
        agree, pairs = stats.Agreement(h, m)
        per_group.append({"human": h, "metric": m, "agree": int(agree), "pairs": int(pairs)})
        agree_all += agree
        pairs_all += pairs
    # data.CompareMetricsWithGlobalAccuracy's _Accuracy: summed agreements over summed pairs.
    return {"groups": per_group, "pooled": agree_all / pairs_all}


def spa_cases(rng):
    out = []
    for name, ns, nseg in [("grid_5x40", 5, 40), ("grid_3x25_ties", 3, 25), ("grid_8x60", 8, 60)]:
        g = rng.integers(-40, 5, size=(ns, nseg)) / 4.0
        if "ties" in name:
            g[1] = g[0]
            g[2, :20] = g[0, :20]
        m = np.round(g * 0.5 + rng.normal(scale=2.0, size=(ns, nseg)) * 4) / 4.0
        spa = stats.PairwiseConfidenceError(g.ravel().tolist(), m.ravel().tolist(), ns)[0]
        out.append({"name": name, "num_sys": ns, "gold": g.ravel().tolist(),
                    "metric": m.ravel().tolist(), "spa": float(spa)})
    return out


def spa_real_cases():
    """SPA on unrounded normal scores, where float32 sums round (own stream: the other cases stay)."""
    rng = np.random.default_rng(99)
    out = []
    for name, ns, nseg in [("real_6x80", 6, 80), ("real_4x300", 4, 300)]:
        g = rng.normal(size=(ns, nseg)) + np.linspace(0, 0.3, ns)[:, None]
        m = g + rng.normal(scale=1.5, size=(ns, nseg))
        spa = stats.PairwiseConfidenceError(g.ravel().tolist(), m.ravel().tolist(), ns)[0]
        out.append({"name": name, "num_sys": ns, "gold": g.ravel().tolist(),
                    "metric": m.ravel().tolist(), "spa": float(spa)})
    return out


def cluster_cases(rng):
    out = []
    for n in [1, 2, 5, 9]:
        mat = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                mat[i, j] = rng.choice([0.001, 0.03, 0.05, 0.2, 0.6])
        for pval in [0.05, 0.01]:
            out.append({"matrix": mat.tolist(), "pval": pval, "ranks": data.AssignRanks(mat, pval)})
    return out


def perm_cases(mats):
    setups = [
        ("kendall_variants", stats.KendallVariants, {"variant": "acc23"}),
        ("kendall_variants", stats.KendallVariants, {"variant": "b"}),
    ]
    out = []
    for name, ns, g, m in mats:
        if name not in ("random_6x12", "many_ties_6x12", "mqm_nan_rows_5x20", "one_system_1x15"):
            continue
        rng = np.random.default_rng(len(g))
        m2 = (np.asarray(m) * 0.8 + rng.normal(scale=0.5, size=len(m))).tolist()
        c1 = stats.Correlation(ns, g, m)
        c2 = stats.Correlation(ns, g, m2)
        scores = []
        for fname, fcn, args in setups:
            for avg in ["none", "item", "sys"]:
                if ns == 1 and avg == "item":
                    continue
                for block in [1000, 50]:
                    seed = 17 + block
                    np.random.seed(seed)
                    psd = stats.PermutationSigDiffParams(block_size=block)
                    pval, delta, k_used, _ = stats.PermutationSigDiff(c1, c2, fcn, avg, 200, psd, **args)
                    scores.append({"fcn": fname, "args": args, "average_by": avg, "seed": seed,
                                   "k": 200, "block_size": block, "pval": float(pval),
                                   "delta": float(delta), "k_used": int(k_used)})
        pairs = []
        for variant, eps in [("acc23", None), ("23", None), ("acc23", (0.1, 0.25)), ("b", (0.0, 0.1))]:
            for avg in ["none", "item", "sys"]:
                if ns == 1 and avg == "item":
                    continue
                for block in [1000, 50]:
                    seed = 5 + block
                    np.random.seed(seed)
                    e1, e2 = eps if eps else (None, None)
                    psd = stats.PermutationSigDiffParams(block_size=block)
                    try:
                        pval, delta, k_used, _ = stats.PairwisePermutationSigDiff(
                            c1, c2, variant, avg, 200, psd, e1, e2, 1.0)
                    except ZeroDivisionError:
                        continue  # a group with one scored item: the reference fails
                    pairs.append({"variant": variant, "epsilons": eps, "average_by": avg,
                                  "seed": seed, "k": 200, "block_size": block,
                                  "pval": float(pval), "delta": float(delta), "k_used": int(k_used)})
        out.append({"name": name, "num_sys": ns, "gold": g, "metric1": m, "metric2": m2,
                    "scores": scores, "pairs": pairs})
    return out


def rng_draws():
    """The two NumPy streams the tests above depend on, draw by draw."""
    legacy = []
    for seed in [0, 11, 17, 2**32 - 1]:
        np.random.seed(seed)
        legacy.append({"seed": seed, "draws": np.random.random_sample(40).tolist()})
    f32 = []
    for seed in [4, 0, 123]:
        draws = np.random.default_rng(seed).random(size=41, dtype=np.float32)
        f32.append({"seed": seed, "draws": [float(v) for v in draws]})
    return {"legacy_random_sample": legacy, "random_f32": f32}


def main():
    rng = np.random.default_rng(20261207)
    mats = matrices(rng)
    fixture = {
        "reference": f"google-research/mt-metrics-eval@{COMMIT}",
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__},
        "tolerance": {"abs": 1e-9},
        # SPA on unrounded scores: a p-value may move by a step of 1/1000 where float32 rounding
        # decides a permutation whose null delta equals the observed one.
        "spa_real_tolerance": 1e-3,
        "kendall_variants": kendall_variant_cases(rng),
        "average_correlation": average_correlation_cases(mats),
        "ties_opt": ties_opt_cases(mats),
        "pairwise_accuracy": pairwise_accuracy_cases(rng),
        "spa": spa_cases(rng),
        "clusters": cluster_cases(rng),
        "perm_sig_diff": perm_cases(mats),
        "rng_draws": rng_draws(),
        "spa_real": spa_real_cases(),
    }
    path = OUT / "stats_wmt_meta.json"
    path.write_text(json.dumps(fixture, allow_nan=False, separators=(",", ":")) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
