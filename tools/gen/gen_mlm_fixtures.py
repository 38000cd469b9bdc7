#!/usr/bin/env python3
"""Generates hauser-nli's masked-LM (and ALBERT) fixtures with Hugging Face transformers (reference).

Writes, under hauser-nli/tests/fixtures/masked-lm/:
  bert/     a tiny random-weight BertForMaskedLM with the tokenizer files of
            hauser-nli/tests/fixtures/bert, and reference.json
  roberta/  RobertaForMaskedLM with the tokenizer files of hauser-nli/tests/fixtures/roberta
  albert/   AlbertForMaskedLM (factorised embeddings 16 -> 32; 4 layers in 2 shared groups of
            2 inner layers each, so the group schedule and the sharing are both exercised;
            gelu_new) with an ALBERT-style tokenizer trained here: SentencePiece-like Unigram,
            Metaspace pre-tokenizer and decoder, lower-casing, [CLS] A [SEP]
  albert-classifier/  AlbertForSequenceClassification (3 labels) on the same tokenizer

reference.json = {"meta": {...}, "mask_token": "...", "items": [{"text", "ids": [...],
"masks": [positions], "logits": [[vocab logits] per mask], "top": [[{"id", "token", "prob"}
x TOP_K] per mask], "last_hidden": [[h] per token] (albert only)}], "batch_logits": [...]}.
`logits`/`top` come from one unpadded `model(input_ids=ids[None])` per text; `batch_logits` from
all texts as one padded batch (attention mask) and must equal them. `top` is
`softmax(logits).topk(TOP_K)` with `token = tokenizer.decode([id])`, exactly what the NewsMet
authors' candidate cell does with `albert-xxlarge-v2`. The classifier's reference.json holds
`{"items": [{"text", "ids", "logits"}]}`.

Reference: transformers 5.23 / torch 2.x, float32 on CPU. Weights come from fixed seeds with
initializer_range 0.2 (wide enough that the top fillers differ by more than the tolerance).
Run from the repository root:  HF_HUB_OFFLINE=1 "$(bash tools/pyref.sh)" tools/gen/gen_mlm_fixtures.py
(needs the tokenizer fixtures written by tools/gen/gen_tiny_models.py).
Tolerance the Rust tests apply: 1e-4 absolute on logits and probabilities.
"""

import json
import shutil
from pathlib import Path

import torch
from gen_tiny_models import CORPUS, copy_fixture_tokenizer, head_config, head_fixture_meta, rounded
from gen_tiny_models import small as tiny_small
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    AlbertConfig,
    AlbertForMaskedLM,
    AlbertForSequenceClassification,
    BertForMaskedLM,
    PreTrainedTokenizerFast,
    RobertaForMaskedLM,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
OUT = FIXTURES / "masked-lm"
TOLERANCE = 1e-4
TOP_K = 8
INIT = 0.2


# {mask} is replaced by the model's mask token. Two masks in one text: the authors' substring
# masking can produce that ("is" inside "this").
TEXTS = [
    "The boy {mask} like the wind across the field.",
    "{mask} voice thundered through the empty hall.",
    "She was as quiet as a mouse in the {mask}.",
    "The soldiers {mask} slowly towards the {mask}.",
    "A storm of anger {mask}",
]


def albert_tokenizer(d):
    """An ALBERT-layout tokenizer.json (what albert-*-v2's tokenizer.json holds, with a
    vocabulary trained on the tiny corpus)."""
    specials = ["<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"]
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.Sequence(
        [normalizers.Replace("``", '"'), normalizers.Replace("''", '"'), normalizers.NFKD(),
         normalizers.StripAccents(), normalizers.Lowercase()]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    trainer = trainers.UnigramTrainer(vocab_size=160, special_tokens=specials, unk_token="<unk>")
    tok.train_from_iterator(CORPUS, trainer)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0",
        pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
    )
    d.mkdir(parents=True, exist_ok=True)
    tok.save(str(d / "tokenizer.json"))
    special = dict(pad_token="<pad>", unk_token="<unk>", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")
    cfg = {"model_max_length": 64, "tokenizer_class": "PreTrainedTokenizerFast", "do_lower_case": True, **special}
    (d / "tokenizer_config.json").write_text(json.dumps(cfg, indent=1))
    return PreTrainedTokenizerFast(tokenizer_file=str(d / "tokenizer.json"), model_max_length=64, **special)


def meta(name):
    return head_fixture_meta(f"masked-lm/{name}", "tools/gen/gen_mlm_fixtures.py", TOLERANCE)


def mlm_reference(model, tok, with_hidden):
    items = []
    texts = [t.format(mask=tok.mask_token) for t in TEXTS]
    for text in texts:
        enc = tok(text, return_tensors="pt")
        ids = enc["input_ids"][0]
        masks = (ids == tok.mask_token_id).nonzero().flatten().tolist()
        assert masks, text
        out = model(input_ids=enc["input_ids"], output_hidden_states=True)
        logits = out.logits[0, masks]
        probs = torch.softmax(logits, dim=-1)
        top = torch.topk(probs, TOP_K)
        item = {
            "text": text,
            "ids": ids.tolist(),
            "masks": masks,
            "logits": rounded(logits),
            "top": [
                [{"id": int(i), "token": tok.decode([int(i)]), "prob": round(float(p), 7)}
                 for p, i in zip(ps, ix)]
                for ps, ix in zip(top.values, top.indices)
            ],
        }
        # The top fillers must be told apart at the tolerance, or the fixture checks no order.
        gaps = (top.values[:, :-1] - top.values[:, 1:]).min().item()
        assert gaps > 1e-5, f"{text}: top-{TOP_K} probabilities too close ({gaps})"
        if with_hidden:
            item["last_hidden"] = rounded(out.hidden_states[-1][0])
        items.append(item)
    enc = tok(texts, padding=True, return_tensors="pt")
    out = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"])
    batch = []
    for row, item in enumerate(items):
        batch.append(rounded(out.logits[row, item["masks"]]))
    return {"mask_token": tok.mask_token, "items": items, "batch_logits": batch}


def write(name, model, tok, with_hidden=False):
    d = OUT / name
    model.eval()
    model.save_pretrained(d)
    ref = {"meta": meta(name), **mlm_reference(model, tok, with_hidden)}
    (d / "reference.json").write_text(json.dumps(ref))
    print(f"{name}: saved {sorted(p.name for p in d.iterdir())}")


def gen_bert():
    tok = copy_fixture_tokenizer("bert", OUT)
    cfg = head_config("bert", INIT)
    torch.manual_seed(21)
    write("bert", BertForMaskedLM(cfg), tok)


def gen_roberta():
    tok = copy_fixture_tokenizer("roberta", OUT)
    cfg = head_config("roberta", INIT)
    torch.manual_seed(22)
    write("roberta", RobertaForMaskedLM(cfg), tok)


def albert_config(tok, **kw):
    return AlbertConfig(
        vocab_size=len(tok), embedding_size=16, type_vocab_size=2, pad_token_id=tok.pad_token_id,
        bos_token_id=tok.cls_token_id, eos_token_id=tok.sep_token_id, num_hidden_groups=2,
        inner_group_num=2, hidden_act="gelu_new", classifier_dropout_prob=0.0,
        **tiny_small(initializer_range=INIT, num_hidden_layers=4, **kw),
    )


def gen_albert():
    tok = albert_tokenizer(OUT / "albert")
    torch.manual_seed(23)
    write("albert", AlbertForMaskedLM(albert_config(tok)), tok, with_hidden=True)
    d = OUT / "albert-classifier"
    for f in ["tokenizer.json", "tokenizer_config.json"]:
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(OUT / "albert" / f, d / f)
    torch.manual_seed(24)
    model = AlbertForSequenceClassification(albert_config(tok, num_labels=3))
    model.eval()
    model.save_pretrained(d)
    items = []
    for text in [t.format(mask="wind") for t in TEXTS]:
        enc = tok(text, return_tensors="pt")
        items.append({"text": text, "ids": enc["input_ids"][0].tolist(),
                      "logits": rounded(model(**enc).logits[0])})
    (d / "reference.json").write_text(json.dumps({"meta": meta("albert-classifier"), "items": items}))


def main():
    torch.set_grad_enabled(False)
    shutil.rmtree(OUT, ignore_errors=True)
    gen_bert()
    gen_roberta()
    gen_albert()
    total = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    print(f"fixtures: {total / 1024:.0f} KiB under {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
