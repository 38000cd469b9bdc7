"""Benchmark: figlang-metrics WMD vs gensim 4.4.0 `KeyedVectors.wmdistance` (POT `emd2`), in one run.

Writes a random word2vec binary file (BENCH_VOCAB words x BENCH_DIM dimensions, float32: the
GoogleNews shape is 3,000,000 x 300), makes BENCH_N hypothesis/reference pairs from the sentences of
tools/gen/text_metric_corpus.py with edits (and a few out-of-vocabulary words), times every pair
single-threaded on both sides with gensim's defaults (norm=True) after the vectors are loaded,
checks that the distances agree (max relative difference, inf where gensim gives inf), and prints a
Markdown table of the timings and the ratio.

Usage: bash tools/bench/bench_wmd.sh  (builds the Rust driver, then runs this script)
"""

import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

import gensim
import numpy as np
import ot
from gensim.models import KeyedVectors

# The sentence corpus lives with the fixture generators, in tools/gen/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
from text_metric_corpus import REFERENCES  # noqa: E402

N = int(os.environ.get("BENCH_N", "10000"))
VOCAB = int(os.environ.get("BENCH_VOCAB", "100000"))
DIM = int(os.environ.get("BENCH_DIM", "300"))


def write_vectors(path, words):
    rng = np.random.default_rng(11)
    with open(path, "wb") as f:
        f.write(f"{len(words)} {DIM}\n".encode())
        for w in words:
            f.write(w.encode("utf-8") + b" " + rng.standard_normal(DIM).astype("<f4").tobytes() + b"\n")


def make_pairs(n, words, seed=7):
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(n):
        ref = rng.choice(REFERENCES).split()
        w = list(ref)
        for _ in range(rng.randrange(4)):
            op, i = rng.randrange(4), rng.randrange(len(w))
            if op == 0 and len(w) > 1:
                del w[i]
            elif op == 1:
                w.insert(i, rng.choice(words))
            elif op == 2:
                w[i] = rng.choice(words)
            else:
                w[i] = "oov-" + w[i]
        hyps.append(" ".join(w))
        refs.append(" ".join(ref))
    return hyps, refs


def unrelated_pairs(n, seed=9):
    rng = random.Random(seed)
    return [rng.choice(REFERENCES) for _ in range(n)], [rng.choice(REFERENCES) for _ in range(n)]


def compare(driver, kv, vec, tmp, hyps, refs):
    hp, rp, out = (os.path.join(tmp, n) for n in ("hyp.txt", "ref.txt", "rust.txt"))
    with open(hp, "w", encoding="utf-8") as f:
        f.write("\n".join(hyps) + "\n")
    with open(rp, "w", encoding="utf-8") as f:
        f.write("\n".join(refs) + "\n")
    t = time.perf_counter()
    py = [kv.wmdistance(h.split(), r.split()) for h, r in zip(hyps, refs)]
    py_pairs = time.perf_counter() - t
    rust = json.loads(subprocess.run([driver, vec, hp, rp, out], check=True, capture_output=True, text=True).stdout)
    with open(out, encoding="utf-8") as f:
        rd = [float(x) for x in f.read().split()]
    worst = 0.0
    for a, b in zip(py, rd):
        if math.isinf(a) or math.isinf(b):
            assert a == b, (a, b)
        else:
            worst = max(worst, abs(a - b) / max(abs(a), 1e-12))
    return py_pairs, rust, worst, sum(math.isinf(a) for a in py)


def main(driver):
    corpus_words = sorted({t for s in REFERENCES for t in s.split()})
    words = corpus_words + [f"w{i}" for i in range(max(0, VOCAB - len(corpus_words)))]
    tmp = tempfile.mkdtemp(prefix="bench_wmd_")
    vec = os.path.join(tmp, "vectors.bin")
    write_vectors(vec, words)
    t = time.perf_counter()
    kv = KeyedVectors.load_word2vec_format(vec, binary=True)
    py_load = time.perf_counter() - t

    print(f"gensim {gensim.__version__}, POT {ot.__version__}; {N} pairs of each kind, {len(words)} x {DIM} vectors")
    print("| | gensim 4.4.0 + POT | figlang-metrics | ratio |")
    print("| --- | ---: | ---: | ---: |")
    rows = []
    for kind, (hyps, refs) in (
        ("edited (a reference and 0-3 word edits)", make_pairs(N, corpus_words)),
        ("unrelated (two random sentences)", unrelated_pairs(N)),
    ):
        py_pairs, rust, worst, n_inf = compare(driver, kv, vec, tmp, hyps, refs)
        rows.append((kind, worst, n_inf))
        print(f"| {N} {kind} pairs, one thread | {py_pairs:.2f} s ({py_pairs / N * 1e6:.0f} us/pair) | "
              f"{rust['pairs_s']:.3f} s ({rust['pairs_s'] / N * 1e6:.1f} us/pair) | {py_pairs / rust['pairs_s']:.0f}x |")
        print(f"| same, {rust['threads']} threads (rayon) | (one thread) | "
              f"{rust['pairs_parallel_s']:.3f} s | {py_pairs / rust['pairs_parallel_s']:.0f}x |")
    print(f"| load the vectors | {py_load:.2f} s | {rust['load_s']:.2f} s | {py_load / rust['load_s']:.1f}x |")
    for kind, worst, n_inf in rows:
        print(f"{kind}: max relative difference {worst:.2e}, {n_inf} pairs inf on both sides")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
