"""``hauser.compat.evaluate`` against Hugging Face evaluate's metric scripts (huggingface/evaluate
a7dd338, their ``_compute`` run by tools/gen/gen_evaluate_fixtures.py): the same values, keys,
types and errors, within 1e-9 (rouge's bootstrap aggregate drawn from the case's seed);
``add`` / ``add_batch`` before ``compute``; options and modules that are not there are errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import hauser.compat.evaluate as evaluate

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "evaluate_compute.json").read_text())
TOL = FIXTURE["tolerance"]
CASES = FIXTURE["cases"]
# The generator's TOKENIZERS: the callables a case's `tokenizer` names.
TOKENIZERS = {"str.split": str.split, "list": list, "lower_split": lambda s: s.lower().split()}


def options(case: Any) -> Any:
    o = dict(case["options"])
    if "tokenizer" in o:
        o["tokenizer"] = TOKENIZERS[o["tokenizer"]]
    return o


def same(got: Any, want: Any, path: str) -> None:
    """Equal values of the same type (an int stays an int), floats within the tolerance."""
    # A float may be NumPy's (meteor's mean is, in evaluate too).
    assert type(got) is type(want) or (isinstance(want, float) and isinstance(got, float)), (
        f"{path}: {type(got).__name__} {got!r} vs {type(want).__name__} {want!r}"
    )
    if isinstance(want, dict):
        assert list(got) == list(want), f"{path}: keys {list(got)} vs {list(want)}"
        for k in want:
            same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert abs(got - want) <= TOL, f"{path}: {got!r} vs {want!r}"
    else:
        assert got == want, f"{path}: {got!r} vs {want!r}"


@pytest.mark.parametrize("case", CASES, ids=[f"{c['module']}-{i}" for i, c in enumerate(CASES)])
def test_compute_matches_the_metric_scripts(case: Any) -> None:
    if case["module"] == "meteor" and not Path("/usr/share/wordnet/data.noun").exists():
        pytest.skip("no WordNet at /usr/share/wordnet")
    module = evaluate.load(case["module"], seed=case.get("seed"))
    if "error" in case:
        with pytest.raises(Exception) as raised:
            module.compute(predictions=case["predictions"], references=case["references"], **options(case))
        assert type(raised.value).__name__ == case["error"]["type"]
        assert str(raised.value) == case["error"]["message"]
    else:
        got = module.compute(predictions=case["predictions"], references=case["references"], **options(case))
        same(got, case["value"], case["module"])


@pytest.mark.parametrize("name", ["sacrebleu", "bleu", "chrf", "ter", "rouge", "wer", "cer", "meteor"])
def test_added_inputs_are_computed_with_the_call_s_and_then_forgotten(name: str) -> None:
    if name == "meteor" and not Path("/usr/share/wordnet/data.noun").exists():
        pytest.skip("no WordNet at /usr/share/wordnet")
    case = next(c for c in CASES if c["module"] == name and not c["options"] and "value" in c)
    preds, refs = case["predictions"], case["references"]
    module = evaluate.load(f"evaluate-metric/{name}", seed=case.get("seed"))
    module.add_batch(predictions=preds[:2], references=refs[:2])
    module.add(prediction=preds[2], reference=refs[2])
    same(module.compute(predictions=preds[3:], references=refs[3:]), case["value"], name)
    module.add_batch(predictions=preds, references=refs)
    same(module.compute(), case["value"], name)


def test_what_is_not_there_is_refused() -> None:
    with pytest.raises(TypeError):
        evaluate.load("sacrebleu").compute(predictions=["a"], references=["a"], nosuch=1)
    with pytest.raises(TypeError):
        evaluate.load("bleu").compute(predictions=["a"], references=["a"], smooth_method="exp")
    with pytest.raises(TypeError):
        evaluate.load("rouge").compute(predictions=["a"], references=["a"], split_summaries=True)
    with pytest.raises(ValueError, match="no module"):
        evaluate.load("nosuch")
    # evaluate's compute passes references=None on to add_batch: len(None).
    with pytest.raises(TypeError, match="NoneType"):
        evaluate.load("wer").compute(predictions=["a"])
    with pytest.raises(ValueError):
        evaluate.load("chrf", config_name="multilingual")
    assert evaluate.list_evaluation_modules() == [
        "bertscore", "bleu", "bleurt", "cer", "chrf", "comet", "meteor", "rouge", "sacrebleu", "ter", "wer",
    ]


def test_the_module_seed_is_evaluate_s() -> None:
    """Without ``seed=``, evaluate reads the module's seed from NumPy's global generator when the
    module is made; each ``compute`` draws rouge's bootstrap from it afresh."""
    import numpy as np

    case = next(c for c in CASES if c["module"] == "rouge" and c.get("seed") == 2024)
    np.random.seed(31)
    _, keys, pos, *_ = np.random.get_state()
    assert pos == 624 and evaluate.load("rouge").seed == keys[0]
    np.random.random(5)
    _, keys, pos, *_ = np.random.get_state()
    module = evaluate.load("rouge")
    assert pos < 624 and module.seed == keys[pos]
    np.random.seed(31)  # the same state: the same seed
    np.random.random(5)
    assert evaluate.load("rouge").seed == module.seed
    seeded = evaluate.load("rouge", seed=2024)
    assert seeded.seed == 2024
    inputs = dict(predictions=case["predictions"], references=case["references"])
    same(seeded.compute(**inputs), case["value"], "rouge")
    same(seeded.compute(**inputs), case["value"], "rouge")
    state = np.random.get_state()[1].copy()
    module.compute(**inputs)
    assert (np.random.get_state()[1] == state).all(), "the global generator is left as it was"


def test_rouge_without_the_aggregator_is_each_prediction_s_best_reference() -> None:
    """The non-aggregated lists are hauser's per-sentence ROUGE (``hauser.metrics.rouge``)."""
    from hauser import metrics

    case = next(c for c in CASES if c["module"] == "rouge" and c["options"] == {"use_aggregator": False})
    got = evaluate.load("rouge").compute(
        predictions=case["predictions"], references=case["references"], use_aggregator=False
    )
    for kind in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        want = metrics.rouge(case["predictions"], case["references"], kind=kind)
        assert got[kind] == pytest.approx(list(want), abs=0)
    # Tuples of references are lists, as evaluate's casting makes them.
    tuples = evaluate.load("rouge").compute(
        predictions=case["predictions"], references=[tuple(r) for r in case["references"]], use_aggregator=False
    )
    assert tuples == got


@pytest.mark.skipif(not __import__("hauser").NEURAL, reason="built without the neural feature")
def test_comet_and_bleurt_modules_on_local_checkpoints() -> None:
    from conftest import NLI_FIXTURES

    r = json.loads((NLI_FIXTURES / "comet" / "reference.json").read_text())
    module = evaluate.load("comet", config_name=str(NLI_FIXTURES / "comet" / "estimator"))
    out = module.compute(sources=r["src"], predictions=r["mt"], references=r["ref"], gpus=0)
    assert list(out) == ["mean_score", "scores"]
    assert out["scores"] == pytest.approx(r["models"]["estimator"]["scores"], abs=1e-5)
    assert out["mean_score"] == sum(out["scores"]) / len(out["scores"])
    module.add(prediction=r["mt"][0], reference=r["ref"][0], sources=r["src"][0])
    assert module.compute(gpus=0)["scores"] == pytest.approx(out["scores"][:1], abs=1e-6)
    with pytest.raises(ValueError, match="inputs are missing"):
        module.compute(predictions=r["mt"], references=r["ref"])
    b = json.loads((NLI_FIXTURES / "bleurt-20" / "reference.json").read_text())
    bleurt = evaluate.load("bleurt", config_name=str(NLI_FIXTURES / "bleurt-20"))
    got = bleurt.compute(predictions=b["candidates"], references=b["references"])
    assert list(got) == ["scores"] and got["scores"] == pytest.approx(b["scores"], abs=1e-5)
    with pytest.raises(KeyError):
        evaluate.load("bleurt", config_name="bleurt-base-128")


@pytest.mark.skipif(not __import__("hauser").NEURAL, reason="built without the neural feature")
def test_bertscore_module_is_bert_scores() -> None:
    from conftest import METRIC_FIXTURES, NLI_FIXTURES

    from hauser.compat.bert_score import get_hash

    fx = json.loads((METRIC_FIXTURES / "neural_bertscore.json").read_text())
    module = evaluate.load("bertscore")
    checked = 0
    for case in fx["cases"]:
        d = NLI_FIXTURES / case["model"]
        if not d.exists() or case["prefix_space"] is not None or case["baseline"]:
            continue
        out = module.compute(
            predictions=fx["candidates"], references=fx["references"], model_type=str(d),
            num_layers=case["layer"], idf=case["idf"], lang="en",
        )
        assert list(out) == ["precision", "recall", "f1", "hashcode"]
        for key in ("precision", "recall", "f1"):
            assert isinstance(out[key], list)
            assert out[key] == pytest.approx(case[key], abs=fx["tolerance"])
        assert out["hashcode"] == get_hash(str(d), case["layer"], case["idf"], False, False, False)
        checked += 1
    assert checked >= 1
    with pytest.raises(ValueError, match="must be specified"):
        module.compute(predictions=["a"], references=["a"])


def test_input_errors_are_evaluate_s() -> None:
    """What evaluate 0.4.6's EvaluationModule raises for the common mistakes, message for message
    (tools/diff/compat_scripts runs the same calls on both)."""
    with pytest.raises(ValueError, match=r"^Mismatch in the number of predictions \(2\) and references \(1\)$"):
        evaluate.load("chrf").compute(predictions=["a", "b"], references=["a"])
    with pytest.raises(ValueError) as e:
        evaluate.load("wer").compute(predictions=["a"], references=[["a"]])
    assert str(e.value) == (
        "Predictions and/or references don't match the expected format.\n"
        "Expected format: {'predictions': Value('string'), 'references': Value('string')},\n"
        "Input predictions: ['a'],\nInput references: [['a']]"
    )
    with pytest.raises(ValueError) as e:
        evaluate.load("sacrebleu").compute(predictions=[["a"]], references=["a"])
    assert str(e.value) == (
        "Predictions and/or references don't match the expected format.\nExpected format:\n"
        "Feature option 0: {'predictions': Value('string'), 'references': List(Value('string'))}\n"
        "Feature option 1: {'predictions': Value('string'), 'references': Value('string')},\n"
        "Input predictions: ['a'],\nInput references: a"
    )
    for name in ("rouge", "sacrebleu"):
        with pytest.raises(TypeError, match="'NoneType' object is not subscriptable"):
            evaluate.load(name).compute(predictions=["a"])
        with pytest.raises(TypeError, match="'NoneType' object is not subscriptable"):
            evaluate.load(name).compute(references=["a"])
    with pytest.raises(ValueError, match=r"^Bad inputs for evaluation module: \['foo'\]"):
        evaluate.load("wer").add(prediction="a", reference="b", foo=1)
    module = evaluate.load("sacrebleu")
    with pytest.raises(ValueError, match="cache file doesn't exist. Please make sure that you call `add`"):
        module.compute()
    module.add_batch(predictions=["a b c d"], references=["a b c d"])
    assert module.compute()["score"] == pytest.approx(100.0)
    with pytest.raises(ValueError, match="cache file doesn't exist"):
        module.compute()


def test_numpy_and_pandas_inputs_are_read_as_lists() -> None:
    """datasets casts arrays and pandas columns to lists before the scripts see them; a 2-D
    array of references is a list of reference lists (tools/diff/compat_scripts/evaluate_arrays.py
    compares the values with evaluate's)."""
    import numpy as np

    preds = ["the cat sat on the mat", "a dog barked"]
    refs = [["the cat is on the mat", "a cat sat on a mat"], ["the dog barked loudly", "a dog was barking"]]
    for name in ("sacrebleu", "chrf", "ter", "rouge", "bleu"):
        want = evaluate.load(name, seed=1).compute(predictions=preds, references=refs)
        got = evaluate.load(name, seed=1).compute(predictions=np.array(preds), references=np.array(refs))
        assert got == want, name
    try:
        import pandas as pd
    except ImportError:
        return
    frame = pd.DataFrame({"p": preds, "r": [r[0] for r in refs]}, index=[5, 9])
    assert evaluate.load("wer").compute(predictions=frame["p"], references=frame["r"]) == evaluate.load("wer").compute(
        predictions=preds, references=[r[0] for r in refs]
    )


def test_load_takes_evaluate_s_arguments() -> None:
    """evaluate.load's arguments, in its order; the cache and download ones change nothing."""
    import inspect

    names = list(inspect.signature(evaluate.load).parameters)
    assert names[:11] == [
        "path", "config_name", "module_type", "process_id", "num_process", "cache_dir", "experiment_id",
        "keep_in_memory", "download_config", "download_mode", "revision",
    ]
    module = evaluate.load("chrf", cache_dir="/nonexistent", experiment_id="run-1", keep_in_memory=True, download_mode="reuse_dataset_if_exists")
    assert module.compute(predictions=["a b"], references=["a b"])["score"] == pytest.approx(100.0)
    with pytest.raises(ValueError, match="revision"):
        evaluate.load("chrf", revision="main")


def test_logging_and_progress_bar_switches_are_there() -> None:
    """evaluate.logging / evaluate.utils.logging and the progress-bar switches: state kept,
    nothing printed either way."""
    evaluate.logging.set_verbosity_error()
    assert evaluate.utils.logging.get_verbosity() == evaluate.logging.ERROR
    evaluate.logging.set_verbosity_warning()
    assert evaluate.logging.get_verbosity() == evaluate.logging.WARNING
    evaluate.disable_progress_bar()
    assert not evaluate.is_progress_bar_enabled() and not evaluate.utils.is_progress_bar_enabled()
    evaluate.utils.enable_progress_bar()
    assert evaluate.is_progress_bar_enabled()
    assert evaluate.logging.get_logger("x").name == "hauser.compat.evaluate.x"


def test_combine_merges_as_evaluate_does() -> None:
    """evaluate.combine: keys two modules share, or all with force_prefix, prefixed with the
    module's evaluate name (chrf's is chr_f, its script's class ChrF in snake case), a count where
    two modules have one name (tools/diff/compat_scripts/evaluate_combine.py compares with
    evaluate's)."""
    preds, refs = ["the cat sat on the mat", "hello world"], ["the cat is on the mat", "hello, world"]
    assert evaluate.load("chrf").name == "chr_f" and evaluate.load("sacrebleu").name == "sacrebleu"
    chrf = evaluate.load("chrf").compute(predictions=preds, references=refs)
    ter = evaluate.load("ter").compute(predictions=preds, references=refs)
    got = evaluate.combine(["chrf", "ter"]).compute(predictions=preds, references=refs)
    assert got == {"chr_f_score": chrf["score"], "char_order": 6, "word_order": 0, "beta": 2, "ter_score": ter["score"],
                   "num_edits": ter["num_edits"], "ref_length": ter["ref_length"]}
    got = evaluate.combine(["chrf", "ter"], force_prefix=True).compute(predictions=preds, references=refs)
    assert list(got)[:2] == ["chr_f_score", "chr_f_char_order"] and "ter_num_edits" in got
    got = evaluate.combine([evaluate.load("ter"), evaluate.load("ter")]).compute(predictions=preds, references=refs)
    assert list(got) == [f"ter_{i}_{k}" for i in (0, 1) for k in ("score", "num_edits", "ref_length")]
    combined = evaluate.combine({"a": "chrf", "b": "chrf"})
    for p, r in zip(preds, refs):
        combined.add(prediction=p, reference=r)
    assert combined.compute()["a_score"] == chrf["score"]
    with pytest.raises(AttributeError):  # wer's float has no keys, as in evaluate
        evaluate.combine(["chrf", "wer"]).compute(predictions=preds, references=refs)
