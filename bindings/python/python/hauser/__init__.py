"""hauser: evaluation of figurative language generation and style transfer, from Python.

The engine of the ``hauser`` command-line tool (Rust), with the same numbers and signatures:

- :mod:`hauser.metrics`: chrF, BLEU (sacreBLEU and NLTK), ROUGE, METEOR, distinct-n,
  self-BLEU, per hypothesis or per corpus, over lists, NumPy, pandas or Arrow columns;
- :mod:`hauser.compat`: drop-in ``sacrebleu`` (``import hauser.compat.sacrebleu as
  sacrebleu``) and ``bert_score`` APIs;
- :mod:`hauser.stats`: correlations with SciPy's p-values, ``meta_eval``, bootstrap,
  permutation and Williams tests, Cohen/Fleiss kappa, Krippendorff's alpha;
- :class:`BERTScorer`, :class:`Perplexity`, :class:`StyleClassifier`: neural metrics on local
  models (bert_score's conventions for BERTScore);
- :class:`BLEURT`, :class:`COMET`, :class:`MetricX`: the learned MT metrics (bleurt-pytorch's
  checkpoints; every unbabel-comet 2.2.7 class, CometKiwi and XCOMET with their error spans;
  google-research/metricx's MetricX-23/24);
- :class:`KnowledgeBase`, :func:`extract` and :class:`Hauser`: HAUSER's simile criteria,
  normalisation, quality and reranking, as ``hauser score``.

>>> import hauser
>>> s = hauser.metrics.sentence_chrf("He ran like the wind.", ["He ran as fast as the wind."])
>>> print(s)
chrF2 = 43.74
"""

from . import metrics, stats
from ._hauser import NEURAL, Hauser, KnowledgeBase, __version__, extract
from ._results import Prediction, Score, ScoreArray

__all__ = [
    "metrics",
    "stats",
    "Score",
    "ScoreArray",
    "Prediction",
    "KnowledgeBase",
    "Hauser",
    "extract",
    "NEURAL",
    "__version__",
]

if NEURAL:
    from ._hauser import BLEURT, COMET, BERTScorer, MetricX, Perplexity, StyleClassifier

    __all__ += ["BERTScorer", "Perplexity", "StyleClassifier", "BLEURT", "COMET", "MetricX"]


def __dir__() -> "list[str]":
    # The API only: not the extension module or the helpers behind it.
    return sorted(__all__ + ["compat"])


def __getattr__(name: str) -> object:
    # `hauser.compat` is imported on first use, so that `import hauser` does not pay for it.
    if name == "compat":
        import importlib

        return importlib.import_module(".compat", __name__)
    raise AttributeError(f"module 'hauser' has no attribute {name!r}")
