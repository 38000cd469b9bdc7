"""Text metrics with the numbers of ``hauser metric`` (sacreBLEU, rouge-score and NLTK parity).

Every function takes one hypothesis (a ``str``) or a column of them: a list, a NumPy or pandas
column, or a pyarrow string array (read from its buffers). One hypothesis gives a
:class:`~hauser.Score` (a ``float`` with ``signature`` and the reference tool's statistics);
a column gives a :class:`~hauser.ScoreArray` (a NumPy float64 array with ``signature``), or,
for the ``corpus_*`` functions, one corpus :class:`~hauser.Score`.

Names borrowed from sacreBLEU mean what they mean there: ``sentence_bleu``, ``sentence_chrf``
and ``sentence_ter`` are sacreBLEU's sentence scores (0-100, sentence BLEU with effective order
and ``exp`` smoothing), ``corpus_*`` its corpus scores (0-100), and ``str(score)`` of a BLEU,
chrF or TER score prints sacreBLEU's line (``BLEU = 22.47 58.3/28.6/...``). NLTK's sentence
BLEU is :func:`nltk_sentence_bleu` (0-1). :class:`Metric` gives any metric of ``hauser
metric`` with its options named as the CLI's flags (``Metric("bleu", tokenize="intl")``);
its ``sentence()`` is the CLI's ``--sentence`` (0-1). ROUGE, METEOR and the diversity metrics
are on 0-1.

References follow sacreBLEU: for one hypothesis, a ``str`` or a list of its references; for a
column of hypotheses, one column of references (one per hypothesis) or a list of reference
streams (``[[ref1 of each hypothesis], [ref2 of each], ...]``). A list of per-hypothesis lists
(Hugging Face ``evaluate``'s shape, ``[[refs of hypothesis 1], [refs of hypothesis 2], ...]``)
is read as such when only that reading fits; when both readings fit (as many references per
hypothesis as hypotheses), the call is refused unless ``refs_per_hyp=`` says which it is
(``True``: per-hypothesis lists; ``False``: streams).

The work runs in Rust with the interpreter released (threads run in parallel) and long calls
stop on Ctrl-C; bad input raises ``ValueError`` (or ``TypeError``), a missing WordNet
``FileNotFoundError``.
"""

from __future__ import annotations

from functools import lru_cache
import logging
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, overload

import numpy as np

from . import _hauser
from ._inputs import is_arrow, is_column, reference_streams, text_column
from ._results import Score, ScoreArray

__all__ = [
    "Metric",
    "NAMES",
    "score",
    "sentence_chrf",
    "corpus_chrf",
    "corpus_bleu",
    "sentence_bleu",
    "nltk_sentence_bleu",
    "corpus_ter",
    "sentence_ter",
    "rouge",
    "meteor",
    "distinct_n",
    "self_bleu",
]

#: The metric names of ``hauser metric`` (figlang-metrics' registry), in the CLI's order.
NAMES: Tuple[str, ...] = tuple(_hauser.metric_names())

#: A column of texts: a list or tuple of ``str``, or a NumPy, pandas or pyarrow column.
Column = Union[List[str], Tuple[str, ...], Any]
#: One text or a column.
Texts = Union[str, Column]


@lru_cache(maxsize=256)
def _cached(name: str, options: Tuple[Tuple[str, Any], ...]) -> "_hauser.TextMetric":
    return _hauser.TextMetric(name, **dict(options))


def _engine(name: str, options: Dict[str, Any]) -> "_hauser.TextMetric":
    """The engine metric for ``name`` and ``options``, built once per distinct setting (the
    cache key is cheap on purpose: per-call loops pay it on every call)."""
    items = tuple(options.items())
    try:
        return _cached(name, items)
    except TypeError as e:
        if "unhashable" not in str(e):
            raise
    # A list value (weights=[...]): the same setting as its tuple.
    items = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in items)
    try:
        return _cached(name, items)
    except TypeError:
        return _hauser.TextMetric(name, **dict(items))


class Metric:
    """Any metric of ``hauser metric``: ``name`` is one of :data:`NAMES`, ``options`` are the
    command's flags with underscores (``tokenize``, ``smooth_method``, ``smooth_value``,
    ``max_ngram_order``, ``effective_order``, ``lowercase``, ``chrf_char_order``,
    ``chrf_word_order``, ``chrf_beta``, ``chrf_whitespace``, ``chrf_lowercase``,
    ``chrf_eps_smoothing``, ``ter_case_sensitive``, ``ter_normalized``, ``ter_no_punct``,
    ``ter_asian_support``, ``weights``, ``auto_reweigh``, ``corpus``, ``use_stemmer``,
    ``split_summaries``, ``nltk_tokenizer``, ``rouge_impl``, ``rouge_pretokenize``,
    ``wordnet``, ``meteor_alpha``, ``meteor_beta``, ``meteor_gamma``). ``sentence()`` is ``hauser metric NAME --sentence``, ``corpus()`` the corpus
    line with ``--format json``. One object can be used from many threads at once."""

    def __init__(self, name: str, **options: Any) -> None:
        self._engine = _engine(name, options)

    @classmethod
    def _of(cls, engine: "_hauser.TextMetric") -> "Metric":
        m = cls.__new__(cls)
        m._engine = engine
        return m

    @property
    def name(self) -> str:
        """The registry name."""
        return self._engine.name

    @property
    def scale(self) -> str:
        """The scale of the corpus score, ``"0-1"`` or ``"0-100"``; sentence scores are 0-1."""
        return self._engine.scale

    def signature(self, n_refs: int = 1, n_hyps: int = 0) -> str:
        """The signature of this metric's corpus score against ``n_refs`` references."""
        return self._engine.signature(n_hyps, n_refs)

    def sentence_signature(self, n_refs: int = 1, n_hyps: int = 0) -> str:
        """The signature of this metric's sentence scores against ``n_refs`` references: the
        corpus one, except that BLEU's says ``eff:yes`` (sentences are scored with effective
        order) and the 0-100 metrics' (BLEU, chrF, TER) ``scale:0-1``."""
        return self._engine.sentence_signature(n_hyps, n_refs)

    def _streams(
        self, hypotheses: Any, references: Any, refs_per_hyp: Optional[bool] = None
    ) -> Tuple[Any, Optional[List[Any]]]:
        if isinstance(hypotheses, str):
            raise TypeError("hypotheses: expected a column of texts, got a single str")
        hyps = text_column(hypotheses, "hypotheses")
        if references is None and not self._engine.needs_references:
            return hyps, None
        return hyps, reference_streams(references, len(hyps), refs_per_hyp)

    def sentence(
        self, hypotheses: Texts, references: Any = None, *, refs_per_hyp: Optional[bool] = None
    ) -> ScoreArray:
        """One 0-1 score per hypothesis (``--sentence``)."""
        hyps, refs = self._streams(hypotheses, references, refs_per_hyp)
        raw = self._engine.sentence_scores(hyps, refs)
        n_refs = len(refs) if refs else 0
        return ScoreArray(_floats(raw), self._engine.sentence_signature(len(hyps), n_refs))

    def sentence_details(
        self, hypotheses: Texts, references: Any = None, *, refs_per_hyp: Optional[bool] = None
    ) -> List[Dict[str, Any]]:
        """One dict per hypothesis: ``score``, the statistics and ``signature`` (the objects of
        ``--sentence --format jsonl``)."""
        hyps, refs = self._streams(hypotheses, references, refs_per_hyp)
        return self._engine.sentence_details(hyps, refs)

    def corpus(
        self, hypotheses: Texts, references: Any = None, *, refs_per_hyp: Optional[bool] = None
    ) -> Score:
        """The corpus score with its signature and statistics (the ``--format json`` line; the
        statistics are computed when first read)."""
        hyps, refs = self._streams(hypotheses, references, refs_per_hyp)
        engine = self._engine
        value, signature = engine.corpus_score(hyps, refs)

        def details() -> Dict[str, Any]:
            d = engine.corpus_details(hyps, refs)[2]
            d.pop("score", None)
            return d

        return Score(value, signature, engine.scale, compute=details)

    def confidence(
        self,
        hypotheses: Texts,
        references: Any = None,
        n: int = 1000,
        seed: Optional[int] = 12345,
        *,
        refs_per_hyp: Optional[bool] = None,
    ) -> Dict[str, Any]:
        """sacreBLEU's bootstrap confidence interval of the corpus score (``--confidence``,
        ``--confidence-n``): the CLI's record, with ``confidence_mean`` and ``confidence_var``
        for BLEU, chrF and TER, rouge-score's ``BootstrapAggregator`` ``low`` / ``mid`` /
        ``high`` for ROUGE. ``seed`` as ``SACREBLEU_SEED`` (``None``: unseeded)."""
        hyps, refs = self._streams(hypotheses, references, refs_per_hyp)
        return self._engine.confidence(hyps, refs, n, seed)

    def paired_test(
        self,
        baseline: Texts,
        systems: Sequence[Texts],
        references: Any,
        test: str = "bs",
        n: Optional[int] = None,
        seed: Optional[int] = 12345,
        *,
        refs_per_hyp: Optional[bool] = None,
    ) -> List[Dict[str, Any]]:
        """sacreBLEU's paired significance test of each of ``systems`` against ``baseline``:
        ``test="bs"`` paired bootstrap resampling (``--paired-bs``, ``n`` default 1000),
        ``test="ar"`` approximate randomization (``--paired-ar``, ``n`` default 10000). One
        record per system, the baseline first: ``score``, ``p_value``, ``mean``, ``ci``, the
        signature (the CLI's lines, without the file names). BLEU, chrF and TER."""
        if isinstance(systems, str) or is_column(systems):
            raise TypeError("systems: expected a list of system columns (one per system)")
        systems = list(systems)
        if systems and isinstance(systems[0], str):
            raise TypeError("systems: expected a list of system columns, got one column of str")
        hyps, refs = self._streams(baseline, references, refs_per_hyp)
        columns = [text_column(s, f"systems[{i}]") for i, s in enumerate(systems)]
        return self._engine.paired(hyps, columns, refs or [], test, n, seed)

    @overload
    def __call__(self, hypotheses: str, references: Any = None, *, refs_per_hyp: Optional[bool] = None) -> Score: ...

    @overload
    def __call__(
        self, hypotheses: Column, references: Any = None, *, refs_per_hyp: Optional[bool] = None
    ) -> ScoreArray: ...

    def __call__(
        self, hypotheses: Texts, references: Any = None, *, refs_per_hyp: Optional[bool] = None
    ) -> Union[Score, ScoreArray]:
        """``sentence()`` of a column, or the score of one hypothesis (a ``str``)."""
        if isinstance(hypotheses, str):
            return _one(self._engine, hypotheses, references)
        return self.sentence(hypotheses, references, refs_per_hyp=refs_per_hyp)

    def __repr__(self) -> str:
        return f"Metric({self.name!r}, signature={self.signature()!r})"


def __dir__() -> List[str]:
    return sorted(__all__)


def _floats(raw: bytearray) -> Any:
    # The engine's float64 buffer, viewed without a copy (writable: a bytearray).
    return np.frombuffer(raw, dtype=np.float64)


def _one_refs(engine: "_hauser.TextMetric", references: Any) -> List[str]:
    """The references of one hypothesis: a ``str`` or a list of them."""
    if references is None:
        if engine.needs_references:
            raise ValueError(f"{engine.name} needs references")
        return []
    if isinstance(references, str):
        return [references]
    if is_arrow(references):
        return list(references.to_pylist())
    return list(text_column(references, "references"))


def _one(engine: "_hauser.TextMetric", hypothesis: str, references: Any) -> Score:
    """The sentence score of one hypothesis; its statistics are computed when first read."""
    refs = _one_refs(engine, references)

    def details() -> Dict[str, Any]:
        d = engine.sentence_details([hypothesis], [[r] for r in refs] or None)[0]
        d.pop("score", None)
        d.pop("signature", None)
        return d

    value = engine.score_one(hypothesis, refs)
    return Score(value, _sentence_signature(engine, len(refs)), "0-1", compute=details)


@lru_cache(maxsize=1024)
def _sentence_signature(engine: "_hauser.TextMetric", n_refs: int) -> str:
    # Formatting a signature costs about as much as a short sentence's score.
    return engine.sentence_signature(1, n_refs)


def _apply(
    name: str, options: Dict[str, Any], hypotheses: Texts, references: Any, refs_per_hyp: Optional[bool] = None
) -> Union[Score, ScoreArray]:
    engine = _engine(name, options)
    if isinstance(hypotheses, str):
        return _one(engine, hypotheses, references)
    return Metric._of(engine).sentence(hypotheses, references, refs_per_hyp=refs_per_hyp)


def _sacre_sentence(
    name: str, options: Dict[str, Any], hypotheses: Texts, references: Any, refs_per_hyp: Optional[bool]
) -> Union[Score, ScoreArray]:
    """sacreBLEU's ``sentence_score`` (0-100): each hypothesis scored as a corpus of one."""
    engine = _engine(name, options)
    if isinstance(hypotheses, str):
        refs = _one_refs(engine, references)
        streams = [[r] for r in refs]
        value, signature = engine.corpus_score([hypotheses], streams)

        def details() -> Dict[str, Any]:
            d = engine.corpus_details([hypotheses], streams)[2]
            d.pop("score", None)
            return d

        return Score(value, signature, "0-100", compute=details)
    hyps, column_refs = Metric._of(engine)._streams(hypotheses, references, refs_per_hyp)
    raw = engine.segment_corpus_scores(hyps, column_refs)
    return ScoreArray(_floats(raw), engine.signature(len(hyps), len(column_refs or [])))


def _corpus(name: str, options: Dict[str, Any], hypotheses: Texts, references: Any, refs_per_hyp: Optional[bool] = None) -> Score:
    return Metric._of(_engine(name, options)).corpus(hypotheses, references, refs_per_hyp=refs_per_hyp)


def score(
    name: str,
    hypotheses: Texts,
    references: Any = None,
    *,
    sentence: bool = False,
    refs_per_hyp: Optional[bool] = None,
    **options: Any,
) -> Union[Score, ScoreArray]:
    """``hauser metric NAME``: the corpus :class:`Score` (with statistics), or with ``sentence``
    one 0-1 score per hypothesis (``--sentence``); ``options`` as :class:`Metric`'s."""
    m = Metric(name, **options)
    if sentence:
        return m.sentence(hypotheses, references, refs_per_hyp=refs_per_hyp)
    return m.corpus(hypotheses, references, refs_per_hyp=refs_per_hyp)


def _chrf_options(
    char_order: int, word_order: int, beta: float, remove_whitespace: bool, eps_smoothing: bool, lowercase: bool
) -> Dict[str, Any]:
    return {
        "chrf_char_order": char_order,
        "chrf_word_order": word_order,
        "chrf_beta": beta,
        "chrf_whitespace": not remove_whitespace,
        "chrf_eps_smoothing": eps_smoothing,
        # sacreBLEU's CHRF(lowercase=) is chrF's own option (the command line's --chrf-lowercase);
        # `lowercase` is BLEU's (-lc) and chrF does not read it.
        "chrf_lowercase": lowercase,
    }


@overload
def sentence_chrf(
    hypothesis: str,
    references: Any,
    char_order: int = ...,
    word_order: int = ...,
    beta: float = ...,
    remove_whitespace: bool = ...,
    eps_smoothing: bool = ...,
    lowercase: bool = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> Score: ...


@overload
def sentence_chrf(
    hypothesis: Column,
    references: Any,
    char_order: int = ...,
    word_order: int = ...,
    beta: float = ...,
    remove_whitespace: bool = ...,
    eps_smoothing: bool = ...,
    lowercase: bool = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> ScoreArray: ...


def sentence_chrf(
    hypothesis: Texts,
    references: Any,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
    lowercase: bool = False,
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Union[Score, ScoreArray]:
    """chrF of each hypothesis (0-100) as sacreBLEU's ``sentence_chrf``; ``word_order=2`` is
    chrF++. The CLI's ``--sentence`` (0-1) is ``Metric("chrf").sentence()``."""
    opts = _chrf_options(char_order, word_order, beta, remove_whitespace, eps_smoothing, lowercase)
    return _sacre_sentence("chrf", opts, hypothesis, references, refs_per_hyp)


def corpus_chrf(
    hypotheses: Texts,
    references: Any,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
    lowercase: bool = False,
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Score:
    """Corpus chrF (0-100) as sacreBLEU's ``corpus_chrf``, with ``stats``, ``char_order``,
    ``word_order`` and ``beta`` in its details."""
    opts = _chrf_options(char_order, word_order, beta, remove_whitespace, eps_smoothing, lowercase)
    return _corpus("chrf", opts, hypotheses, references, refs_per_hyp)


# sacreBLEU's warning about tokenized input, on its logger, so that a script's logging setup for
# sacreBLEU (or for this module) applies.
_sacrelogger = logging.getLogger("sacrebleu")


def _warn_tokenized(hypotheses: Any) -> None:
    """sacreBLEU's warning when 100 or more hypotheses end in a tokenized period (`force`
    silences it)."""
    if isinstance(hypotheses, str):
        hypotheses = [hypotheses]
    if not isinstance(hypotheses, (list, tuple)):
        hypotheses = text_column(hypotheses, "hypotheses")
        if not isinstance(hypotheses, (list, tuple)):
            return  # an Arrow column: its texts are not read into Python
    if sum(1 for h in hypotheses if isinstance(h, str) and h.endswith(" .")) >= 100:
        _sacrelogger.warning("That's 100 lines that end in a tokenized period ('.')")
        _sacrelogger.warning("It looks like you forgot to detokenize your test data, which may hurt your score.")
        _sacrelogger.warning(
            "If you insist your data is detokenized, or don't care, you can suppress this message with the `force` parameter."
        )


def _bleu_options(
    smooth_method: str,
    smooth_value: Optional[float],
    lowercase: bool,
    tokenize: str,
    use_effective_order: bool,
    max_ngram_order: int,
) -> Dict[str, Any]:
    return {
        "smooth_method": smooth_method,
        "smooth_value": smooth_value,
        "lowercase": lowercase,
        "tokenize": tokenize,
        "effective_order": use_effective_order,
        "max_ngram_order": max_ngram_order,
    }


def corpus_bleu(
    hypotheses: Texts,
    references: Any,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
    max_ngram_order: int = 4,
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Score:
    """Corpus BLEU (0-100) as sacreBLEU's ``corpus_bleu``, with its statistics (``counts``,
    ``totals``, ``precisions``, ``bp``, ``ratio``, ``sys_len``, ``ref_len``,
    ``verbose_score``). Without ``force``, 100 or more hypotheses ending in `` .`` get
    sacreBLEU's warning about tokenized input (logger ``"sacrebleu"``); scores never change."""
    if not force:
        _warn_tokenized(hypotheses)
    opts = _bleu_options(smooth_method, smooth_value, lowercase, tokenize, use_effective_order, max_ngram_order)
    return _corpus("bleu", opts, hypotheses, references, refs_per_hyp)


@overload
def sentence_bleu(
    hypothesis: str,
    references: Any,
    smooth_method: str = ...,
    smooth_value: Optional[float] = ...,
    lowercase: bool = ...,
    tokenize: str = ...,
    use_effective_order: bool = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> Score: ...


@overload
def sentence_bleu(
    hypothesis: Column,
    references: Any,
    smooth_method: str = ...,
    smooth_value: Optional[float] = ...,
    lowercase: bool = ...,
    tokenize: str = ...,
    use_effective_order: bool = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> ScoreArray: ...


def sentence_bleu(
    hypothesis: Texts,
    references: Any,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Union[Score, ScoreArray]:
    """sacreBLEU's ``sentence_bleu`` (0-100): BLEU of each hypothesis alone, with effective
    order and ``exp`` smoothing by default. NLTK's sentence BLEU is :func:`nltk_sentence_bleu`."""
    opts = _bleu_options(smooth_method, smooth_value, lowercase, tokenize, use_effective_order, 4)
    return _sacre_sentence("bleu", opts, hypothesis, references, refs_per_hyp)


@overload
def nltk_sentence_bleu(
    hypothesis: str,
    references: Any,
    weights: Sequence[float] = ...,
    smoothing: str = ...,
    auto_reweigh: bool = ...,
    nltk: str = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> Score: ...


@overload
def nltk_sentence_bleu(
    hypothesis: Column,
    references: Any,
    weights: Sequence[float] = ...,
    smoothing: str = ...,
    auto_reweigh: bool = ...,
    nltk: str = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> ScoreArray: ...


def nltk_sentence_bleu(
    hypothesis: Texts,
    references: Any,
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    smoothing: str = "method1",
    auto_reweigh: bool = False,
    nltk: str = "current",
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Union[Score, ScoreArray]:
    """NLTK's ``sentence_bleu`` (0-1) on NLTK ``word_tokenize`` tokens, with
    ``SmoothingFunction().method1`` by default (the CLI's ``sentbleu``, the formality-transfer
    paper's BLEU). ``smoothing`` is ``method0``..``method7``; ``nltk="3.4.5"`` uses that release's
    tokenizer. The hypothesis comes first, as in sacreBLEU (NLTK takes the references first)."""
    opts = {
        "weights": tuple(weights),
        "smooth_method": smoothing,
        "auto_reweigh": auto_reweigh,
        "nltk_tokenizer": nltk,
    }
    return _apply("sentbleu", opts, hypothesis, references, refs_per_hyp)


def _ter_options(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> Dict[str, Any]:
    return {
        "ter_normalized": normalized,
        "ter_no_punct": no_punct,
        "ter_asian_support": asian_support,
        "ter_case_sensitive": case_sensitive,
    }


def corpus_ter(
    hypotheses: Texts,
    references: Any,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Score:
    """Corpus TER (0-100, lower is better) as sacreBLEU's ``corpus_ter``, with ``num_edits``
    and ``ref_length`` in its details."""
    opts = _ter_options(normalized, no_punct, asian_support, case_sensitive)
    return _corpus("ter", opts, hypotheses, references, refs_per_hyp)


@overload
def sentence_ter(
    hypothesis: str,
    references: Any,
    normalized: bool = ...,
    no_punct: bool = ...,
    asian_support: bool = ...,
    case_sensitive: bool = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> Score: ...


@overload
def sentence_ter(
    hypothesis: Column,
    references: Any,
    normalized: bool = ...,
    no_punct: bool = ...,
    asian_support: bool = ...,
    case_sensitive: bool = ...,
    *,
    refs_per_hyp: Optional[bool] = ...,
) -> ScoreArray: ...


def sentence_ter(
    hypothesis: Texts,
    references: Any,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    *,
    refs_per_hyp: Optional[bool] = None,
) -> Union[Score, ScoreArray]:
    """TER of each hypothesis (0-100), sacreBLEU's ``sentence_ter``."""
    opts = _ter_options(normalized, no_punct, asian_support, case_sensitive)
    return _sacre_sentence("ter", opts, hypothesis, references, refs_per_hyp)


_ROUGE = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def rouge(
    hypotheses: Texts,
    references: Any,
    kind: str = "rougeL",
    use_stemmer: bool = False,
    split_summaries: bool = False,
    impl: str = "rouge-score",
    pretokenize: bool = False,
    nltk: str = "current",
    corpus: bool = False,
) -> Union[Score, ScoreArray]:
    """ROUGE F-measure (0-1) of each hypothesis against its best reference, as rouge-score's
    ``RougeScorer([kind], use_stemmer, split_summaries)``; one hypothesis gives a Score with
    ``precision``, ``recall`` and ``fmeasure``. ``impl`` ``pltrdy`` / ``pltrdy-0.3.2`` selects the
    ``rouge`` package's variant (``pretokenize`` with NLTK ``word_tokenize`` first, as the
    formality paper). ``corpus`` gives the CLI's corpus value (the mean) with mean P/R/F."""
    if kind not in _ROUGE:
        raise ValueError(f"kind {kind!r}: one of {', '.join(_ROUGE)}")
    opts = {
        "use_stemmer": use_stemmer,
        "split_summaries": split_summaries,
        "rouge_impl": impl,
        "rouge_pretokenize": pretokenize,
        "nltk_tokenizer": nltk,
    }
    if corpus:
        return _corpus(kind, opts, hypotheses, references)
    return _apply(kind, opts, hypotheses, references)


def meteor(
    hypotheses: Texts,
    references: Any,
    wordnet: Optional[str] = None,
    nltk: str = "current",
    corpus: bool = False,
) -> Union[Score, ScoreArray]:
    """NLTK's ``meteor_score`` (0-1) on ``word_tokenize`` tokens, with WordNet 3.0 read from
    ``wordnet`` (default ``/usr/share/wordnet``, Debian's ``wordnet-base``); ``nltk="3.4.5"``
    reproduces that release's algorithm. ``corpus`` gives the mean as a corpus Score."""
    opts = {"wordnet": wordnet, "nltk_tokenizer": nltk}
    if corpus:
        return _corpus("meteor", opts, hypotheses, references)
    return _apply("meteor", opts, hypotheses, references)


def distinct_n(hypotheses: Texts, n: int = 1, nltk: str = "current", per_text: bool = False) -> Union[Score, ScoreArray]:
    """Distinct-n (n = 1, 2, 3): distinct n-grams over all n-grams of the hypotheses (NLTK
    ``word_tokenize`` tokens), as a corpus Score; ``per_text`` gives each text's own value."""
    if n not in (1, 2, 3):
        raise ValueError(f"distinct_n: n must be 1, 2 or 3 (the CLI's distinct1..3), got {n!r}")
    m = Metric(f"distinct{n}", nltk_tokenizer=nltk)
    return m.sentence(hypotheses) if per_text else m.corpus(hypotheses)


def self_bleu(
    hypotheses: Texts,
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    smoothing: str = "method1",
    per_text: bool = False,
) -> Union[Score, ScoreArray]:
    """Self-BLEU: NLTK ``sentence_bleu`` of each text against all the others (method1), the mean
    as a corpus Score; ``per_text`` gives each text's value."""
    m = Metric("selfbleu", weights=tuple(weights), smooth_method=smoothing)
    return m.sentence(hypotheses) if per_text else m.corpus(hypotheses)
