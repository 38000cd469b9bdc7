#!/usr/bin/env python3
"""transformers side of tools/bench/bench_mlm.sh: fill-mask top-k as the NewsMet authors' candidate
cell does it (`softmax(logits[mask positions]).topk(K)`, each id decoded), in length-sorted,
right-padded batches with an attention mask.

  bench_mlm.py prepare OUT_DIR ARCH DATA_CSV N  -> OUT_DIR/ARCH (seeded random AlbertForMaskedLM
      the size of albert-base-v2, or BertForMaskedLM the size of bert-base, with the tiny fixture
      tokenizer: the real checkpoints cannot be downloaded here), OUT_DIR/masked.txt (the first
      N headlines of DATA_CSV, middle whitespace token replaced by [MASK])
  bench_mlm.py time MODEL_DIR TEXTS K BATCH REPEATS -> one JSON line (seconds, checksums)
"""
import csv
import json
import os
import shutil
import sys
import time

import torch
from transformers import AlbertConfig, AlbertForMaskedLM, AutoTokenizer, BertConfig, BertForMaskedLM

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TOKENIZERS = {"albert": "hauser-nli/tests/fixtures/masked-lm/albert",
              "bert": "hauser-nli/tests/fixtures/masked-lm/bert"}


def prepare(out, arch, data, n):
    model_dir = os.path.join(out, arch)
    if not os.path.exists(os.path.join(model_dir, "model.safetensors")):
        torch.manual_seed(0)
        if arch == "albert":
            # albert-base-v2's shape: 12 layers sharing one group, factorised 128-wide embeddings.
            cfg = AlbertConfig(vocab_size=30000, embedding_size=128, hidden_size=768, num_attention_heads=12,
                               intermediate_size=3072, num_hidden_layers=12, hidden_act="gelu_new",
                               pad_token_id=0, bos_token_id=2, eos_token_id=3)
            model = AlbertForMaskedLM(cfg)
        else:
            model = BertForMaskedLM(BertConfig(vocab_size=30522))
        model.eval().save_pretrained(model_dir)
        shutil.copy(os.path.join(ROOT, TOKENIZERS[arch], "tokenizer.json"), model_dir)
        # The fixture tokenizers say 64 tokens (the tiny models' limit); these models take 512.
        cfg = json.load(open(os.path.join(ROOT, TOKENIZERS[arch], "tokenizer_config.json")))
        cfg["model_max_length"] = 512
        json.dump(cfg, open(os.path.join(model_dir, "tokenizer_config.json"), "w"), indent=1)
    with open(data, encoding="utf-8-sig", newline="") as f:
        rows = [r["Text"] for r in csv.DictReader(f)][:n]
    with open(os.path.join(out, "masked.txt"), "w") as f:
        for text in rows:
            t = text.split()
            t[len(t) // 2] = "[MASK]"
            f.write(" ".join(t).replace("\n", " ") + "\n")


def timed(fn, repeats):
    best, result = float("inf"), None
    for _ in range(repeats):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def time_it(model_dir, texts_path, k, batch, repeats):
    torch.set_num_threads(os.cpu_count())
    torch.set_grad_enabled(False)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForMaskedLM_from(model_dir)
    texts = [l.rstrip("\n") for l in open(texts_path)]

    def run():
        encs = [tok.encode(t) for t in texts]
        order = sorted(range(len(encs)), key=lambda i: -len(encs[i]))
        out = [None] * len(encs)
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            longest = max(len(encs[i]) for i in idx)
            ids = torch.zeros((len(idx), longest), dtype=torch.long)
            mask = torch.zeros((len(idx), longest), dtype=torch.long)
            for r, i in enumerate(idx):
                ids[r, :len(encs[i])] = torch.tensor(encs[i])
                mask[r, :len(encs[i])] = 1
            logits = model(input_ids=ids, attention_mask=mask).logits
            for r, i in enumerate(idx):
                at = (ids[r] == tok.mask_token_id).nonzero().flatten()
                top = torch.topk(torch.softmax(logits[r, at], dim=1), k)
                out[i] = [(int(j), tok.decode([int(j)]), float(p))
                          for j, p in zip(top.indices[0], top.values[0])]
        return out

    seconds, out = timed(run, repeats)
    print(json.dumps({"items": len(texts), "seconds": seconds,
                      "top1": [o[0][0] for o in out], "sum_top1": sum(o[0][2] for o in out),
                      "topk_ids": [[j for j, _, _ in o] for o in out]}))


def AutoModelForMaskedLM_from(d):
    cfg = json.load(open(os.path.join(d, "config.json")))
    cls = AlbertForMaskedLM if cfg["model_type"] == "albert" else BertForMaskedLM
    return cls.from_pretrained(d).eval()


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        time_it(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
