"""Drop-in replacements for the Python APIs of the reference tools, over hauser's engine:

- :mod:`hauser.compat.sacrebleu`: sacreBLEU 2.4.3's API (``corpus_bleu``, ``sentence_chrf``,
  the ``BLEU`` / ``CHRF`` / ``TER`` classes, their score and signature objects), so that
  ``import hauser.compat.sacrebleu as sacrebleu`` runs a sacreBLEU script unchanged and prints
  the same results;
- :mod:`hauser.compat.bert_score`: bert_score's ``score(cands, refs, model_type=DIR, ...)`` on
  local models (wheels built with the neural metrics);
- :mod:`hauser.compat.evaluate`: Hugging Face evaluate's ``load(name).compute(...)`` for
  ``sacrebleu``, ``bleu``, ``chrf``, ``ter``, ``rouge``, ``wer``, ``cer``, ``meteor``,
  ``comet``, ``bleurt`` and ``bertscore``;
- :mod:`hauser.compat.comet`: unbabel-comet's ``download_model``, ``load_from_checkpoint`` and
  ``predict`` (wheels built with the neural metrics);
- :mod:`hauser.compat.bleurt`: BLEURT's ``score.BleurtScorer`` (wheels built with the neural
  metrics).

``hauser.compat`` is imported on first use, so importing ``hauser`` costs nothing for it.
"""

from . import bert_score, bleurt, comet, evaluate, sacrebleu

__all__ = ["sacrebleu", "bert_score", "evaluate", "comet", "bleurt"]


def __dir__() -> "list[str]":
    return sorted(__all__)
