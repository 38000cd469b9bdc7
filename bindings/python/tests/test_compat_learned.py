"""``hauser.compat.comet`` and ``hauser.compat.bleurt`` against the references their fixtures
store (unbabel-comet 2.2.7's ``predict``: tools/gen/gen_comet_fixtures.py,
tools/gen/gen_comet_unified_fixtures.py; bleurt-pytorch: tools/gen/gen_bleurt_fixture.py,
tools/gen/gen_bleurt20_fixtures.py), with comet's and BLEURT's return types; the arguments each
refuses."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

import hauser
from hauser.compat import comet
from hauser.compat.bleurt import score

from conftest import NLI_FIXTURES, comet_samples, nli_reference, unified_cases

pytestmark = pytest.mark.skipif(not hauser.NEURAL, reason="built without the neural feature")

TOL = 1e-5


@pytest.mark.parametrize("form", ["bleurt", "bleurt-20", "bleurt-20-d"])
def test_bleurt_scorer_matches_bleurt_pytorch(form):
    r = nli_reference(form)
    scorer = score.BleurtScorer(str(NLI_FIXTURES / form))
    got = scorer.score(references=r["references"], candidates=r["candidates"], batch_size=2)
    assert isinstance(got, list) and all(type(s) is float for s in got)
    assert got == pytest.approx(r["scores"], abs=TOL)
    assert score.LengthBatchingBleurtScorer(str(NLI_FIXTURES / form)).score(
        references=r["references"], candidates=r["candidates"]
    ) == pytest.approx(got, abs=1e-6)
    with pytest.raises(AssertionError):
        scorer.score(r["references"], r["candidates"])
    with pytest.raises(AssertionError):
        scorer.score(references=r["references"][:1], candidates=r["candidates"])
    with pytest.raises(ValueError):
        score.BleurtScorer()


def _ckpt(*parts: str) -> str:
    return str(NLI_FIXTURES.joinpath(*parts, "checkpoints", "model.ckpt"))


def test_comet_predict_matches_unbabel_comet():
    r = nli_reference("comet")
    rows = [{"src": s, "mt": m, "ref": f} for s, m, f in zip(r["src"], r["mt"], r["ref"])]
    for name in ("estimator", "regression"):
        model = comet.load_from_checkpoint(_ckpt("comet", name))
        out = model.predict(rows, batch_size=2, gpus=0, progress_bar=False)
        assert isinstance(out.scores, list) and all(type(s) is float for s in out.scores)
        assert out.scores == pytest.approx(r["models"][name]["scores"], abs=TOL)
        assert out["system_score"] == sum(out.scores) / len(out.scores)
        assert "metadata" not in out
        # gpus=1 with accelerator="auto" runs where comet's Lightning would: the CPU here.
        assert model.predict(rows, batch_size=8, gpus=1).scores == pytest.approx(out.scores, abs=1e-6)


@pytest.mark.parametrize("name,mode", unified_cases())
def test_comet_unified_models_and_spans(name, mode):
    r = nli_reference("comet-unified")
    want = r["models"][name][mode]
    rows = comet_samples(r, mode)
    out = comet.load_from_checkpoint(_ckpt("comet-unified", name)).predict(rows, gpus=0)
    assert out.scores == pytest.approx(want["scores"], abs=TOL)
    if "error_spans" in want:
        assert [[(s["text"], s["severity"], s["start"], s["end"]) for s in spans] for spans in out.metadata.error_spans] == [
            [(s["text"], s["severity"], s["start"], s["end"]) for s in spans] for spans in want["error_spans"]
        ]


def test_comet_ranking_and_qe_classes():
    r = nli_reference("comet")
    for name, keys in (("cls", ("src", "mt", "ref")), ("qe", ("src", "mt"))):
        rows = [dict(zip(keys, t)) for t in zip(*(r[k] for k in keys))]
        out = comet.load_from_checkpoint(_ckpt("comet", name)).predict(rows, gpus=0)
        assert out.scores == pytest.approx(r["models"][name]["scores"], abs=TOL)


def test_comet_refuses_what_it_cannot_honour(tmp_path):
    model = comet.load_from_checkpoint(_ckpt("comet", "estimator"))
    rows = [{"src": "a", "mt": "b", "ref": "c"}]
    for kwargs in ({"gpus": 2}, {"devices": [0]}, {"mc_dropout": 3}, {"gpus": 1, "accelerator": "tpu"}):
        with pytest.raises(ValueError):
            model.predict(rows, **kwargs)
    with pytest.raises(Exception, match="Invalid checkpoint path"):
        comet.load_from_checkpoint(str(tmp_path / "nothing.ckpt"))


def test_comet_prediction_prints_and_indexes_as_comet_s():
    """comet's Prediction is an OrderedDict (its ModelOutput): printed as one, values also by
    attribute and by position, and pop / update / setdefault / del refused."""
    p = comet.Prediction(scores=[0.5, 0.25], system_score=0.375)
    assert isinstance(p, collections.OrderedDict)
    assert repr(p) == repr(collections.OrderedDict(scores=[0.5, 0.25], system_score=0.375)).replace(
        "OrderedDict", "Prediction"
    )
    assert p.scores == p["scores"] == p[0] == [0.5, 0.25] and p[1] == p.system_score == 0.375
    assert p[:1] == ([0.5, 0.25],) and p.to_tuple() == ([0.5, 0.25], 0.375)
    with pytest.raises(AttributeError):
        p.metadata
    for refused in (lambda: p.pop("scores"), lambda: p.update(a=1), lambda: p.setdefault("a", 1), lambda: p.__delitem__("scores")):
        with pytest.raises(Exception, match="You cannot use"):
            refused()
    assert json.loads(json.dumps(p)) == {"scores": [0.5, 0.25], "system_score": 0.375}


def test_comet_predict_returns_comet_s_whole_prediction():
    """Every key comet's predict returns, in its order, for the UnifiedMetric and XCOMET models
    in each input mode: the passes' src_scores / ref_scores / unified_scores, XCOMET's
    mqm_scores, the error spans (tools/gen/gen_comet_metadata_fixture.py)."""
    fixture = json.loads((Path(__file__).parent / "fixtures" / "comet_metadata.json").read_text())
    r = nli_reference("comet-unified")
    models = {}
    for key, want in fixture["cases"].items():
        name, mode = key.split("/")
        if name not in models:
            models[name] = comet.load_from_checkpoint(_ckpt("comet-unified", name))
        out = models[name].predict(comet_samples(r, mode), batch_size=8, gpus=0)
        assert type(out) is comet.Prediction and list(out.keys()) == want["keys"], key
        assert out.scores == pytest.approx(want["scores"], abs=TOL), key
        if "metadata" not in want:
            continue
        assert type(out.metadata) is comet.Prediction and list(out.metadata.keys()) == want["metadata_keys"], key
        for k, v in want["metadata"].items():
            got = out.metadata[k]
            if k == "error_spans":
                assert [[list(s) for s in row] for row in got] == [[list(s) for s in row] for row in v], key
                assert [[(s["text"], s["severity"], s["start"], s["end"]) for s in row] for row in got] == [
                    [(s["text"], s["severity"], s["start"], s["end"]) for s in row] for row in v
                ], key
            else:
                assert all(type(x) is float for x in got) and got == pytest.approx(v, abs=TOL), (key, k)


def test_comet_missing_fields_are_comet_s_key_errors():
    """comet's KeyError for the first field it reads that a sample lacks (with length_batching,
    ``ref`` where some sample has no ``src``), its TypeError for no samples."""
    full = {"src": "Hallo Welt", "mt": "Hello world", "ref": "Hello, world"}
    for name, keep, missing in [
        ("comet/regression", ("mt", "ref"), "src"),
        ("comet/regression", ("src", "mt"), "ref"),
        ("comet/regression", ("src", "ref"), "mt"),
        ("comet/qe", ("mt", "ref"), "src"),
        ("comet/qe", ("mt",), "ref"),
        ("comet-unified/kiwi", ("src", "ref"), "mt"),
        ("comet-unified/kiwi", ("mt",), "ref"),
    ]:
        model = comet.load_from_checkpoint(_ckpt(*name.split("/")))
        with pytest.raises(KeyError) as e:
            model.predict([{k: full[k] for k in keep}], gpus=0)
        assert e.value.args == (missing,), (name, keep)
    with pytest.raises(TypeError):
        model.predict([], gpus=0)
    assert len(model.predict([{"mt": "Hello world"}], gpus=0, length_batching=False).scores) == 1


def test_comet_download_model_fails_with_comet_s_key_error():
    """Offline (the tests' machines), or without huggingface_hub: comet's KeyError."""
    with pytest.raises(KeyError, match="not supported by COMET"):
        comet.download_model("Unbabel/no-such-model-for-hauser-tests", local_files_only=True)
