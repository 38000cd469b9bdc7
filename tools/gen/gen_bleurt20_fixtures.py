#!/usr/bin/env python3
"""BLEURT-20 golden fixtures: tiny random-weight BleurtForSequenceClassification models in the
BLEURT-20 form (bleurt-pytorch), with a SentencePiece tokenizer, and their scores.

The released BLEURT-20 checkpoints (lucadiliello/BLEURT-20 and the distilled BLEURT-20-D3, -D6,
-D12) ship `spm.model` and no `tokenizer.json`; bleurt-pytorch reads them with BleurtSPTokenizer
(transformers' slow DebertaV2Tokenizer over the `sentencepiece` library, cased). Two forms:

- `bleurt-20/`: factorised embeddings (`embedding_size` 16 < `hidden_size` 32, projected by
  `bleurt.encoder.embedding_projection`), as BLEURT-20 itself;
- `bleurt-20-d/`: the distilled shape, other depth and heads, with an `embedding_size` equal to the
  hidden size (bleurt-pytorch still builds and applies the projection).

Each gets a SentencePiece unigram model trained here on the sentences below, with BLEURT's
special pieces [PAD] [CLS] [SEP] [UNK] and the user-defined [MASK] and "::", so that unknown
characters, whitespace runs and user-defined pieces are exercised: `bleurt-20` with nmt_nfkc
normalisation (the released models' rule: a precompiled character map, NFKC folding),
`bleurt-20-d` with the identity rule (no character map; the model file stays small). Runs in the venv of tools/requirements-comet.txt (bleurt-pytorch, transformers < 5,
sentencepiece):

    .cache/pycomet/bin/python tools/gen/gen_bleurt20_fixtures.py

Writes, per form, hauser-nli/tests/fixtures/<form>/: config.json, model.safetensors, spm.model,
tokenizer_config.json and reference.json: the token ids of every text alone (no special tokens,
as BleurtSPTokenizer.encode(add_special_tokens=False) gives them), the ids of each
[CLS] reference [SEP] candidate [SEP] pair truncated longest-first to the model's positions, and
the scores (logit 0) of the pairs in one padded batch. Tolerance: 1e-4 absolute on scores, ids
exact.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path

import sentencepiece as spm
import torch
import transformers
from bleurt_pytorch import BleurtConfig, BleurtForSequenceClassification, BleurtTokenizer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
BLEURT_PYTORCH_COMMIT = "279ca1bb4106bde5a89f0f82723197e23d8446cb"
TOLERANCE = 1e-4

# The SentencePiece training text: plain English, so that what follows has unknown characters.
CORPUS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the old house.",
    "His voice thundered through the empty hall at night.",
    "The old house creaked in the cold night air.",
    "Numbers like 42 and 7 and symbols such as % and & appear too.",
    "A simile compares two things using like or as.",
    "Her smile was as bright as the morning sun over the hills.",
    "The markets tumble while the rates rise and fall again.",
    "Time is a thief that steals the hours of the day.",
    "He was a lion in battle, brave and strong and fast.",
    "Life is a journey, not a destination; enjoy the road.",
    "The city never sleeps: its lights burn like a thousand stars.",
    "ABC DEF GHI JKL MNO PQR STU VWX YZ abc def ghi jkl mno pqr stu vwx yz 0123456789",
    "Quotes \"like these\" and 'these' (and brackets) [too], with commas, dots... and dashes - ok?",
] * 4

REFS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse.",
    "  Leading and trailing   spaces,\ttabs\nand newlines  ",
    "Full-width ＡＢＣ and ｆｉｅｌｄ fold under NFKC; ligature ﬁeld too.",
    "Unknown: Ω, 日本語, émigré, naïve and 🙂 emoji.",
    " ".join(["the old house creaked in the cold night air"] * 6),
    "A user-defined piece :: splits here, and [MASK] is special.",
    "",
]
CANDS = [
    "The boy ran very fast across the field.",
    "She was SILENT, like a Mouse!",
    "",
    "ＡＢＣ",
    "Ω Ω Ω",
    " ".join(["the boy ran like the wind"] * 9),
    "a::b [SEP] c",
    "Time is a thief.",
]

FORMS = {
    "bleurt-20": dict(rule="nmt_nfkc", embedding_size=16, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                      intermediate_size=37, seed=11),
    "bleurt-20-d": dict(rule="identity", embedding_size=24, hidden_size=24, num_hidden_layers=3, num_attention_heads=2,
                        intermediate_size=29, seed=13),
}
MAX_POSITIONS = 48


def train_spm(out: Path, rule: str):
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        # Relative names: the trainer records its input and prefix in the model, and a
        # temporary directory's path would make the fixture name this machine's paths.
        os.chdir(tmp)
        try:
            Path("corpus.txt").write_text("\n".join(CORPUS) + "\n")
            spm.SentencePieceTrainer.train(
                input="corpus.txt", model_prefix="spm", vocab_size=160,
                model_type="unigram", character_coverage=1.0, normalization_rule_name=rule,
                pad_id=0, pad_piece="[PAD]", bos_id=1, bos_piece="[CLS]", eos_id=2, eos_piece="[SEP]",
                unk_id=3, unk_piece="[UNK]", user_defined_symbols=["[MASK]", "::"],
                minloglevel=2,
            )
            shutil.copy("spm.model", out)
        finally:
            os.chdir(cwd)


def build(form: str) -> dict:
    settings = dict(FORMS[form])
    seed = settings.pop("seed")
    out = FIXTURES / form
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    train_spm(out / "spm.model", settings.pop("rule"))
    (out / "tokenizer_config.json").write_text(json.dumps(
        {"do_lower_case": False, "model_max_length": MAX_POSITIONS, "tokenizer_class": "BleurtSPTokenizer"},
        indent=1))
    tok = BleurtTokenizer.from_pretrained(str(out))
    assert type(tok).__name__ == "BleurtSPTokenizer", type(tok)
    torch.manual_seed(seed)
    cfg = BleurtConfig(
        vocab_size=tok.vocab_size, max_position_embeddings=MAX_POSITIONS, type_vocab_size=2, num_labels=1,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, **settings,
    )
    model = BleurtForSequenceClassification(cfg)
    assert model.bleurt.encoder.embedding_projection is not None
    with torch.no_grad():
        # The default init is small; larger weights keep the layers and the head visible.
        for n, p in model.named_parameters():
            if "LayerNorm" not in n:
                p.copy_(0.2 * torch.randn_like(p))
    model.eval()
    model.save_pretrained(out, safe_serialization=True)
    texts = sorted(set(REFS + CANDS + CORPUS[:14]))
    alone = {t: tok.encode(t, add_special_tokens=False) for t in texts}
    enc = tok(REFS, CANDS, padding="longest", truncation="longest_first", max_length=MAX_POSITIONS,
              return_tensors="pt")
    with torch.no_grad():
        scores = model(**enc).logits.flatten().tolist()
    ids = [row[: int(m.sum())].tolist() for row, m in zip(enc["input_ids"], enc["attention_mask"])]
    ref = {
        "meta": {
            "generator": "tools/gen/gen_bleurt20_fixtures.py",
            "bleurt-pytorch": BLEURT_PYTORCH_COMMIT,
            "transformers": transformers.__version__,
            "sentencepiece": spm.__version__,
            "torch": torch.__version__,
            "tolerance": TOLERANCE,
        },
        "texts": [{"text": t, "ids": alone[t]} for t in texts],
        "references": REFS,
        "candidates": CANDS,
        "ids": ids,
        "scores": [round(s, 7) for s in scores],
    }
    (out / "reference.json").write_text(json.dumps(ref, indent=1, ensure_ascii=False))
    return ref


def main():
    for form in FORMS:
        ref = build(form)
        print(form, ref["scores"])


if __name__ == "__main__":
    main()
