"""evaluate's ``bleu`` and ``rouge`` modules (huggingface/evaluate a7dd338, metrics/bleu and
metrics/rouge) for :mod:`hauser.compat.evaluate`.

``bleu`` is the script's own computation: its ``tokenizer_13a`` (mteval-v13a, returning the
tokens) and tensorflow/nmt's ``compute_bleu`` (the shortest reference's length for the brevity
penalty, clipped counts against the union of the references' n-grams, Lin and Och's smoothing),
written here with the same arithmetic in the same order, so the values are the script's bit for
bit; a ``tokenizer=`` callable is applied as there.

``rouge`` is rouge-score 0.1.2's ``RougeScorer`` as the script drives it: with rouge-score's own
tokenizer, ROUGE-1/2/L/Lsum come from hauser's engine (``hauser metric rouge*``) and the other
ROUGE-N (``rouge3`` .. ``rouge9``) from its tokens; a ``tokenizer=`` callable's tokens are
scored here with rouge-score's algorithms. ``use_aggregator=True`` is rouge-score's
``BootstrapAggregator`` (1000 resamples of the per-prediction scores, the median of their
means), drawn from NumPy's legacy generator seeded with the module's seed, as evaluate's
``compute`` seeds it, so the values are the script's for the same seed.
"""

from collections import Counter
import math
import re
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np

from .. import _hauser
from .. import metrics as _metrics

Tokenizer = Callable[[str], Sequence[Hashable]]
T = TypeVar("T")


class Tokenizer13a:
    """evaluate's ``tokenizer_13a.Tokenizer13a``: sacreBLEU's 13a tokenization, returning the
    list of tokens."""

    _RULES = [
        (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
        (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
        (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
        (re.compile(r"([0-9])(-)"), r"\1 \2 "),
    ]

    def signature(self) -> str:
        return "13a"

    def __call__(self, line: str) -> List[str]:
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        line = f" {line} "
        for rule, repl in self._RULES:
            line = rule.sub(repl, line)
        return line.split()


def _ngrams(segment: Sequence[Hashable], max_order: int) -> "Counter[Tuple[Hashable, ...]]":
    counts: "Counter[Tuple[Hashable, ...]]" = Counter()
    for order in range(1, max_order + 1):
        for i in range(0, len(segment) - order + 1):
            counts[tuple(segment[i : i + order])] += 1
    return counts


def _nmt_bleu(
    reference_corpus: List[List[Sequence[Hashable]]],
    translation_corpus: List[Sequence[Hashable]],
    max_order: int,
    smooth: bool,
) -> Tuple[float, List[float], float, float, int, int]:
    """tensorflow/nmt's ``compute_bleu``: the same counts, divisions and sums in the same order
    (so ``ZeroDivisionError`` without reference tokens, as there)."""
    matches = [0] * max_order
    possible = [0] * max_order
    reference_length = translation_length = 0
    for references, translation in zip(reference_corpus, translation_corpus):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)
        merged: "Counter[Tuple[Hashable, ...]]" = Counter()
        for reference in references:
            merged |= _ngrams(reference, max_order)
        overlap = _ngrams(translation, max_order) & merged
        for ngram in overlap:
            matches[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            if len(translation) - order + 1 > 0:
                possible[order - 1] += len(translation) - order + 1
    precisions: List[float] = [0.0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
        else:
            precisions[i] = 0.0
    geo_mean: float = 0
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
    ratio = float(translation_length) / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return geo_mean * bp, precisions, bp, ratio, translation_length, reference_length


def bleu_compute(
    predictions: List[str],
    references: List[Any],
    tokenizer: Tokenizer = Tokenizer13a(),
    max_order: int = 4,
    smooth: bool = False,
) -> Dict[str, Any]:
    """evaluate's bleu ``_compute``."""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    refs = [[tokenizer(r) for r in ref] for ref in references]
    hyps = [tokenizer(p) for p in predictions]
    bleu, precisions, bp, ratio, translation_length, reference_length = _nmt_bleu(refs, hyps, max_order, smooth)
    return {
        "bleu": bleu,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": translation_length,
        "reference_length": reference_length,
    }


# rouge-score's Score: precision, recall, fmeasure (0 as an int where rouge-score returns the
# literal 0 for an empty text).
Prf = Tuple[Union[float, int], Union[float, int], Union[float, int]]
_ENGINE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _f(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _lcs_table(ref: Sequence[Hashable], can: Sequence[Hashable]) -> List[List[int]]:
    t = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == can[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def _lcs_indices(ref: Sequence[Hashable], can: Sequence[Hashable]) -> List[int]:
    t, i, j, out = _lcs_table(ref, can), len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.append(i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out[::-1]


def _score_ngrams(target: Sequence[Hashable], prediction: Sequence[Hashable], n: int) -> Prf:
    tc = Counter(tuple(target[i : i + n]) for i in range(len(target) - n + 1))
    pc = Counter(tuple(prediction[i : i + n]) for i in range(len(prediction) - n + 1))
    inter = sum(min(c, pc[g]) for g, c in tc.items())
    p = inter / max(sum(pc.values()), 1)
    r = inter / max(sum(tc.values()), 1)
    return p, r, _f(p, r)


def _score_lcs(target: Sequence[Hashable], prediction: Sequence[Hashable]) -> Prf:
    if not target or not prediction:
        return 0, 0, 0
    lcs = _lcs_table(target, prediction)[-1][-1]
    p, r = lcs / len(prediction), lcs / len(target)
    return p, r, _f(p, r)


def _summary_lcs(refs: List[Sequence[Hashable]], cands: List[Sequence[Hashable]]) -> Prf:
    m, n = sum(map(len, refs)), sum(map(len, cands))
    if not refs or not cands or not m or not n:
        return 0, 0, 0
    cnt_r: "Counter[Hashable]" = Counter()
    cnt_c: "Counter[Hashable]" = Counter()
    for s in refs:
        cnt_r.update(s)
    for s in cands:
        cnt_c.update(s)
    hits = 0
    for r in refs:
        union = sorted(set().union(*[_lcs_indices(r, c) for c in cands]))
        for t in (r[i] for i in union):
            if cnt_c[t] > 0 and cnt_r[t] > 0:
                hits += 1
                cnt_c[t] -= 1
                cnt_r[t] -= 1
    p, r_ = hits / n, hits / m
    return p, r_, _f(p, r_)


def _check_type(rouge_type: str) -> None:
    if rouge_type in ("rougeL", "rougeLsum"):
        return
    if not re.match(r"rouge[0-9]$", rouge_type):
        raise ValueError("Invalid rouge type: %s" % rouge_type)
    if int(rouge_type[5:]) <= 0:
        raise ValueError("rougen requires positive n: %s" % rouge_type)


def _python_scores(
    rouge_type: str, pairs: List[Tuple[List[str], str]], tokenize: Callable[[str], Sequence[Hashable]]
) -> List[Prf]:
    """rouge-score's ``score_multi`` for one type on tokens of ``tokenize``."""

    def one(target: str, prediction: str) -> Prf:
        if rouge_type == "rougeLsum":

            def sents(text: str) -> List[Sequence[Hashable]]:
                return [tokenize(s) for s in text.split("\n") if len(s)]

            return _summary_lcs(sents(target), sents(prediction))
        t, p = tokenize(target), tokenize(prediction)
        return _score_lcs(t, p) if rouge_type == "rougeL" else _score_ngrams(t, p, int(rouge_type[5:]))

    out = []
    for refs, pred in pairs:
        scores = [one(r, pred) for r in refs]
        out.append(scores[int(np.argmax([s[2] for s in scores]))])
    return out


def _engine_scores(rouge_type: str, pairs: List[Tuple[List[str], str]], use_stemmer: bool) -> List[Prf]:
    """hauser's engine for rouge-score's own tokenizer: its P/R/F, with rouge-score's literal 0s
    for ROUGE-L and -Lsum where the best reference (the first of several at F = 0) or the
    prediction has no token."""
    metric = _metrics.Metric(rouge_type, use_stemmer=use_stemmer)
    details = per_reference_count(
        pairs, lambda hyps, refs: metric.sentence_details(hyps, refs, refs_per_hyp=True)
    )
    out: List[Prf] = []
    for (refs, pred), d in zip(pairs, details):
        prf: Prf = (d["precision"], d["recall"], d["fmeasure"])
        if (
            rouge_type in ("rougeL", "rougeLsum")
            and d["fmeasure"] == 0
            and not (_hauser.rouge_tokens(refs[0], use_stemmer) and _hauser.rouge_tokens(pred, use_stemmer))
        ):
            prf = (0, 0, 0)
        out.append(prf)
    return out


def per_reference_count(
    pairs: Sequence[Tuple[List[str], str]], score: Callable[[List[str], List[List[str]]], Sequence[T]]
) -> List[T]:
    """``score(predictions, their reference lists)`` of ``pairs`` in their order, called once per
    number of references (hauser's engine takes the same number for every prediction of a call,
    evaluate's scripts any number)."""
    groups: Dict[int, List[int]] = {}
    for i, (refs, _) in enumerate(pairs):
        groups.setdefault(len(refs), []).append(i)
    out: List[Any] = [None] * len(pairs)
    for idx in groups.values():
        for i, v in zip(idx, score([pairs[i][1] for i in idx], [pairs[i][0] for i in idx])):
            out[i] = v
    return out


def _bootstrap_mid_f(scores: List[Prf], rng: "np.random.RandomState") -> Any:
    """rouge-score's ``BootstrapAggregator().aggregate()[type].mid.fmeasure``."""
    matrix = np.vstack(tuple(scores))
    n_samples = 1000
    sample_mean = np.zeros((n_samples, matrix.shape[1]))
    for i in range(n_samples):
        sample_idx = rng.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
        sample_mean[i, :] = np.mean(matrix[sample_idx, :], axis=0)
    delta = (1 - 0.95) / 2
    return np.percentile(sample_mean, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)[1, 2]


def rouge_compute(
    seed: Any,
    predictions: List[str],
    references: List[Any],
    rouge_types: Optional[List[str]] = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Optional[Tokenizer] = None,
) -> Dict[str, Any]:
    """evaluate's rouge ``_compute``, its bootstrap drawn from ``seed``."""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], (list, tuple))  # (tuples: lists after evaluate's casting)
    pairs = [(list(ref) if multi_ref else [ref], pred) for ref, pred in zip(references, predictions)]
    if not pairs:
        if use_aggregator:
            return {}
        raise IndexError("list index out of range")
    # rouge-score's errors, in the order its first pair raises them: a prediction without
    # references before its first score, an unknown type at it.
    for refs, _ in pairs:
        if not refs:
            raise ValueError("attempt to get argmax of an empty sequence")
        for rouge_type in rouge_types:
            _check_type(rouge_type)
        break
    per_type: Dict[str, List[Prf]] = {}
    for rouge_type in rouge_types:
        if rouge_type in per_type:
            continue
        if tokenizer is not None:
            per_type[rouge_type] = _python_scores(rouge_type, pairs, tokenizer)
        elif rouge_type in _ENGINE_TYPES:
            per_type[rouge_type] = _engine_scores(rouge_type, pairs, use_stemmer)
        else:
            per_type[rouge_type] = _python_scores(
                rouge_type, pairs, lambda s: _hauser.rouge_tokens(s, use_stemmer)
            )
    if not use_aggregator:
        return {k: [s[2] for s in v] for k, v in per_type.items()}
    rng = np.random.RandomState(seed)
    return {k: _bootstrap_mid_f(v, rng) for k, v in per_type.items()}
