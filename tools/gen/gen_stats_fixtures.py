#!/usr/bin/env python3
"""Generate the golden fixtures of figlang_stats.

Usage: "$(bash tools/pyref.sh)" tools/gen/gen_stats_fixtures.py

Writes figlang-stats/tests/fixtures/stats_*.json from SciPy, statsmodels, scikit-learn and the
`krippendorff` package on hand-written inputs (ties, small n, constant vectors, missing values).
The Rust golden tests (figlang-stats/tests/it/stats_golden.rs) compare against them with the
tolerances recorded in each file: statistics 1e-12 absolute, p-values 1e-9 relative.
NaN is written as null.
"""

import json
import math
import pathlib
import warnings

import krippendorff
import numpy as np
import scipy
import sklearn
import statsmodels
from scipy import stats
from sklearn.metrics import ndcg_score, precision_recall_fscore_support
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

OUT = pathlib.Path(__file__).resolve().parents[2] / "figlang-stats" / "tests" / "fixtures"
TOL = {"statistic_abs": 1e-12, "p_value_rel": 1e-9}
VERSIONS = {
    "scipy": scipy.__version__,
    "numpy": np.__version__,
    "statsmodels": statsmodels.__version__,
    "scikit-learn": sklearn.__version__,
    "krippendorff": krippendorff.__version__ if hasattr(krippendorff, "__version__") else "0.9.0",
}
warnings.simplefilter("ignore")


def num(v):
    v = float(v)
    return None if math.isnan(v) else v


def corr_cases():
    rng = np.random.default_rng(20240601)
    cases = {
        "n3_no_ties": ([1.0, 2.0, 3.0], [2.0, 1.0, 3.5]),
        "n5_scipy_doc": ([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]),
        "n5_kendall_doc": ([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]),
        "n8_negative": ([0.1, 0.4, 0.35, 0.8, 0.9, 0.05, 0.6, 0.7], [9, 7, 8, 3, 1, 10, 4, 2]),
        "n2": ([1.0, 2.0], [3.0, 1.0]),
        "ratings_ties": ([1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 1, 2], [2, 2, 3, 3, 4, 3, 4, 5, 5, 4, 1, 1]),
        "one_var_ties": ([1, 1, 2, 3, 4, 5, 6, 7], [0.3, 0.1, 0.2, 0.5, 0.4, 0.8, 0.7, 0.9]),
        "perfect_n40": (list(range(40)), [2.0 * i + 1 for i in range(40)]),
        "one_swap_n40": (list(range(40)), [float(i) for i in [1, 0] + list(range(2, 40))]),
        "constant_x": ([3.0] * 6, [1, 2, 3, 4, 5, 6]),
        "constant_y": ([1, 2, 3, 4, 5, 6], [0.5] * 6),
        "large_offset": ([1e6 + 0.1, 1e6 + 0.3, 1e6 + 0.2, 1e6 + 0.7, 1e6 + 0.5],
                         [10.0, 12.0, 11.0, 15.0, 13.0]),
    }
    x = rng.normal(size=34)
    cases["n34_no_ties_asymptotic"] = (x.tolist(), (0.5 * x + rng.normal(size=34)).tolist())
    x = rng.normal(size=200)
    cases["n200_strong_tiny_p"] = (x.tolist(), (x + 0.3 * rng.normal(size=200)).tolist())
    x = rng.integers(1, 6, size=150).astype(float)
    cases["n150_likert_ties"] = (x.tolist(), np.clip(x + rng.integers(-1, 2, size=150), 1, 5).tolist())
    x = rng.normal(size=60)
    cases["n60_weak"] = (x.tolist(), (0.1 * x + rng.normal(size=60)).tolist())
    out = []
    for name, (x, y) in cases.items():
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        pr = stats.pearsonr(x, y)
        case = {
            "name": name,
            "x": x.tolist(),
            "y": y.tolist(),
            "pearson": [num(pr.statistic), num(pr.pvalue)],
            "spearman": [num(v) for v in stats.spearmanr(x, y)],
            "kendall_b": [num(v) for v in stats.kendalltau(x, y, variant="b")],
            "kendall_c": [num(v) for v in stats.kendalltau(x, y, variant="c")],
        }
        if not math.isnan(pr.statistic) and len(x) > 3:
            ci = pr.confidence_interval(0.95)
            case["pearson_ci95"] = [float(ci.low), float(ci.high)]
        out.append(case)
    return out


def williams(r12, r13, r23, n):
    """Williams test (Graham & Baldwin 2014, eq. 3), one-sided p from SciPy's t distribution."""
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    denom = 2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4) * (1 - r23) ** 3
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(denom)
    return t, float(stats.t.sf(t, n - 3))


def williams_cases():
    rng = np.random.default_rng(7)
    out = []
    for n in (10, 25, 80):
        h = rng.normal(size=n)
        a = h + 0.5 * rng.normal(size=n)
        b = h + 1.0 * rng.normal(size=n)
        r12 = stats.pearsonr(h, a).statistic
        r13 = stats.pearsonr(h, b).statistic
        r23 = stats.pearsonr(a, b).statistic
        t, p = williams(r12, r13, r23, n)
        out.append({"human": h.tolist(), "a": a.tolist(), "b": b.tolist(), "t": t, "p_value": p})
    return out


def permutation_cases():
    """Exact permutation tests (n! resp. 2^n <= n_resamples) with scipy.stats.permutation_test."""
    out = []
    x = np.array([0.3, 1.2, 0.8, 2.5, 1.9, 3.1])
    y = np.array([1.0, 2.0, 1.5, 2.2, 3.5, 3.0])
    corr = {
        "pearson": lambda a, b: stats.pearsonr(a, b).statistic,
        "spearman": lambda a, b: stats.spearmanr(a, b).statistic,
        "kendall_b": lambda a, b: stats.kendalltau(a, b).statistic,
    }
    for kind, f in corr.items():
        r = stats.permutation_test((y,), lambda yy: f(x, yy), permutation_type="pairings",
                                   vectorized=False, n_resamples=9999)
        out.append({"type": "pairings", "kind": kind, "x": x.tolist(), "y": y.tolist(),
                    "statistic": float(r.statistic), "p_value": float(r.pvalue),
                    "n_null": int(len(r.null_distribution))})
    h = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    a = np.array([1.2, 1.9, 3.3, 3.8, 5.5, 5.9, 7.4, 7.7])
    b = np.array([2.0, 1.0, 4.0, 3.5, 4.5, 7.5, 6.0, 8.5])
    za, zb = stats.zscore(a), stats.zscore(b)
    for kind, f in corr.items():
        r = stats.permutation_test((za, zb), lambda u, v: f(h, u) - f(h, v), permutation_type="samples",
                                   vectorized=False, n_resamples=9999)
        out.append({"type": "samples", "kind": kind, "human": h.tolist(), "a": a.tolist(), "b": b.tolist(),
                    "statistic": float(r.statistic), "p_value": float(r.pvalue),
                    "n_null": int(len(r.null_distribution))})
    return out


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
    return (c - d) / (c + d) if c + d else float("nan")


def bootstrap_case():
    """Percentile bootstrap of a meta-evaluation on given segment draws, NumPy/SciPy side."""
    rng = np.random.default_rng(99)
    n_sys, n_seg = 5, 12
    H = np.round(rng.normal(3, 1, (n_sys, n_seg)) * 2) / 2  # half points: human ties
    H[:, 3] = 4.0  # one segment where every system ties: WMT tau undefined
    M = H * 0.3 + rng.normal(0, 0.4, (n_sys, n_seg))
    taus = np.array([wmt_tau(H[:, g], M[:, g]) for g in range(n_seg)])
    samples = rng.integers(0, n_seg, (300, n_seg))
    sys_r, tau, pooled = [], [], []
    for idx in samples:
        h, m = H[:, idx], M[:, idx]
        sys_r.append(stats.pearsonr(m.mean(axis=1), h.mean(axis=1)).statistic)
        t = taus[idx]
        tau.append(np.nanmean(t) if (~np.isnan(t)).any() else np.nan)
        pooled.append(stats.pearsonr(m.ravel(), h.ravel()).statistic)

    def pct(v):
        v = np.asarray(v)
        v = v[~np.isnan(v)]
        return [float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5)), int(len(v))]

    return {"human": H.tolist(), "metric": M.tolist(), "samples": samples.tolist(), "level": 0.95,
            "system_pearson": pct(sys_r), "segment_kendall_wmt": pct(tau), "segment_pearson": pct(pooled)}


def agreement_cases():
    out = {"cohen": [], "fleiss": [], "krippendorff": [], "zscore": [], "loo": []}
    pairs = {
        "binary": ([0, 1, 1, 0, 1, 1, 0, 0, 1, 1], [0, 1, 0, 0, 1, 1, 1, 0, 1, 1]),
        "likert": ([1, 2, 3, 3, 4, 5, 5, 2, 3, 4, 1, 5], [1, 3, 3, 2, 4, 4, 5, 2, 4, 4, 2, 5]),
        "unused_category": ([1, 1, 3, 3, 3, 1], [1, 3, 3, 3, 1, 1]),
    }
    for name, (a, b) in pairs.items():
        cats = sorted(set(a) | set(b))
        table = np.zeros((len(cats), len(cats)))
        for u, v in zip(a, b):
            table[cats.index(u), cats.index(v)] += 1
        case = {"name": name, "a": a, "b": b}
        for wt, key in ((None, "unweighted"), ("linear", "linear"), ("quadratic", "quadratic")):
            case[key] = float(cohens_kappa(table, wt=wt).kappa)
        out["cohen"].append(case)
    tables = {
        "fleiss_wiki": [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
                        [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
                        [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]],
        "three_raters": [[3, 0], [2, 1], [0, 3], [1, 2], [3, 0], [0, 3]],
    }
    for name, t in tables.items():
        out["fleiss"].append({"name": name, "table": t, "kappa": float(fleiss_kappa(np.array(t)))})
    nan = float("nan")
    kdata = {
        "wiki_missing": [[nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
                         [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
                         [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4]],
        "likert_complete": [[1, 2, 3, 3, 4, 5, 5, 2], [1, 3, 3, 2, 4, 4, 5, 2], [2, 3, 3, 3, 5, 4, 5, 1]],
        "real_values": [[0.5, 1.5, 2.25, nan, 4.0], [0.75, 1.5, 2.0, 3.0, 4.5], [nan, 1.25, 2.5, 3.5, nan]],
    }
    for name, d in kdata.items():
        case = {"name": name, "data": [[None if math.isnan(v) else v for v in row] for row in d]}
        for level in ("nominal", "ordinal", "interval", "ratio"):
            case[level] = float(krippendorff.alpha(reliability_data=np.array(d, dtype=float),
                                                   level_of_measurement=level))
        out["krippendorff"].append(case)
    x = [62.4, 100, 96, 81.6, 55.0, 70.0]
    out["zscore"].append({"x": x, "z": stats.zscore(np.array(x)).tolist()})
    rng = np.random.default_rng(11)
    base = rng.integers(1, 6, size=30)
    raters = np.clip(np.stack([base + rng.integers(-1, 2, size=30) for _ in range(3)]), 1, 5).astype(float)
    pe, se = [], []
    for i in range(3):
        others = np.delete(raters, i, axis=0).mean(axis=0)
        pe.append(float(stats.pearsonr(raters[i], others).statistic))
        se.append(float(stats.spearmanr(raters[i], others).statistic))
    pairwise = [float(stats.pearsonr(raters[i], raters[j]).statistic) for i in range(3) for j in range(i + 1, 3)]
    out["loo"].append({"ratings": raters.tolist(), "pearson": pe, "spearman": se, "pairwise_pearson": pairwise})
    return out


def classification_cases():
    out = {"mcnemar": [], "prf": [], "ndcg": []}
    for table in ([[10, 5], [2, 20]], [[30, 12], [3, 40]], [[5, 0], [0, 5]], [[100, 40], [25, 90]], [[3, 1], [1, 3]]):
        t = np.array(table)
        case = {"table": table}
        r = mcnemar(t, exact=True)
        case["exact"] = [float(r.statistic), float(r.pvalue)]
        for corr, key in ((True, "chi2_corrected"), (False, "chi2")):
            if t[0, 1] + t[1, 0] == 0:
                continue  # undefined (statsmodels: inf or nan); figlang reports NaN
            r = mcnemar(t, exact=False, correction=corr)
            case[key] = [num(r.statistic), num(r.pvalue)]
        out["mcnemar"].append(case)
    y_true = [0, 1, 2, 2, 1, 0, 0, 2, 1, 1, 2, 0]
    y_pred = [0, 2, 2, 2, 1, 0, 1, 1, 1, 0, 2, 0]
    case = {"y_true": y_true, "y_pred": y_pred, "labels": [0, 1, 2]}
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, labels=[0, 1, 2], zero_division=0)
    case["per_class"] = {"precision": p.tolist(), "recall": r.tolist(), "f1": f.tolist(), "support": s.tolist()}
    for avg in ("macro", "micro"):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, labels=[0, 1, 2], average=avg, zero_division=0)
        case[avg] = [float(p), float(r), float(f)]
    case["accuracy"] = float(np.mean(np.array(y_true) == np.array(y_pred)))
    out["prf"].append(case)
    # NDCG: gains are the human scores; no ties in the metric scores (sklearn averages over ties).
    groups = [
        ([3.0, 1.0, 2.0, 5.0, 4.0], [0.2, 0.9, 0.1, 0.8, 0.5]),
        ([1.0, 1.0, 4.0], [0.3, 0.2, 0.1]),
        ([2.5, 4.0, 3.0, 1.0], [0.4, 0.3, 0.35, 0.9]),
    ]
    for human, metric in groups:
        case = {"human": human, "metric": metric}
        for k in (1, 3):
            case[f"ndcg@{k}"] = float(ndcg_score([human], [metric], k=k))
        out["ndcg"].append(case)
    return out


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    common = {"versions": VERSIONS, "tolerance": TOL, "generator": "tools/gen/gen_stats_fixtures.py"}
    files = {
        "stats_correlation.json": {**common, "cases": corr_cases(), "williams": williams_cases(),
                                   "permutation": permutation_cases(), "bootstrap": bootstrap_case()},
        "stats_agreement.json": {**common, **agreement_cases()},
        "stats_classification.json": {**common, **classification_cases()},
    }
    for name, content in files.items():
        (OUT / name).write_text(json.dumps(content, indent=1, allow_nan=False) + "\n")
        print("wrote", OUT / name)


if __name__ == "__main__":
    main()
