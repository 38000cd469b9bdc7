"""Type stubs of ``hauser._hauser``, the Rust extension module behind the ``hauser`` package.

Use the package (``hauser``, ``hauser.metrics``, ``hauser.stats``); the classes documented
here that users meet directly are ``KnowledgeBase``, ``Hauser``, ``BERTScorer``,
``Perplexity``, ``StyleClassifier`` and the function ``extract``.
"""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "__version__",
    "METRICS_VERSION",
    "NEURAL",
    "ArrowStrings",
    "TextMetric",
    "metric_names",
    "rouge_tokens",
    "pearson",
    "spearman",
    "kendall",
    "wmt_kendall",
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
    "fisher_z_interval",
    "meta_eval",
    "bootstrap_mean",
    "williams",
    "williams_from_r",
    "permutation_test",
    "permutation_test_paired",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "mcnemar",
    "KnowledgeBase",
    "extract",
    "Hauser",
    "BERTScorer",
    "Perplexity",
    "StyleClassifier",
    "BLEURT",
    "COMET",
    "MetricX",
]

__version__: str
METRICS_VERSION: str
NEURAL: bool

#: A column of texts: a list or tuple of ``str``, a NumPy or pandas column, or a pyarrow array.
#: (Not ``Sequence[str]``: a ``str`` is one, and the one-text overloads take ``str``.)
_Texts = Union[List[str], Tuple[str, ...], Any]
_StrPath = Union[str, "PathLike[str]"]
_Triple = Tuple[Optional[str], Optional[str], Optional[str]]
_FloatArray = npt.NDArray[np.float64]

@final
class ArrowStrings:
    """The offsets and UTF-8 data of an Arrow string column (made by ``hauser._inputs``)."""

    def __new__(cls, offsets: bytes, data: bytes, large: bool) -> "ArrowStrings": ...
    def __len__(self) -> int: ...

@final
class TextMetric:
    """A metric of ``hauser metric`` (figlang-metrics' registry) with its options, named as the
    command's flags with underscores. Wrapped by ``hauser.metrics.Metric``."""

    def __new__(cls, name: str, **options: Any) -> "TextMetric": ...
    @property
    def name(self) -> str: ...
    @property
    def scale(self) -> str: ...
    @property
    def needs_references(self) -> bool: ...
    def signature(self, n_hyps: int, n_refs: int) -> str: ...
    def sentence_signature(self, n_hyps: int, n_refs: int) -> str: ...
    def score_one(self, hypothesis: str, references: Optional[List[str]] = None) -> float: ...
    def sentence_scores(self, hypotheses: _Texts, references: Optional[Sequence[_Texts]] = None) -> bytearray: ...
    def segment_corpus_scores(self, hypotheses: _Texts, references: Optional[Sequence[_Texts]] = None) -> bytearray: ...
    def corpus_score(self, hypotheses: _Texts, references: Optional[Sequence[_Texts]] = None) -> Tuple[float, str]: ...
    def sentence_details(
        self, hypotheses: _Texts, references: Optional[Sequence[_Texts]] = None
    ) -> List[Dict[str, Any]]: ...
    def corpus_details(
        self, hypotheses: _Texts, references: Optional[Sequence[_Texts]] = None
    ) -> Tuple[float, str, Dict[str, Any]]: ...
    def confidence(
        self, hypotheses: _Texts, references: Optional[Sequence[_Texts]] = None, n: int = ..., seed: Optional[int] = ...
    ) -> Dict[str, Any]: ...
    def paired(
        self,
        baseline: _Texts,
        systems: Sequence[_Texts],
        references: Sequence[_Texts],
        test: str = "bs",
        n: Optional[int] = None,
        seed: Optional[int] = ...,
    ) -> List[Dict[str, Any]]: ...

def metric_names() -> List[str]: ...
def rouge_tokens(text: str, use_stemmer: bool = False) -> List[str]: ...

# Statistics (float64 columns as native-endian bytes; see hauser.stats for the public API).
def pearson(x: bytes, y: bytes) -> Tuple[float, float]: ...
def spearman(x: bytes, y: bytes) -> Tuple[float, float]: ...
def kendall(x: bytes, y: bytes, variant: str) -> Tuple[float, float]: ...
def wmt_kendall(human: bytes, metric: bytes) -> Tuple[float, int, int]: ...
def kendall_variant(human: bytes, metric: bytes, variant_name: str, epsilon: float) -> float: ...
def tie_calibration(
    human: bytes, metric: bytes, num_sys: int, grouping_name: str, variant_name: str, sample_rate: float, seed: int
) -> Tuple[float, float, List[float], List[float]]: ...
def pairwise_accuracy(human: bytes, metric: bytes) -> Tuple[int, int]: ...
def soft_pairwise_accuracy(human: bytes, metric: bytes, num_sys: int, permutations: int, seed: int) -> float: ...
def significance_clusters(p_values: List[List[float]], alpha: float) -> List[int]: ...
def average_correlation(
    human: bytes,
    metric: bytes,
    num_sys: int,
    corr: Tuple[str, Optional[str], float],
    grouping_name: str,
    replace_nans_with_zeros: bool,
    macro_: bool,
) -> Tuple[float, int]: ...
def bootstrap_average_correlation(
    human: bytes,
    metric: bytes,
    num_sys: int,
    corr: Tuple[str, Optional[str], float],
    grouping_name: str,
    replace_nans_with_zeros: bool,
    macro_: bool,
    resamples: int,
    seed: int,
    level: float,
) -> Tuple[float, float, float, int]: ...
def permutation_sig_diff(
    human: bytes,
    metric1: bytes,
    metric2: bytes,
    num_sys: int,
    corr: Tuple[str, Optional[str], float],
    grouping_name: str,
    perm: Tuple[int, int, int, float, float, bool],
) -> Tuple[float, float, int]: ...
def pairwise_permutation_sig_diff(
    human: bytes,
    metric1: bytes,
    metric2: bytes,
    num_sys: int,
    variant_name: str,
    grouping_name: str,
    epsilons: Tuple[Optional[float], Optional[float]],
    perm: Tuple[int, int, int, float, float, bool],
) -> Tuple[float, float, int]: ...
def perm_both_matrix(
    human: bytes,
    metrics: bytes,
    n_metrics: int,
    num_sys: int,
    corr: Tuple[str, Optional[str], float],
    grouping_name: str,
    perm: Tuple[int, int, int, float, float, bool],
) -> List[List[float]]: ...
def pairwise_permutation_matrix(
    human: bytes,
    metrics: bytes,
    n_metrics: int,
    num_sys: int,
    variant_name: str,
    grouping_name: str,
    epsilons: Optional[List[float]],
    perm: Tuple[int, int, int, float, float, bool],
) -> Tuple[List[List[float]], List[float]]: ...
def fisher_z_interval(r: float, n: int, level: float) -> Tuple[float, float]: ...
def meta_eval(
    systems: List[str], segments: List[str], human: bytes, metric: bytes, bootstrap: int = 0, seed: int = 0
) -> Dict[str, Any]: ...
def bootstrap_mean(values: bytes, resamples: int, seed: int, level: float) -> Tuple[float, float, float, int]: ...
def williams(human: bytes, a: bytes, b: bytes) -> Tuple[float, float, float]: ...
def williams_from_r(r12: float, r13: float, r23: float, n: int) -> Tuple[float, float, float]: ...
def permutation_test(
    x: bytes, y: bytes, correlation: str, resamples: int, seed: int
) -> Tuple[float, float, int, bool]: ...
def permutation_test_paired(
    human: bytes, a: bytes, b: bytes, correlation: str, resamples: int, seed: int
) -> Tuple[float, float, int, bool]: ...
def cohen_kappa(a: List[int], b: List[int], weights: str) -> float: ...
def fleiss_kappa(table: List[List[int]]) -> float: ...
def krippendorff_alpha(data: List[List[float]], level: str) -> float: ...
def mcnemar(table: List[List[int]], method: str) -> Tuple[float, float]: ...

@final
class KnowledgeBase:
    """A simile knowledge base of (topic, property, vehicle) triplets: relevance and vehicle
    counts for HAUSER's relevance and creativity criteria. Safe to share between threads."""

    @staticmethod
    def open(path: _StrPath) -> "KnowledgeBase":
        """Opens (memory-maps) an index written by ``hauser kb build`` or ``build(..., out=)``."""
    @staticmethod
    def build(
        input: _StrPath,
        format: str,
        out: Optional[_StrPath] = None,
        skip_bad_rows: bool = False,
        clean: str = "reference",
    ) -> "KnowledgeBase":
        """Builds from ``input`` in ``format`` (``maps-kb``, ``triplets``, ``simile-tsv``,
        ``similes``); written to ``out`` when given, else kept in memory."""
    @overload
    def relevance(self, topic: str, vehicle: str) -> float: ...
    @overload
    def relevance(self, topic: _Texts, vehicle: _Texts) -> _FloatArray: ...
    @overload
    def vehicle_count(self, vehicle: str) -> float: ...
    @overload
    def vehicle_count(self, vehicle: _Texts) -> _FloatArray: ...
    def lookup(
        self, topic: str, vehicle: Optional[str] = None, property: Optional[str] = None, top: int = 5
    ) -> Dict[str, Any]:
        """``hauser kb lookup``'s JSON as a dict."""
    def top_properties(self, topic: str, vehicle: str, top: int = 5) -> List[Tuple[str, float, float]]: ...
    def top_vehicles(self, topic: str, property: str, top: int = 5) -> List[Tuple[str, float, float]]: ...
    def key(self, text: str) -> str: ...
    def stats(self) -> Dict[str, Any]:
        """``hauser kb stats``'s JSON as a dict."""
    @property
    def checksum(self) -> str: ...
    @property
    def build_report(self) -> Optional[Dict[str, Any]]: ...
    def triplets(self) -> List[Tuple[str, str, str, float, float]]: ...

@overload
def extract(similes: str, literal: Optional[str] = None, like_only: bool = False) -> List[_Triple]: ...
@overload
def extract(
    similes: _Texts, literal: Union[None, str, Sequence[Optional[str]]] = None, like_only: bool = False
) -> List[List[_Triple]]: ...

_Group = Dict[str, Any]

@final
class Hauser:
    """HAUSER's simile evaluator (``hauser score``): criteria, per-group normalisation, quality
    and the 2:2:1 reranker."""

    def __new__(
        cls,
        kb: Union[None, KnowledgeBase, _StrPath] = None,
        nli: Optional[str] = None,
        sentiment: Optional[str] = None,
        *,
        nli_labels: Optional[List[str]] = None,
        nli_input: str = "pair",
        weights: Union[None, str, Sequence[float]] = None,
        missing_part: str = "omit",
        rerank: str = "2:2:1",
        extract: bool = True,
        batch_size: int = 32,
        device: str = "cpu",
        precision: str = "f32",
    ) -> "Hauser": ...
    def score(self, groups: Union[_Group, Sequence[_Group]]) -> List[Dict[str, Any]]:
        """One record per candidate, the fields of ``hauser score``'s JSONL."""
    def rerank(
        self, literal: str, candidates: Sequence[str], components: Optional[Sequence[Sequence[_Triple]]] = None
    ) -> List[str]:
        """The candidates, best first."""
    @property
    def signature(self) -> str: ...
    @property
    def criteria(self) -> List[str]: ...
    @property
    def skipped(self) -> List[Tuple[str, str]]: ...

# Present when NEURAL is true (the default build).
@final
class BERTScorer:
    """BERTScore with bert_score 0.3.13's conventions on a local (or cached hub) model."""

    def __new__(
        cls,
        model: str,
        layer: Optional[int] = None,
        idf: bool = False,
        baseline: Optional[_StrPath] = None,
        *,
        prefix_space: Optional[bool] = None,
        batch_size: int = 64,
        device: str = "cpu",
        precision: str = "f32",
    ) -> "BERTScorer": ...
    def score(
        self, cands: _Texts, refs: Sequence[Union[str, Sequence[str]]]
    ) -> Tuple[_FloatArray, _FloatArray, _FloatArray]:
        """P, R, F of each candidate (bert_score's shape)."""
    @property
    def layer(self) -> int: ...
    @property
    def signature(self) -> str: ...

@final
class Perplexity:
    """Sentence perplexity under a causal LM (transformers' ``exp(loss)``)."""

    def __new__(
        cls, model: str, prepend_bos: bool = False, *, batch_size: int = 64, device: str = "cpu", precision: str = "f32"
    ) -> "Perplexity": ...
    def score(self, texts: _Texts) -> _FloatArray: ...
    @property
    def signature(self) -> str: ...

@final
class StyleClassifier:
    """Style strength: P(label) under a sequence classifier."""

    def __new__(
        cls, model: str, label: str, *, batch_size: int = 64, device: str = "cpu", precision: str = "f32"
    ) -> "StyleClassifier": ...
    def score(self, texts: _Texts, flip: Union[None, str, Sequence[bool]] = None) -> _FloatArray: ...
    @property
    def signature(self) -> str: ...

@final
class BLEURT:
    """BLEURT on a bleurt-pytorch checkpoint (BERT-based, BLEURT-20 and its distilled forms)."""

    def __new__(cls, model: str, *, batch_size: int = 64, device: str = "cpu", precision: str = "f32") -> "BLEURT": ...
    def score(self, *, references: _Texts, candidates: _Texts) -> _FloatArray:
        """The score of each candidate against its reference (BLEURT's ``BleurtScorer.score``)."""
    @property
    def signature(self) -> str: ...

@final
class COMET:
    """An unbabel-comet 2.x checkpoint directory of any class (estimator, regression,
    reference-free, unified / CometKiwi, XCOMET)."""

    def __new__(cls, model: str, *, batch_size: int = 64, device: str = "cpu", precision: str = "f32") -> "COMET": ...
    def predict(self, samples: Sequence[Dict[str, str]]) -> Any:
        """unbabel-comet's ``predict``: a ``hauser.Prediction`` with ``scores``, ``system_score``,
        ``metadata`` (comet's: ``src_scores``, ``ref_scores``, ``unified_scores``, ``mqm_scores``,
        ``error_spans``, where the model has them) and ``signature``."""
    def score(self, hyps: _Texts, *, sources: Optional[_Texts] = None, references: Optional[_Texts] = None) -> _FloatArray: ...
    @property
    def signature(self) -> str: ...

@final
class MetricX:
    """MetricX-24 / MetricX-23 (google-research/metricx): an error score in [0, 25], lower is better."""

    def __new__(
        cls,
        model: str,
        *,
        version: int = 24,
        tokenizer: Optional[str] = None,
        max_input_length: Optional[int] = None,
        batch_size: int = 64,
        device: str = "cpu",
        precision: str = "f32",
    ) -> "MetricX": ...
    def score(self, hyps: _Texts, *, sources: Optional[_Texts] = None, references: Optional[_Texts] = None) -> _FloatArray: ...
    @property
    def signature(self) -> str: ...
