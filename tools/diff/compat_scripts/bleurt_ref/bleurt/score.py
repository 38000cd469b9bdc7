"""A stand-in for google-research/bleurt's ``bleurt.score`` where TensorFlow's BLEURT is not
installed: its ``BleurtScorer.score`` argument handling (bleurt/score.py: positional arguments
and length mismatches are AssertionErrors, an empty input is ``[]``, the scores a list of Python
floats from ``predict(...).tolist()``), with the numbers the fixture's generator stored for the
checkpoint (its reference.json: bleurt-pytorch's scores of the same pairs)."""

import json
import os


def _table(checkpoint):
    with open(os.path.join(checkpoint, "reference.json"), encoding="utf-8") as f:
        r = json.load(f)
    return {(ref, cand): s for ref, cand, s in zip(r["references"], r["candidates"], r["scores"])}


class BleurtScorer(object):
    def __init__(self, checkpoint=None, predict_fn=None):
        self._table = _table(checkpoint)

    def score(self, *args, references=[], candidates=[], batch_size=None):
        assert not args, (
            "The score function does not accept positional arguments. Please "
            "specify the name of the arguments explicitly, i.e., "
            "`score(references=..., candidates=...`)"
        )
        candidates, references = list(candidates), list(references)
        assert len(candidates) == len(references), (
            "The number of candidate sentences must match the number of reference sentences."
        )
        if not candidates:
            return []
        return [float(self._table[(r, c)]) for r, c in zip(references, candidates)]


class LengthBatchingBleurtScorer(BleurtScorer):
    pass
