#!/usr/bin/env python3
"""XLM-R `sentencepiece.bpe.model` fixtures: a tiny SentencePiece model in the form of
XLM-RoBERTa's (and InfoXLM's, XLM-R XL/XXL's), whose hub repositories may ship it without a
`tokenizer.json`, and the ids transformers' XLMRobertaTokenizerFast gives when it converts it
(XLMRobertaConverter: fairseq's ids `<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3, the pieces from the
proto's index 3 on, `<mask>` last).

The model is trained here as XLM-R's was as far as the encoding goes: unigram (the released
`sentencepiece.bpe.model` is a unigram model despite its name), nmt_nfkc normalisation (a
precompiled character map), no byte fallback, `<unk>` 0, `<s>` 1, `</s>` 2 and no `<pad>` piece;
plus a user-defined piece `::` (none in XLM-R's, but the converter makes such pieces added
tokens, a path worth pinning). Runs in the venv of tools/requirements-comet.txt
(transformers < 5, sentencepiece):

    .cache/pycomet/bin/python tools/gen/gen_xlmr_spm_fixtures.py

Writes hauser-nli/tests/fixtures/xlmr-spm/:
  config.json               a tiny XLM-R config (model_type xlm-roberta: what selects the reader)
  sentencepiece.bpe.model   the model (no tokenizer.json beside it, as microsoft/infoxlm-large)
  converted/tokenizer.json  the fast tokenizer transformers converted, for a test that a model
                            reading either scores the same
  reference.json            under `configured`, the ids with each tokenizer_config.json (kept
                            there) beside the model; per text the ids of `tok(text)`, per pair those of `tok([a], [b])`
                            (and of `tok(a, b)`, which differ for an empty second text), and
                            both truncated longest-first to `max_length`; ids exact.
"""

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import sentencepiece as spm
import transformers
from transformers import XLMRobertaTokenizerFast

try:
    from sentencepiece import sentencepiece_model_pb2  # noqa: F401
except ImportError:
    # sentencepiece 0.2.x's generated module needs protobuf >= 5; transformers ships the same
    # message classes for protobuf 4, and its slow-to-fast converter imports them from here.
    from transformers.utils import sentencepiece_model_pb2_new

    sys.modules["sentencepiece.sentencepiece_model_pb2"] = sentencepiece_model_pb2_new

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "hauser-nli" / "tests" / "fixtures" / "xlmr-spm"
# At most 298 pieces: with `<pad>` and `<mask>` the vocabulary fits the 300 rows of the COMET
# fixture encoders (tests/fixtures/comet-unified/encoder), so a COMET test can read it.
VOCAB_SIZE = 160
MAX_LENGTH = 12

CORPUS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the old house.",
    "Le café était fermé, mais la crêperie était ouverte.",
    "Der Bär läuft über die Straße zum Fluss.",
    "El niño comió una manzana en la mañana.",
    "Москва — столица России, большой город.",
    "東京は日本の首都です。京都は古い都です。",
    "我喜欢学习中文和日本语。",
    "서울은 한국의 수도입니다.",
    "Numbers like 42 and 7 and symbols such as % and & appear :: too.",
    "The markets tumble while the rates rise and fall again.",
    "Time is a thief that steals the hours of the day.",
    "A résumé, a naïve fiancée and a façade.",
    "العربية لغة جميلة",
]

TEXTS = [
    "The boy ran like the wind.",
    "Le café était fermé.",
    "A naïve résumé — façade, coöperate, e\u0301clair.",
    "東京は日本の首都です。",
    "我喜欢中文",
    "서울은 수도",
    "Москва",
    "I love 🍕 and 🎉!",
    "Ｆｕｌｌ ｗｉｄｔｈ ＡＢＣ １２３",
    "ﬁnance ﬂow ﬀ ™ ½ ①",
    "a    b      c",
    "  leading and trailing  ",
    " one",
    "one ",
    "",
    " ",
    "\t tab\tand\nnewline \r\n",
    "zero\u200bwidth and\u00a0nbsp",
    "unknown: ßðþ ✓ ∑",
    "the <mask> sat",
    "<s> and </s> and <pad> and <unk> in text",
    "a::b :: c",
    "UPPER lower MiXeD",
    "العربية",
    "The markets tumble while the rates rise and fall again; time is a thief that steals the "
    "hours of the day, and the boy ran like the wind across the field.",
]

PAIRS = [
    ("The boy ran.", "Le café était fermé."),
    ("東京は日本の首都です。", "Tokyo is the capital of Japan."),
    ("", "empty first"),
    ("empty second", ""),
    ("  spaces  around  ", "ﬁnance Ｆｕｌｌ"),
    ("The markets tumble while the rates rise and fall again.", "short"),
    ("short", "Time is a thief that steals the hours of the day, they say."),
    ("The boy ran like the wind across the field.", "She was as quiet as a mouse in the old house."),
]

def _token(content, special=True, lstrip=False, rstrip=False, normalized=False):
    return {"content": content, "lstrip": lstrip, "normalized": normalized, "rstrip": rstrip,
            "single_word": False, "special": special}


# tokenizer_config.json in the forms the hub's carry, each read beside the model in a copy of
# the directory: tokens as text and as AddedToken dicts (whose settings transformers keeps only
# for a token not already added, e.g. not for the control pieces <s> and </s>), fairseq's unused
# specials as additional special tokens, and transformers >= 4.34's added_tokens_decoder.
TOKENIZER_CONFIGS = {
    "additional": {
        "model_max_length": 20,
        "tokenizer_class": "XLMRobertaTokenizer",
        "mask_token": {"__type": "AddedToken", **_token("<mask>", lstrip=True, normalized=True)},
        "additional_special_tokens": ["<s>NOTUSED", "</s>NOTUSED"],
    },
    "dicts": {
        "mask_token": {"__type": "AddedToken", **_token("<mask>", rstrip=True, normalized=True)},
        "unk_token": {"__type": "AddedToken", **_token("<unk>", rstrip=True)},
        "sep_token": {"__type": "AddedToken", **_token("</s>", lstrip=True)},
    },
    "decoder": {
        "added_tokens_decoder": {
            "0": _token("<s>"), "1": _token("<pad>"), "2": _token("</s>"), "3": _token("<unk>"),
            "161": _token("<mask>", lstrip=True),
            "162": _token("<new>", special=False, normalized=True),
        },
        "mask_token": "<mask>",
        "model_max_length": 512,
    },
}
CONFIG_TEXTS = [
    "the <mask> sat", "the <mask>  sat", "x\uff1cmask\uff1ey", "a <s>NOTUSED b</s>NOTUSED c",
    "x <unk>  y", "a </s> b", "a <new> b", "a<pad>b", "plain text",
]


def train(out: Path):
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        # Relative names: the trainer records its input and prefix in the model, and a
        # temporary directory's path would make the fixture name this machine's paths.
        os.chdir(tmp)
        try:
            Path("corpus.txt").write_text("\n".join(CORPUS) + "\n")
            spm.SentencePieceTrainer.train(
                input="corpus.txt", model_prefix="sentencepiece.bpe", vocab_size=VOCAB_SIZE,
                model_type="unigram", character_coverage=1.0, normalization_rule_name="nmt_nfkc",
                byte_fallback=False, unk_id=0, unk_piece="<unk>", bos_id=1, bos_piece="<s>",
                eos_id=2, eos_piece="</s>", pad_id=-1, user_defined_symbols=["::"],
                minloglevel=2,
            )
            shutil.copy("sentencepiece.bpe.model", out)
        finally:
            os.chdir(cwd)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "converted").mkdir(parents=True)
    train(OUT / "sentencepiece.bpe.model")
    (OUT / "config.json").write_text(json.dumps({
        "model_type": "xlm-roberta", "vocab_size": VOCAB_SIZE + 2, "hidden_size": 32,
        "num_hidden_layers": 1, "num_attention_heads": 4, "intermediate_size": 37,
        "max_position_embeddings": 66, "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2,
        "type_vocab_size": 1,
    }, indent=1) + "\n")
    # The directory holds no tokenizer.json, and from_slow forces the conversion anyway.
    tok = XLMRobertaTokenizerFast.from_pretrained(str(OUT), from_slow=True)
    assert not (OUT / "tokenizer.json").exists()
    tok.backend_tokenizer.save(str(OUT / "converted" / "tokenizer.json"))
    texts = [
        {
            "text": t,
            "ids": tok(t)["input_ids"],
            "truncated": tok(t, truncation=True, max_length=MAX_LENGTH)["input_ids"],
        }
        for t in TEXTS
    ]
    # Pairs in the batch form: `tok(a, "")` encodes `a` alone (the fast tokenizer's
    # `_encode_plus` tests `if text_pair`), where the batch form, like `tokenizers`, keeps an
    # empty second text as one (`<s> a </s> </s> </s>`).
    pairs = [
        {
            "first": a,
            "second": b,
            "ids": tok([a], [b])["input_ids"][0],
            "truncated": tok([a], [b], truncation="longest_first", max_length=MAX_LENGTH)["input_ids"][0],
            "call_ids": tok(a, b)["input_ids"],
        }
        for a, b in PAIRS
    ]
    configured = {}
    for name, config in TOKENIZER_CONFIGS.items():
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(OUT / "sentencepiece.bpe.model", tmp)
            (Path(tmp) / "tokenizer_config.json").write_text(json.dumps(config))
            ctok = XLMRobertaTokenizerFast.from_pretrained(tmp, from_slow=True)
            configured[name] = {
                "tokenizer_config": config,
                "vocab_size": len(ctok),
                "texts": [{"text": t, "ids": ctok(t)["input_ids"]} for t in CONFIG_TEXTS],
            }
    ref = {
        "meta": {
            "generator": "tools/gen/gen_xlmr_spm_fixtures.py",
            "transformers": transformers.__version__,
            "sentencepiece": spm.__version__,
            "vocab_size": len(tok),
            "max_length": MAX_LENGTH,
        },
        "texts": texts,
        "pairs": pairs,
        "configured": configured,
    }
    (OUT / "reference.json").write_text(json.dumps(ref, indent=1, ensure_ascii=False) + "\n")
    print(len(tok), "ids;", len(texts), "texts,", len(pairs), "pairs")


if __name__ == "__main__":
    main()
