"""The Python conventions of the package: input types (lists, NumPy, pandas, pyarrow), result
types, exceptions instead of crashes, the interpreter released during Rust work, Ctrl-C, one
scorer shared by threads, pickling, docstrings and type stubs."""

from __future__ import annotations

import _thread
import ast
import importlib.resources
import json
import pickle
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import hauser
from hauser import metrics as M
from hauser import stats as S

HYPS = ["He ran like the wind.", "The news spread like wildfire.", "", "Her hands were cold as ice."]
REFS = ["He ran as fast as the wind.", "Word got around very fast.", "Something.", "Her hands were icy."]


def big(n: int):
    reps = n // len(HYPS) + 1
    return (HYPS * reps)[:n], (REFS * reps)[:n]


def test_every_input_type_gives_the_same_scores():
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    want = M.sentence_chrf(HYPS, REFS)
    inputs = [
        (tuple(HYPS), [tuple(REFS)]),
        (np.array(HYPS), np.array(REFS)),
        (np.array(HYPS, dtype=object), [np.array(REFS, dtype=object)]),
        (pd.Series(HYPS), pd.Series(REFS)),
        (pd.Series(HYPS, dtype="string[pyarrow]"), pd.Series(REFS, dtype="string[pyarrow]")),
        (pa.array(HYPS), pa.array(REFS)),
        (pa.array(HYPS, pa.large_string()), [pa.array(REFS, pa.string_view())]),
        (pa.chunked_array([HYPS[:1], HYPS[1:]]), pa.chunked_array([REFS[:3], REFS[3:]])),
        (pa.array(["x"] + HYPS)[1:], pa.array(REFS + ["y"])[:4]),
        (pa.array(HYPS).dictionary_encode(), pa.array(REFS)),
        ((h for h in HYPS), [REFS]),
    ]
    for hyps, refs in inputs:
        got = M.sentence_chrf(hyps, refs)
        assert np.array_equal(got, want), type(hyps)
    assert M.corpus_bleu(pa.array(HYPS), [pa.array(REFS)]) == M.corpus_bleu(HYPS, [REFS])
    with pytest.raises(ValueError, match="null"):
        M.sentence_chrf(pa.array(["a", None]), ["a", "b"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is NoneType, not str"):
        M.sentence_chrf(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match="not strings"):
        M.sentence_chrf(pa.array([1, 2]), ["a", "b"])


def test_results_carry_signatures_and_behave_as_numbers():
    s = M.sentence_chrf(HYPS, REFS)
    assert isinstance(s, hauser.ScoreArray) and isinstance(s, np.ndarray) and s.dtype == np.float64
    assert s.signature.startswith("chrF2|") and s[1:].signature == s.signature
    assert type(s.mean()) is np.float64 and type(s + 1) is np.ndarray
    one = M.sentence_chrf(HYPS[0], REFS[0])
    assert isinstance(one, float) and one.score == float(one) and one.signature == s.signature
    assert one.stats and one.char_order == 6
    with pytest.raises(AttributeError):
        one.no_such_statistic
    c = M.corpus_bleu(HYPS, [REFS])
    assert c.scale == "0-100" and len(c.counts) == 4 and "BP =" in c.verbose_score
    for obj in (one, s, c):
        back = pickle.loads(pickle.dumps(obj))
        assert back.signature == obj.signature and np.array_equal(np.asarray(back), np.asarray(obj))


def test_errors_are_exceptions_with_the_rust_message():
    with pytest.raises(ValueError, match="unknown metric \"nope\""):
        M.Metric("nope")
    with pytest.raises(TypeError, match="unexpected option"):
        M.Metric("bleu", tokenise="13a")
    with pytest.raises(ValueError, match="unknown tokenizer|tokeniz"):
        M.corpus_bleu(HYPS, [REFS], tokenize="klingon")
    with pytest.raises(ValueError, match="reference list 1 has 1 lines for 4 hypotheses"):
        M.sentence_chrf(HYPS, [REFS[:1]])
    with pytest.raises(ValueError, match="weights"):
        M.nltk_sentence_bleu(HYPS, REFS, weights=())
    with pytest.raises(TypeError, match="single str"):
        M.Metric("chrf").sentence("abc", ["abc"])
    with pytest.raises(FileNotFoundError, match="WordNet"):
        M.meteor(HYPS, REFS, wordnet="/no/such/dir")
    with pytest.raises(ValueError, match="n must be 1, 2 or 3"):
        M.distinct_n(HYPS, n=4)
    with pytest.raises(FileNotFoundError):
        hauser.KnowledgeBase.open("/no/such/index")
    with pytest.raises(ValueError):
        hauser.Hauser(weights="a,b")
    with pytest.raises(MemoryError):
        S.bootstrap_mean([1.0, 2.0], n_resamples=2**62)


def test_the_interpreter_is_released_during_rust_work():
    hyps, refs = big(300_000)
    done = threading.Event()
    ticks = 0

    def work():
        M.sentence_chrf(hyps, refs)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    # With the interpreter held for the whole call this loop could not run at all.
    assert ticks > 100, ticks


def _interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


@pytest.mark.parametrize(
    "call",
    [
        lambda: M.sentence_chrf(*big(3_000_000)),
        lambda: S.permutation_test(np.arange(60.0), np.arange(60.0) % 7, n_resamples=10**9),
        lambda: S.meta_eval({"system": [f"s{i % 8}" for i in range(4000)], "segment": [str(i // 8) for i in range(4000)],
                             "human": np.arange(4000.0) % 5, "metric": np.arange(4000.0) % 3}, bootstrap=10**8),
        lambda: S.permutation_sig_diff(np.arange(60.0).reshape(2, 30), np.arange(60.0).reshape(2, 30) % 7,
                                       np.arange(60.0).reshape(2, 30) % 5, k=10**9, block_size=10**9),
    ],
    ids=["chrf", "permutation", "bootstrap", "perm-both"],
)
def test_ctrl_c_stops_long_calls(call):
    # Python's own Ctrl-C handler, even where the runner was started with SIGINT ignored (a
    # background job of a non-interactive shell): interrupt_main() does nothing then.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        start = time.monotonic()
        timer = _interrupt_after(0.5)
        with pytest.raises(KeyboardInterrupt):
            call()
        elapsed = time.monotonic() - start
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert elapsed < 5, elapsed
    # The package still works afterwards.
    assert M.sentence_chrf(HYPS[:1], REFS[:1]).shape == (1,)


def test_one_scorer_from_four_threads_gives_the_results_of_one():
    hyps, refs = big(20_000)
    metric = M.Metric("chrf++")
    alone = metric.sentence(hyps, refs)
    alone_corpus = metric.corpus(hyps, [refs])
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: (metric.sentence(hyps, refs), metric.corpus(hyps, [refs])), range(8)))
    for s, c in runs:
        assert np.array_equal(s, alone) and float(c) == float(alone_corpus) and c.details == alone_corpus.details
    with ThreadPoolExecutor(4) as pool:
        rs = list(pool.map(lambda _: S.meta_eval({"system": ["a", "b", "c"] * 20, "segment": [str(i // 3) for i in range(60)],
                                                  "human": np.arange(60.0) % 4, "metric": np.arange(60.0) % 5}, bootstrap=200), range(4)))
    # Compared as JSON text: NaN (an undefined statistic) is not equal to itself.
    assert all(json.dumps(r) == json.dumps(rs[0]) for r in rs)


@pytest.mark.skipif(not hauser.NEURAL, reason="built without the neural feature")
def test_one_bertscorer_from_four_threads():
    from conftest import NLI_FIXTURES

    scorer = hauser.BERTScorer(str(NLI_FIXTURES / "bert"), layer=2)
    alone = scorer.score(HYPS * 10, REFS * 10)
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: scorer.score(HYPS * 10, REFS * 10), range(4)))
    for r in runs:
        for a, b in zip(r, alone):
            assert np.array_equal(a, b)


def test_the_package_docstring_example_runs():
    import doctest

    assert doctest.testmod(hauser).failed == 0


def test_score_is_the_clis_metric_command():
    c = M.score("chrf++", HYPS, [REFS])
    assert c == M.Metric("chrf++").corpus(HYPS, [REFS]) and c.signature.startswith("chrF2++")
    s = M.score("ter", HYPS, REFS, sentence=True, ter_normalized=True)
    assert np.array_equal(s, M.Metric("ter", ter_normalized=True).sentence(HYPS, REFS))


def test_one_hauser_and_knowledge_base_from_four_threads(tmp_path):
    tsv = tmp_path / "t.tsv"
    tsv.write_text("topic\tproperty\tvehicle\tcount\nhe\tfast\twind\t3\nhe\tquick\thare\t1\n")
    kb = hauser.KnowledgeBase.build(tsv, "triplets")
    h = hauser.Hauser(kb=kb)
    groups = [{"literal": "He ran.", "candidates": ["He ran like the wind.", "He ran like a hare.", "He ran."]}] * 50
    alone = h.score(groups)
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: (h.score(groups), kb.relevance(["he"] * 100, ["wind"] * 100)), range(8)))
    for records, rel in runs:
        assert json.dumps(records) == json.dumps(alone) and rel.tolist() == [3.0] * 100


def test_docstrings_and_stubs():
    for obj in (M.sentence_chrf, M.corpus_bleu, M.rouge, M.Metric, S.pearson, S.meta_eval, hauser.KnowledgeBase,
                hauser.KnowledgeBase.relevance, hauser.Hauser, hauser.Hauser.score, hauser.extract):
        assert obj.__doc__ and len(obj.__doc__) > 40, obj
    assert "skip_bad_rows" in hauser.KnowledgeBase.build.__text_signature__
    files = importlib.resources.files("hauser")
    assert (files / "_hauser.pyi").is_file() and (files / "py.typed").is_file()
    stub = (files / "_hauser.pyi").read_text()
    ast.parse(stub)
    for name in ("class TextMetric", "class KnowledgeBase", "class Hauser", "def extract", "def meta_eval"):
        assert name in stub, name
    if hauser.NEURAL:
        assert "class BERTScorer" in stub and hauser.BERTScorer.score.__doc__
