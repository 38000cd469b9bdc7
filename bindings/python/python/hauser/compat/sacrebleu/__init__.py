"""sacreBLEU 2.4.3's Python API on hauser's engine: ``import hauser.compat.sacrebleu as
sacrebleu`` and an existing script runs unchanged, with the same numbers and the same printed
results.

Offered: the functions of ``sacrebleu.compat`` (``corpus_bleu``, ``raw_corpus_bleu``,
``sentence_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter``, ``sentence_ter``), the
classes of ``sacrebleu.metrics`` (``BLEU``, ``CHRF``, ``TER``: ``corpus_score`` with
``n_bootstrap``, ``sentence_score``, ``get_signature``, reference caching with
``references=``) and their score objects (``BLEUScore``, ``CHRFScore``, ``TERScore``: the same
fields, ``format()``, ``str()`` and ``repr()``). ``from hauser.compat.sacrebleu.metrics import
BLEU`` replaces ``from sacrebleu.metrics import BLEU``.

Differences, on purpose:

- hypotheses and every reference stream must have the same length (sacreBLEU silently scores
  the shortest prefix): a ``ValueError`` says which stream differs;
- undefined references (``None`` in a stream, sacreBLEU's variable number of references) are
  refused with a ``TypeError``;
- the tokenizers that need MeCab or a SentencePiece model (``ja-mecab``, ``ko-mecab``,
  ``spm``, ``flores101``, ``flores200``) are refused with a ``ValueError``; ``13a``, ``intl``,
  ``zh``, ``char`` and ``none`` are built in;
- test sets (``DATASETS``, ``download_test_set``...) are not offered: use ``hauser sacrebleu``,
  which reads sacreBLEU's cache;
- ``corpus_score(..., n_bootstrap=N)`` of chrF and TER returns its interval where sacreBLEU
  raises ``TypeError: don't know how to coerce float and float32`` (a resample that scores a
  bare zero, e.g. one with no reference word, mixed with NumPy floats; docs/DROP-IN.md).

Signatures carry ``version:2.4.3``, the sacreBLEU release whose behaviour and numbers this
module reproduces, so that they compare equal to sacreBLEU's own.
"""

from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
from .compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from .metrics import SACREBLEU_VERSION as __version__

# Written out rather than built from compat.__all__: mypy and stubtest read __all__
# statically, and a list they cannot evaluate hides the functions from them.
__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "TERScore",
    "corpus_bleu",
    "raw_corpus_bleu",
    "sentence_bleu",
    "corpus_chrf",
    "sentence_chrf",
    "corpus_ter",
    "sentence_ter",
    "__version__",
]


def __dir__() -> "list[str]":
    return sorted(__all__ + ["metrics", "compat"])
