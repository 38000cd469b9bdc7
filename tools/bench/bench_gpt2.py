#!/usr/bin/env python3
"""PyTorch side of tools/bench/bench_gpt2.sh: a GPT-2-small-sized causal LM (seeded random weights,
the same computation as the real checkpoint, which the benchmark machine cannot download) and
deterministic token-id sequences; times per-token log-probabilities with transformers.

  bench_gpt2.py prepare OUT_DIR FIXTURE_TOKENIZER_DIR N   -> OUT_DIR/model, OUT_DIR/ids.json
  bench_gpt2.py time OUT_DIR BATCH REPEATS                -> one JSON line (seconds, checksum)
"""
import json
import os
import random
import shutil
import sys
import time

import torch
from transformers import GPT2Config, GPT2LMHeadModel


def prepare(out, tok_dir, n):
    model_dir = os.path.join(out, "model")
    if not os.path.exists(os.path.join(model_dir, "model.safetensors")):
        torch.manual_seed(0)
        GPT2LMHeadModel(GPT2Config()).eval().save_pretrained(model_dir)
        for f in ("tokenizer.json", "tokenizer_config.json"):
            shutil.copy(os.path.join(tok_dir, f), model_dir)
    rng = random.Random(7)
    seqs = [[rng.randrange(50257) for _ in range(rng.randint(8, 64))] for _ in range(n)]
    with open(os.path.join(out, "ids.json"), "w") as f:
        json.dump(seqs, f)


def timed(fn, repeats):
    best, result = float("inf"), None
    for _ in range(repeats):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main():
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    out, batch, repeats = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(os.cpu_count())
    torch.set_grad_enabled(False)
    model = GPT2LMHeadModel.from_pretrained(os.path.join(out, "model")).eval()
    seqs = json.load(open(os.path.join(out, "ids.json")))

    def loop():
        # The usual perplexity loop: one sequence at a time, no padding.
        total = 0.0
        for s in seqs:
            x = torch.tensor([s])
            lp = torch.log_softmax(model(x).logits[0, :-1], -1)
            total += lp.gather(1, x[0, 1:, None]).sum().item()
        return total

    def batched():
        # Length-sorted batches, right-padded, attention mask; only real tokens are read.
        order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
        total = 0.0
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            longest = max(len(seqs[i]) for i in idx)
            ids = torch.zeros((len(idx), longest), dtype=torch.long)
            mask = torch.zeros((len(idx), longest), dtype=torch.long)
            for r, i in enumerate(idx):
                ids[r, :len(seqs[i])] = torch.tensor(seqs[i])
                mask[r, :len(seqs[i])] = 1
            lp = torch.log_softmax(model(ids, attention_mask=mask).logits[:, :-1], -1)
            got = lp.gather(2, ids[:, 1:, None])[..., 0]
            for r, i in enumerate(idx):
                total += got[r, :len(seqs[i]) - 1].sum().item()
        return total

    t_loop, s_loop = timed(loop, repeats)
    t_batched, s_batched = timed(batched, repeats)
    print(json.dumps({
        "sequences": len(seqs), "tokens": sum(map(len, seqs)),
        "loop": t_loop, "batched": t_batched, "sum_loop": s_loop, "sum_batched": s_batched,
        "torch": torch.__version__, "threads": torch.get_num_threads(),
    }))


if __name__ == "__main__":
    main()
