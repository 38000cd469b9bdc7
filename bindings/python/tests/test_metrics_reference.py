"""hauser.metrics against the reference packages installed next to it (sacreBLEU 2.4.3,
rouge-score 0.1.2, NLTK 3.10.4), on the Rust golden tests' corpus, within their tolerance
(1e-9). NLTK's Punkt model is the converted one the Rust port embeds
(figlang-metrics/data/punkt_english, see docs/METRICS.md)."""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pytest

from hauser import metrics as M

from conftest import ROOT, TEXT_TOL

sacrebleu = pytest.importorskip("sacrebleu")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
nltk = pytest.importorskip("nltk")


@pytest.fixture(scope="module")
def word_tokenize(tmp_path_factory):
    root = tmp_path_factory.mktemp("nltk_data")
    # A copy: NLTK refuses data files outside its data roots.
    shutil.copytree(ROOT / "figlang-metrics" / "data" / "punkt_english", root / "tokenizers" / "punkt_tab" / "english")
    nltk.data.path.insert(0, str(root))
    from nltk.tokenize import word_tokenize

    return word_tokenize


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"tokenize": "intl"},
        {"tokenize": "char", "lowercase": True},
        {"tokenize": "zh"},
        {"tokenize": "none", "smooth_method": "floor", "smooth_value": 0.2},
        {"smooth_method": "add-k", "smooth_value": 1},
        {"smooth_method": "none"},
        {"use_effective_order": True},
    ],
)
def test_corpus_bleu_equals_sacrebleu(single, multi, kwargs):
    for hyps, streams in ((single[0], [single[1]]), multi):
        ours = M.corpus_bleu(hyps, streams, **kwargs)
        ref = sacrebleu.corpus_bleu(hyps, streams, **kwargs)
        assert abs(float(ours) - ref.score) <= TEXT_TOL
        assert ours.counts == ref.counts and ours.totals == ref.totals
        assert ours.sys_len == ref.sys_len and ours.ref_len == ref.ref_len
        assert abs(ours.bp - ref.bp) <= TEXT_TOL
        assert np.allclose(ours.precisions, ref.precisions, atol=TEXT_TOL, rtol=0)


def test_sentence_bleu_sacrebleu_variant_equals_sacrebleu(single):
    hyps, refs = single
    ours = M.Metric("bleu").sentence(hyps, refs)
    ref = [sacrebleu.sentence_bleu(h, [r]).score / 100 for h, r in zip(hyps, refs)]
    assert np.allclose(ours, ref, atol=TEXT_TOL, rtol=0)
    # The same-named function is sacreBLEU's, on its scale, bit for bit.
    assert M.sentence_bleu(hyps, refs).tolist() == [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    one = M.sentence_bleu(hyps[3], [refs[3]], smooth_method="floor", lowercase=True)
    assert float(one) == sacrebleu.sentence_bleu(hyps[3], [refs[3]], smooth_method="floor", lowercase=True).score


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_lowercase_equals_sacrebleus_chrf_class(single, word_order):
    # sacreBLEU's CHRF(lowercase=) is chrF's own option (its command line's --chrf-lowercase),
    # not BLEU's -lc; its sentence_chrf/corpus_chrf functions have no such argument.
    from sacrebleu.metrics import CHRF

    hyps, refs = single
    ref = CHRF(word_order=word_order, lowercase=True)
    ours = M.sentence_chrf(hyps, refs, word_order=word_order, lowercase=True)
    want = [ref.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
    assert np.allclose(ours, want, atol=TEXT_TOL * 100, rtol=0)
    corpus = M.corpus_chrf(hyps, [refs], word_order=word_order, lowercase=True)
    assert abs(float(corpus) - ref.corpus_score(hyps, [refs]).score) <= TEXT_TOL


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"word_order": 2},
        {"char_order": 4, "word_order": 1, "beta": 1},
        {"remove_whitespace": False},
        {"eps_smoothing": True},
    ],
)
def test_chrf_equals_sacrebleu(single, multi, kwargs):
    hyps, refs = single
    ours = M.sentence_chrf(hyps, refs, **kwargs)
    ref = [sacrebleu.sentence_chrf(h, [r], **kwargs).score for h, r in zip(hyps, refs)]
    assert np.allclose(ours, ref, atol=TEXT_TOL * 100, rtol=0)
    for h, streams in ((hyps, [refs]), multi):
        c = M.corpus_chrf(h, streams, **kwargs)
        assert abs(float(c) - sacrebleu.corpus_chrf(h, streams, **kwargs).score) <= TEXT_TOL
    one = M.sentence_chrf(hyps[7], [refs[7]], **kwargs)
    assert abs(float(one) - sacrebleu.sentence_chrf(hyps[7], [refs[7]], **kwargs).score) <= TEXT_TOL * 100


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"normalized": True}, {"no_punct": True, "case_sensitive": True}, {"normalized": True, "asian_support": True}],
)
def test_ter_equals_sacrebleu(single, multi, kwargs):
    from sacrebleu.metrics import TER

    hyps, refs = single
    ter = TER(**kwargs)
    assert np.allclose(
        M.sentence_ter(hyps, refs, **kwargs), [ter.sentence_score(h, [r]).score for h, r in zip(hyps, refs)],
        atol=TEXT_TOL * 100, rtol=0,
    )
    for h, streams in ((hyps, [refs]), multi):
        assert abs(float(M.corpus_ter(h, streams, **kwargs)) - sacrebleu.corpus_ter(h, streams, **kwargs).score) <= TEXT_TOL


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_rouge_equals_rouge_score(corpus, use_stemmer):
    kinds = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(kinds, use_stemmer=use_stemmer)
    hyps = [h for h, _ in corpus]
    refs = [r for _, r in corpus]
    for kind in kinds:
        ours = M.Metric(kind, use_stemmer=use_stemmer).sentence_details(
            hyps, [[r[0] for r in refs]]
        )
        for h, r, d in zip(hyps, refs, ours):
            s = scorer.score(r[0], h)[kind]
            assert abs(d["precision"] - s.precision) <= TEXT_TOL
            assert abs(d["recall"] - s.recall) <= TEXT_TOL
            assert abs(d["fmeasure"] - s.fmeasure) <= TEXT_TOL
    # Several references: rouge-score's score_multi keeps the best F.
    for h, r in corpus:
        if len(r) > 1:
            one = M.rouge(h, r, kind="rougeL", use_stemmer=use_stemmer)
            assert abs(float(one) - scorer.score_multi(r, h)["rougeL"].fmeasure) <= TEXT_TOL


def test_sentence_bleu_equals_nltk(corpus, word_tokenize):
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

    sf = SmoothingFunction()
    items = [(h, r) for h, r in corpus if h.strip()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for smoothing, weights in (("method1", (0.25,) * 4), ("method4", (0.5, 0.5)), ("method0", (1 / 3,) * 3)):
            for h, r in items:
                ref = sentence_bleu(
                    [word_tokenize(x) for x in r],
                    word_tokenize(h),
                    weights=weights,
                    smoothing_function=getattr(sf, smoothing),
                )
                ours = M.nltk_sentence_bleu(h, r, weights=weights, smoothing=smoothing)
                assert abs(float(ours) - ref) <= TEXT_TOL, (h, r, smoothing)
        hyps = [h for h, r in items if len(r) == 1]
        refs = [r[0] for h, r in items if len(r) == 1]
        ref = corpus_bleu([[word_tokenize(r)] for r in refs], [word_tokenize(h) for h in hyps])
        ours = M.Metric("sentbleu", corpus=True, smooth_method="method0").corpus(hyps, [refs])
        assert abs(float(ours) - ref) <= TEXT_TOL


def test_self_bleu_equals_nltk(corpus, word_tokenize):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    texts = [h for h, _ in corpus][:30]
    toks = [word_tokenize(t) for t in texts]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = [
            sentence_bleu([t for j, t in enumerate(toks) if j != i], toks[i], smoothing_function=SmoothingFunction().method1)
            for i in range(len(toks))
        ]
    assert np.allclose(M.self_bleu(texts, per_text=True), ref, atol=TEXT_TOL, rtol=0)
    assert abs(float(M.self_bleu(texts)) - np.mean(ref)) <= TEXT_TOL


@pytest.mark.parametrize("name,cls", [("bleu", "BLEU"), ("chrf", "CHRF"), ("ter", "TER")])
def test_confidence_equals_sacrebleu(single, name, cls):
    """sacreBLEU's bootstrap interval (`corpus_score(..., n_bootstrap=N)`, SACREBLEU_SEED
    unset: seed 12345): the same mean and half-width."""
    import os

    if "SACREBLEU_SEED" in os.environ:
        pytest.skip("SACREBLEU_SEED is set: sacreBLEU would not use the default seed")
    hyps, refs = single[0][:100], single[1][:100]
    ours = M.Metric(name).confidence(hyps, refs, n=300)
    ref = getattr(sacrebleu.metrics, cls)().corpus_score(hyps, [refs], n_bootstrap=300)
    assert abs(ours["score"] - ref.score) <= TEXT_TOL
    assert abs(ours["confidence_mean"] - ref._mean) <= TEXT_TOL
    assert abs(ours["confidence_var"] - ref._ci) <= TEXT_TOL
