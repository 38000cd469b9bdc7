"""Benchmark: figlang-metrics vs sacreBLEU 2.4.3 on 100,000 generated pairs, in one run.

Times sentence-level chrF, sentence-level BLEU (sacreBLEU's sentence_bleu settings), corpus
BLEU and corpus TER, single-threaded on both sides, checks that every score is identical (max
|diff|), and prints a Markdown table of the timings and ratios. Then, on the first BENCH_PAIRED_N
pairs (10000): a paired bootstrap test (1000 resamples, sacreBLEU's default seed) of BLEU for two
more systems (the same references, other seeded edits) against the first, statistics extraction
included on both sides (`sacrebleu --paired-bs` vs `hauser metric bleu --paired-bs`'s library
calls); scores and p-values compared. Finally the Rust driver again with two rayon threads
(RAYON_NUM_THREADS=2; sacreBLEU has no threads to give): the scaling of each workload, and a check
that every score equals the one-thread run's.

Usage: bash tools/bench/bench_text_metrics.sh  (builds the Rust driver, then runs this script)
Environment: BENCH_N pairs (100000); BENCH_REPEAT runs of each side, best time kept (1), to damp
the noise of a shared machine the same way on both sides; BENCH_PAIRED_N segments of the paired
test (10000; BENCH_TER_N is read as its old name).
"""

import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

# The sentence corpus lives with the fixture generators, in tools/gen/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
from text_metric_corpus import REFERENCES, edited_pairs  # noqa: E402

N = int(os.environ.get("BENCH_N", "100000"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "1"))
PAIRED_N = int(os.environ.get("BENCH_PAIRED_N", os.environ.get("BENCH_TER_N", "10000")))
KEYS = ("sentence_chrf_s", "sentence_bleu_s", "corpus_bleu_s", "corpus_ter_s", "paired_bs_s")
WORDS = " ".join(REFERENCES).split()


def make_pairs(n, seed=7):
    pairs = list(edited_pairs(n, seed))
    return [h for h, _ in pairs], [r for _, r in pairs]


def edit(ref, seed):
    """One seeded edit pass over `ref` (make_pairs' edits, for a given reference)."""
    rng = random.Random(seed)
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
    return " ".join(w)


def main(driver):
    load0 = os.getloadavg()
    hyps, refs = make_pairs(N)
    tmp = tempfile.mkdtemp(prefix="bench_text_")
    hp, rp = os.path.join(tmp, "hyp.txt"), os.path.join(tmp, "ref.txt")
    with open(hp, "w", encoding="utf-8") as f:
        f.write("\n".join(hyps) + "\n")
    with open(rp, "w", encoding="utf-8") as f:
        f.write("\n".join(refs) + "\n")

    m = min(PAIRED_N, N)
    # Two more systems: other seeded edits of the same references.
    sys2 = [edit(r, 8 + i) for i, r in enumerate(refs[:m])]
    sys3 = [edit(r, 90000 + i) for i, r in enumerate(refs[:m])]
    paths = {}
    for name, lines in (("hyp_m", hyps[:m]), ("ref_m", refs[:m]), ("sys2", sys2), ("sys3", sys3)):
        paths[name] = os.path.join(tmp, name + ".txt")
        with open(paths[name], "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

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
        t = time.perf_counter()
        py_ter = TER().corpus_score(hyps, [refs]).score
        keep("py_ter", time.perf_counter() - t)
        t = time.perf_counter()
        _, paired = PairedTest([("base", hyps[:m]), ("sys2", sys2), ("sys3", sys3)], {"BLEU": BLEU()},
                               [refs[:m]], test_type="bs", n_samples=1000)()
        keep("py_paired", time.perf_counter() - t)

    def run_driver(threads, prefix):
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        out = subprocess.run([driver, hp, rp, os.path.join(tmp, prefix), paths["hyp_m"], paths["ref_m"],
                              paths["sys2"], paths["sys3"]], check=True, capture_output=True, text=True,
                             env=env)
        return json.loads(out.stdout)

    for _ in range(REPEAT):
        rs = run_driver(1, "rs")
        for k in KEYS:
            keep(k, rs[k])
    two = {}
    for _ in range(REPEAT):
        rs2 = run_driver(2, "rs2")
        for k in KEYS:
            two[k] = min(two.get(k, float("inf")), rs2[k])

    def load(name, prefix="rs"):
        with open(os.path.join(tmp, prefix + "." + name)) as f:
            return [float(x) for x in f.read().split()]

    rs_chrf, rs_bleu = load("chrf"), load("bleu")
    assert len(rs_chrf) == len(py_chrf) == len(rs_bleu) == len(py_bleu) == N
    d_chrf = max(abs(a - b) for a, b in zip(rs_chrf, py_chrf))
    d_bleu = max(abs(a - b) for a, b in zip(rs_bleu, py_bleu))
    same = sum(a == b for a, b in zip(rs_chrf, py_chrf)) + sum(
        a == b for a, b in zip(rs_bleu, py_bleu))
    d_corpus = abs(rs["corpus_bleu"] - py_corpus)
    d_ter = abs(rs["corpus_ter"] - py_ter)
    py_p = [r.p_value for r in paired["BLEU"][1:]]
    py_mean = [r.mean for r in paired["BLEU"]]
    same_paired = py_p == rs["paired_p"] and all(abs(a - b) < 1e-9 for a, b in zip(py_mean, rs["paired_mean"]))
    same_threads = (load("chrf") == load("chrf", "rs2") and load("bleu") == load("bleu", "rs2")
                    and all(rs[k] == rs2[k] for k in ("corpus_bleu", "corpus_ter", "paired_p", "paired_mean")))
    print(f"pairs: {N}; best of {REPEAT} run(s) per side; sacrebleu {sacrebleu.__version__}, "
          f"Python {sys.version.split()[0]}; {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs; load average {load0} at the start, {os.getloadavg()} at the end")
    print(f"max |ours - sacreBLEU|: sentence chrF {d_chrf:.2e}, "
          f"sentence BLEU {d_bleu:.2e}, corpus BLEU {d_corpus:.2e}; "
          f"bit-identical sentence scores: {same}/{2 * N}")
    print(f"corpus TER |ours - sacreBLEU| {d_ter:.2e}; paired bootstrap p-values "
          f"{rs['paired_p']} vs {py_p}, means equal: {same_paired}")
    print("| metric | sacreBLEU 2.4.3 (s) | figlang-metrics (s) | speed-up |")
    print("| --- | --- | --- | --- |")
    for name, py, r in [("sentence chrF", best["py_chrf"], best["sentence_chrf_s"]),
                        ("sentence BLEU", best["py_bleu"], best["sentence_bleu_s"]),
                        ("corpus BLEU", best["py_corpus"], best["corpus_bleu_s"]),
                        ("corpus TER", best["py_ter"], best["corpus_ter_s"]),
                        (f"paired bootstrap, BLEU, 3 x {m} segments, 1000 resamples",
                         best["py_paired"], best["paired_bs_s"])]:
        print(f"| {name} | {py:.2f} | {r:.3f} | {py / r:.1f}x |")
    print()
    print(f"Rust driver with RAYON_NUM_THREADS=2 (best of {REPEAT}); every score equal to the "
          f"one-thread run's: {same_threads}")
    print("| metric | 1 thread (s) | 2 threads (s) | scaling | sacreBLEU / 2 threads |")
    print("| --- | --- | --- | --- | --- |")
    for name, k, py in [("sentence chrF", "sentence_chrf_s", best["py_chrf"]),
                        ("sentence BLEU", "sentence_bleu_s", best["py_bleu"]),
                        ("corpus BLEU", "corpus_bleu_s", best["py_corpus"]),
                        ("corpus TER", "corpus_ter_s", best["py_ter"]),
                        ("paired bootstrap", "paired_bs_s", best["py_paired"])]:
        print(f"| {name} | {best[k]:.3f} | {two[k]:.3f} | {best[k] / two[k]:.2f}x | {py / two[k]:.1f}x |")


if __name__ == "__main__":
    main(sys.argv[1])
