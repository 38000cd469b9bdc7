#!/usr/bin/env python3
"""PyTorch side of tools/bench/bench_nli.sh, and preparation of its inputs.

  bench_nli.py prepare OUTDIR MINILM_DIR   writes OUTDIR/sentences.txt (2,000 mixed-length
                                           sentences, deterministic) and OUTDIR/minilm-cls (MiniLM
                                           with a seeded random 3-class head: a classifier of
                                           MiniLM-L6's size for pair-throughput timing)
  bench_nli.py time OUTDIR MINILM_DIR BATCH REPEATS N_PAIRS   prints best-of-REPEATS seconds as JSON
"""

import json
import sys
import time
from pathlib import Path

WORDS = (
    "the a boy girl ran walked like wind storm quiet mouse library house old cold night air "
    "laughed under bright summer sun anger rose inside city never sleeps hums hive smile warm "
    "eyes kind soldiers marched slowly towards river happy terrible result wonderful lovely day "
    "numbers symbols appear too market fell sharply today recipe needs two cups flour raining "
    "heavily capital france movie field across voice thundered through empty hall"
).split()


def sentences(n=2000):
    # A small LCG keeps the text identical across runs and languages.
    state, out = 12345, []
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2**31
        length = 3 + state % 58  # 3..60 words: mixed lengths
        words = []
        for _ in range(length):
            state = (state * 1103515245 + 12345) % 2**31
            words.append(WORDS[state % len(WORDS)])
        out.append(" ".join(words).capitalize() + ".")
    return out


def prepare(outdir, minilm):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "sentences.txt").write_text("\n".join(sentences()) + "\n")
    cls = outdir / "minilm-cls"
    if not (cls / "model.safetensors").is_file():
        torch.manual_seed(0)
        labels = {0: "entailment", 1: "neutral", 2: "contradiction"}
        m = AutoModelForSequenceClassification.from_pretrained(
            str(minilm), num_labels=3, id2label=labels, label2id={v: k for k, v in labels.items()}
        )
        m.save_pretrained(cls)
        AutoTokenizer.from_pretrained(str(minilm)).save_pretrained(cls)


def best_of(repeats, f):
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def timing(outdir, minilm, batch, repeats, n_pairs):
    import torch
    import transformers
    from sentence_transformers import SentenceTransformer
    from transformers import AutoModel, AutoModelForSequenceClassification, AutoTokenizer

    torch.set_num_threads(2)
    torch.set_grad_enabled(False)
    sents = (outdir / "sentences.txt").read_text().splitlines()
    tok = AutoTokenizer.from_pretrained(str(minilm))
    model = AutoModel.from_pretrained(str(minilm)).eval()

    def embed_naive():
        # A plain transformers loop: batches in input order, padded to the batch maximum.
        for i in range(0, len(sents), batch):
            enc = tok(sents[i : i + batch], padding=True, truncation=True, max_length=256, return_tensors="pt")
            h = model(**enc).last_hidden_state
            m = enc["attention_mask"].unsqueeze(-1).float()
            e = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
            torch.nn.functional.normalize(e, dim=-1)

    st = SentenceTransformer(str(minilm), device="cpu")
    report = {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "threads": torch.get_num_threads(),
        "embed_naive": best_of(repeats, embed_naive),
        # sentence-transformers sorts by length before batching (bucketed).
        "embed_st_bucketed": best_of(repeats, lambda: st.encode(sents, batch_size=batch)),
    }
    cls_tok = AutoTokenizer.from_pretrained(str(outdir / "minilm-cls"))
    cls = AutoModelForSequenceClassification.from_pretrained(str(outdir / "minilm-cls")).eval()
    pairs = list(zip(sents, sents[1:] + sents[:1]))[:n_pairs]

    def classify(order):
        for i in range(0, len(order), batch):
            chunk = [pairs[j] for j in order[i : i + batch]]
            enc = cls_tok([a for a, _ in chunk], [b for _, b in chunk], padding=True, truncation=True, return_tensors="pt")
            torch.softmax(cls(**enc).logits, dim=-1)

    naive = list(range(len(pairs)))
    lengths = [len(cls_tok(a, b)["input_ids"]) for a, b in pairs]
    bucketed = sorted(naive, key=lambda i: -lengths[i])
    report["pairs_naive"] = best_of(repeats, lambda: classify(naive))
    report["pairs_bucketed"] = best_of(repeats, lambda: classify(bucketed))
    report["sentences"] = len(sents)
    report["pairs"] = len(pairs)
    print(json.dumps(report))


if __name__ == "__main__":
    cmd, outdir, minilm = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    if cmd == "prepare":
        prepare(outdir, minilm)
    else:
        timing(outdir, minilm, int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
