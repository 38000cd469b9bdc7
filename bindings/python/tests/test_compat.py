"""The drop-in APIs (``hauser.compat.sacrebleu``, ``hauser.compat.bert_score``) and the native
API's sacreBLEU names, against the real packages:

- a sacreBLEU script run once with ``import sacrebleu`` and once with ``import
  hauser.compat.sacrebleu as sacrebleu`` prints the same bytes (sacreBLEU 2.4.3 from
  tools/requirements-python-tests.txt);
- ``hauser.compat.bert_score.score`` gives bert_score 0.3.13's numbers of the committed
  fixture (tools/gen/gen_neural_metric_fixtures.py), within its 1e-5;
- ``hauser.metrics``: ``sentence_*`` on sacreBLEU's scale, ``refs_per_hyp``, ``str()``,
  ``force``, ``dir()``.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hauser
import hauser.metrics as M

from conftest import METRIC_FIXTURES, NLI_FIXTURES

sacrebleu = pytest.importorskip("sacrebleu")

# A script as users write them: the function API, the classes, signatures, formatting,
# bootstrap, reference caching, chrF++ and TER options, sentence scores.
SCRIPT = textwrap.dedent(
    """
    import json, sys
    sacrebleu = __import__(sys.argv[1], fromlist=["BLEU"])
    from importlib import import_module
    metrics = import_module(sys.argv[1] + ".metrics")
    BLEU, CHRF, TER = metrics.BLEU, metrics.CHRF, metrics.TER
    data = json.load(open(sys.argv[2]))
    hyps, refs = data["hyps"], data["refs"]
    print(sacrebleu.corpus_bleu(hyps, refs))
    print(sacrebleu.corpus_bleu(hyps, refs, lowercase=True, tokenize="intl", smooth_method="floor", smooth_value=0.2))
    print(sacrebleu.raw_corpus_bleu(hyps, refs))
    print(sacrebleu.corpus_chrf(hyps, refs), sacrebleu.corpus_chrf(hyps, refs, word_order=2, beta=1))
    print(sacrebleu.corpus_ter(hyps, refs), sacrebleu.corpus_ter(hyps, refs, normalized=True, no_punct=True))
    for h, r in zip(hyps[:25], zip(*refs)):
        print(sacrebleu.sentence_bleu(h, list(r)), sacrebleu.sentence_chrf(h, list(r)), sacrebleu.sentence_ter(h, list(r)))
        print(sacrebleu.sentence_bleu(h, list(r), smooth_method="add-k", use_effective_order=False).score)
    for m in (BLEU(), BLEU(tokenize="char", max_ngram_order=2), BLEU(effective_order=True, smooth_method="none"),
              CHRF(), CHRF(word_order=2, lowercase=True, whitespace=True), CHRF(eps_smoothing=True),
              TER(), TER(case_sensitive=True, asian_support=True)):
        s = m.corpus_score(hyps, refs)
        sig = m.get_signature()
        print(s, "|", sig, "|", sig.format(short=True))
        print(s.format(width=4, signature=sig.format(short=True)))
        print(s.format(signature=str(sig), is_json=True))
        print(s.score, s.format(score_only=True))
        b = m.corpus_score(hyps, refs, n_bootstrap=200)
        print(b, m.get_signature(), b.format(width=3, is_json=True, signature=str(m.get_signature())))
        print(m.sentence_score(hyps[0], [r[0] for r in refs]))
    b = sacrebleu.corpus_bleu(hyps, refs)
    print(b.counts, b.totals, b.precisions, b.bp, b.sys_len, b.ref_len, b.ratio, b.prec_str, b.name)
    c = sacrebleu.corpus_chrf(hyps, refs, word_order=2)
    print(c.name, c.char_order, c.word_order, c.beta)
    t = sacrebleu.corpus_ter(hyps, refs)
    print(t.num_edits, t.ref_length, t.name)
    cached = BLEU(references=refs)
    print(cached.corpus_score(hyps, None), cached.get_signature())
    try:
        BLEU().get_signature()
    except ValueError as e:
        print("ValueError", e)
    for bad in (lambda: BLEU().sentence_score(hyps, refs[0]), lambda: CHRF().corpus_score(hyps, [[1, 2]]),
                lambda: TER().corpus_score([None] + hyps[1:], refs), lambda: BLEU().corpus_score(hyps, None)):
        try:
            bad()
        except (TypeError, RuntimeError) as e:
            print(type(e).__name__, e)
    """
)


def _run(module: str, script, data) -> str:
    out = subprocess.run([sys.executable, str(script), module, str(data)], capture_output=True, text=True, check=True)
    return out.stdout


def test_a_sacrebleu_script_prints_the_same_through_compat(tmp_path, multi, monkeypatch):
    hyps, streams = multi
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"hyps": hyps, "refs": streams}))
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    for seed in ("12345", "7"):
        monkeypatch.setenv("SACREBLEU_SEED", seed)
        want = _run("sacrebleu", script, data)
        got = _run("hauser.compat.sacrebleu", script, data)
        assert got == want
    assert "version:2.4.3" in got and "μ = " in got


def test_compat_scores_equal_sacrebleu_on_the_corpus(single):
    import hauser.compat.sacrebleu as compat

    hyps, refs = single
    for ours, ref in (
        (compat.corpus_bleu(hyps, [refs]), sacrebleu.corpus_bleu(hyps, [refs])),
        (compat.corpus_chrf(hyps, [refs], word_order=2), sacrebleu.corpus_chrf(hyps, [refs], word_order=2)),
        (compat.corpus_ter(hyps, [refs], normalized=True), sacrebleu.corpus_ter(hyps, [refs], normalized=True)),
    ):
        assert ours.score == ref.score and str(ours) == str(ref)


def test_add_k_counts_and_totals_are_sacrebleus():
    """sacreBLEU's compute_bleu adds add-k's value to the counts and totals of its score
    (orders 2 and up): ints plus k, floats when k is a float, up to the first empty order."""
    from hauser.compat.sacrebleu.metrics import BLEU

    cases = [
        (["the cat sat on a mat"], [["the cat sat on the mat"]]),
        (["x"], [["the cat"]]),
        (["the cat sat"], [["the cat sat"]]),
    ]
    for kw in (
        {"smooth_method": "add-k"},
        {"smooth_method": "add-k", "smooth_value": 0.5},
        {"smooth_method": "add-k", "smooth_value": 0},
        {"smooth_method": "add-k", "smooth_value": 0.0},
        {"smooth_method": "add-k", "smooth_value": 2, "max_ngram_order": 6},
        {"smooth_method": "floor"},
    ):
        for hyps, refs in cases:
            want = sacrebleu.metrics.BLEU(**kw).corpus_score(hyps, refs)
            got = BLEU(**kw).corpus_score(hyps, refs)
            assert (repr(got.counts), repr(got.totals)) == (repr(want.counts), repr(want.totals)), kw


def test_ter_tokenizes_references_twice_as_sacrebleu_does():
    """sacreBLEU preprocesses TER references twice and hypotheses once: with `normalized`,
    `it's,` is two words in a hypothesis and three in a reference."""
    import hauser.compat.sacrebleu as compat

    for hyp, ref in (("it's,", "it's,"), ("it 's , ok", "it's, ok"), ("a ,.1", "a ,.1")):
        want = sacrebleu.sentence_ter(hyp, [ref], normalized=True)
        got = compat.sentence_ter(hyp, [ref], normalized=True)
        assert (got.score, got.num_edits, got.ref_length) == (want.score, want.num_edits, want.ref_length)
    assert compat.sentence_ter("it's,", ["it's,"], normalized=True).num_edits == 2


def test_compat_refuses_what_sacrebleu_would_score_silently(single):
    import hauser.compat.sacrebleu as compat

    hyps, refs = single
    with pytest.raises(ValueError, match="reference list 1 has"):
        compat.corpus_bleu(hyps, [refs[:-1]])
    with pytest.raises(TypeError, match="None"):
        compat.corpus_bleu(hyps[:2], [refs[:2], [refs[0], None]])
    with pytest.raises(ValueError, match="MeCab|SentencePiece"):
        compat.BLEU(tokenize="ja-mecab")
    assert "metrics" in dir(compat) and "corpus_bleu" in dir(compat) and "json" not in dir(compat)


def test_compat_force_and_warnings(caplog):
    import hauser.compat.sacrebleu as compat

    hyps = ["a tokenized line ."] * 100
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        compat.corpus_bleu(hyps, [hyps])
    assert "100 lines that end in a tokenized period" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        compat.corpus_bleu(hyps, [hyps], force=True)
        compat.BLEU(effective_order=True).sentence_score("a b", ["a b"])
    assert caplog.text == ""
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        compat.BLEU().sentence_score("a b", ["a b"])
    assert "effective_order" in caplog.text


def test_native_sentence_functions_are_sacrebleus(single):
    hyps, refs = single
    assert M.sentence_bleu(hyps, refs).tolist() == [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    assert M.sentence_chrf(hyps, refs).tolist() == [sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, refs)]
    assert M.sentence_ter(hyps, refs).tolist() == [sacrebleu.sentence_ter(h, [r]).score for h, r in zip(hyps, refs)]
    one = M.sentence_bleu(hyps[5], [refs[5]])
    assert isinstance(one, hauser.Score) and str(one) == str(sacrebleu.sentence_bleu(hyps[5], [refs[5]]))
    assert one.scale == "0-100" and one.counts == sacrebleu.sentence_bleu(hyps[5], [refs[5]]).counts
    assert str(M.sentence_chrf(hyps[5], refs[5])) == str(sacrebleu.sentence_chrf(hyps[5], [refs[5]]))
    assert str(M.sentence_ter(hyps[5], refs[5])) == str(sacrebleu.sentence_ter(hyps[5], [refs[5]]))
    corpus = M.corpus_bleu(hyps, [refs])
    assert str(corpus) == str(sacrebleu.corpus_bleu(hyps, [refs]))
    # Metrics without a sacreBLEU line print their number.
    r = M.rouge(hyps[0], refs[0])
    assert str(r) == repr(float(r))


def test_force_is_honoured(caplog):
    hyps = ["a tokenized line ."] * 120
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        M.corpus_bleu(hyps, [hyps])
    assert "tokenized period" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        M.corpus_bleu(hyps, [hyps], force=True)
    assert caplog.text == ""


def test_per_hypothesis_reference_lists_are_read_or_refused_never_guessed():
    hyps = ["the cat sat", "a dog ran"]
    refs_a = ["the cat sat down", "a dog ran away"]
    refs_b = ["a cat sat", "the dog ran"]
    streams = [refs_a, refs_b]
    per_hyp = [[refs_a[0], refs_b[0]], [refs_a[1], refs_b[1]]]
    want = M.sentence_chrf(hyps, streams, refs_per_hyp=False)
    # Square (2 lists of 2 for 2 hypotheses): either reading fits, so the call says so.
    with pytest.raises(ValueError, match="refs_per_hyp"):
        M.sentence_chrf(hyps, per_hyp)
    with pytest.raises(ValueError, match="refs_per_hyp"):
        M.corpus_bleu(hyps, per_hyp)
    assert M.sentence_chrf(hyps, per_hyp, refs_per_hyp=True).tolist() == want.tolist()
    assert float(M.corpus_bleu(hyps, per_hyp, refs_per_hyp=True)) == float(
        M.corpus_bleu(hyps, streams, refs_per_hyp=False)
    )
    # Three references each: only the per-hypothesis reading fits.
    three = [r + ["x y z"] for r in per_hyp]
    assert M.Metric("chrf").sentence(hyps, three).tolist() == M.Metric("chrf").sentence(
        hyps, [refs_a, refs_b, ["x y z"] * 2]
    ).tolist()
    with pytest.raises(ValueError, match="different numbers of references"):
        M.sentence_chrf(hyps, [["a"], ["b", "c"]], refs_per_hyp=True)
    with pytest.raises(ValueError, match="one column"):
        M.sentence_chrf(hyps, refs_a, refs_per_hyp=True)


def test_dir_lists_only_the_api():
    assert set(dir(M)) == set(M.__all__)
    assert "np" not in dir(M) and "lru_cache" not in dir(M) and "nltk_sentence_bleu" in dir(M)
    import hauser.stats as S

    assert set(dir(S)) == set(S.__all__)
    assert "_hauser" not in dir(hauser) and "compat" in dir(hauser) and "metrics" in dir(hauser)
    from hauser import compat

    assert dir(compat) == ["bert_score", "bleurt", "comet", "evaluate", "sacrebleu"]


@pytest.mark.skipif(not hauser.NEURAL, reason="built without the neural feature")
def test_compat_bert_score_equals_bert_scores_fixture():
    from hauser.compat.bert_score import score

    fx = json.loads((METRIC_FIXTURES / "neural_bertscore.json").read_text())
    tol = fx["tolerance"]
    checked = 0
    for case in fx["cases"]:
        d = NLI_FIXTURES / case["model"]
        if not d.exists() or case["prefix_space"] is not None:
            continue
        baseline = METRIC_FIXTURES / case["baseline"] if case["baseline"] else None
        out = score(
            fx["candidates"],
            fx["references"],
            model_type=str(d),
            num_layers=case["layer"],
            idf=case["idf"],
            lang="en",
            rescale_with_baseline=baseline is not None,
            baseline_path=str(baseline) if baseline else None,
            return_hash=True,
        )
        (P, R, F), h = out
        for got, key in ((P, "precision"), (R, "recall"), (F, "f1")):
            assert np.allclose(got.numpy(), case[key], atol=tol, rtol=0), key
        assert float(F.mean()) == pytest.approx(float(np.mean(case["f1"])), abs=tol)
        assert h.startswith(f"{d}_L{case['layer']}_{'idf' if case['idf'] else 'no-idf'}_version=0.3.12(hug_trans=hauser-")
        checked += 1
    assert checked >= 2
    with pytest.raises(ValueError, match="baseline_path"):
        score(["a"], ["a"], model_type=str(NLI_FIXTURES / "bert"), num_layers=1, lang="en", rescale_with_baseline=True)
    with pytest.raises(ValueError, match="all_layers"):
        score(["a"], ["a"], model_type=str(NLI_FIXTURES / "bert"), num_layers=1, all_layers=True)
    with pytest.raises(AssertionError, match="Different number"):
        score(["a", "b"], ["a"], model_type=str(NLI_FIXTURES / "bert"), num_layers=1)
