#!/usr/bin/env python3
"""MetricX golden fixtures: tiny random-weight mT5 regression models scored by the
google-research/metricx repository's own code (metricx24 and metricx23 `models.MT5ForRegression`,
and `predict.get_dataset` for the input templates, tokenisation, truncation and EOS removal).

Two models, each with a SentencePiece unigram model trained here on the sentences below with T5's
special pieces (pad 0, eos 1, unk 2):

- `metricx/`: `feed_forward_proj` gated-gelu (mT5, MetricX's own form), untied `lm_head`, the
  nmt_nfkc rule (a precompiled character map, as mT5's), `extra_ids` 100 added by transformers'
  T5 tokenizer at the end of the vocabulary in reverse order (`<extra_id_0>` is the last id); no
  `tokenizer.json`, as google/mt5-xl ships none, so transformers converts `spiece.model`.
- `metricx-relu/`: `feed_forward_proj` relu (T5 v1.0) with `tie_word_embeddings` true (the
  decoder output scaled by d_model**-0.5 before the head, as MT5ForRegression does), the identity
  rule, and the sentinel pieces inside the SentencePiece model itself as mT5's released
  `spiece.model` has them (`▁<extra_id_99>` ... `▁<extra_id_0>` as its last pieces, with
  `extra_ids` 0 in `tokenizer_config.json`); its `tokenizer.json` is written too.

MT5ForRegression reads the logit of vocabulary id 250089 (`<extra_id_10>` in mT5's vocabulary).
A tiny model has no such id, so its `lm_head` is wrapped in a module that puts the logit of the
model's own `<extra_id_10>` (looked up in its tokenizer) at column 250089; everything else runs
as the repository's `forward` runs it (one decoder step from id 0, the clamp to [0, 25]).

Run it in the venv of tools/requirements-comet.txt (torch, transformers 4.57.6, sentencepiece)
with the metricx repository on PYTHONPATH at the commit below (it is not a package on PyPI):

    git clone https://github.com/google-research/metricx .cache/metricx
    git -C .cache/metricx checkout fc4978eb064670f7cc33e93ea4f52d38396b8ae6
    PYTHONPATH=.cache/metricx .cache/pycomet/bin/python tools/gen/gen_metricx_fixtures.py

metricx's predict.py imports `datasets` only to hold the JSONL rows; when it is not installed a
minimal stand-in with the same `load_dataset("json")`, `map` and `set_format` is used, so the
repository's own `_make_input`, `_tokenize` and `_remove_eos` still build every input.

Writes, per model, hauser-nli/tests/fixtures/<model>/: config.json, model.safetensors,
spiece.model, tokenizer_config.json, special_tokens_map.json (and tokenizer.json for
metricx-relu), and reference.json: the ids of every text as the tokenizer encodes it (with the
appended `</s>`), and per mode (metricx24 reference-based with and without a source, metricx24
QE, metricx23 reference-based and QE) the model inputs (ids after predict.py's truncation and
EOS removal) and the predictions. Tolerance: 1e-4 absolute on scores, ids exact.
"""

import json
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import safetensors.torch
import sentencepiece as spm
import torch
import transformers

try:
    from sentencepiece import sentencepiece_model_pb2 as spm_pb2
except ImportError:
    # sentencepiece 0.2.x's generated module needs protobuf >= 5; transformers ships the same
    # message classes for protobuf 4, and its slow-to-fast converter imports them from here.
    from transformers.utils import sentencepiece_model_pb2_new as spm_pb2

    sys.modules["sentencepiece.sentencepiece_model_pb2"] = spm_pb2

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
METRICX_COMMIT = "fc4978eb064670f7cc33e93ea4f52d38396b8ae6"
TOLERANCE = 1e-4
# predict.py's --max_input_length (1536 for MetricX-24, 1024 for MetricX-23 in the README); a
# tiny one here, so that the long texts below are cut.
MAX_INPUT_LENGTH = 64
METRICX_ID = 250089


def datasets_stand_in():
    """The part of `datasets` predict.get_dataset uses: rows of a JSONL file, `map` over rows,
    `set_format(type="torch", columns=...)`."""

    class Rows(list):
        def map(self, fn):
            # As datasets does: the columns the function returns update the row's.
            return Rows({**r, **dict(fn(dict(r)))} for r in self)

        def set_format(self, type, columns, device=None, output_all_columns=False):
            for r in self:
                for c in columns:
                    r[c] = torch.tensor(r[c], device=device)

    class Splits(dict):
        def map(self, fn):
            return Splits({k: v.map(fn) for k, v in self.items()})

        def set_format(self, **kw):
            for v in self.values():
                v.set_format(**kw)

    def load_dataset(kind, data_files):
        assert kind == "json"
        return Splits({k: Rows(json.loads(l) for l in open(f, encoding="utf-8") if l.strip())
                       for k, f in data_files.items()})

    mod = types.ModuleType("datasets")
    mod.load_dataset = load_dataset
    return mod


try:
    import datasets  # noqa: F401
except ImportError:
    sys.modules["datasets"] = datasets_stand_in()

from metricx23 import models as models23  # noqa: E402
from metricx23 import predict as predict23  # noqa: E402
from metricx24 import models as models24  # noqa: E402
from metricx24 import predict as predict24  # noqa: E402

CORPUS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the old house.",
    "His voice thundered through the empty hall at night.",
    "The old house creaked in the cold night air.",
    "Numbers like 42 and 7 and symbols such as % and & appear too.",
    "source: candidate: reference: translation quality",
    "Der Junge rannte wie der Wind über das Feld.",
    "Elle était silencieuse comme une souris.",
    "Time is a thief that steals the hours of the day.",
    "ABC DEF GHI JKL MNO PQR STU VWX YZ abc def ghi jkl mno pqr stu vwx yz 0123456789",
    "Quotes \"like these\" and 'these' (and brackets), with commas, dots... and dashes - ok?",
] * 4

# (source, hypothesis, reference)
TRIPLES = [
    ("Der Junge rannte wie der Wind.", "The boy ran like the wind.", "The boy ran as fast as the wind."),
    ("Elle était silencieuse.", "She was quiet.", ""),
    ("", "", ""),
    ("  Leading and trailing   spaces,\ttabs\nand newlines  ", "a  b   c", " x "),
    ("Full-width ＡＢＣ and ﬁeld; 日本語 and 🙂.", "Ω, émigré, naïve.", "Ｎａïve Ω"),
    (" ".join(["the old house creaked in the cold night air"] * 4), "The house creaked.",
     " ".join(["the boy ran like the wind"] * 5)),
    ("Time is a thief.", " ".join(["time steals the hours of the day"] * 6), "Time is a thief."),
    ("A literal </s> and <extra_id_0> in text.", "<pad> <unk> </s>", "extra_id_10"),
]

FORMS = {
    "metricx": dict(rule="nmt_nfkc", feed_forward_proj="gated-gelu", tie_word_embeddings=False,
                    sentinels="added", d_model=32, d_kv=8, d_ff=48, num_layers=2, num_decoder_layers=2,
                    num_heads=4, relative_attention_num_buckets=8, relative_attention_max_distance=16,
                    seed=17),
    "metricx-relu": dict(rule="identity", feed_forward_proj="relu", tie_word_embeddings=True,
                         sentinels="pieces", d_model=24, d_kv=6, d_ff=40, num_layers=2, num_decoder_layers=3,
                         num_heads=3, relative_attention_num_buckets=6, relative_attention_max_distance=12,
                         seed=19),
}


def train_spm(out: Path, rule: str, sentinel_pieces: bool):
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        corpus.write_text("\n".join(CORPUS) + "\n")
        spm.SentencePieceTrainer.train(
            input=str(corpus), model_prefix=str(Path(tmp) / "spiece"), vocab_size=140,
            model_type="unigram", character_coverage=1.0, normalization_rule_name=rule,
            pad_id=0, pad_piece="<pad>", eos_id=1, eos_piece="</s>", unk_id=2, unk_piece="<unk>",
            bos_id=-1, minloglevel=2,
        )
        m = spm_pb2.ModelProto()
        m.ParseFromString((Path(tmp) / "spiece.model").read_bytes())
        # The temporary paths the trainer records, so that a rerun writes the same bytes.
        del m.trainer_spec.input[:]
        m.trainer_spec.model_prefix = "spiece"
        if sentinel_pieces:
            # mT5's released spiece.model ends with its 100 sentinels as normal pieces, last id
            # first: `▁<extra_id_99>` ... `▁<extra_id_0>`.
            for i in range(99, -1, -1):
                p = m.pieces.add()
                p.piece = f"▁<extra_id_{i}>"
                p.score = 0.0
                p.type = spm_pb2.ModelProto.SentencePiece.NORMAL
        out.write_bytes(m.SerializeToString())


class AtMetricxIndex(torch.nn.Module):
    """The head's logits, with the logit of `token` also at column 250089 (MT5ForRegression's
    hard-coded `<extra_id_10>`)."""

    def __init__(self, head, token):
        super().__init__()
        self.head, self.token = head, token

    def forward(self, x):
        logits = self.head(x)
        wide = torch.zeros(*logits.shape[:-1], METRICX_ID + 1, dtype=logits.dtype, device=logits.device)
        wide[..., : logits.shape[-1]] = logits
        wide[..., METRICX_ID] = logits[..., self.token]
        # The logit before MT5ForRegression clamps it, for a check that the clamp cannot hide.
        self.last = logits[:, 0, self.token].clone()
        return wide


def modes(triples):
    """(name, predict module, is_qe, rows) as predict.py reads them."""
    s24 = [{"source": s, "hypothesis": h, "reference": r} for s, h, r in triples]
    no_src = [{"source": "", "hypothesis": h, "reference": r} for _, h, r in triples]
    ref23 = [{"hypothesis": h, "reference": r} for _, h, r in triples]
    qe23 = [{"hypothesis": h, "source": s} for s, h, _ in triples]
    return [
        ("24-ref", predict24, models24, False, s24),
        ("24-ref-nosrc", predict24, models24, False, no_src),
        ("24-qe", predict24, models24, True, s24),
        ("23-ref", predict23, models23, False, ref23),
        ("23-qe", predict23, models23, True, qe23),
    ]


def build(form: str) -> dict:
    settings = dict(FORMS[form])
    seed, rule, sentinels = settings.pop("seed"), settings.pop("rule"), settings.pop("sentinels")
    out = FIXTURES / form
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    train_spm(out / "spiece.model", rule, sentinels == "pieces")
    extra_ids = 100 if sentinels == "added" else 0
    # As google/mt5-xl's: the special tokens and extra_ids, nothing that changes the conversion.
    specials = {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}
    (out / "special_tokens_map.json").write_text(json.dumps(specials, indent=1))
    (out / "tokenizer_config.json").write_text(json.dumps(
        {"tokenizer_class": "T5Tokenizer", "extra_ids": extra_ids, "model_max_length": 1024, **specials},
        indent=1))
    tok = transformers.AutoTokenizer.from_pretrained(str(out))
    assert tok.is_fast, type(tok)
    if sentinels == "pieces":
        tok.save_pretrained(str(out))
        assert (out / "tokenizer.json").is_file()
        tok = transformers.AutoTokenizer.from_pretrained(str(out))
    token = tok.convert_tokens_to_ids("<extra_id_10>")
    if token == tok.unk_token_id:
        token = tok.convert_tokens_to_ids("▁<extra_id_10>")
    assert token != tok.unk_token_id
    vocab = len(tok)
    torch.manual_seed(seed)
    cfg = transformers.MT5Config(vocab_size=vocab, dropout_rate=0.0, decoder_start_token_id=0,
                                 pad_token_id=0, eos_token_id=1, **settings)
    model = models24.MT5ForRegression(cfg)
    with torch.no_grad():
        for n, p in model.named_parameters():
            if "layer_norm" in n:
                p.copy_(1.0 + 0.1 * torch.randn_like(p))
            elif "relative_attention_bias" in n:
                p.copy_(2.0 * torch.randn_like(p))
            else:
                p.copy_(0.25 * torch.randn_like(p))
        # The score is the clamped logit: a bias keeps most of them inside [0, 25], so that the
        # parity check sees numbers rather than the bounds (a few still clamp, checked too).
        model.lm_head.weight[token] *= 4.0
    model.eval()
    if sentinels == "added":
        # One copy of the embeddings (`shared.weight`), the stacks' embed_tokens being the same.
        model._dynamic_tied_weights_keys = ["encoder.embed_tokens.weight", "decoder.embed_tokens.weight"]
        model.save_pretrained(out, safe_serialization=True)
    else:
        # Every name of the state dict, the stacks' embed_tokens included (equal copies).
        model.config.save_pretrained(out)
        state = {k: v.detach().clone().contiguous() for k, v in model.state_dict().items()}
        safetensors.torch.save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
    cfg_json = json.loads((out / "config.json").read_text())
    cfg_json.pop("transformers_version", None)
    (out / "config.json").write_text(json.dumps(cfg_json, indent=1, sort_keys=True))

    texts = sorted({t for tr in TRIPLES for t in tr} | set(CORPUS[:11]))
    enc = {t: tok(t)["input_ids"] for t in texts}
    ref = {
        "meta": {
            "generator": "tools/gen/gen_metricx_fixtures.py",
            "metricx": METRICX_COMMIT,
            "transformers": transformers.__version__,
            "tokenizers": __import__("tokenizers").__version__,
            "sentencepiece": spm.__version__,
            "torch": torch.__version__,
            "tolerance": TOLERANCE,
            "max_input_length": MAX_INPUT_LENGTH,
            "extra_id_10": token,
        },
        "texts": [{"text": t, "ids": enc[t]} for t in texts],
        "triples": [{"source": s, "hypothesis": h, "reference": r} for s, h, r in TRIPLES],
        "modes": {},
    }
    for name, predict, models, qe, rows in modes(TRIPLES):
        m = models.MT5ForRegression.from_pretrained(str(out))
        m.lm_head = AtMetricxIndex(m.lm_head, token)
        # metricx was written for transformers 4.30; on 4.57 the decoder's key/value cache, which
        # its forward leaves on, fails on cross-attention (a shape error). One decoder step reads
        # no cache, so turning it off changes no number.
        m.config.use_cache = False
        m.eval()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "input.jsonl"
            path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
            ds = predict.get_dataset(str(path), tok, MAX_INPUT_LENGTH, "cpu", qe)["test"]
        inputs, preds, logits = [], [], []
        for ex in ds:
            with torch.no_grad():
                o = m(input_ids=ex["input_ids"][None, :], attention_mask=ex["attention_mask"][None, :])
            inputs.append({"text": ex["input"], "ids": ex["input_ids"].tolist()})
            preds.append(round(float(o.predictions[0]), 7))
            logits.append(round(float(m.lm_head.last[0]), 7))
        ref["modes"][name] = {"qe": qe, "inputs": inputs, "scores": preds, "logits": logits}
    (out / "reference.json").write_text(json.dumps(ref, indent=1, ensure_ascii=False))
    return ref


def main():
    for form in FORMS:
        ref = build(form)
        for name, m in ref["modes"].items():
            print(form, name, m["scores"], m["logits"])


if __name__ == "__main__":
    main()
