"""``hauser.stats``' WMT meta-evaluation statistics against mt-metrics-eval's values in
figlang-stats' golden fixture (tools/gen/gen_wmt_meta_fixtures.py, mt-metrics-eval 68a481a):
Kendall variants, tie calibration, pairwise and soft pairwise accuracy, significance clusters."""

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
