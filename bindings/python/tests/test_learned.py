"""BLEURT and COMET (every unbabel-comet class, with the unified classes' error spans) on the
tiny random-weight fixture models, against the reference values their generators stored
(bleurt-pytorch: tools/gen/gen_bleurt_fixture.py, tools/gen/gen_bleurt20_fixtures.py; unbabel-comet
2.2.7: tools/gen/gen_comet_fixtures.py, tools/gen/gen_comet_unified_fixtures.py), with the Rust tests'
tolerances, and against `hauser metric bleurt|comet` on the same inputs.
"""

from __future__ import annotations


import numpy as np
import pytest

import hauser

from conftest import NLI_FIXTURES, comet_samples, nli_reference, unified_cases, write_lines

pytestmark = pytest.mark.skipif(not hauser.NEURAL, reason="built without the neural feature")

TOL = 1e-4


@pytest.mark.parametrize("form", ["bleurt", "bleurt-20", "bleurt-20-d"])
def test_bleurt_matches_bleurt_pytorch(form):
    r = nli_reference(form)
    scorer = hauser.BLEURT(str(NLI_FIXTURES / form), batch_size=3)
    got = scorer.score(references=r["references"], candidates=r["candidates"])
    assert isinstance(got, np.ndarray) and got.shape == (len(r["scores"]),)
    assert np.allclose(got, r["scores"], atol=TOL, rtol=0)
    assert scorer.signature.startswith("bleurt|model:")
    with pytest.raises(ValueError, match="references for"):
        scorer.score(references=r["references"][:2], candidates=r["candidates"])


@pytest.mark.parametrize("model,mode", unified_cases())
def test_comet_predict_matches_unbabel_comet(model, mode):
    r = nli_reference("comet-unified")
    want = r["models"][model][mode]
    comet = hauser.COMET(str(NLI_FIXTURES / "comet-unified" / model), batch_size=4)
    out = comet.predict(comet_samples(r, mode))
    assert isinstance(out.scores, np.ndarray)
    assert np.allclose(out.scores, want["scores"], atol=TOL, rtol=0)
    assert out["system_score"] == pytest.approx(float(np.mean(out.scores)))
    if "error_spans" in want:
        assert len(out.metadata.error_spans) == len(want["error_spans"])
        for got, exp in zip(out.metadata.error_spans, want["error_spans"]):
            assert [(s["text"], s["severity"], s["start"], s["end"]) for s in got] == [
                (s["text"], s["severity"], s["start"], s["end"]) for s in exp
            ]
            assert np.allclose([s["confidence"] for s in got], [s["confidence"] for s in exp], atol=TOL)
    else:
        assert "error_spans" not in out.metadata
    if "mqm_scores" in want:
        assert np.allclose(out.metadata.mqm_scores, want["mqm_scores"], atol=1e-6)
    assert out.signature.startswith("comet|model:")


def test_comet_estimator_classes_and_score():
    r = nli_reference("comet")
    rows = [{"src": s, "mt": m, "ref": f} for s, m, f in zip(r["src"], r["mt"], r["ref"])]
    for name in ("estimator", "regression", "cls"):
        comet = hauser.COMET(str(NLI_FIXTURES / "comet" / name))
        assert np.allclose(comet.predict(rows).scores, r["models"][name]["scores"], atol=TOL)
        got = comet.score(r["mt"], sources=r["src"], references=r["ref"])
        assert np.allclose(got, r["models"][name]["scores"], atol=TOL)
    qe = hauser.COMET(str(NLI_FIXTURES / "comet" / "qe"))
    assert np.allclose(qe.score(r["mt"], sources=r["src"]), r["models"]["qe"]["scores"], atol=TOL)


def test_comet_refuses_malformedcomet_samples():
    comet = hauser.COMET(str(NLI_FIXTURES / "comet-unified" / "kiwi"))
    with pytest.raises(ValueError, match="unknown key"):
        comet.predict([{"mt": "a", "hyp": "b"}])
    with pytest.raises(ValueError, match="all or none"):
        comet.predict([{"mt": "a", "src": "b"}, {"mt": "c"}])
    with pytest.raises(ValueError, match="needs \"mt\""):
        comet.predict([{"src": "b"}])
    needs_ref = hauser.COMET(str(NLI_FIXTURES / "comet-unified" / "unified-ref"))
    with pytest.raises(ValueError, match="references"):
        needs_ref.predict([{"mt": "a"}])


def test_comet_equals_the_command_line(cli, tmp_path):
    r = nli_reference("comet-unified")
    model = NLI_FIXTURES / "comet-unified" / "xcomet"
    files = {k: write_lines(tmp_path / f"{k}.txt", r[k]) for k in ("src", "mt", "ref")}
    lines = cli.jsonl(
        ["metric", "comet", "--model", str(model), "--src", str(files["src"]), "--hyp", str(files["mt"]),
         "--ref", str(files["ref"]), "--sentence", "--format", "jsonl"]
    )
    out = hauser.COMET(str(model)).predict(comet_samples(r, "src+ref"))
    assert [line["score"] for line in lines] == pytest.approx(list(out.scores), abs=1e-6)
    assert [line["error_spans"] for line in lines] == [
        [dict(s, confidence=pytest.approx(s["confidence"], abs=1e-6)) for s in spans]
        for spans in out.metadata.error_spans
    ]
    assert lines[0]["signature"] == out.signature


def _metricx_cases():
    out = []
    for fixture in ("metricx", "metricx-relu"):
        r = nli_reference(fixture)
        out += [pytest.param(fixture, mode, id=f"{fixture}-{mode}") for mode in r["modes"]]
    return out


@pytest.mark.parametrize("fixture,mode", _metricx_cases())
def test_metricx_matches_the_metricx_repository(fixture, mode):
    r = nli_reference(fixture)
    want = r["modes"][mode]
    version = int(mode[:2])
    with_ref = not want["qe"]
    with_src = not with_ref or (version == 24 and "nosrc" not in mode)
    hyps = [t["hypothesis"] for t in r["triples"]]
    srcs = [t["source"] for t in r["triples"]] if with_src else None
    refs = [t["reference"] for t in r["triples"]] if with_ref else None
    m = hauser.MetricX(
        str(NLI_FIXTURES / fixture), version=version, max_input_length=r["meta"]["max_input_length"], batch_size=3
    )
    got = m.score(hyps, sources=srcs, references=refs)
    assert isinstance(got, np.ndarray)
    assert np.allclose(got, want["scores"], atol=TOL, rtol=0)
    assert "better:lower" in m.signature
    with pytest.raises(ValueError, match="version"):
        hauser.MetricX(str(NLI_FIXTURES / fixture), version=25)
