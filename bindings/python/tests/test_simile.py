"""KnowledgeBase, extract and Hauser against `hauser kb`, `hauser extract` and `hauser score` on
the same inputs: identical index files, lookups, components and candidate records."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hauser

from conftest import NLI_FIXTURES, ROOT, close

SIMILES = ROOT / "examples" / "data" / "similes.jsonl"

# Triplets about the example similes' topics and vehicles, so that relevance and creativity vary.
TRIPLETS = """topic\tproperty\tvehicle\tcount
he\tlonely\twolf\t4
he\twild\twolf\t2
he\tloud\tdog\t3
her hands\tcold\tice\t9
her hands\tcold\tfish\t2
hands\tcold\tstone\t1
the news\tfast\twildfire\t7
news\tquick\trumour\t2
she\tbrave\tlion\t5
"""


@pytest.fixture(scope="module")
def kb_files(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("kb")
    tsv = d / "triplets.tsv"
    tsv.write_text(TRIPLETS)
    csv = d / "synth.csv"
    cli.json(["kb", "synth", "--triplets", "3000", "--seed", "4", "--out", csv])
    return d, tsv, csv


@pytest.mark.parametrize("fmt,which,clean", [("triplets", 1, "reference"), ("maps-kb", 2, "strip-punctuation")])
def test_build_writes_the_cli_index(cli, kb_files, fmt, which, clean):
    d, *inputs = kb_files
    src = inputs[which - 1]
    ours, theirs = d / f"py-{fmt}.idx", d / f"cli-{fmt}.idx"
    kb = hauser.KnowledgeBase.build(src, fmt, out=ours, clean=clean)
    report = cli.json(["kb", "build", "--input", src, "--format", fmt, "--out", theirs, "--clean", clean])
    assert ours.read_bytes() == theirs.read_bytes()
    assert kb.build_report == report["ingest"]
    stats = kb.stats()
    want = cli.json(["kb", "stats", theirs])
    for k in want:
        if k not in ("path",):
            assert stats[k] == want[k], k
    assert kb.checksum == want["checksum"]
    opened = hauser.KnowledgeBase.open(theirs)
    assert opened.checksum == kb.checksum and opened.build_report is None
    mem = hauser.KnowledgeBase.build(src, fmt, clean=clean)
    assert mem.checksum == kb.checksum


def test_lookups_equal_the_cli(cli, kb_files):
    d, tsv, csv = kb_files
    idx = d / "lookup.idx"
    kb = hauser.KnowledgeBase.build(tsv, "triplets", out=idx)
    for topic, vehicle in (("He", "a wolf"), ("her hands", "ice"), ("the news", "wildfire"), ("x", "y")):
        want = cli.json(["kb", "lookup", idx, "--topic", topic, "--vehicle", vehicle, "--top", "3"])
        got = kb.lookup(topic, vehicle=vehicle, top=3)
        assert got == want
        assert kb.relevance(topic, vehicle) == want["relevance"]
        assert kb.vehicle_count(vehicle) == want["vehicle_count"]
    want = cli.json(["kb", "lookup", idx, "--topic", "her hands", "--property", "cold"])
    assert kb.lookup("her hands", property="cold") == want
    assert [h[0] for h in kb.top_vehicles("her hands", "cold")] == [h["name"] for h in want["top_vehicles"]]
    rel = kb.relevance(["he", "her hands", "nobody"], np.array(["wolf", "ice", "thing"]))
    assert isinstance(rel, np.ndarray) and rel.tolist() == [kb.relevance("he", "wolf"), kb.relevance("her hands", "ice"), 0.0]
    assert kb.vehicle_count(["wolf", "ice"]).tolist() == [kb.vehicle_count("wolf"), kb.vehicle_count("ice")]


def test_kb_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        hauser.KnowledgeBase.open(tmp_path / "missing.idx")
    bad = tmp_path / "bad.idx"
    bad.write_bytes(b"not an index at all")
    with pytest.raises(ValueError, match="corrupt or incompatible"):
        hauser.KnowledgeBase.open(bad)
    tsv = tmp_path / "t.tsv"
    tsv.write_text("topic\tproperty\tvehicle\tcount\nhe\tbrave\n")
    with pytest.raises(ValueError, match="t.tsv:2"):
        hauser.KnowledgeBase.build(tsv, "triplets")
    assert hauser.KnowledgeBase.build(tsv, "triplets", skip_bad_rows=True).build_report["bad_rows"] == 1
    with pytest.raises(ValueError, match="unknown format"):
        hauser.KnowledgeBase.build(tsv, "xml")


def test_extract_equals_the_cli(cli, tmp_path):
    lines = [json.loads(l) for l in SIMILES.read_text().splitlines() if l.strip()]
    records = []
    for g in lines:
        for c in g["candidates"]:
            records.append({"simile": c, "literal": g["literal"]})
    records.append({"simile": "Her eyes shone like stars and her voice was as soft as silk."})
    records.append({"simile": "No comparison in this sentence."})
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in records))
    for like_only in (False, True):
        args = ["extract", "--input", inp] + (["--like-only"] if like_only else [])
        want = cli.jsonl(args)
        got = hauser.extract([r["simile"] for r in records], [r.get("literal") for r in records], like_only=like_only)
        assert [[list(c) for c in comps] for comps in got] == [w["components"] for w in want]
        for w, r in zip(want, records):
            one = hauser.extract(r["simile"], r.get("literal"), like_only=like_only)
            assert [list(c) for c in one] == w["components"]


def score_cli(cli, args):
    return cli.jsonl(["score", "--input", SIMILES, *args])


def same_records(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert list(g) == list(w)
        for k in w:
            if isinstance(w[k], float) or w[k] is None:
                assert close(g[k], w[k], 1e-12), (k, g[k], w[k])
            else:
                assert g[k] == w[k], k


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        ({}, []),
        ({"extract": False}, ["--no-extract"]),
        ({"weights": "1,1,1", "missing_part": "renormalize", "rerank": "1:1:1"},
         ["--weights", "1,1,1", "--missing-part", "renormalize", "--rerank", "1:1:1"]),
    ],
)
def test_score_records_equal_the_cli(cli, kb_files, kwargs, flags):
    d, tsv, _ = kb_files
    idx = d / "score.idx"
    kb = hauser.KnowledgeBase.build(tsv, "triplets", out=idx)
    groups = [json.loads(l) for l in SIMILES.read_text().splitlines() if l.strip()]
    want = score_cli(cli, ["--kb", idx, *flags])
    h = hauser.Hauser(kb=kb, **kwargs)
    same_records(h.score(groups), want)
    # An index path works as well as an open KnowledgeBase; so does one group as a dict.
    same_records(hauser.Hauser(kb=str(idx), **kwargs).score(groups[0]), [r for r in want if r["group"] == groups[0]["id"]])
    assert h.signature == want[0]["signature"]
    assert ("relevance", "no kb given") in hauser.Hauser().skipped


def test_rerank_orders_by_rank(kb_files):
    d, tsv, _ = kb_files
    h = hauser.Hauser(kb=hauser.KnowledgeBase.build(tsv, "triplets"))
    g = json.loads(SIMILES.read_text().splitlines()[0])
    records = h.score(g)
    best = sorted(records, key=lambda r: (r["rank"], r["candidate"]))
    assert h.rerank(g["literal"], g["candidates"], g.get("components")) == [r["text"] for r in best]


def test_failing_groups_give_error_records():
    h = hauser.Hauser()
    out = h.score([{"literal": "x", "candidates": []}, {"id": "ok", "literal": "He ran.", "candidates": ["He ran like the wind."]}])
    assert out[0]["group"] == 0 and "error" in out[0] and out[0]["candidate"] is None
    assert out[1]["group"] == "ok" and out[1]["rank"] == 1
    with pytest.raises(ValueError, match="missing \"literal\""):
        h.score([{"candidates": ["a"]}])
    with pytest.raises(ValueError, match="component"):
        h.score([{"literal": "a", "candidates": ["b", "c"], "components": [[["a", "b", "c"]]]}])


@pytest.mark.skipif(not hauser.NEURAL, reason="built without the neural feature")
def test_neural_criteria_equal_the_cli(cli, kb_files):
    d, tsv, _ = kb_files
    idx = d / "neural.idx"
    hauser.KnowledgeBase.build(tsv, "triplets", out=idx)
    nli, sentiment = str(NLI_FIXTURES / "bert"), str(NLI_FIXTURES / "roberta")
    want = score_cli(cli, ["--kb", idx, "--nli", nli, "--sentiment", sentiment, "--nli-input", "concat"])
    h = hauser.Hauser(kb=idx, nli=nli, sentiment=sentiment, nli_input="concat")
    groups = [json.loads(l) for l in SIMILES.read_text().splitlines() if l.strip()]
    same_records(h.score(groups), want)
    assert "logical_consistency" in want[0]
