"""Benchmark: figlang-metrics vs sacreBLEU 2.4.3 on 100,000 generated pairs, in one run.

Times sentence-level chrF, sentence-level BLEU (sacreBLEU's sentence_bleu settings) and corpus
BLEU, single-threaded on both sides, checks that every score is identical (max |diff|), and
prints a Markdown table of the timings and ratios.

Usage: bash tools/bench_text_metrics.sh  (builds the Rust driver, then runs this script)
Environment: BENCH_N pairs (100000); BENCH_REPEAT runs of each side, best time kept (1), to damp
the noise of a shared machine the same way on both sides.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

sys.path.insert(0, os.path.dirname(__file__))
from text_metric_corpus import REFERENCES  # noqa: E402

N = int(os.environ.get("BENCH_N", "100000"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "1"))
WORDS = " ".join(REFERENCES).split()


def make_pairs(n, seed=7):
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(n):
        ref = rng.choice(REFERENCES)
        w = ref.split()
        for _ in range(rng.randrange(4)):
            op = rng.randrange(3)
            i = rng.randrange(len(w))
            if op == 0 and len(w) > 1:
                del w[i]
            elif op == 1:
                w.insert(i, rng.choice(WORDS))
            else:
                w[i] = rng.choice(WORDS)
        hyps.append(" ".join(w))
        refs.append(ref)
    return hyps, refs


def main(driver):
    hyps, refs = make_pairs(N)
    tmp = tempfile.mkdtemp(prefix="bench_text_")
    hp, rp = os.path.join(tmp, "hyp.txt"), os.path.join(tmp, "ref.txt")
    with open(hp, "w", encoding="utf-8") as f:
        f.write("\n".join(hyps) + "\n")
    with open(rp, "w", encoding="utf-8") as f:
        f.write("\n".join(refs) + "\n")

    best = {}

    def keep(name, seconds):
        best[name] = min(best.get(name, float("inf")), seconds)

    for _ in range(REPEAT):
        chrf = CHRF()
        t = time.perf_counter()
        py_chrf = [chrf.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
        keep("py_chrf", time.perf_counter() - t)
        bleu = BLEU(effective_order=True)
        t = time.perf_counter()
        py_bleu = [bleu.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
        keep("py_bleu", time.perf_counter() - t)
        t = time.perf_counter()
        py_corpus = BLEU().corpus_score(hyps, [refs]).score
        keep("py_corpus", time.perf_counter() - t)

    for _ in range(REPEAT):
        out = subprocess.run([driver, hp, rp, os.path.join(tmp, "rs")], check=True,
                             capture_output=True, text=True)
        rs = json.loads(out.stdout)
        for k in ("sentence_chrf_s", "sentence_bleu_s", "corpus_bleu_s"):
            keep(k, rs[k])

    def load(name):
        with open(os.path.join(tmp, "rs." + name)) as f:
            return [float(x) for x in f.read().split()]

    rs_chrf, rs_bleu = load("chrf"), load("bleu")
    assert len(rs_chrf) == len(py_chrf) == len(rs_bleu) == len(py_bleu) == N
    d_chrf = max(abs(a - b) for a, b in zip(rs_chrf, py_chrf))
    d_bleu = max(abs(a - b) for a, b in zip(rs_bleu, py_bleu))
    same = sum(a == b for a, b in zip(rs_chrf, py_chrf)) + sum(
        a == b for a, b in zip(rs_bleu, py_bleu))
    d_corpus = abs(rs["corpus_bleu"] - py_corpus)
    print(f"pairs: {N}; best of {REPEAT} run(s) per side; sacrebleu {sacrebleu.__version__}, "
          f"Python {sys.version.split()[0]}; load average {os.getloadavg()}")
    print(f"max |ours - sacreBLEU|: sentence chrF {d_chrf:.2e}, "
          f"sentence BLEU {d_bleu:.2e}, corpus BLEU {d_corpus:.2e}; "
          f"bit-identical sentence scores: {same}/{2 * N}")
    print("| metric | sacreBLEU 2.4.3 (s) | figlang-metrics (s) | speed-up |")
    print("| --- | --- | --- | --- |")
    for name, py, r in [("sentence chrF", best["py_chrf"], best["sentence_chrf_s"]),
                        ("sentence BLEU", best["py_bleu"], best["sentence_bleu_s"]),
                        ("corpus BLEU", best["py_corpus"], best["corpus_bleu_s"])]:
        print(f"| {name} | {py:.2f} | {r:.3f} | {py / r:.1f}x |")


if __name__ == "__main__":
    main(sys.argv[1])
