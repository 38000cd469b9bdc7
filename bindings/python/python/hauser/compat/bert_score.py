"""bert_score 0.3.13's ``score`` function on hauser's BERTScore (:class:`hauser.BERTScorer`):
``from hauser.compat.bert_score import score`` and ``P, R, F = score(cands, refs,
model_type=DIR, num_layers=L)`` gives bert_score's numbers on a local model directory (or a
hub name, where the network allows).

``P``, ``R`` and ``F`` are NumPy arrays with the few tensor methods scripts call on
bert_score's results (``.cpu()``, ``.numpy()``, ``.detach()``; ``.mean()``, ``.item()`` and
``.tolist()`` are NumPy's own). Differences, on purpose: ``rescale_with_baseline`` needs
``baseline_path`` (bert_score's packaged baseline files are not shipped; bert_score itself
warns and leaves the scores unscaled when one is missing, this refuses); ``idf`` as a
precomputed dict and ``all_layers=True`` are refused; ``verbose`` and ``nthreads`` change no
number and are accepted; ``use_fast_tokenizer`` is accepted (hauser always runs the model's
``tokenizer.json``) and recorded in the hash, as bert_score records it. Needs a wheel built
with the neural metrics (``hauser.NEURAL``).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = ["score", "get_hash", "BERT_SCORE_VERSION"]

#: The bert_score release whose behaviour :func:`score` reproduces.
BERT_SCORE_VERSION = "0.3.13"
# What that release writes as its version in hashes (its `__version__` was left at 0.3.12).
_HASH_VERSION = "0.3.12"


def __dir__() -> List[str]:
    return sorted(__all__)


class _Scores(np.ndarray):
    """A float array answering the tensor calls scripts make on bert_score's outputs."""

    def cpu(self) -> "_Scores":
        return self

    def detach(self) -> "_Scores":
        return self

    def numpy(self) -> np.ndarray:
        return self.view(np.ndarray)


def _scores(values: Any) -> _Scores:
    return np.asarray(values, dtype=np.float64).view(_Scores)


def get_hash(
    model: str,
    num_layers: int,
    idf: bool,
    rescale_with_baseline: bool,
    use_custom_baseline: bool,
    use_fast_tokenizer: bool,
) -> str:
    """bert_score's setting string, ``MODEL_L{layer}_{idf|no-idf}_version=0.3.12(hug_trans=...)``
    (0.3.13 prints 0.3.12), with hauser's version where bert_score names transformers' (as
    ``hauser bert-score`` prints it)."""
    from .. import __version__

    msg = "{}_L{}{}_version={}(hug_trans=hauser-{})".format(
        model, num_layers, "_idf" if idf else "_no-idf", _HASH_VERSION, __version__
    )
    if rescale_with_baseline:
        msg += "-custom-rescaled" if use_custom_baseline else "-rescaled"
    if use_fast_tokenizer:
        msg += "_fast-tokenizer"
    return msg


def score(
    cands: Sequence[str],
    refs: Sequence[Union[str, Sequence[str]]],
    model_type: Optional[str] = None,
    num_layers: Optional[int] = None,
    verbose: bool = False,
    idf: bool = False,
    device: Optional[str] = None,
    batch_size: int = 64,
    nthreads: int = 4,
    all_layers: bool = False,
    lang: Optional[str] = None,
    return_hash: bool = False,
    rescale_with_baseline: bool = False,
    baseline_path: Optional[str] = None,
    use_fast_tokenizer: bool = False,
) -> Any:
    """BERTScore P, R, F of each candidate against its reference (or the best of its list of
    references), as bert_score's ``score``; ``((P, R, F), hash)`` with ``return_hash``."""
    from .. import NEURAL

    del verbose, nthreads  # progress printing and tokenizer threads: no number depends on them
    assert len(cands) == len(refs), "Different number of candidates and references"
    assert lang is not None or model_type is not None, "Either lang or model_type should be specified"
    if rescale_with_baseline:
        assert lang is not None, "Need to specify Language when rescaling with baseline"
    if not NEURAL:
        raise RuntimeError("hauser.compat.bert_score needs a wheel built with the neural metrics")
    if model_type is None:
        raise ValueError(
            f"lang={lang!r} without model_type: give model_type (a local model directory or a hub "
            "name); bert_score's language-to-model table is not reproduced"
        )
    if all_layers:
        raise ValueError("all_layers=True is not supported: score one layer per call (num_layers)")
    if isinstance(idf, dict):
        raise ValueError("idf as a precomputed dict is not supported: pass idf=True (from the references)")
    if rescale_with_baseline and baseline_path is None:
        raise ValueError(
            "rescale_with_baseline needs baseline_path (bert_score's packaged baseline files are not shipped)"
        )
    from .. import BERTScorer

    scorer = BERTScorer(
        model_type,
        layer=num_layers,
        idf=bool(idf),
        baseline=baseline_path if rescale_with_baseline else None,
        batch_size=batch_size,
        device=device or "cpu",
    )
    p, r, f = scorer.score(list(cands), list(refs))
    out: Tuple[_Scores, _Scores, _Scores] = (_scores(p), _scores(r), _scores(f))
    if return_hash:
        h = get_hash(
            model_type, scorer.layer, bool(idf), rescale_with_baseline, baseline_path is not None, use_fast_tokenizer
        )
        return out, h
    return out
