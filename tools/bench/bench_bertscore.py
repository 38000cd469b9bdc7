#!/usr/bin/env python3
"""BERTScore benchmark, Python side (see tools/bench/bench_bertscore.sh).

prepare OUT          write OUT/hyp.txt and OUT/ref.txt: 2,000 pairs of mixed length built
                     deterministically from a word list (no external data)
time OUT MODEL LAYER REPEATS
                     time bert_score.score on the pairs (CPU, batch 64, best of REPEATS) and
                     write OUT/torch_f1.txt; print JSON {"seconds", "pairs"}
"""
import json
import random
import sys
import time

WORDS = ("the a old young river city light stone wind fire night morning heart voice child "
         "dog cat ran slept shone fell rose sang whispered like as bright cold warm slow quick "
         "over under through across near far silver golden quiet loud storm sea field road "
         "and but with without before after because while every no some many few").split()


def prepare(out):
    rng = random.Random(13)
    hyps, refs = [], []
    for _ in range(2000):
        n = rng.choice([4, 6, 8, 12, 16, 24, 40])
        ref = [rng.choice(WORDS) for _ in range(n)]
        hyp = [w if rng.random() < 0.6 else rng.choice(WORDS) for w in ref]
        hyps.append(" ".join(hyp).capitalize() + ".")
        refs.append(" ".join(ref).capitalize() + ".")
    with open(f"{out}/hyp.txt", "w") as f:
        f.write("\n".join(hyps) + "\n")
    with open(f"{out}/ref.txt", "w") as f:
        f.write("\n".join(refs) + "\n")


def timing(out, model, layer, repeats):
    import bert_score
    import torch
    torch.set_num_threads(int(__import__("os").environ.get("THREADS", "2")))
    hyps = open(f"{out}/hyp.txt").read().splitlines()
    refs = open(f"{out}/ref.txt").read().splitlines()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _, _, f1 = bert_score.score(hyps, refs, model_type=model, num_layers=layer,
                                    batch_size=64, device="cpu")
        best = min(best, time.perf_counter() - t0)
    with open(f"{out}/torch_f1.txt", "w") as f:
        f.write("\n".join(repr(x) for x in f1.tolist()) + "\n")
    print(json.dumps({"seconds": best, "pairs": len(hyps)}))


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        timing(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
