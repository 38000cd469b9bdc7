"""BLEURT's ``score`` module: ``BleurtScorer(checkpoint).score(references=..., candidates=...,
batch_size=...)`` returns a list of floats, one per candidate, for every BLEURT form hauser
loads (a bleurt-pytorch checkpoint folder: BLEURT on BERT, BLEURT-20 and its distilled forms).

As in BLEURT, positional arguments to ``score`` and references and candidates of different
lengths are errors. ``batch_size`` is the engine's batch (BLEURT's default: 16); the numbers
do not depend on it. Refused with a ``ValueError``: ``checkpoint=None`` (BLEURT would fetch its
test checkpoint; name a local folder) and ``predict_fn`` (hauser runs its own model).
``LengthBatchingBleurtScorer`` is the same scorer (hauser never pads, so sorting by length
changes nothing); ``SavedModelBleurtScorer`` (TensorFlow SavedModels) is not available.
"""

from typing import Any, Dict, Iterable, List, Optional

from ... import _hauser

__all__ = ["BleurtScorer", "LengthBatchingBleurtScorer"]

DEFAULT_BATCH_SIZE = 16


class BleurtScorer:
    """A BLEURT checkpoint, loaded once."""

    def __init__(self, checkpoint: Optional[str] = None, predict_fn: Any = None) -> None:
        if not _hauser.NEURAL:
            raise RuntimeError("hauser.compat.bleurt needs a wheel built with the neural metrics")
        if checkpoint is None:
            raise ValueError("checkpoint: name a local BLEURT checkpoint folder (bleurt-pytorch form)")
        if predict_fn is not None:
            raise ValueError("predict_fn: hauser runs its own model")
        self.checkpoint = checkpoint
        self._engines: Dict[int, Any] = {}
        self._engine(DEFAULT_BATCH_SIZE)

    def _engine(self, batch_size: int) -> Any:
        if batch_size not in self._engines:
            self._engines[batch_size] = _hauser.BLEURT(self.checkpoint, batch_size=batch_size)
        return self._engines[batch_size]

    def score(
        self,
        *args: Any,
        references: Iterable[str] = (),
        candidates: Iterable[str] = (),
        batch_size: Optional[int] = None,
    ) -> List[float]:
        """One score per candidate against its reference."""
        if args:
            raise AssertionError(
                "The score function does not accept positional arguments. Please specify the name of "
                "the arguments explicitly, i.e., `score(references=..., candidates=...`)"
            )
        candidates, references = list(candidates), list(references)
        if len(references) != len(candidates):
            raise AssertionError(
                "The number of candidate sentences must match the number of reference sentences."
            )
        if not candidates:
            return []
        engine = self._engine(batch_size or DEFAULT_BATCH_SIZE)
        return [float(s) for s in engine.score(references=references, candidates=candidates)]


class LengthBatchingBleurtScorer(BleurtScorer):
    """BLEURT's length-batching scorer: the same numbers (hauser does not pad)."""


def __dir__() -> List[str]:
    return sorted(__all__)
