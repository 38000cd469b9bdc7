#!/usr/bin/env python3
"""Generates hauser-nli's multiple-choice fixtures with Hugging Face transformers (reference).

Writes, under hauser-nli/tests/fixtures/multiple-choice/:
  bert/     a tiny random-weight BertForMultipleChoice (config.json, model.safetensors) with the
            tokenizer files of hauser-nli/tests/fixtures/bert (tokenizer.json,
            tokenizer_config.json, vocab.txt), and reference.json
  roberta/  the same for RobertaForMultipleChoice, tokenizer files of
            hauser-nli/tests/fixtures/roberta (+ vocab.json, merges.txt)

reference.json = {"meta": {...}, "max_length": 64, "items": [{"pairs": [[first, second], ...],
"ids": [[token ids of each pair, unpadded]], "logits": [one float per pair]}, ...]}: each item
(a question and its choices) is tokenized at once, `tok(firsts, seconds, padding=True,
truncation=True, max_length=64)` (longest-first truncation), and run as one
`model(input_ids=ids[None], attention_mask=..., token_type_ids=... (BERT only)).logits[0]`.
Items: two choices; a knowledge-enhanced item (narrative </s> inference, 3 inferences x 2
options); a narrative longer than 64 tokens (truncated); three choices.

Reference: transformers 5.23 / torch 2.x, float32 on CPU. The model config is
tools/gen/gen_tiny_models.py's `small()` (hidden 32, 2 layers, 4 heads, intermediate 37, no
dropout) with initializer_range 0.2 (see INIT); weights come from fixed seeds, so
regenerating reproduces them.
Run from the repository root:  HF_HUB_OFFLINE=1 "$(bash tools/pyref.sh)" tools/gen/gen_choice_fixtures.py
(needs the tokenizer fixtures written by tools/gen/gen_tiny_models.py).
Tolerance the Rust tests apply: 1e-4 absolute.
"""

import json
import shutil
from pathlib import Path

import torch
from gen_tiny_models import copy_fixture_tokenizer, head_config, head_fixture_meta, rounded
from transformers import (
    BertForMultipleChoice,
    RobertaForMultipleChoice,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
OUT = FIXTURES / "multiple-choice"
TOLERANCE = 1e-4
MAX_LENGTH = 64
# Weights drawn 10 times wider than transformers' default (0.02): with the default, every
# choice of a question gets the same logit to within ~1e-5, below the test tolerance, so the
# fixture could not tell the choices apart; at 0.2 they differ by 1e-2 to 1 (printed on a run).
INIT = 0.2


NARRATIVE = "Mark was dead on his feet."
INFERENCES = ["Mark is tired.", "Mark wants sleep.", "Mark feels bad."]
OPTIONS = ["He slept.", "He ran."]

LONG_NARRATIVE = (
    "The old fisherman had spent his whole life on the grey northern sea, and every morning "
    "before the sun rose he pushed his small wooden boat into the cold water, listening to the "
    "gulls and the wind, while the village behind him still slept under thick blankets of fog; "
    "his neighbours said that he could read the waves like an open book, and when the storm "
    "finally came that autumn, the whole harbour turned to him for advice about the nets."
)

ITEMS = [
    # (a) two choices
    [
        ("The boy ran like the wind across the field.", "He was very fast."),
        ("The boy ran like the wind across the field.", "He was very slow."),
    ],
    # (b) knowledge-enhanced: narrative </s> inference, each inference with each option
    [(NARRATIVE + " </s> " + inf, opt) for inf in INFERENCES for opt in OPTIONS],
    # (c) a first text longer than the 64-token limit: truncation cuts it
    [
        (LONG_NARRATIVE, "Everyone trusted his knowledge of the sea."),
        (LONG_NARRATIVE, "Nobody listened to him."),
    ],
    # (d) three choices
    [
        ("She was as quiet as a mouse in the library.", "She made no sound."),
        ("She was as quiet as a mouse in the library.", "She shouted at everyone."),
        ("She was as quiet as a mouse in the library.", "She was reading a book about mice."),
    ],
]


def reference(model, tok, with_types):
    items = []
    for pairs in ITEMS:
        firsts = [a for a, _ in pairs]
        seconds = [b for _, b in pairs]
        enc = tok(firsts, seconds, padding=True, truncation=True, max_length=MAX_LENGTH,
                  return_token_type_ids=with_types, return_tensors="pt")
        kw = dict(input_ids=enc["input_ids"].unsqueeze(0), attention_mask=enc["attention_mask"].unsqueeze(0))
        if with_types:
            kw["token_type_ids"] = enc["token_type_ids"].unsqueeze(0)
        logits = model(**kw).logits[0]
        assert logits.shape == (len(pairs),)
        lengths = enc["attention_mask"].sum(dim=1).tolist()
        ids = [row[:n] for row, n in zip(enc["input_ids"].tolist(), lengths)]
        items.append({"pairs": [list(p) for p in pairs], "ids": ids, "logits": rounded(logits)})
    # Item (c) must actually be truncated.
    long_len = len(tok(LONG_NARRATIVE)["input_ids"])
    assert long_len > MAX_LENGTH, f"long narrative has only {long_len} tokens"
    assert all(len(r) == MAX_LENGTH for r in items[2]["ids"])
    return items


def meta(name):
    return head_fixture_meta(f"multiple-choice/{name}", "tools/gen/gen_choice_fixtures.py", TOLERANCE)


def write(name, model, tok, with_types):
    d = OUT / name
    model.eval()
    model.save_pretrained(d)
    ref = {"meta": meta(name), "max_length": MAX_LENGTH, "items": reference(model, tok, with_types)}
    (d / "reference.json").write_text(json.dumps(ref))
    spread = [max(i["logits"]) - min(i["logits"]) for i in ref["items"]]
    print(f"{name}: logit spread per item {['%.2e' % s for s in spread]}")


def gen_bert():
    tok = copy_fixture_tokenizer("bert", OUT)
    cfg = head_config("bert", INIT)
    torch.manual_seed(11)
    write("bert", BertForMultipleChoice(cfg), tok, with_types=True)


def gen_roberta():
    tok = copy_fixture_tokenizer("roberta", OUT)
    cfg = head_config("roberta", INIT)
    torch.manual_seed(12)
    write("roberta", RobertaForMultipleChoice(cfg), tok, with_types=False)


def main():
    torch.set_grad_enabled(False)
    shutil.rmtree(OUT, ignore_errors=True)
    gen_bert()
    gen_roberta()
    total = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    print(f"fixtures: {total / 1024:.0f} KiB under {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
