"""Benchmark: `hauser meta-eval`'s WMT report vs Google's mt-metrics-eval, in one run.

Builds a WMT-sized table (BENCH_METRICS metrics, BENCH_SYSTEMS systems, BENCH_SEGMENTS segments
each; MQM-like human scores with many ties, metrics of varying quality rounded to 3 decimals),
writes it as the long TSV `hauser meta-eval` reads, then times both sides on it with
BENCH_RESAMPLES resampling runs per significance test and all pairs of metrics:

- hauser: `hauser meta-eval --input T --metric-col m01 ... --resamples R --bootstrap 0` (the
  statistics and the significance clusters, no bootstrap intervals: mt-metrics-eval has none),
  then again with `--bootstrap R` (the intervals too);
- mt-metrics-eval (pinned commit 68a481aea1a787392d55af8f76ac8ef40c5f4664, its own functions,
  as `data.CompareMetrics` / `ComputeSigMatrix` run them, single process): system level
  pairwise accuracy (stats.Agreement), Pearson, Spearman and Kendall tau-b with PERM-BOTH
  (`stats.PermutationSigDiff`, average_by none) between every pair of metrics, SPA
  (`stats.PairwiseConfidenceError`, values); segment level acc*_eq (`stats.KendallWithTiesOpt`,
  item, all pairs) and acc_eq (`stats.KendallVariants` acc23) with the pair-swapping test
  (`stats.PairwisePermutationSigDiff`, epsilons calibrated / 0), and the pooled Pearson with
  PERM-BOTH; `data.AssignRanks` for the clusters.

Both sides compute the same statistics with the same tests; hauser also computes the WMT17 tau
per item (no test). The values are compared (each statistic of each metric, within 1e-9) and
the clusters shown side by side. Prints a Markdown table of the timings and the ratio.

BENCH_REF_PAIRS=N times the reference's tests on the first N metric pairs only and scales its
time to all pairs (said so in the output): the pair tests dominate and cost the same per pair.
Default: all pairs.

Usage: MTME_DIR=/path/to/mt-metrics-eval bash tools/bench/bench_wmt_meta.sh
(the .sh builds the release binary and passes it as argv[1]).
"""

import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import types

import numpy as np
import scipy.stats

for _name in ("apache_beam", "dacite"):  # imported by data.py / ratings.py, unused here
    sys.modules.setdefault(_name, types.ModuleType(_name))
from mt_metrics_eval import data, stats  # noqa: E402

METRICS = int(os.environ.get("BENCH_METRICS", "20"))
SYSTEMS = int(os.environ.get("BENCH_SYSTEMS", "15"))
SEGMENTS = int(os.environ.get("BENCH_SEGMENTS", "1500"))
RESAMPLES = int(os.environ.get("BENCH_RESAMPLES", "1000"))
REF_PAIRS = os.environ.get("BENCH_REF_PAIRS")
SEED = 0


def make_table(rng):
    """human[s][g] MQM-like (negated error points, many ties), metrics[k][s][g]."""
    quality = rng.normal(scale=1.5, size=SYSTEMS)
    points = rng.choice([0.0, 0.0, 0.0, 1.0, 1.0, 5.0, 6.0, 10.0, 25.0], size=(SYSTEMS, SEGMENTS))
    human = -np.maximum(points - np.round(quality)[:, None], 0.0)
    difficulty = rng.normal(size=(1, SEGMENTS))
    metrics = []
    for k in range(METRICS):
        noise = 0.5 + 2.5 * k / max(METRICS - 1, 1)
        m = human / 5 + difficulty + rng.normal(scale=noise, size=(SYSTEMS, SEGMENTS))
        metrics.append(np.round(m, 3))
    return human, metrics


def write_tsv(path, human, metrics, names):
    with open(path, "w") as f:
        f.write("system\tsegment\thuman\t" + "\t".join(names) + "\n")
        for s in range(SYSTEMS):
            for g in range(SEGMENTS):
                cells = "\t".join(repr(float(m[s, g])) for m in metrics)
                f.write(f"sys{s:02d}\tseg{g:04d}\t{float(human[s, g])!r}\t{cells}\n")


def run_hauser(binary, tsv, names, bootstrap):
    cmd = [binary, "meta-eval", "--input", tsv]
    for n in names:
        cmd += ["--metric-col", n]
    cmd += ["--resamples", str(RESAMPLES), "--bootstrap", str(bootstrap), "--seed", str(SEED)]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return time.perf_counter() - t0, json.loads(out.stdout)


def sig_matrix(order, test, pairs_limit):
    """p-values of `test(j, i)` for i < j in `order`, as data.ComputeSigMatrix; returns the
    matrix, the pairs run and the pairs in all."""
    n = len(order)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    run = pairs if pairs_limit is None else pairs[:pairs_limit]
    sig = np.zeros((n, n))
    for i, j in run:
        np.random.seed(SEED)  # hauser seeds every pair's test alike
        sig[i, j] = test(order[j], order[i])
    return sig, len(run), len(pairs)


def reference(human, metrics, names):
    """mt-metrics-eval on the table: {statistic: {metric: value}}, clusters, seconds."""
    psd = stats.PermutationSigDiffParams()
    limit = None if REF_PAIRS is None else int(REF_PAIRS)
    gold_seg = human.ravel().tolist()
    seg = {n: stats.Correlation(SYSTEMS, gold_seg, m.ravel().tolist()) for n, m in zip(names, metrics)}
    gold_sys = human.mean(axis=1).tolist()
    sysc = {n: stats.Correlation(SYSTEMS, gold_sys, m.mean(axis=1).tolist()) for n, m in zip(names, metrics)}

    def accuracy(g, m):
        a, p = stats.Agreement(g, m)
        return a / p, p

    values, clusters, p_values = {}, {}, {}
    scale = 1.0
    test_seconds = [0.0]
    t0 = time.perf_counter()

    def compare(key, corrs, value_fcn, test):
        nonlocal scale
        vals = {n: value_fcn(c) for n, c in corrs.items()}
        order = sorted(vals, key=lambda n: (-vals[n], n))
        if test is None:
            values[key], clusters[key] = vals, {}
            return
        t_test = time.perf_counter()
        sig, ran, total = sig_matrix(order, test, limit)
        scale = total / ran
        test_seconds[0] += time.perf_counter() - t_test
        ranks = data.AssignRanks(sig, 0.05)
        values[key], clusters[key] = vals, dict(zip(order, ranks))
        p_values[key] = {(order[i], order[j]): sig[i, j] for i in range(len(order))
                         for j in range(i + 1, len(order)) if (i, j) in set(itertools.islice(
                             ((a, b) for a in range(len(order)) for b in range(a + 1, len(order))), ran))}

    def perm_both(corrs, fcn, avg, **args):
        return lambda a, b: stats.PermutationSigDiff(corrs[a], corrs[b], fcn, avg, RESAMPLES, psd, **args)[0]

    for key, fcn in [("sys pairwise_accuracy", accuracy), ("sys pearson", scipy.stats.pearsonr),
                     ("sys spearman", scipy.stats.spearmanr), ("sys kendall_b", scipy.stats.kendalltau)]:
        wrap = stats.AverageCorrelation(fcn, SYSTEMS, "none", filter_nones=False)
        compare(key, sysc, lambda c, w=wrap: w(c.gold_scores, c.metric_scores)[0], perm_both(sysc, fcn, "none"))
    compare("sys soft_pairwise_accuracy", seg,
            lambda c: stats.PairwiseConfidenceError(c.gold_scores, c.metric_scores, SYSTEMS)[0], None)
    eps = {}

    def acc_star(c):
        tau, e, _ = stats.KendallWithTiesOpt(c.gold_scores, c.metric_scores, "acc23", SYSTEMS, "item", 1.0)
        eps[id(c)] = e
        return tau

    acc_eq = stats.AverageCorrelation(stats.KendallVariants, SYSTEMS, "item", filter_nones=False, variant="acc23")
    compare("seg acc_eq", seg, lambda c: acc_eq(c.gold_scores, c.metric_scores)[0],
            lambda a, b: stats.PairwisePermutationSigDiff(seg[a], seg[b], "acc23", "item", RESAMPLES, psd,
                                                          epsilon1=0.0, epsilon2=0.0)[0])
    compare("seg acc*_eq", seg, acc_star,
            lambda a, b: stats.PairwisePermutationSigDiff(seg[a], seg[b], "acc23", "item", RESAMPLES, psd,
                                                          epsilon1=eps[id(seg[a])], epsilon2=eps[id(seg[b])])[0])
    pear = stats.AverageCorrelation(scipy.stats.pearsonr, SYSTEMS, "none", filter_nones=False)
    compare("seg pearson", seg, lambda c: pear(c.gold_scores, c.metric_scores)[0],
            perm_both(seg, scipy.stats.pearsonr, "none"))
    elapsed = time.perf_counter() - t0
    # Only the pair tests are scaled to all pairs; the values are computed for every metric.
    return values, clusters, p_values, elapsed + test_seconds[0] * (scale - 1.0), scale


def main():
    binary = sys.argv[1]
    rng = np.random.default_rng(3)
    human, metrics = make_table(rng)
    names = [f"m{k + 1:02d}" for k in range(METRICS)]
    pairs = METRICS * (METRICS - 1) // 2
    print(f"WMT-sized meta-evaluation: {METRICS} metrics ({pairs} pairs), {SYSTEMS} systems x "
          f"{SEGMENTS} segments, {RESAMPLES} resamples per test; numpy {np.__version__}, "
          f"scipy {scipy.__version__}; {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as d:
        tsv = os.path.join(d, "table.tsv")
        write_tsv(tsv, human, metrics, names)
        subprocess.run([binary, "--version"], check=True, capture_output=True)  # warm the cache
        t_h, report = run_hauser(binary, tsv, names, 0)
        t_hb, _ = run_hauser(binary, tsv, names, RESAMPLES)
    with_bootstrap = t_hb
    values, clusters, p_values, t_ref, scale = reference(human, metrics, names)
    ours = {f"{'sys' if s['level'] == 'system' else 'seg'} {s['statistic']}": s for s in report["statistics"]}
    worst, rows = 0.0, []
    for key in values:
        s = ours[key]
        by_name = {r["metric"]: r for r in s["ranking"]}
        for n in names:
            ref, got = values[key][n], by_name[n]["value"]
            if got is not None and not np.isnan(ref):
                worst = max(worst, abs(ref - got))
        # With BENCH_REF_PAIRS the reference's matrix is partial: its clusters are not comparable.
        same = (sum(by_name[n]["cluster"] == clusters[key].get(n) for n in names)
                if clusters[key] and REF_PAIRS is None else None)
        order = [r["metric"] for r in s["ranking"]]
        p_diff = max((abs(s["p_values"][order.index(a)][order.index(b)] - p)
                      for (a, b), p in p_values.get(key, {}).items()
                      if order.index(a) < order.index(b)), default=None)
        rows.append((key, same, p_diff))
    print(f"\nlargest difference of a statistic (hauser vs mt-metrics-eval): {worst:.3g}")
    for key, same, p_diff in rows:
        diff = "" if p_diff is None else f"largest p-value difference {p_diff:.3g}"
        if same is not None:
            print(f"  {key}: same cluster for {same}/{METRICS} metrics, {diff}")
        elif p_diff is not None:
            print(f"  {key}: {diff} (clusters not compared: tests on {REF_PAIRS} pairs only)")
    ref_note = "" if scale == 1.0 else f" (tests on {REF_PAIRS} of {pairs} pairs, scaled x{scale:.1f})"
    t_ref_all = t_ref
    print("\n| run | seconds |")
    print("| --- | ---: |")
    print(f"| mt-metrics-eval{ref_note} | {t_ref_all:.2f} |")
    print(f"| hauser meta-eval (same statistics and tests) | {t_h:.2f} |")
    print(f"| hauser meta-eval + {RESAMPLES} bootstrap intervals | {with_bootstrap:.2f} |")
    print(f"\nratio (mt-metrics-eval / hauser, same work): {t_ref_all / t_h:.1f}x")


if __name__ == "__main__":
    main()
