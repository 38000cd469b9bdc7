"""hauser.metrics against `hauser metric` on the same inputs: every metric of the registry, the
option sets of the CLI's flags, corpus lines with their statistics (`--format json`), sentence
scores (`--sentence`) and their statistics (`--sentence --format jsonl`), and the
sacreBLEU/NLTK/rouge-score-named functions. Scores and statistics agree within 1e-9 (the Rust
golden tests' tolerance), signatures exactly."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Dict, List, Sequence

import numpy as np
import pytest

import hauser
from hauser import metrics as M

from conftest import TEXT_TOL, close, needs_wordnet, write_lines

# (metric, options) in the CLI's flag names with underscores.
CASES: List[Any] = [
    ("bleu", {}),
    ("bleu", {"tokenize": "intl"}),
    ("bleu", {"tokenize": "char", "lowercase": True}),
    ("bleu", {"tokenize": "zh"}),
    ("bleu", {"tokenize": "none", "smooth_method": "floor", "smooth_value": 0.2}),
    ("bleu", {"smooth_method": "add-k", "smooth_value": 2.0}),
    ("bleu", {"smooth_method": "none", "effective_order": True}),
    ("bleu", {"max_ngram_order": 2}),
    ("sentbleu", {}),
    ("sentbleu", {"smooth_method": "method0"}),
    ("sentbleu", {"smooth_method": "method7", "weights": [0.5, 0.3, 0.2]}),
    ("sentbleu", {"auto_reweigh": True}),
    ("sentbleu", {"corpus": True}),
    ("sentbleu", {"nltk_tokenizer": "3.4.5"}),
    ("chrf", {}),
    ("chrf++", {}),
    ("chrf", {"chrf_char_order": 4, "chrf_word_order": 1, "chrf_beta": 1.0}),
    ("chrf", {"chrf_whitespace": True, "chrf_lowercase": True}),
    ("chrf", {"chrf_eps_smoothing": True}),
    ("chrf++", {"chrf_lowercase": True}),
    ("ter", {}),
    ("ter", {"ter_normalized": True, "ter_no_punct": True}),
    ("ter", {"ter_case_sensitive": True, "ter_normalized": True, "ter_asian_support": True}),
    ("rouge1", {}),
    ("rouge2", {}),
    ("rougeL", {}),
    ("rougeLsum", {}),
    ("rougeL", {"use_stemmer": True}),
    ("rougeLsum", {"split_summaries": True}),
    ("rouge1", {"rouge_impl": "pltrdy"}),
    ("rougeL", {"rouge_impl": "pltrdy-0.3.2", "rouge_pretokenize": True, "nltk_tokenizer": "3.4.5"}),
    ("distinct1", {}),
    ("distinct2", {"nltk_tokenizer": "3.4.5"}),
    ("distinct3", {}),
    ("selfbleu", {}),
    ("selfbleu", {"weights": [0.5, 0.5]}),
]
WORDNET_CASES = [("meteor", {}), ("meteor", {"nltk_tokenizer": "3.4.5"})]


def flags(options: Dict[str, Any]) -> List[str]:
    """The CLI flags of Python options: `--name-with-dashes [value]`."""
    out: List[str] = []
    for k, v in options.items():
        flag = "--" + k.replace("_", "-")
        if k == "nltk_tokenizer":
            flag = "--nltk-tokenizer"
        if v is True:
            out.append(flag)
        elif isinstance(v, list):
            out += [flag, ",".join(map(str, v))]
        else:
            out += [flag, str(v)]
    return out


def same(a: Any, b: Any, path: str = "") -> None:
    """Recursive equality: numbers within the tolerance (NaN = null), the rest exactly."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{path}: keys {sorted(a)} vs {sorted(b)}"
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif isinstance(a, (int, float)) and not isinstance(a, bool) or a is None:
        assert close(a, b), f"{path}: {a!r} vs {b!r}"
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


class Files:
    """The same texts as Python lists and as the CLI's --hyp/--ref files (in a directory of
    their own)."""

    made = 0

    def __init__(self, tmp: Path, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> None:
        self.hyps, self.refs = list(hyps), [list(r) for r in refs]
        Files.made += 1
        tmp = tmp / f"texts{Files.made}"
        tmp.mkdir()
        self.args = ["--hyp", str(write_lines(tmp / "hyp.txt", hyps))]
        for k, r in enumerate(refs):
            self.args += ["--ref", str(write_lines(tmp / f"ref{k}.txt", r))]

    def cli_args(self, metric: "M.Metric") -> List[str]:
        return self.args if metric._engine.needs_references else self.args[:2]


def check(cli: Any, files: Files, name: str, options: Dict[str, Any]) -> None:
    m = M.Metric(name, **options)
    refs = files.refs if m._engine.needs_references else None
    base = ["metric", name, *files.cli_args(m), *flags(options)]

    line = cli.json(base + ["--format", "json"])
    corpus = m.corpus(files.hyps, refs)
    assert corpus.signature == line["signature"]
    assert corpus.scale == line["scale"]
    assert abs(float(corpus) - line["score"]) <= TEXT_TOL, (float(corpus), line["score"])
    for key in ("metric", "score", "scale", "n", "signature"):
        line.pop(key)
    same(corpus.details, line, f"{name} corpus")

    sentence = m.sentence(files.hyps, refs)
    want = cli.floats(base + ["--sentence"])
    assert sentence.shape == (len(want),)
    assert np.allclose(sentence, want, rtol=0, atol=TEXT_TOL, equal_nan=True)
    assert sentence.signature == m.sentence_signature(len(refs or []), len(files.hyps))

    rows = cli.jsonl(base + ["--sentence", "--format", "jsonl"])
    assert all(r["signature"] == sentence.signature for r in rows)
    same(m.sentence_details(files.hyps, refs), rows, name)


@pytest.mark.parametrize("name,options", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_every_option_set_matches_the_cli(cli, single, tmp_path, name, options):
    check(cli, Files(tmp_path, *(single[0], [single[1]])), name, options)


@needs_wordnet
@pytest.mark.parametrize("name,options", WORDNET_CASES)
def test_meteor_matches_the_cli(cli, single, tmp_path, name, options):
    check(cli, Files(tmp_path, single[0], [single[1]]), name, options)


@pytest.mark.parametrize("name", ["bleu", "sentbleu", "chrf++", "ter", "rougeL", "rougeLsum", "selfbleu"])
def test_three_references_match_the_cli(cli, multi, tmp_path, name):
    check(cli, Files(tmp_path, *multi), name, {})


def test_every_registry_metric_is_reachable(cli, single, tmp_path):
    """Every name `hauser metric` knows (newer ones too) scores as the CLI at its defaults."""
    files = Files(tmp_path, single[0][:60], [single[1][:60]])
    for name in M.NAMES:
        if name == "meteor" and not Path("/usr/share/wordnet/data.noun").exists():
            continue
        check(cli, files, name, {})


def test_names_are_the_clis_list(cli, tmp_path):
    """`NAMES` is the registry table the CLI lists too (figlang-metrics `text::REGISTRY`): the same
    names in the same order as `hauser metric`'s unknown-metric message gives them."""
    hyp = write_lines(tmp_path / "hyp.txt", ["a"])
    p = subprocess.run([str(cli.path), "metric", "nosuch", "--hyp", str(hyp)], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    listed = p.stderr.split("text metrics: ", 1)[1].split("; neural:", 1)[0].split(", ")
    assert tuple(n for n in listed if n != "wmd") == M.NAMES, p.stderr


@pytest.mark.parametrize("name", ["chrf", "sentbleu", "rougeL", "bleu", "ter", "distinct2"])
def test_chunked_parallel_sentence_scores_match_the_cli(cli, single, tmp_path, name):
    """Columns longer than one chunk (2,048) are scored in parallel chunks: same numbers."""
    hyps, refs = single
    reps = 5000 // len(hyps) + 1
    files = Files(tmp_path, (hyps * reps)[:5000], [(refs * reps)[:5000]])
    m = M.Metric(name)
    args = ["metric", name, *files.cli_args(m), "--sentence"]
    got = m.sentence(files.hyps, files.refs if m._engine.needs_references else None)
    assert np.array_equal(got, cli.floats(args))


def test_named_functions_match_the_cli(cli, single, multi, tmp_path):
    hyps, refs = single
    f = Files(tmp_path, hyps, [refs])

    def corpus_line(name: str, *extra: str) -> Dict[str, Any]:
        return cli.json(["metric", name, *f.args, "--format", "json", *extra])

    def sentences(name: str, *extra: str) -> List[float]:
        return cli.floats(["metric", name, *f.args, "--sentence", *extra])

    b = M.corpus_bleu(hyps, [refs], tokenize="intl", smooth_method="floor", smooth_value=0.2)
    line = corpus_line("bleu", "-tok", "intl", "-s", "floor", "-sv", "0.2")
    assert b.signature == line["signature"] and close(float(b), line["score"])
    assert b.counts == line["counts"] and close(b.bp, line["bp"])
    b = M.corpus_bleu(hyps, [refs], use_effective_order=True, lowercase=True)
    line = corpus_line("bleu", "--effective-order", "-lc")
    assert b.signature == line["signature"] and close(float(b), line["score"])

    c = M.corpus_chrf(hyps, [refs], word_order=2, beta=1, remove_whitespace=False)
    line = corpus_line("chrf", "-cw", "2", "--chrf-beta", "1", "--chrf-whitespace")
    assert c.signature == line["signature"] and close(float(c), line["score"])
    assert c.stats == line["stats"]

    assert np.allclose(M.sentence_chrf(hyps, refs) / 100, sentences("chrf"), atol=TEXT_TOL, rtol=0)
    assert np.allclose(M.Metric("chrf").sentence(hyps, refs), sentences("chrf"), atol=TEXT_TOL, rtol=0)
    assert np.allclose(M.sentence_chrf(hyps, [refs], word_order=2) / 100, sentences("chrf++"), atol=TEXT_TOL, rtol=0)
    assert np.allclose(
        M.nltk_sentence_bleu(hyps, refs, weights=(0.5, 0.5), smoothing="method4"),
        sentences("sentbleu", "--weights", "0.5,0.5", "-s", "method4"),
        atol=TEXT_TOL,
        rtol=0,
    )
    assert np.allclose(
        M.rouge(hyps, refs, kind="rougeLsum", use_stemmer=True),
        sentences("rougeLsum", "--use-stemmer"),
        atol=TEXT_TOL,
        rtol=0,
    )
    r = M.rouge(hyps, refs, kind="rouge2", corpus=True)
    line = corpus_line("rouge2")
    assert r.signature == line["signature"] and close(r.precision, line["precision"])
    t = M.corpus_ter(hyps, [refs], normalized=True, case_sensitive=True)
    line = corpus_line("ter", "--ter-normalized", "--ter-case-sensitive")
    assert t.signature == line["signature"] and close(float(t), line["score"])
    assert t.num_edits == line["num_edits"]
    assert np.allclose(M.sentence_ter(hyps, refs, no_punct=True) / 100, sentences("ter", "--ter-no-punct"), atol=TEXT_TOL, rtol=0)
    d = M.distinct_n(hyps, n=2)
    assert close(float(d), cli.json(["metric", "distinct2", *f.args[:2]])["score"])
    sb = M.self_bleu(hyps[:50], weights=(0.5, 0.5), per_text=True)
    f50 = Files(tmp_path, hyps[:50], [])
    assert np.allclose(sb, cli.floats(["metric", "selfbleu", *f50.args, "--sentence", "--weights", "0.5,0.5"]))

    one = M.sentence_chrf(hyps[3], [refs[3]])
    assert isinstance(one, hauser.Score) and close(float(one) / 100, sentences("chrf")[3])
    assert one.stats == cli.jsonl(["metric", "chrf", *f.args, "--sentence", "--format", "jsonl"])[3]["stats"]
    # Several references of one hypothesis: a list of str.
    h, streams = multi
    one = M.nltk_sentence_bleu(h[0], [s[0] for s in streams])
    fm = Files(tmp_path, h, streams)
    assert close(float(one), cli.floats(["metric", "sentbleu", *fm.args, "--sentence"])[0])


def test_lowercase_is_bleus_option_as_in_the_cli():
    # `lowercase` is sacreBLEU's -lc, read by BLEU only: another metric refuses it (as
    # `hauser metric chrf -lc` does) instead of leaving the text cased without a word.
    with pytest.raises(ValueError, match="chrf_lowercase"):
        M.Metric("chrf", lowercase=True)
    with pytest.raises(ValueError, match="BLEU"):
        M.Metric("ter", lowercase=True)
    assert M.Metric("bleu", lowercase=True).name == "bleu"


@needs_wordnet
def test_meteor_function_matches_the_cli(cli, single, tmp_path):
    hyps, refs = single
    f = Files(tmp_path, hyps, [refs])
    got = M.meteor(hyps, refs, nltk="3.4.5")
    assert np.allclose(got, cli.floats(["metric", "meteor", *f.args, "--sentence", "--nltk-tokenizer", "3.4.5"]))
    c = M.meteor(hyps, refs, corpus=True)
    line = cli.json(["metric", "meteor", *f.args])
    assert c.signature == line["signature"] and close(float(c), line["score"])


@pytest.mark.parametrize("name", ["bleu", "chrf", "chrf++", "ter", "rougeL"])
def test_confidence_matches_the_cli(cli, single, tmp_path, name):
    """`Metric.confidence` is `hauser metric --confidence` (sacreBLEU's bootstrap interval;
    rouge-score's aggregate for ROUGE), seed 12345 as SACREBLEU_SEED's default."""
    files = Files(tmp_path, single[0][:80], [single[1][:80]])
    m = M.Metric(name)
    line = cli.json(["metric", name, *files.cli_args(m), "--confidence", "--confidence-n", "200"])
    got = m.confidence(files.hyps, files.refs, n=200)
    same(got, line, f"{name} confidence")
    assert got["seed"] == 12345 and got["confidence_n"] == 200 and "|bs:200|seed:12345" in got["signature"]
    unseeded = m.confidence(files.hyps, files.refs, n=50, seed=None)
    assert unseeded["seed"] == "None" and unseeded["signature"].endswith("|seed:None|version:" + hauser.__version__)


def test_paired_tests_match_the_cli(cli, single, tmp_path):
    """`Metric.paired_test` is `hauser metric --paired-bs` / `--paired-ar` with `--system`s,
    record for record (the CLI's `system` names aside)."""
    hyps, refs = single[0][:80], single[1][:80]
    systems = [[h.lower() for h in hyps], [" ".join(h.split()[:-1]) for h in hyps]]
    files = Files(tmp_path, hyps, [refs])
    sys_args: List[str] = []
    for k, s in enumerate(systems):
        sys_args += ["--system", str(write_lines(tmp_path / f"system{k}.txt", s))]
    for name in ("bleu", "chrf", "ter"):
        m = M.Metric(name)
        for test, flag, n in (("bs", "--paired-bs", 300), ("ar", "--paired-ar", 400)):
            lines = cli.jsonl(["metric", name, *files.args, *sys_args, flag, f"{flag}-n", str(n)])
            got = m.paired_test(hyps, systems, refs, test=test, n=n)
            assert len(got) == len(lines) == 3 and got[0]["p_value"] is None
            for g, line in zip(got, lines):
                line.pop("system")
                same(g, line, f"{name} {test}")
    with pytest.raises(ValueError, match="rougeL has none"):
        M.Metric("rougeL").paired_test(hyps, systems, refs)
    with pytest.raises(ValueError, match="from 1 to 1000000"):
        M.Metric("bleu").paired_test(hyps, systems, refs, n=0)
    with pytest.raises(ValueError, match='"bs"'):
        M.Metric("bleu").paired_test(hyps, systems, refs, test="t")
    with pytest.raises(TypeError, match="list of system columns"):
        M.Metric("bleu").paired_test(hyps, systems[0], refs)
    with pytest.raises(ValueError, match="sentbleu has none"):
        M.Metric("sentbleu").confidence(hyps, refs)
