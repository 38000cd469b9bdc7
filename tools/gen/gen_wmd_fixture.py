#!/usr/bin/env python3
"""Golden fixture of Word Mover's Distance: gensim 4.4.0 (`KeyedVectors.wmdistance`, POT 0.9.7
`emd2`) on small random word vectors, written as word2vec binary, word2vec text and GloVe text.

Writes figlang-metrics/tests/fixtures/wmd/{vectors.bin,vectors.txt,glove.txt,wmd_golden.json}.
Run in the reference environment (tools/pyref.sh; needs only gensim, POT and numpy):

    PYTHON=$(bash tools/pyref.sh); $PYTHON tools/gen/gen_wmd_fixture.py

The vocabulary has a repeated word (gensim keeps the first vector), a word whose vector is another's
times 2 (same direction: after normalisation the two are the same point, which reaches gensim's
"all distances zero -> inf" branch), non-ASCII words, and the cases cover out-of-vocabulary tokens,
repeated tokens, identical documents, empty sides and `norm=False`.
"""
import json
import pathlib
import random
import sys

import gensim
import numpy as np
import ot
from gensim.models import KeyedVectors

OUT = pathlib.Path(__file__).resolve().parents[2] / "figlang-metrics/tests/fixtures/wmd"
DIM = 8


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261124)
    words = [
        "the", "cat", "dog", "sat", "on", "mat", "ran", "like", "wind", "he", "she", "was",
        "as", "fast", "cold", "ice", "brave", "lion", "a", "an", "it", "quiet", "mouse",
        "café", "naïve", "日本", "big", "large", ",", ".", "n't", "'s", "is", "very", "happy",
    ]
    vectors = {w: rng.standard_normal(DIM).astype(np.float32) for w in words}
    vectors["large"] = (vectors["big"] * 2).astype(np.float32)  # same direction as "big"
    entries = [(w, vectors[w]) for w in words]
    entries.insert(5, ("cat", rng.standard_normal(DIM).astype(np.float32)))  # duplicate: ignored

    with open(OUT / "vectors.bin", "wb") as f:
        f.write(f"{len(entries)} {DIM}\n".encode())
        for w, v in entries:
            # word2vec's C tool writes a line break after each vector; gensim strips it.
            f.write(w.encode("utf-8") + b" " + v.astype("<f4").tobytes() + b"\n")
    with open(OUT / "vectors.txt", "w", encoding="utf-8") as f:
        f.write(f"{len(entries)} {DIM}\n")
        for w, v in entries:
            f.write(w + " " + " ".join(repr(float(x)) for x in v) + "\n")
    with open(OUT / "glove.txt", "w", encoding="utf-8") as f:
        for w, v in entries:
            f.write(w + " " + " ".join(repr(float(x)) for x in v) + "\n")

    kv = KeyedVectors.load_word2vec_format(str(OUT / "vectors.bin"), binary=True)
    for other in (
        KeyedVectors.load_word2vec_format(str(OUT / "vectors.txt"), binary=False),
        KeyedVectors.load_word2vec_format(str(OUT / "glove.txt"), binary=False, no_header=True),
    ):
        assert other.index_to_key == kv.index_to_key
        assert np.array_equal(other.vectors, kv.vectors)

    r = random.Random(7)
    known = [w for w in words if w != "large"]
    cases = [
        (["cat"], ["dog"]),
        (["cat", "cat"], ["cat"]),  # one distinct word on both sides: 0
        (["cat", "sat"], ["cat", "sat"]),  # identical documents
        (["sat", "cat"], ["cat", "sat", "sat"]),
        (["big"], ["large"]),  # same direction: gensim's all-zero branch, inf
        (["big", "big"], ["large"]),
        (["big", "cat"], ["large", "cat"]),
        (["unknown"], ["cat"]),  # a side with no known word: inf
        ([], ["cat"]),
        ([], []),
        (["Cat", "cat"], ["dog", "DOG"]),  # case-sensitive lookup
        (["café", "naïve", "日本"], ["cat", "naïve"]),
        (["he", "ran", "like", "the", "wind", "."], ["he", "was", "as", "fast", "as", "the", "wind", "."]),
        (["it", "is", "n't", "cold"], ["it", "'s", "very", "cold", "like", "ice"]),
    ]
    for _ in range(40):
        n1, n2 = r.randint(1, 14), r.randint(1, 14)
        doc1 = [r.choice(known + ["oov1", "oov2"]) for _ in range(n1)]
        doc2 = [r.choice(known + ["oov3"]) for _ in range(n2)]
        cases.append((doc1, doc2))
    out = []
    for doc1, doc2 in cases:
        for norm in (True, False):
            d = kv.wmdistance(doc1, doc2, norm=norm)
            out.append({"doc1": doc1, "doc2": doc2, "norm": norm, "distance": "inf" if np.isinf(d) else float(d)})

    # NumPy's float32 norms (pairwise summation) of long vectors, as gensim normalises them.
    long = rng.standard_normal((6, 300)).astype(np.float32) * np.float32(3.7)
    norms = [{"vector": [float(x) for x in v], "norm": float(np.linalg.norm(v[None, :], axis=1)[0])} for v in long]
    long_sizes = [7, 8, 9, 127, 128, 129, 1000]
    for n in long_sizes:
        v = rng.standard_normal(n).astype(np.float32)
        norms.append({"vector": [float(x) for x in v], "norm": float(np.linalg.norm(v[None, :], axis=1)[0])})

    limited = KeyedVectors.load_word2vec_format(str(OUT / "vectors.bin"), binary=True, limit=10)
    fixture = {
        "reference": {
            "gensim": gensim.__version__,
            "pot": ot.__version__,
            "numpy": np.__version__,
            "python": sys.version.split()[0],
        },
        "tolerance": "1e-6 relative (the fixture check uses 1e-9)",
        "dim": DIM,
        "vocab": kv.index_to_key,
        "vectors_bin_first": [float(x) for x in kv.vectors[0]],
        "limit_10_vocab": limited.index_to_key,
        "cases": out,
        "norms_f32": norms,
    }
    (OUT / "wmd_golden.json").write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"gen_wmd_fixture: {len(out)} cases, vocab {len(kv)}, files in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
