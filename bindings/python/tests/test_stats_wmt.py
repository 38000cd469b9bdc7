"""``hauser.stats``' WMT meta-evaluation statistics against mt-metrics-eval's values in
figlang-stats' golden fixture (tools/gen/gen_wmt_meta_fixtures.py, mt-metrics-eval 68a481a):
Kendall variants, grouped correlations, tie calibration, pairwise and soft pairwise accuracy, the
PERM-BOTH and pair-swapping permutation tests and their all-pairs matrices, significance
clusters; the bootstrap of a grouped correlation (no reference) for determinism."""

from __future__ import annotations

import json

import numpy as np
import pytest

import hauser.stats as S

from conftest import STATS_FIXTURES

FX = json.loads((STATS_FIXTURES / "stats_wmt_meta.json").read_text())
TOL = FX["tolerance"]["abs"]


def matrix(values, num_sys):
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64).reshape(num_sys, -1)


def test_kendall_variants():
    checked = 0
    for case in FX["kendall_variants"]:
        human = [np.nan if v is None else v for v in case["human"]]
        for r in case["results"]:
            if r["value"] is None:
                continue
            try:
                got = S.kendall_variant(human, case["metric"], r["variant"], r["epsilon"])
            except ValueError:
                continue
            assert got == pytest.approx(r["value"], abs=TOL), (case["name"], r)
            checked += 1
    assert checked >= 20


def test_tie_calibration():
    checked = 0
    for case in FX["ties_opt"]:
        for r in case["results"]:
            if r["seed"] is not None:
                continue
            out = S.tie_calibration(
                matrix(case["gold"], case["num_sys"]), matrix(case["metric"], case["num_sys"]),
                grouping=r["average_by"], variant=r["variant"],
            )
            assert out.statistic == pytest.approx(r["tau"], abs=TOL)
            assert out.epsilon == r["epsilon"]
            assert len(out.thresholds) == r["num_thresholds"]
            assert isinstance(out.statistics, np.ndarray)
            assert out.signature.startswith(f"tie_calibration|variant:{r['variant']}|grouping:{r['average_by']}|pairs:all")
            checked += 1
    assert checked >= 5


def test_pairwise_and_soft_pairwise_accuracy():
    for g in FX["pairwise_accuracy"]["groups"]:
        out = S.pairwise_accuracy(g["human"], g["metric"])
        assert (out.agree, out.pairs) == (g["agree"], g["pairs"])
        if g["pairs"]:
            assert out.statistic == pytest.approx(g["agree"] / g["pairs"])
        else:  # one system: no pair to order
            assert np.isnan(out.statistic)
    for case in FX["spa"]:
        got = S.soft_pairwise_accuracy(matrix(case["gold"], case["num_sys"]), matrix(case["metric"], case["num_sys"]))
        assert got == pytest.approx(case["spa"], abs=TOL)


def test_significance_clusters():
    for case in FX["clusters"]:
        got = S.significance_clusters(case["matrix"], case["pval"])
        assert got.tolist() == case["ranks"]


def test_bad_shapes_are_errors():
    with pytest.raises(ValueError):
        S.tie_calibration([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError):
        S.significance_clusters([[0.0, 1.0]])
    with pytest.raises(ValueError):
        S.kendall_variant([1, 2, 3], [1, 2, 3], "d")


def corr_args(r):
    """average_correlation's correlation, variant and epsilon from a fixture row's corr_fcn."""
    args = r["args"]
    if r["fcn"] == "kendall_variants":
        return dict(correlation="kendall_variants", variant=args["variant"], epsilon=args.get("epsilon", 0.0))
    if r["fcn"] == "kendall":
        return dict(correlation="kendall", variant=args["variant"])
    return dict(correlation=r["fcn"])


def test_average_correlation():
    checked = 0
    for case in FX["average_correlation"]:
        h, m = matrix(case["gold"], case["num_sys"]), matrix(case["metric"], case["num_sys"])
        for r in case["results"]:
            out = S.average_correlation(
                h, m, grouping=r["average_by"], replace_nans_with_zeros=r["replace_nans_with_zeros"],
                macro=r["macro"], **corr_args(r),
            )
            want = np.nan if r["value"] is None else r["value"]
            assert out.statistic == pytest.approx(want, abs=TOL, nan_ok=True), (case["name"], r)
            assert out.n == r["n"], (case["name"], r)
            assert out.signature.startswith(f"average_correlation|corr:{r['fcn']}")
            assert f"grouping:{r['average_by']}" in out.signature
            checked += 1
    assert checked >= 400


def perm_kwargs(r):
    return dict(k=r["k"], seed=r["seed"], block_size=r["block_size"], grouping=r["average_by"])


def test_permutation_sig_diff():
    checked = 0
    for case in FX["perm_sig_diff"]:
        ns = case["num_sys"]
        h, m1, m2 = (matrix(case[k], ns) for k in ("gold", "metric1", "metric2"))
        for r in case["scores"]:
            out = S.permutation_sig_diff(h, m1, m2, **corr_args(r), **perm_kwargs(r))
            assert out.pvalue == r["pval"], (case["name"], r)
            assert out.k_used == r["k_used"], (case["name"], r)
            assert out.delta == pytest.approx(r["delta"], abs=TOL), (case["name"], r)
            assert f"k:{r['k']}|seed:{r['seed']}|" in out.signature
            checked += 1
    assert checked >= 40


def test_pairwise_permutation_sig_diff():
    checked = 0
    for case in FX["perm_sig_diff"]:
        ns = case["num_sys"]
        h, m1, m2 = (matrix(case[k], ns) for k in ("gold", "metric1", "metric2"))
        for r in case["pairs"]:
            eps = r["epsilons"] or [None, None]
            out = S.pairwise_permutation_sig_diff(
                h, m1, m2, variant=r["variant"], epsilon1=eps[0], epsilon2=eps[1], **perm_kwargs(r)
            )
            assert out.pvalue == r["pval"], (case["name"], r)
            assert out.k_used == r["k_used"], (case["name"], r)
            assert out.delta == pytest.approx(r["delta"], abs=TOL), (case["name"], r)
            assert out.signature.startswith("pairwise_permutation_sig_diff|test:pairs")
            checked += 1
    assert checked >= 60


def three_metrics(case):
    """The fixture case's two metrics and a third (their mean), best first by nothing: the
    matrix entries are checked against the two-metric tests on the same settings."""
    ns = case["num_sys"]
    h, m1, m2 = (matrix(case[k], ns) for k in ("gold", "metric1", "metric2"))
    return h, [m1, m2, (m1 + m2) / 2]


def test_perm_both_matrix_is_the_pairwise_tests():
    for case in FX["perm_sig_diff"]:
        h, ms = three_metrics(case)
        for r in case["scores"][:4]:
            out = S.perm_both_matrix(h, np.stack(ms), **corr_args(r), **perm_kwargs(r))
            assert isinstance(out.pvalues, np.ndarray) and out.pvalues.shape == (3, 3)
            assert out.signature.startswith("perm_both_matrix|test:perm-both")
            for i in range(3):
                for j in range(3):
                    if j <= i:
                        assert np.isnan(out.pvalues[i, j])
                        continue
                    want = S.permutation_sig_diff(h, ms[j], ms[i], **corr_args(r), **perm_kwargs(r))
                    assert out.pvalues[i, j] == want.pvalue, (case["name"], r, i, j)
            # The golden pair: metric2 against metric1 (metric1 listed first) is the fixture's test.
            swapped = S.perm_both_matrix(h, [ms[1], ms[0]], **corr_args(r), **perm_kwargs(r))
            assert swapped.pvalues[0, 1] == r["pval"], (case["name"], r)


def test_pairwise_permutation_matrix_is_the_pairwise_tests():
    for case in FX["perm_sig_diff"]:
        h, ms = three_metrics(case)
        for r in case["pairs"]:
            if r["variant"] == "b":
                continue
            kw = perm_kwargs(r)
            eps = r["epsilons"]
            out = S.pairwise_permutation_matrix(
                h, [ms[1], ms[0]], variant=r["variant"], epsilons=None if eps is None else [eps[1], eps[0]], **kw
            )
            assert out.pvalues[0, 1] == r["pval"], (case["name"], r)
            if eps is not None:
                assert out.epsilons.tolist() == [eps[1], eps[0]]
            full = S.pairwise_permutation_matrix(h, ms, variant=r["variant"], **kw)
            for i, j in ((0, 1), (0, 2), (1, 2)):
                want = S.pairwise_permutation_sig_diff(
                    h, ms[j], ms[i], variant=r["variant"],
                    epsilon1=float(full.epsilons[j]), epsilon2=float(full.epsilons[i]), **kw,
                )
                assert full.pvalues[i, j] == want.pvalue, (case["name"], r, i, j)
            for i in range(3):
                cal = S.tie_calibration(h, ms[i], grouping=r["average_by"], variant=r["variant"])
                assert full.epsilons[i] == cal.epsilon


def test_matrix_feeds_significance_clusters():
    case = FX["perm_sig_diff"][0]
    h, ms = three_metrics(case)
    out = S.perm_both_matrix(h, ms, k=200, seed=1)
    ranks = S.significance_clusters(out.pvalues)
    assert ranks.dtype == np.int64 and ranks.shape == (3,) and ranks[0] == 1


def test_bootstrap_average_correlation():
    case = FX["average_correlation"][0]
    h, m = matrix(case["gold"], case["num_sys"]), matrix(case["metric"], case["num_sys"])
    for kw in (dict(correlation="pearson"), dict(correlation="kendall_variants", variant="acc23", grouping="item")):
        point = S.average_correlation(h, m, **kw)
        out = S.bootstrap_average_correlation(h, m, n_resamples=200, seed=3, **kw)
        assert out.estimate == point.statistic
        low, high = out.confidence_interval
        assert low <= out.estimate <= high
        assert 0 < out.n_valid <= 200
        assert "|bootstrap:200|seed:3|" in out.signature
        assert out == S.bootstrap_average_correlation(h, m, n_resamples=200, seed=3, **kw)


def test_new_wmt_functions_reject_bad_input():
    h = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError, match="unknown correlation"):
        S.average_correlation(h, h, correlation="cosine")
    with pytest.raises(ValueError, match="epsilon"):
        S.average_correlation(h, h, correlation="pearson", epsilon=0.1)
    with pytest.raises(ValueError, match="grouping"):
        S.permutation_sig_diff(h, h, h, grouping="doc")
    with pytest.raises(ValueError):
        S.permutation_sig_diff(h, h, h, k=0)
    with pytest.raises(ValueError):
        S.pairwise_permutation_sig_diff(h, h, h, variant="c")
    with pytest.raises(ValueError, match="metrics"):
        S.perm_both_matrix(h, [h[:2], h[:2]])
    with pytest.raises(ValueError):
        S.pairwise_permutation_matrix(h, [h, h], variant="b")
    with pytest.raises(ValueError):
        S.pairwise_permutation_matrix(h, [h, h], epsilons=[0.1])
