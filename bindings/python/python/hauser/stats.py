"""Meta-evaluation statistics with SciPy's numbers and return shapes.

Correlations return ``(statistic, pvalue)`` results as ``scipy.stats`` does (``pearson`` also has
``confidence_interval()``); :func:`meta_eval` returns the dict of ``hauser meta-eval``'s JSON
line (NaN where the CLI prints ``null``). Inputs are any 1-D sequences of numbers (lists, NumPy,
pandas). Constant input gives NaN, as in SciPy; mismatched lengths, too few items and
non-finite values raise ``ValueError``. Long computations (bootstrap, permutation tests) release
the interpreter and stop on Ctrl-C.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence

import numpy as np

from . import _hauser
from ._inputs import column_of, floats
from ._results import (
    AverageCorrelationBootstrap,
    AverageCorrelationResult,
    BootstrapResult,
    ConfidenceInterval,
    PairwiseAccuracyResult,
    PearsonResult,
    PermSigDiffResult,
    PermutationTestResult,
    SigMatrixResult,
    SignificanceResult,
    TieCalibrationResult,
    WilliamsResult,
    WmtKendallResult,
    pearson_result,
)

__all__ = [
    "pearson",
    "spearman",
    "kendall",
    "wmt_kendall",
    "corr",
    "meta_eval",
    "bootstrap_mean",
    "williams",
    "permutation_test",
    "permutation_test_paired",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "mcnemar",
    "kendall_variant",
    "tie_calibration",
    "pairwise_accuracy",
    "soft_pairwise_accuracy",
    "significance_clusters",
    "average_correlation",
    "bootstrap_average_correlation",
    "permutation_sig_diff",
    "pairwise_permutation_sig_diff",
    "perm_both_matrix",
    "pairwise_permutation_matrix",
]

Numbers = Sequence[float]


def __dir__() -> List[str]:
    return sorted(__all__)


def pearson(x: Numbers, y: Numbers) -> PearsonResult:
    """Pearson's r with SciPy's two-sided p-value (``scipy.stats.pearsonr``)."""
    xb = floats(x, "x")
    stat, p = _hauser.pearson(xb, floats(y, "y"))
    return pearson_result(stat, p, len(xb) // 8)


def spearman(x: Numbers, y: Numbers) -> SignificanceResult:
    """Spearman's rho with SciPy's p-value (``scipy.stats.spearmanr``)."""
    return SignificanceResult(*_hauser.spearman(floats(x, "x"), floats(y, "y")))


def kendall(x: Numbers, y: Numbers, variant: str = "b") -> SignificanceResult:
    """Kendall's tau-b (or ``variant="c"``) with SciPy's p-value (``scipy.stats.kendalltau``,
    ``method="auto"``)."""
    return SignificanceResult(*_hauser.kendall(floats(x, "x"), floats(y, "y"), variant))


def wmt_kendall(human: Numbers, metric: Numbers) -> WmtKendallResult:
    """The WMT17 segment-level Kendall-like tau: pairs tied on the human score are skipped; a
    pair the metric ties but humans do not counts as discordant. NaN when no pair counts."""
    return WmtKendallResult(*_hauser.wmt_kendall(floats(human, "human"), floats(metric, "metric")))


def corr(x: Numbers, y: Numbers) -> Dict[str, Any]:
    """``hauser corr``'s JSON as a dict: Pearson, Spearman and Kendall tau-b with p-values."""
    p, s, k = pearson(x, y), spearman(x, y), kendall(x, y)
    return {
        "n": p._n,
        "pearson": p.statistic,
        "pearson_p": p.pvalue,
        "spearman": s.statistic,
        "spearman_p": s.pvalue,
        "kendall": k.statistic,
        "kendall_p": k.pvalue,
        "kendall_variant": "b",
        "signature": f"corr|p:scipy-1.17|version:{_hauser.METRICS_VERSION}",
    }


def meta_eval(
    data: Any,
    system: str = "system",
    segment: str = "segment",
    human: str = "human",
    metric: str = "metric",
    bootstrap: int = 0,
    seed: int = 0,
) -> Dict[str, Any]:
    """``hauser meta-eval`` on a table with one row per system output: a pandas (or polars)
    DataFrame, a pyarrow Table or a dict of columns, with the columns named by ``system``,
    ``segment``, ``human`` and ``metric``. Returns the CLI's JSON line as a dict: system-level
    Pearson (p, Fisher-z 95% interval), Spearman and Kendall of per-system means, the top-N
    Pearsons, the segment-level WMT17 tau averaged over segments and the pooled Pearson, the
    counts and the signature; with ``bootstrap`` resamples (and ``seed``), percentile 95%
    intervals from resampled segments. System and segment values are compared as text."""
    systems = [str(v) for v in column_of(data, system)]
    segments = [str(v) for v in column_of(data, segment)]
    return _hauser.meta_eval(
        systems,
        segments,
        floats(column_of(data, human), human),
        floats(column_of(data, metric), metric),
        bootstrap,
        seed,
    )


def bootstrap_mean(
    values: Numbers, n_resamples: int = 1000, seed: int = 0, confidence_level: float = 0.95
) -> BootstrapResult:
    """Percentile bootstrap interval of the mean (e.g. of 0/1 correctness: an accuracy's
    interval). The same seed gives the same interval, whatever the number of threads."""
    est, low, high, valid = _hauser.bootstrap_mean(floats(values, "values"), n_resamples, seed, confidence_level)
    return BootstrapResult(ConfidenceInterval(low, high), est, valid)


def williams(human: Numbers, a: Numbers, b: Numbers) -> WilliamsResult:
    """Williams' test (as WMT uses it): does metric ``a`` correlate (Pearson) better with
    ``human`` than metric ``b``? Returns t, the one-sided p-value and the degrees of freedom."""
    return WilliamsResult(*_hauser.williams(floats(human, "human"), floats(a, "a"), floats(b, "b")))


def williams_from_r(r12: float, r13: float, r23: float, n: int) -> WilliamsResult:
    """Williams' test from corr(human, a), corr(human, b), corr(a, b) over ``n`` items."""
    return WilliamsResult(*_hauser.williams_from_r(r12, r13, r23, n))


def permutation_test(
    x: Numbers, y: Numbers, correlation: str = "pearson", n_resamples: int = 9999, seed: int = 0
) -> PermutationTestResult:
    """Permutation test of a correlation (``pearson``, ``spearman`` or ``kendall``), as
    ``scipy.stats.permutation_test(..., permutation_type="pairings")``: exact when n! does not
    exceed ``n_resamples``, else seeded random shuffles."""
    stat, p, n, exact = _hauser.permutation_test(floats(x, "x"), floats(y, "y"), correlation, n_resamples, seed)
    return PermutationTestResult(stat, p, n, exact)


def permutation_test_paired(
    human: Numbers, a: Numbers, b: Numbers, correlation: str = "pearson", n_resamples: int = 9999, seed: int = 0
) -> PermutationTestResult:
    """Paired permutation test of corr(human, a) - corr(human, b) for two metrics scored on the
    same items (z-standardised scores swapped item by item)."""
    stat, p, n, exact = _hauser.permutation_test_paired(
        floats(human, "human"), floats(a, "a"), floats(b, "b"), correlation, n_resamples, seed
    )
    return PermutationTestResult(stat, p, n, exact)


def cohen_kappa(a: Sequence[int], b: Sequence[int], weights: Optional[str] = None) -> float:
    """Cohen's kappa of two raters' integer labels (scikit-learn's ``cohen_kappa_score``;
    ``weights`` None, ``"linear"`` or ``"quadratic"``)."""
    return _hauser.cohen_kappa(_ints(a), _ints(b), weights or "none")


def fleiss_kappa(table: Any) -> float:
    """Fleiss' kappa of a subjects x categories table of rating counts (statsmodels'
    ``fleiss_kappa``)."""
    rows = np.asarray(table)
    if rows.ndim != 2:
        raise ValueError(f"fleiss_kappa: expected a 2-D table, got shape {rows.shape}")
    return _hauser.fleiss_kappa([[int(c) for c in row] for row in rows.tolist()])


def krippendorff_alpha(reliability_data: Any, level_of_measurement: str = "interval") -> float:
    """Krippendorff's alpha of ``reliability_data[rater][unit]`` (NaN marks a missing rating), as
    the ``krippendorff`` package's ``alpha``; level ``nominal``, ``ordinal``, ``interval`` or
    ``ratio``."""
    data = np.asarray(reliability_data, dtype=np.float64)
    if data.ndim != 2:
        raise ValueError(f"krippendorff_alpha: expected raters x units, got shape {data.shape}")
    return _hauser.krippendorff_alpha(data.tolist(), level_of_measurement)


def mcnemar(table: Any, exact: bool = True, correction: bool = True) -> SignificanceResult:
    """McNemar's test on a 2x2 table of paired outcomes, as statsmodels' ``mcnemar`` (exact
    binomial test, or chi-square with or without continuity correction)."""
    t = np.asarray(table)
    if t.shape != (2, 2):
        raise ValueError(f"mcnemar: expected a 2x2 table, got shape {t.shape}")
    method = "exact" if exact else ("chi2-corrected" if correction else "chi2")
    cells = [[int(t[0][0]), int(t[0][1])], [int(t[1][0]), int(t[1][1])]]
    return SignificanceResult(*_hauser.mcnemar(cells, method))


def _ints(values: Any) -> List[int]:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D sequence of labels, got shape {arr.shape}")
    if arr.dtype.kind not in "iub":
        raise TypeError(f"expected integer labels, got dtype {arr.dtype}")
    return [int(v) for v in arr.tolist()]


# The WMT metrics task's statistics, equal to google-research/mt-metrics-eval's functions
# (commit 68a481a; docs/STATISTICS.md). Segment-level inputs are matrices of systems x segments
# (a NaN human score is a missing judgement); system-level inputs are one score per system.


def _matrix(values: Any, what: str) -> "np.ndarray[Any, np.dtype[np.float64]]":
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"{what}: expected a 2-D matrix of systems x segments, got shape {arr.shape}")
    return np.ascontiguousarray(arr)


def _packed(human: Any, metric: Any) -> "tuple[bytes, bytes, int]":
    h, m = _matrix(human, "human"), _matrix(metric, "metric")
    if h.shape != m.shape:
        raise ValueError(f"human {h.shape} and metric {m.shape} matrices differ in shape")
    return h.tobytes(), m.tobytes(), h.shape[0]


def _signature(name: str, **fields: Any) -> str:
    parts = [name, *(f"{k}:{v}" for k, v in fields.items()), "compat:mt-metrics-eval-68a481a"]
    return "|".join(parts + [f"version:{_hauser.__version__}"])


def kendall_variant(human: Numbers, metric: Numbers, variant: str = "acc23", epsilon: float = 0.0) -> float:
    """mt-metrics-eval's ``KendallVariants``: Kendall's tau ``"b"``, ``"c"``, ``"23"`` or the
    pairwise accuracy ``"acc23"``, metric differences below ``epsilon`` counting as ties."""
    return _hauser.kendall_variant(floats(human, "human"), floats(metric, "metric"), variant, epsilon)


def tie_calibration(
    human: Any,
    metric: Any,
    grouping: str = "item",
    variant: str = "acc23",
    sample_rate: float = 1.0,
    seed: int = 0,
) -> TieCalibrationResult:
    """Tie-calibrated pairwise accuracy (``variant="acc23"``: acc*_eq with ``grouping="item"``,
    acc_eq with ``"none"``) or tau_23, at the tie threshold epsilon that maximises it
    (mt-metrics-eval's ``KendallWithTiesOpt``): ``statistic``, ``epsilon``, and every
    threshold tried with its value. ``sample_rate`` below 1 looks at that share of pairs, drawn
    as mt-metrics-eval draws them after ``np.random.seed(seed)``."""
    h, m, num_sys = _packed(human, metric)
    tau, eps, thresholds, taus = _hauser.tie_calibration(h, m, num_sys, grouping, variant, sample_rate, seed)
    sampling = "all" if sample_rate >= 1.0 else f"{sample_rate}/seed:{seed}"
    return TieCalibrationResult(
        tau,
        eps,
        np.asarray(thresholds, dtype=np.float64),
        np.asarray(taus, dtype=np.float64),
        _signature("tie_calibration", variant=variant, grouping=grouping, pairs=sampling),
    )


def pairwise_accuracy(human: Numbers, metric: Numbers) -> PairwiseAccuracyResult:
    """System-level pairwise accuracy (Kocmi et al. 2021): the share of system pairs the metric
    orders as the human scores do (one score per system)."""
    agree, pairs = _hauser.pairwise_accuracy(floats(human, "human"), floats(metric, "metric"))
    return PairwiseAccuracyResult(agree / pairs if pairs else float("nan"), agree, pairs)


def soft_pairwise_accuracy(human: Any, metric: Any, permutations: int = 1000, seed: int = 4) -> float:
    """Soft pairwise accuracy (Thompson et al. 2024; mt-metrics-eval's
    ``PairwiseConfidenceError``): agreement of the human and metric pairwise permutation-test
    p-values over system pairs, from segment matrices (systems x segments, no missing human
    score); ``permutations`` and ``seed`` as pce.py's defaults."""
    h, m, num_sys = _packed(human, metric)
    return _hauser.soft_pairwise_accuracy(h, m, num_sys, permutations, seed)


def significance_clusters(p_values: Any, alpha: float = 0.05) -> "np.ndarray[Any, np.dtype[np.int64]]":
    """The rank cluster of each metric (mt-metrics-eval's ``AssignRanks``, as WMT ranks
    metrics): metrics sorted best first, ``p_values[i][j]`` the p-value of metric i beating
    metric j; returns 1-based ranks."""
    matrix = np.asarray(p_values, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"p_values: expected a square matrix, got shape {matrix.shape}")
    return np.asarray(_hauser.significance_clusters(matrix.tolist(), alpha), dtype=np.int64)



class _Corr(NamedTuple):
    """A grouped statistic's correlation, as the extension takes it (one argument)."""

    correlation: str
    variant: Optional[str]
    epsilon: float

    def fields(self) -> Dict[str, Any]:
        if self.correlation == "kendall_variants":
            return {"corr": self.correlation, "variant": self.variant or "acc23", "epsilon": self.epsilon}
        if self.correlation == "kendall":
            return {"corr": self.correlation, "variant": self.variant or "b"}
        return {"corr": self.correlation}


class _Perm(NamedTuple):
    """A permutation test's settings (mt-metrics-eval's ``k``, seed and
    ``PermutationSigDiffParams``), as the extension takes them (one argument)."""

    k: int
    seed: int
    block_size: int
    early_min: float
    early_max: float
    replace_nans_with_zeros: bool

    def fields(self) -> Dict[str, Any]:
        return {
            "k": self.k,
            "seed": self.seed,
            "early_stop": f"{self.block_size}/{self.early_min}/{self.early_max}",
            "nan_zero": "yes" if self.replace_nans_with_zeros else "no",
        }


def _stacked(human: Any, metrics: Any) -> "tuple[bytes, bytes, int, int]":
    h = _matrix(human, "human")
    m = np.ascontiguousarray(np.asarray(metrics, dtype=np.float64))
    if m.ndim != 3 or m.shape[1:] != h.shape:
        raise ValueError(
            f"metrics: expected metrics x systems x segments matrices of the human shape {h.shape}, got shape {m.shape}"
        )
    return h.tobytes(), m.tobytes(), m.shape[0], h.shape[0]


def _p_matrix(rows: List[List[float]], n: int) -> "np.ndarray[Any, np.dtype[np.float64]]":
    return np.asarray(rows, dtype=np.float64).reshape(n, n)


def average_correlation(
    human: Any,
    metric: Any,
    correlation: str = "pearson",
    grouping: str = "none",
    replace_nans_with_zeros: bool = False,
    macro: bool = True,
    variant: Optional[str] = None,
    epsilon: float = 0.0,
) -> AverageCorrelationResult:
    """A correlation of segment matrices (systems x segments) grouped as mt-metrics-eval's
    ``AverageCorrelation(corr_fcn, ..., average_by, replace_nans_with_zeros, macro)``:
    ``grouping="none"`` correlates the flattened matrices, ``"item"`` averages the per-segment
    correlations across systems, ``"sys"`` the per-system ones. Per group, missing (NaN) human
    scores are dropped and groups with fewer than two scores skipped; a NaN group correlation
    (a constant group) is left out, or counted as 0 with ``replace_nans_with_zeros``;
    ``macro=False`` weights each group by its scored items; 0 when no group counts.
    ``correlation``: ``"pearson"``, ``"spearman"``, ``"kendall"`` (SciPy's tau, ``variant``
    ``"b"`` or ``"c"``) or ``"kendall_variants"`` (``KendallVariants``: ``variant`` ``"b"``,
    ``"c"``, ``"23"`` or ``"acc23"``, metric differences up to ``epsilon`` tied)."""
    h, m, num_sys = _packed(human, metric)
    corr = _Corr(correlation, variant, epsilon)
    value, n = _hauser.average_correlation(h, m, num_sys, corr, grouping, replace_nans_with_zeros, macro)
    fields = corr.fields()
    fields.update(grouping=grouping, nan_zero="yes" if replace_nans_with_zeros else "no", macro="yes" if macro else "no")
    return AverageCorrelationResult(value, n, _signature("average_correlation", **fields))


def bootstrap_average_correlation(
    human: Any,
    metric: Any,
    correlation: str = "pearson",
    grouping: str = "none",
    replace_nans_with_zeros: bool = False,
    macro: bool = True,
    variant: Optional[str] = None,
    epsilon: float = 0.0,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence_level: float = 0.95,
) -> AverageCorrelationBootstrap:
    """Percentile bootstrap interval of :func:`average_correlation` over segments: each
    resample draws the segments (columns, every system's scores with them) with replacement, as
    ``hauser meta-eval`` draws them for its intervals. The same seed gives the same interval,
    whatever the number of threads; resamples where the statistic is undefined are not counted
    (``n_valid``)."""
    h, m, num_sys = _packed(human, metric)
    corr = _Corr(correlation, variant, epsilon)
    est, low, high, valid = _hauser.bootstrap_average_correlation(
        h, m, num_sys, corr, grouping, replace_nans_with_zeros, macro, n_resamples, seed, confidence_level
    )
    fields = corr.fields()
    fields.update(
        grouping=grouping,
        nan_zero="yes" if replace_nans_with_zeros else "no",
        macro="yes" if macro else "no",
        bootstrap=n_resamples,
        seed=seed,
        level=confidence_level,
    )
    return AverageCorrelationBootstrap(
        ConfidenceInterval(low, high), est, valid, _signature("bootstrap_average_correlation", **fields)
    )


def permutation_sig_diff(
    human: Any,
    metric1: Any,
    metric2: Any,
    correlation: str = "pearson",
    grouping: str = "none",
    k: int = 1000,
    seed: int = 0,
    block_size: int = 1000,
    early_min: float = 0.02,
    early_max: float = 0.5,
    replace_nans_with_zeros: bool = False,
    variant: Optional[str] = None,
    epsilon: float = 0.0,
) -> PermSigDiffResult:
    """The PERM-BOTH permutation test (Deutsch et al. 2021; mt-metrics-eval's
    ``PermutationSigDiff(corr1, corr2, k, PermutationSigDiffParams(block_size, early_min,
    early_max))``) of whether ``metric2``'s grouped correlation with ``human`` (as
    :func:`average_correlation`) beats ``metric1``'s: both metrics are z-scored, and each of up
    to ``k`` runs swaps every segment's two scores with probability 1/2, stopping early at a
    multiple of ``block_size`` runs when the p-value is below ``early_min`` or above
    ``early_max``. The swaps are the ones mt-metrics-eval draws after
    ``np.random.seed(seed)``, so the p-value is its own."""
    h, m1, num_sys = _packed(human, metric1)
    _, m2, _ = _packed(human, metric2)
    corr = _Corr(correlation, variant, epsilon)
    perm = _Perm(k, seed, block_size, early_min, early_max, replace_nans_with_zeros)
    p, delta, used = _hauser.permutation_sig_diff(h, m1, m2, num_sys, corr, grouping, perm)
    fields = corr.fields()
    fields.update(grouping=grouping, **perm.fields())
    return PermSigDiffResult(p, delta, used, _signature("permutation_sig_diff|test:perm-both", **fields))


def pairwise_permutation_sig_diff(
    human: Any,
    metric1: Any,
    metric2: Any,
    variant: str = "acc23",
    grouping: str = "item",
    epsilon1: Optional[float] = None,
    epsilon2: Optional[float] = None,
    k: int = 1000,
    seed: int = 0,
    block_size: int = 1000,
    early_min: float = 0.02,
    early_max: float = 0.5,
    replace_nans_with_zeros: bool = False,
) -> PermSigDiffResult:
    """The pair-swapping permutation test of the WMT metrics task since 2023 (mt-metrics-eval's
    ``PairwisePermutationSigDiff``) for the Kendall variants ``"b"``, ``"23"`` and ``"acc23"``:
    each run swaps, item pair by item pair with probability 1/2, the two metrics' verdicts,
    each under its own tie threshold (``epsilon1``, ``epsilon2``; ``None`` calibrates it as
    :func:`tie_calibration` does on all pairs). Draws and early stopping as
    :func:`permutation_sig_diff`."""
    h, m1, num_sys = _packed(human, metric1)
    _, m2, _ = _packed(human, metric2)
    perm = _Perm(k, seed, block_size, early_min, early_max, replace_nans_with_zeros)
    p, delta, used = _hauser.pairwise_permutation_sig_diff(
        h, m1, m2, num_sys, variant, grouping, (epsilon1, epsilon2), perm
    )
    eps = "calibrated" if epsilon1 is None and epsilon2 is None else f"{epsilon1}/{epsilon2}"
    fields: Dict[str, Any] = {"variant": variant, "grouping": grouping, "epsilons": eps}
    fields.update(perm.fields())
    return PermSigDiffResult(p, delta, used, _signature("pairwise_permutation_sig_diff|test:pairs", **fields))


def perm_both_matrix(
    human: Any,
    metrics: Any,
    correlation: str = "pearson",
    grouping: str = "none",
    k: int = 1000,
    seed: int = 0,
    block_size: int = 1000,
    early_min: float = 0.02,
    early_max: float = 0.5,
    replace_nans_with_zeros: bool = False,
    variant: Optional[str] = None,
    epsilon: float = 0.0,
) -> SigMatrixResult:
    """The PERM-BOTH p-value matrix of several metrics (mt-metrics-eval's ``ComputeSigMatrix``):
    ``metrics`` is a metrics x systems x segments array (or a list of segment matrices), ordered
    best first; ``pvalues[i, j]``, ``j > i``, is :func:`permutation_sig_diff` of ``metrics[j]``
    (``metric1``) against ``metrics[i]`` (``metric2``) with the same settings, every pair on the
    same draws (as each starts from ``np.random.seed(seed)``); NaN elsewhere. Feed it to
    :func:`significance_clusters`. Pairs run in parallel."""
    h, m, n, num_sys = _stacked(human, metrics)
    corr = _Corr(correlation, variant, epsilon)
    perm = _Perm(k, seed, block_size, early_min, early_max, replace_nans_with_zeros)
    rows = _hauser.perm_both_matrix(h, m, n, num_sys, corr, grouping, perm)
    fields = corr.fields()
    fields.update(grouping=grouping, **perm.fields())
    return SigMatrixResult(
        _p_matrix(rows, n), np.empty(0, dtype=np.float64), _signature("perm_both_matrix|test:perm-both", **fields)
    )


def pairwise_permutation_matrix(
    human: Any,
    metrics: Any,
    variant: str = "acc23",
    grouping: str = "item",
    epsilons: Optional[Numbers] = None,
    k: int = 1000,
    seed: int = 0,
    block_size: int = 1000,
    early_min: float = 0.02,
    early_max: float = 0.5,
    replace_nans_with_zeros: bool = False,
) -> SigMatrixResult:
    """The pair-swapping p-value matrix (``variant`` ``"23"`` or ``"acc23"``: acc_eq with
    ``grouping="none"``, acc*_eq with ``"item"``) of several metrics, as
    :func:`perm_both_matrix`: ``pvalues[i, j]``, ``j > i``, is
    :func:`pairwise_permutation_sig_diff` of ``metrics[j]`` against ``metrics[i]`` with
    thresholds ``(epsilons[j], epsilons[i])``. ``epsilons=None`` calibrates each metric's
    threshold on all pairs (:func:`tie_calibration`); the thresholds used come back in
    ``epsilons``."""
    h, m, n, num_sys = _stacked(human, metrics)
    eps_in = None if epsilons is None else [float(e) for e in epsilons]
    perm = _Perm(k, seed, block_size, early_min, early_max, replace_nans_with_zeros)
    rows, eps = _hauser.pairwise_permutation_matrix(h, m, n, num_sys, variant, grouping, eps_in, perm)
    fields: Dict[str, Any] = {
        "variant": variant,
        "grouping": grouping,
        "epsilons": "calibrated" if epsilons is None else "given",
    }
    fields.update(perm.fields())
    return SigMatrixResult(
        _p_matrix(rows, n),
        np.asarray(eps, dtype=np.float64),
        _signature("pairwise_permutation_matrix|test:pairs", **fields),
    )
