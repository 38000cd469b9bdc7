"""hauser.stats against SciPy 1.17.1, scikit-learn, statsmodels and krippendorff installed next to
it (on the inputs of the Rust golden tests, tools/gen/gen_stats_fixtures.py, plus seeded random
data), with the golden tests' tolerances (statistic 1e-12 absolute, p-value 1e-9 relative); and
`meta_eval` / `corr` against `hauser meta-eval` / `hauser corr` on the same table."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from hauser import stats as S

from conftest import P_REL, STAT_ABS, STATS_FIXTURES, close

scipy_stats = pytest.importorskip("scipy.stats")

# SciPy warns about the constant-input cases, whose NaN results are compared here.
pytestmark = pytest.mark.filterwarnings("ignore:An input array is constant")


def _nan(v):
    return float("nan") if v is None else v


def same_stat(a: float, b: float) -> bool:
    return close(a, b, STAT_ABS)


def same_p(a: float, b: float) -> bool:
    if a != a or b != b:
        return a != a and b != b
    return abs(a - b) <= P_REL * max(abs(b), 1e-300) or abs(a - b) <= 1e-15


def cases():
    fx = json.loads((STATS_FIXTURES / "stats_correlation.json").read_text())
    out = [(c["name"], c["x"], c["y"]) for c in fx["cases"]]
    rng = np.random.default_rng(7)
    for n in (5, 40, 60):
        x = rng.normal(size=n)
        out.append((f"random{n}", x.tolist(), (x + rng.normal(size=n)).round(1).tolist()))
    return out


@pytest.mark.parametrize("name,x,y", cases(), ids=[c[0] for c in cases()])
def test_correlations_equal_scipy(name, x, y):
    for ours, ref in (
        (S.pearson(x, y), scipy_stats.pearsonr(x, y)),
        (S.spearman(x, y), scipy_stats.spearmanr(x, y)),
        (S.kendall(x, y), scipy_stats.kendalltau(x, y)),
        (S.kendall(x, y, variant="c"), scipy_stats.kendalltau(x, y, variant="c")),
    ):
        stat, p = ours  # unpacks as SciPy's results do
        assert same_stat(stat, ref.statistic), (name, stat, ref.statistic)
        assert same_p(p, ref.pvalue), (name, p, ref.pvalue)
    r, ref = S.pearson(x, y), scipy_stats.pearsonr(x, y)
    if len(x) > 3 and not math.isnan(r.statistic):
        low, high = r.confidence_interval(0.9)
        ci = ref.confidence_interval(0.9)
        assert same_stat(low, ci.low) and same_stat(high, ci.high)


def test_agreement_equals_sklearn_statsmodels_krippendorff():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    krippendorff = pytest.importorskip("krippendorff")
    fx = json.loads((STATS_FIXTURES / "stats_agreement.json").read_text())
    for c in fx["cohen"]:
        for w in (None, "linear", "quadratic"):
            ref = sklearn_metrics.cohen_kappa_score(c["a"], c["b"], weights=w)
            assert close(S.cohen_kappa(c["a"], c["b"], weights=w), ref, STAT_ABS), (c["name"], w)
    for c in fx["fleiss"]:
        assert close(S.fleiss_kappa(c["table"]), inter_rater.fleiss_kappa(np.array(c["table"])), STAT_ABS)
    for c in fx["krippendorff"]:
        data = np.array([[_nan(v) for v in row] for row in c["data"]], dtype=float)
        for level in ("nominal", "ordinal", "interval", "ratio"):
            ref = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
            assert close(S.krippendorff_alpha(data, level), ref, 1e-10), (c["name"], level)


def test_mcnemar_equals_statsmodels():
    tables = pytest.importorskip("statsmodels.stats.contingency_tables")
    for t in ([[10, 5], [2, 20]], [[3, 0], [9, 1]], [[50, 31], [12, 7]]):
        for exact, corr in ((True, True), (False, True), (False, False)):
            ref = tables.mcnemar(np.array(t), exact=exact, correction=corr)
            ours = S.mcnemar(t, exact=exact, correction=corr)
            assert close(ours.statistic, ref.statistic, STAT_ABS) and same_p(ours.pvalue, ref.pvalue)


def test_exact_permutation_test_equals_scipy():
    x = [1.0, 2.5, 2.0, 4.0, 3.0, 6.5]
    y = [0.5, 1.0, 3.0, 2.0, 5.0, 4.5]
    for kind, fn in (("pearson", lambda a, b: scipy_stats.pearsonr(a, b).statistic),
                     ("spearman", lambda a, b: scipy_stats.spearmanr(a, b).statistic)):
        ref = scipy_stats.permutation_test((x,), lambda a: fn(a, y), permutation_type="pairings", n_resamples=10_000)
        ours = S.permutation_test(x, y, kind, n_resamples=10_000)
        assert ours.exact and ours.n_resamples == 720
        assert same_stat(ours.statistic, ref.statistic) and same_p(ours.pvalue, ref.pvalue)


def test_williams_equals_its_formula():
    rng = np.random.default_rng(3)
    h = rng.normal(size=30)
    a = h + rng.normal(scale=0.5, size=30)
    b = h + rng.normal(scale=1.5, size=30)
    r12, r13, r23 = (scipy_stats.pearsonr(u, v).statistic for u, v in ((h, a), (h, b), (a, b)))
    n = 30
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    denom = 2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4) * (1 - r23) ** 3
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(denom)
    w = S.williams(h, a, b)
    assert close(w.statistic, t, 1e-12) and w.df == n - 3
    assert same_p(w.pvalue, scipy_stats.t.sf(t, n - 3))
    assert S.williams_from_r(r12, r13, r23, n) == pytest.approx(tuple(w), rel=1e-12)


def test_bootstrap_mean_is_seeded():
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    b = S.bootstrap_mean(values, n_resamples=2000, seed=5)
    assert b.estimate == 0.75 and b.n_valid == 2000
    assert b.confidence_interval.low < 0.75 < b.confidence_interval.high
    assert S.bootstrap_mean(values, n_resamples=2000, seed=5) == b
    spread = np.random.default_rng(1).normal(size=50)
    assert S.bootstrap_mean(spread, seed=1) != S.bootstrap_mean(spread, seed=2)


def meta_table():
    """8 systems x 30 segments of seeded scores (one pair missing), as the CLI's TSV reads them."""
    rng = np.random.default_rng(11)
    rows = []
    for s in range(8):
        for g in range(30):
            if (s, g) == (3, 7):
                continue
            h = float(rng.integers(1, 6))
            rows.append((f"sys{s}", f"seg{g}", h, round(0.1 * h + rng.normal(scale=0.2) + 0.05 * s, 6)))
    return rows


def test_meta_eval_and_corr_equal_the_cli(cli, tmp_path):
    pd = pytest.importorskip("pandas")
    rows = meta_table()
    tsv = tmp_path / "scores.tsv"
    tsv.write_text("system\tsegment\thuman\tmetric\n" + "".join(f"{a}\t{b}\t{c}\t{d}\n" for a, b, c, d in rows))
    df = pd.DataFrame(rows, columns=["system", "segment", "human", "metric"])
    for extra, kwargs in (([], {}), (["--bootstrap", "300", "--seed", "9"], {"bootstrap": 300, "seed": 9})):
        want = cli.json(["meta-eval", "--input", tsv, *extra])
        got = S.meta_eval(df, **kwargs)
        assert list(got) == list(want)
        _same(got, want)
    # Other tables: a dict of columns, a pyarrow Table, renamed columns.
    cols = {k: df[k].tolist() for k in df.columns}
    _same(S.meta_eval(cols), cli.json(["meta-eval", "--input", tsv]))
    pa = pytest.importorskip("pyarrow")
    renamed = pa.table({"sys": cols["system"], "seg": cols["segment"], "h": cols["human"], "m": cols["metric"]})
    _same(S.meta_eval(renamed, "sys", "seg", "h", "m"), cli.json(["meta-eval", "--input", tsv]))
    want = cli.json(["corr", "--input", tsv, "--x", "metric", "--y", "human"])
    _same(S.corr(df["metric"], df["human"]), want)


def _same(got, want, path=""):
    if isinstance(want, dict):
        assert set(got) == set(want), path
        for k in want:
            _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (a, b) in enumerate(zip(got, want)):
            _same(a, b, f"{path}[{i}]")
    elif isinstance(want, str):
        assert got == want, path
    else:
        assert close(got, want, 1e-12), (path, got, want)


def test_errors_and_degenerate_input():
    with pytest.raises(ValueError, match="differ in length"):
        S.pearson([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="not finite"):
        S.spearman([1, 2, float("nan")], [1, 2, 3])
    with pytest.raises(ValueError, match="at least 2"):
        S.kendall([1], [1])
    r = S.pearson([1, 1, 1], [1, 2, 3])
    assert math.isnan(r.statistic) and math.isnan(r.pvalue)
    with pytest.raises(ValueError, match="variant"):
        S.kendall([1, 2], [1, 2], variant="z")
    with pytest.raises(ValueError, match="level of measurement"):
        S.krippendorff_alpha([[1, 2], [1, 2]], "cardinal")
    with pytest.raises(KeyError, match="no column 'human'"):
        S.meta_eval({"system": ["a"], "segment": ["1"], "metric": [0.1]})
    with pytest.raises(ValueError, match="twice"):
        S.meta_eval({"system": ["a", "a"], "segment": ["1", "1"], "human": [1, 2], "metric": [1, 2]})
