#!/usr/bin/env python3
"""Golden fixture of NewsMet's metaphoricity (figlang-tasks newsmet::metaphoricity): gensim
4.4.0's `KeyedVectors.similarity` on the small random word2vec text file of figlang-metrics'
WMD tests (figlang-metrics/tests/fixtures/wmd/vectors.txt, tools/gen/gen_wmd_fixture.py), for every
pair of its words, and min(cos(subject, c), cos(object, c)) for (subject, object, candidate)
triples. Writes figlang-tasks/tests/fixtures/newsmet/metaphoricity.json. Tolerance: 1e-6.
Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_metaphoricity_fixture.py
"""
import itertools
import json
from pathlib import Path

import gensim
from gensim.models import KeyedVectors

ROOT = Path(__file__).resolve().parents[2]
VEC = ROOT / "figlang-metrics/tests/fixtures/wmd/vectors.txt"
OUT = ROOT / "figlang-tasks/tests/fixtures/newsmet/metaphoricity.json"


def main():
    kv = KeyedVectors.load_word2vec_format(str(VEC), binary=False)
    # The file holds one key gensim reads as None (a deliberately malformed word): skipped.
    words = [w for w in kv.index_to_key if isinstance(w, str)]
    pairs = [{"a": a, "b": b, "similarity": float(kv.similarity(a, b))}
             for a, b in itertools.combinations(words, 2)]
    triples = []
    for s, o, c in [("cat", "mat", "sat"), ("he", "lion", "was"), ("she", "ice", "ran"),
                    ("dog", "wind", "like"), ("mouse", "café", "quiet")]:
        triples.append({"subject": s, "object": o, "candidate": c,
                        "score": float(min(kv.similarity(s, c), kv.similarity(o, c)))})
    meta = {"generator": "tools/gen/gen_metaphoricity_fixture.py", "gensim": gensim.__version__, "tolerance": 1e-6}
    OUT.write_text(json.dumps({"meta": meta, "pairs": pairs, "triples": triples}) + "\n")
    print(len(pairs), "pairs")


if __name__ == "__main__":
    main()
