#!/usr/bin/env python3
"""transformers side of tools/bench/bench_narratives.sh: zero-shot scoring of figurative narratives as
surface-form-competition does it (premise and " " + option encoded separately, premise cut from
the left, summed log-probability of the option after the premise and after the domain premise
" The story continues:"), 4 sequences per item, in length-sorted right-padded batches with an
attention mask.

  bench_narratives.py MODEL_DIR DATA_JSONL ITEMS BATCH REPEATS -> one JSON line
"""
import json
import os
import sys
import time

import torch
from transformers import AutoTokenizer, GPT2LMHeadModel

DOMAIN = " The story continues:"


def premise(n):
    p = n.replace("<b>", "").replace("</b>", "")
    return p if p.endswith(".") or p.endswith("!") else p + "."


def main():
    model_dir, data, items, batch, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    torch.set_num_threads(os.cpu_count())
    torch.set_grad_enabled(False)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = GPT2LMHeadModel.from_pretrained(model_dir).eval()
    limit = model.config.n_positions
    rows = [json.loads(l) for l in open(data) if l.strip()][:items]

    def run():
        # Tokenising is part of the work, as on the Rust side.
        domain = tok.encode(DOMAIN, add_special_tokens=False)
        pairs = []
        for r in rows:
            ctx = tok.encode(premise(r["narrative"]), add_special_tokens=False)
            for k in ("option1", "option2"):
                hyp = tok.encode(" " + r[k], add_special_tokens=False)
                pairs.append((ctx[-(limit - len(hyp)):], hyp))
                pairs.append((domain, hyp))
        seqs = [c + h for c, h in pairs]
        out = [0.0] * len(pairs)
        order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            longest = max(len(seqs[i]) for i in idx)
            ids = torch.zeros((len(idx), longest), dtype=torch.long)
            mask = torch.zeros((len(idx), longest), dtype=torch.long)
            for r, i in enumerate(idx):
                ids[r, :len(seqs[i])] = torch.tensor(seqs[i])
                mask[r, :len(seqs[i])] = 1
            logits = model(ids, attention_mask=mask).logits
            for r, i in enumerate(idx):
                c, h = pairs[i]
                lp = torch.log_softmax(logits[r, len(c) - 1:len(c) + len(h) - 1].double(), -1)
                out[i] = lp.gather(1, torch.tensor(h)[:, None]).sum().item()
        lm = sum(out[0::2])
        dcpmi = sum(a - b for a, b in zip(out[0::2], out[1::2]))
        return lm, dcpmi

    best, sums = float("inf"), None
    for _ in range(max(1, repeats)):
        t = time.perf_counter()
        sums = run()
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"items": len(rows), "seconds": best, "sum_lm": sums[0], "sum_dcpmi": sums[1]}))


if __name__ == "__main__":
    main()
