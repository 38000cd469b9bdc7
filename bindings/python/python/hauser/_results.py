"""Result types: a score is a ``float`` and a column of scores a NumPy array, each carrying the
signature that reproduces it; statistics come back in SciPy's shapes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, NamedTuple, Optional

import numpy as np


# sacreBLEU's names of the metrics whose signatures start with hauser's registry name.
_SACRE_NAMES = {"bleu": "BLEU", "ter": "TER"}


class Score(float):
    """A metric value: a ``float`` with its ``signature``, its ``scale`` (``"0-1"`` or
    ``"0-100"``) and the reference tool's statistics in ``details``, also readable as attributes
    (``score.counts``, ``score.bp``, ``score.precision``...), as on sacreBLEU's score objects.
    ``score.score`` is the value, as sacreBLEU's ``.score``.

    The statistics are computed when first asked for: a score whose statistics nobody reads
    costs no more than the number (until then the score keeps its inputs)."""

    __slots__ = ("signature", "scale", "_details", "_compute")

    signature: str
    scale: str
    _details: Optional[Dict[str, Any]]
    _compute: Optional[Callable[[], Dict[str, Any]]]

    def __new__(
        cls,
        value: float,
        signature: str,
        scale: str = "0-1",
        details: Optional[Dict[str, Any]] = None,
        compute: Optional[Callable[[], Dict[str, Any]]] = None,
    ) -> "Score":
        obj = super().__new__(cls, value)
        obj.signature = signature
        obj.scale = scale
        obj._details = None if details is None and compute is not None else dict(details or {})
        obj._compute = compute
        return obj

    @property
    def details(self) -> Dict[str, Any]:
        """The reference tool's statistics (BLEU ``counts``, ``totals``, ``precisions``, ``bp``...;
        chrF ``stats``; ROUGE ``precision``, ``recall``, ``fmeasure``...)."""
        if self._details is None:
            compute = self._compute
            self._details = compute() if compute is not None else {}
            self._compute = None
        return self._details

    @property
    def score(self) -> float:
        """The value as a plain ``float``."""
        return float(self)

    def __getattr__(self, name: str) -> Any:
        # Only called for names that are not attributes: the statistics.
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.details[name]
        except KeyError:
            raise AttributeError(f"Score has no attribute or statistic {name!r}") from None

    def __repr__(self) -> str:
        return f"Score({float(self)!r}, signature={self.signature!r})"

    def __str__(self) -> str:
        """sacreBLEU's line for its metrics on their 0-100 scale (``BLEU = 22.47 58.3/28.6/15.8/8.3
        (BP = ...)``, ``chrF2 = 61.23``, ``TER = 33.33``), as ``str()`` of sacreBLEU's scores;
        the plain number otherwise."""
        name = self.signature.split("|", 1)[0]
        if self.scale == "0-100" and (name in _SACRE_NAMES or name.startswith("chrF")):
            line = f"{_SACRE_NAMES.get(name, name)} = {float(self):.2f}"
            verbose = self.details.get("verbose_score") if name == "bleu" else None
            return f"{line} {verbose}" if verbose else line
        return float.__repr__(self)

    def __reduce__(self) -> Any:
        return (Score, (float(self), self.signature, self.scale, self.details))


class ScoreArray(np.ndarray):
    """One score per hypothesis: a float64 NumPy array with the ``signature`` of its metric.

    Slices keep the signature; anything computed from the scores (``.mean()``, arithmetic) is a
    plain NumPy value, since the signature describes the scores, not numbers derived from them.
    """

    signature: Optional[str]

    def __new__(cls, values: Any, signature: Optional[str]) -> "ScoreArray":
        obj = np.asarray(values, dtype=np.float64).view(cls)
        obj.signature = signature
        return obj

    def __array_finalize__(self, obj: Any) -> None:
        self.signature = getattr(obj, "signature", None)

    def __array_wrap__(self, out: np.ndarray, context: Any = None, return_scalar: bool = False) -> Any:
        plain = out.view(np.ndarray)
        if return_scalar or plain.ndim == 0:
            return plain[()]
        return plain

    def __reduce__(self) -> Any:
        return (ScoreArray, (np.asarray(self).view(np.ndarray), self.signature))


class SignificanceResult(NamedTuple):
    """A statistic and its two-sided p-value (SciPy's ``SignificanceResult``)."""

    statistic: float
    pvalue: float


class ConfidenceInterval(NamedTuple):
    """A confidence interval (SciPy's ``ConfidenceInterval``)."""

    low: float
    high: float


class PearsonResult(SignificanceResult):
    """Pearson's r and its p-value (SciPy's ``PearsonRResult``): unpacks as (statistic, pvalue);
    ``confidence_interval()`` gives the Fisher-z interval."""

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The Fisher-z interval of r, as SciPy's ``PearsonRResult.confidence_interval()``."""
        from . import _hauser

        low, high = _hauser.fisher_z_interval(self.statistic, self._n, confidence_level)
        return ConfidenceInterval(low, high)

    _n: int


def pearson_result(statistic: float, pvalue: float, n: int) -> PearsonResult:
    r = PearsonResult(statistic, pvalue)
    r._n = n
    return r


class WmtKendallResult(NamedTuple):
    """The WMT17 Kendall-like tau with its pair counts."""

    statistic: float
    concordant: int
    discordant: int


class TieCalibrationResult(NamedTuple):
    """Tie-calibrated Kendall (acc*_eq, acc_eq, tau_23): the best value, its threshold, every
    threshold tried with its value, and the signature."""

    statistic: float
    epsilon: float
    thresholds: "np.ndarray[Any, np.dtype[np.float64]]"
    statistics: "np.ndarray[Any, np.dtype[np.float64]]"
    signature: str


class PairwiseAccuracyResult(NamedTuple):
    """System-level pairwise accuracy with its counts."""

    statistic: float
    agree: int
    pairs: int


class AverageCorrelationResult(NamedTuple):
    """A grouped correlation (mt-metrics-eval's ``AverageCorrelation``): the (weighted) mean of
    the group correlations, how many groups (items, when ``macro=False``) counted, and the
    signature."""

    statistic: float
    n: int
    signature: str


class AverageCorrelationBootstrap(NamedTuple):
    """A percentile bootstrap interval of a grouped correlation over items (segments): the
    interval, the statistic on the data, the resamples where it was defined, the signature."""

    confidence_interval: ConfidenceInterval
    estimate: float
    n_valid: int
    signature: str


class PermSigDiffResult(NamedTuple):
    """A permutation test between two metrics (PERM-BOTH or pair swapping): the one-sided
    p-value that ``metric2`` does better than ``metric1``, the observed difference (``metric2``
    minus ``metric1``), the runs performed (fewer than ``k`` when stopped early), the signature."""

    pvalue: float
    delta: float
    k_used: int
    signature: str


class SigMatrixResult(NamedTuple):
    """All-pairs significance (mt-metrics-eval's ``ComputeSigMatrix``): ``pvalues[i, j]``,
    ``j > i``, the p-value that metric ``j`` does not do worse than metric ``i`` (small: ``i``
    is significantly better); NaN on and below the diagonal. ``epsilons``: each metric's tie
    threshold (pair swapping; empty for PERM-BOTH)."""

    pvalues: "np.ndarray[Any, np.dtype[np.float64]]"
    epsilons: "np.ndarray[Any, np.dtype[np.float64]]"
    signature: str


class WilliamsResult(NamedTuple):
    """Williams' test: t statistic, one-sided p-value (metric a correlates better than b), df."""

    statistic: float
    pvalue: float
    df: float


@dataclass(frozen=True)
class PermutationTestResult:
    """A permutation test (SciPy's ``PermutationTestResult``, without the null distribution):
    the observed statistic, the two-sided p-value, how many null values were drawn and whether
    they were enumerated exactly."""

    statistic: float
    pvalue: float
    n_resamples: int
    exact: bool


@dataclass(frozen=True)
class BootstrapResult:
    """A percentile bootstrap interval (SciPy's ``BootstrapResult`` fields that apply): the
    interval, the statistic on the data, and the resamples where it was defined."""

    confidence_interval: ConfidenceInterval
    estimate: float
    n_valid: int


class Prediction(Dict[str, Any]):
    """What ``hauser.COMET.predict`` returns, shaped as unbabel-comet's ``Prediction``: a dict
    whose keys are also attributes (``out.scores``, ``out["system_score"]``,
    ``out.metadata.error_spans``)."""

    def __init__(self, items: Dict[str, Any]) -> None:
        super().__init__(
            {k: Prediction(v) if isinstance(v, dict) else v for k, v in items.items()}
        )

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None
