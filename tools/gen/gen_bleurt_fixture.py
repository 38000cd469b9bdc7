#!/usr/bin/env python3
"""BLEURT golden fixture: a tiny random-weight BleurtForSequenceClassification (bleurt-pytorch)
and its scores.

bleurt-pytorch is not on PyPI; tools/requirements-comet.txt installs it from its repository at a
fixed commit, in the same venv as unbabel-comet (transformers < 5):

    python3 -m venv .cache/pycomet && .cache/pycomet/bin/pip install -r tools/requirements-comet.txt
    .cache/pycomet/bin/python tools/gen/gen_bleurt_fixture.py

Writes hauser-nli/tests/fixtures/bleurt/: config.json (model_type "bleurt"), model.safetensors,
vocab.txt + tokenizer_config.json (the original checkpoints' WordPiece layout, lowercased, read by
BleurtTokenizer = BertTokenizerFast; the vocabulary is the bert fixture's), and reference.json:
the model's score (logit 0) for each (reference, candidate) pair, encoded as the original BLEURT
does, `[CLS] reference [SEP] candidate [SEP]`, truncated longest-first to the model's 64 positions,
in one padded batch. Tolerance: 1e-4 absolute.
"""

import json
import shutil
from pathlib import Path

import torch
import transformers
from bleurt_pytorch import BleurtConfig, BleurtForSequenceClassification, BleurtTokenizer

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "hauser-nli" / "tests" / "fixtures" / "bleurt"
VOCAB_FROM = ROOT / "hauser-nli" / "tests" / "fixtures" / "bert" / "vocab.txt"
BLEURT_PYTORCH_COMMIT = "279ca1bb4106bde5a89f0f82723197e23d8446cb"
TOLERANCE = 1e-4

REFS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse.",
    "His voice thundered through the empty hall.",
    "the old house creaked",
    " ".join(["the old house creaked in the cold night air"] * 6),
    "Numbers like 42 and symbols such as % appear too.",
]
CANDS = [
    "The boy ran very fast across the field.",
    "She was SILENT, like a Mouse!",
    "",
    " ".join(["the boy ran like the wind"] * 9),
    "the house creaked",
    "Numbers like 42 and symbols such as % appear too.",
]


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    shutil.copy(VOCAB_FROM, OUT / "vocab.txt")
    (OUT / "tokenizer_config.json").write_text(
        json.dumps({"do_lower_case": True, "model_max_length": 64, "tokenizer_class": "BleurtTokenizer"}, indent=1)
    )
    vocab = len((OUT / "vocab.txt").read_text().splitlines())
    torch.manual_seed(7)
    cfg = BleurtConfig(
        vocab_size=vocab, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=64, type_vocab_size=2, num_labels=1,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
    )
    model = BleurtForSequenceClassification(cfg)
    with torch.no_grad():
        # The default init is small; larger weights keep the layers and the head visible.
        for n, p in model.named_parameters():
            if "LayerNorm" not in n:
                p.copy_(0.2 * torch.randn_like(p))
    model.eval()
    model.save_pretrained(OUT, safe_serialization=True)
    tok = BleurtTokenizer.from_pretrained(str(OUT))
    enc = tok(REFS, CANDS, padding="longest", truncation="longest_first", max_length=64, return_tensors="pt")
    with torch.no_grad():
        scores = model(**enc).logits.flatten().tolist()
    ids = [row[: int(m.sum())].tolist() for row, m in zip(enc["input_ids"], enc["attention_mask"])]
    ref = {
        "meta": {
            "generator": "tools/gen/gen_bleurt_fixture.py",
            "bleurt-pytorch": BLEURT_PYTORCH_COMMIT,
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "tolerance": TOLERANCE,
        },
        "references": REFS,
        "candidates": CANDS,
        "ids": ids,
        "scores": [round(s, 7) for s in scores],
    }
    (OUT / "reference.json").write_text(json.dumps(ref, indent=1))
    print(ref["scores"])


if __name__ == "__main__":
    main()
