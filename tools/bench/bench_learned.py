#!/usr/bin/env python3
"""The reference side of tools/bench/bench_learned.sh (docs/PERFORMANCE.md, "Learned metrics"):
random-weight models of the released models' shapes, and the reference packages' scoring time on
the same inputs as hauser's `bench_learned` driver.

    python tools/bench/bench_learned.py prepare OUT N      N input triples under OUT
    python tools/bench/bench_learned.py model OUT KIND     KIND's model under OUT/KIND
    python tools/bench/bench_learned.py time OUT KIND BATCH REPEATS
                                                     one JSON line: load, best-of-REPEATS seconds

KIND: `bleurt` (bleurt-pytorch, BleurtSPTokenizer: a BLEURT-20-D12-shaped model, 12 layers of
768 with 128-wide factorised embeddings), `bleurt20` (the same at BLEURT-20's RemBERT shape, 32
layers of 1152), `comet22` (unbabel-comet's `regression_metric` on an XLM-R large-shaped encoder,
wmt22-comet-da's shape, with source and reference), `bertscore` (bert_score's `BERTScorer` on a
RoBERTa-large-shaped encoder, layer 17, hypothesis against reference), `kiwi` (unbabel-comet 2.2.7 `unified_metric` [mt, src],
CometKiwi's head on an XLM-R base-shaped encoder), `xcomet` (`xcomet_metric` on an XLM-RoBERTa
XL-layout encoder of base shape, with source and reference) and `metricx` (the metricx
repository's MT5ForRegression, mT5-base-shaped, MetricX-24 with reference and source). The
vocabularies are the test fixtures' small ones (texts become more tokens than with the real
ones, the same on both sides); layer shapes are what costs the time. Weights are random: the
benchmark measures throughput, and the sums of the scores of both sides are compared.
The COMET checkpoints are built by the fixtures' builder, tools/gen/tiny_comet.py (encoder
directory, checkpoint and hparams.yaml), at XLM-R base's shape and with this script's weights.

Runs in the venv of tools/requirements-comet.txt, with the metricx repository on PYTHONPATH for
`metricx` (see tools/gen/gen_metricx_fixtures.py).
"""

import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

import torch

try:
    from sentencepiece import sentencepiece_model_pb2  # noqa: F401
except ImportError:
    # As in tools/gen/gen_metricx_fixtures.py: sentencepiece 0.2's module needs protobuf >= 5,
    # transformers ships the same classes for protobuf 4.
    from transformers.utils import sentencepiece_model_pb2_new

    sys.modules["sentencepiece.sentencepiece_model_pb2"] = sentencepiece_model_pb2_new

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "hauser-nli" / "tests" / "fixtures"
# The COMET checkpoints are built as the fixtures' are (tools/gen/tiny_comet.py), at base shape.
sys.path.insert(0, str(ROOT / "tools" / "gen"))
WORDS = (
    "the a boy girl ran walked like as wind river fast slow quiet mouse house old night cold city "
    "never sleeps storm anger rose inside him her voice thundered through empty hall markets tumble "
    "rates rise fall again time thief steals hours day life journey road light star sun morning "
    "bright brave strong lion battle numbers symbols appear too and or but with without over under"
).split()


def sentences(n, seed):
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 30))).capitalize() + "." for _ in range(n)]


def randomise(model, scale=0.05):
    with torch.no_grad():
        for n, p in model.named_parameters():
            if "LayerNorm" in n or "layer_norm" in n:
                continue
            p.copy_(scale * torch.randn_like(p))


# BLEURT-20-D12's shape, and BLEURT-20's: RemBERT's (32 layers of 1152, 18 heads, 256-wide
# factorised input embeddings), which BLEURT-20 is fine-tuned from.
BLEURT_SHAPES = {
    "bleurt": dict(embedding_size=128, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                   intermediate_size=3072),
    "bleurt20": dict(embedding_size=256, hidden_size=1152, num_hidden_layers=32, num_attention_heads=18,
                     intermediate_size=4608),
}
# XLM-R large's and RoBERTa large's layer shapes (COMET-22 = wmt22-comet-da, BERTScore's default).
LARGE = dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
             max_position_embeddings=514)


def prepare_bleurt(out, name="bleurt"):
    from bleurt_pytorch import BleurtConfig, BleurtForSequenceClassification

    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    for f in ("spm.model", "tokenizer_config.json"):
        shutil.copy(FIX / "bleurt-20" / f, d / f)
    cfg = json.loads((FIX / "bleurt-20" / "config.json").read_text())
    config = BleurtConfig(vocab_size=cfg["vocab_size"], max_position_embeddings=512, num_labels=1,
                          **BLEURT_SHAPES[name])
    torch.manual_seed(1)
    m = BleurtForSequenceClassification(config)
    randomise(m)
    m.save_pretrained(d, safe_serialization=True)
    (d / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": False, "model_max_length": 512,
                                                        "tokenizer_class": "BleurtSPTokenizer"}))


def prepare_comet(out, name, xl):
    from comet.models import RegressionMetric, UnifiedMetric, XCOMETMetric

    import tiny_comet

    shape = LARGE if name == "comet22" else tiny_comet.BASE
    tiny_comet.write_encoder(out / f"encoder-{name}", xl, shape)
    hp = dict(encoder_model="XLM-RoBERTa-XL" if xl else "XLM-RoBERTa", pretrained_model=f"../encoder-{name}",
              hidden_sizes=[3072, 1024], activations="Tanh", final_activation=None, sent_layer="mix",
              layer_transformation="sparsemax", layer_norm=False, load_pretrained_weights=False)
    if name == "comet22":
        # wmt22-comet-da's estimator: [mt, src, ref] features, average pooling of the mixed layers.
        hp = {("layer" if k == "sent_layer" else k): v for k, v in hp.items()}
        cls, hp = RegressionMetric, dict(hp, pool="avg")
    elif xl:
        cls, hp = XCOMETMetric, dict(hp, word_layer=12, error_labels=["minor", "major", "critical"])
    else:
        cls, hp = UnifiedMetric, dict(hp, input_segments=["mt", "src"], word_level_training=False)
    model = tiny_comet.new_model(out / name, cls, hp, 2)
    randomise(model)
    tiny_comet.save(out / name, model)


def prepare_metricx(out):
    from transformers import MT5Config, MT5ForConditionalGeneration

    d = out / "metricx"
    d.mkdir(parents=True, exist_ok=True)
    for f in ("spiece.model", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(FIX / "metricx" / f, d / f)
    small = json.loads((FIX / "metricx" / "config.json").read_text())
    config = MT5Config(vocab_size=small["vocab_size"], d_model=768, d_kv=64, d_ff=2048, num_layers=12,
                       num_decoder_layers=12, num_heads=12, feed_forward_proj="gated-gelu",
                       tie_word_embeddings=False, dropout_rate=0.0, decoder_start_token_id=0,
                       pad_token_id=0, eos_token_id=1)
    torch.manual_seed(3)
    m = MT5ForConditionalGeneration(config)
    randomise(m)
    m.save_pretrained(d, safe_serialization=True)


def prepare_bertscore(out):
    """A RoBERTa-large-shaped encoder with the fixtures' small byte-level BPE, as the slow
    `RobertaTokenizer` bert_score loads (so it adds the prefix space, as for roberta-large)."""
    from transformers import RobertaConfig, RobertaModel

    d = out / "bertscore"
    d.mkdir(parents=True, exist_ok=True)
    for f in ("vocab.json", "merges.txt", "tokenizer.json"):
        shutil.copy(FIX / "roberta" / f, d / f)
    (d / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "RobertaTokenizer",
                                                        "model_max_length": 512}))
    small = json.loads((FIX / "roberta" / "config.json").read_text())
    config = RobertaConfig(vocab_size=small["vocab_size"], pad_token_id=1, bos_token_id=0, eos_token_id=2,
                           layer_norm_eps=1e-5, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                           **LARGE)
    torch.manual_seed(4)
    m = RobertaModel(config, add_pooling_layer=False)
    randomise(m)
    m.save_pretrained(d, safe_serialization=True)


PREPARE = {
    "bleurt": lambda out: prepare_bleurt(out, "bleurt"),
    "bleurt20": lambda out: prepare_bleurt(out, "bleurt20"),
    "kiwi": lambda out: prepare_comet(out, "kiwi", xl=False),
    "xcomet": lambda out: prepare_comet(out, "xcomet", xl=True),
    "comet22": lambda out: prepare_comet(out, "comet22", xl=False),
    "metricx": lambda out: prepare_metricx(out),
    "bertscore": lambda out: prepare_bertscore(out),
}


def prepare(out, n):
    out.mkdir(parents=True, exist_ok=True)
    src, mt, ref = sentences(n, 1), sentences(n, 2), sentences(n, 3)
    with open(out / "inputs.jsonl", "w") as f:
        for s, m, r in zip(src, mt, ref):
            f.write(json.dumps({"src": s, "mt": m, "ref": r}) + "\n")



def rows(out):
    return [json.loads(line) for line in (out / "inputs.jsonl").read_text().splitlines()]


def timed(load, score, repeats):
    t = time.perf_counter()
    state = load()
    loaded = time.perf_counter() - t
    best, total = float("inf"), 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        scores = score(state)
        best = min(best, time.perf_counter() - t)
        total = float(sum(scores))
    return {"load": loaded, "seconds": best, "checksum": total}


def scorer_bleurt(out, data, batch, name="bleurt", device="cpu", dtype=None):
    from bleurt_pytorch import BleurtForSequenceClassification, BleurtTokenizer

    d = out / name

    def load():
        # dtype None (float32) leaves the weights' type as it is.
        model = BleurtForSequenceClassification.from_pretrained(d).eval().to(device=device, dtype=dtype)
        return BleurtTokenizer.from_pretrained(str(d)), model

    def score(state):
        tok, model = state
        scores = []
        with torch.no_grad():
            for i in range(0, len(data), batch):
                part = data[i:i + batch]
                enc = tok([r["ref"] for r in part], [r["mt"] for r in part], padding="longest",
                          truncation="longest_first", max_length=512, return_tensors="pt").to(device)
                scores += model(**enc).logits.float().flatten().tolist()
        return scores

    return load, score


def scorer_comet(out, name, data, batch, with_ref, device="cpu", dtype=None):
    import tiny_comet

    def load():
        return tiny_comet.load(out / name)

    samples = [{"src": r["src"], "mt": r["mt"], **({"ref": r["ref"]} if with_ref else {})} for r in data]
    gpus = 1 if device.startswith("cuda") else 0

    def score(model):
        # unbabel-comet has no precision option and its heads do not run on a half-precision
        # model (float32 sentence embeddings meet half weights): half precision is autocast.
        with torch.autocast("cuda" if gpus else "cpu", dtype=dtype, enabled=dtype is not None):
            return model.predict(samples, batch_size=batch, gpus=gpus, progress_bar=False).scores

    return load, score


def scorer_metricx(out, data, batch, device="cpu", dtype=None):
    import transformers
    from metricx24 import models

    d = out / "metricx"

    def load():
        tok = transformers.AutoTokenizer.from_pretrained(d)
        model = models.MT5ForRegression.from_pretrained(d).eval()
        # The tiny vocabulary has no id 250089: read the model's own <extra_id_10> there, as
        # tools/gen/gen_metricx_fixtures.py does (a column copy, no extra compute).
        token = tok.convert_tokens_to_ids("<extra_id_10>")
        head = model.lm_head

        class Head(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.head = head  # a submodule, so that moving the model moves it

            def forward(self, x):
                logits = self.head(x)
                pad = logits.new_zeros(*logits.shape[:-1], 250090 - logits.shape[-1])
                out = torch.cat([logits, pad], dim=-1)
                out[..., 250089] = logits[..., token]
                return out

        model.lm_head = Head()
        model.config.use_cache = False
        return tok, model.to(device=device, dtype=dtype)

    def score(state):
        tok, model = state
        scores = []
        texts = [f"source: {r['src']} candidate: {r['mt']} reference: {r['ref']}" for r in data]
        with torch.no_grad():
            for i in range(0, len(texts), batch):
                enc = tok(texts[i:i + batch], max_length=1536, truncation=True)
                ids = [x[:-1] for x in enc["input_ids"]]  # predict.py removes the EOS
                width = max(len(x) for x in ids)
                input_ids = torch.tensor([x + [0] * (width - len(x)) for x in ids], device=device)
                mask = torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x in ids], device=device)
                scores += model(input_ids=input_ids, attention_mask=mask).predictions.float().tolist()
        return scores

    return load, score


def scorer_bertscore(out, data, batch, device="cpu", dtype=None):
    import bert_score

    cands, refs = [r["mt"] for r in data], [r["ref"] for r in data]
    d = str(out / "bertscore")

    def load():
        scorer = bert_score.BERTScorer(model_type=d, num_layers=17, batch_size=batch, device=device)
        scorer._model.to(dtype=dtype)
        return scorer

    def score(scorer):
        return scorer.score(cands, refs, batch_size=batch)[2].float().tolist()

    return load, score


def scorer(kind, out, data, batch, device="cpu", dtype=None):
    """(load, score) of the reference package for KIND on `data`, on `device` in `dtype`."""
    if kind in ("bleurt", "bleurt20"):
        return scorer_bleurt(out, data, batch, kind, device, dtype)
    if kind == "bertscore":
        return scorer_bertscore(out, data, batch, device, dtype)
    if kind in ("comet22", "kiwi", "xcomet"):
        return scorer_comet(out, kind, data, batch, kind != "kiwi", device, dtype)
    if kind == "metricx":
        return scorer_metricx(out, data, batch, device, dtype)
    raise SystemExit(f"unknown kind {kind}")


def main():
    cmd, out = sys.argv[1], Path(sys.argv[2])
    if cmd == "prepare":
        prepare(out, int(sys.argv[3]))
        return
    if cmd == "model":
        PREPARE[sys.argv[3]](out)
        # What bench_learned.sh checks for: a model built to the end.
        (out / sys.argv[3] / ".complete").touch()
        return
    kind, batch, repeats = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    torch.set_num_threads(os.cpu_count())
    data = rows(out)
    r = timed(*scorer(kind, out, data, batch), repeats)
    print(json.dumps(dict(r, n=len(data), torch=torch.__version__, threads=torch.get_num_threads())))


if __name__ == "__main__":
    main()
