#!/usr/bin/env python3
"""COMET UnifiedMetric (CometKiwi) and XCOMETMetric golden fixtures: tiny random-weight models
built with unbabel-comet 2.2.7, and what its `predict` returns for them.

Runs in the venv of tools/requirements-comet.txt (unbabel-comet pins transformers < 5):

    .cache/pycomet/bin/python tools/gen/gen_comet_unified_fixtures.py

Writes hauser-nli/tests/fixtures/comet-unified/:
  encoder/                 the tiny XLM-RoBERTa config and BPE tokenizer (as tools/gen/gen_comet_fixtures.py)
  encoder-xl/              a tiny XLM-RoBERTa XL (pre-LayerNorm) config, the same tokenizer, and
                           the `xcomet-xl` model's encoder weights as a standalone
                           XLMRobertaXLModel (model.safetensors), whose hidden states of two
                           texts reference.json keeps under `encoder_xl_states`
  <model>/hparams.yaml     as unbabel-comet writes it
  <model>/checkpoints/model.ckpt
  reference.json           per model and input mode: `scores`, and for the word-level models the
                           `error_spans` (text, start, end, severity, confidence) and, for
                           XCOMET, the `mqm_scores`

The models differ in every choice on the scoring path:
  kiwi          unified_metric, input_segments [mt, src] (CometKiwi's QE form), sent_layer mix,
                sparsemax, no layer norm, sentence head only
  unified       unified_metric, [mt, src, ref], mix, softmax, layer norm, word-level head on
                layer 2 with error labels [minor, major]: run [mt, src], [mt, ref] and
                [mt, src, ref] (the average of the three, spans from the weighted probabilities)
  unified-ref   unified_metric, [mt, ref] (requires references), sent_layer 1, Sigmoid at the end
  xcomet        xcomet_metric (error labels minor, major, critical; score weights
                0.12/0.33/0.33/0.22 with the MQM score from the spans), on the XLM-R encoder,
                sparsemax_patch, word layer 3: with source and reference, and each alone
  xcomet-xl     xcomet_metric on the XLM-RoBERTa-XL encoder (XCOMET-XL/XXL's), sparsemax, word
                layer 2
The builder (encoders, random weights, checkpoint writing) is tools/gen/tiny_comet.py's.
Tolerance: 1e-4 absolute on scores and confidences; span texts, offsets and severities exact.
"""

import json
import shutil

import torch
from comet.models import UnifiedMetric, XCOMETMetric

import tiny_comet
from tiny_comet import FIXTURES

OUT = FIXTURES / "comet-unified"
TOLERANCE = 1e-4

SRC = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the library.",
    "His voice thundered through the empty hall.",
    "",
    "A storm of anger rose inside him.",
    " ".join(["the old house creaked in the cold night air"] * 8),
    "Numbers like 42 and symbols such as % appear too.",
]
MT = [
    "The boy ran very fast across the field.",
    "She was quiet in the library.",
    "",
    "The city never sleeps.",
    "A storm of anger rose inside him.",
    "the old house creaked",
    " ".join(["numbers and symbols appear"] * 10),
]
REF = [
    "The boy sprinted across the field.",
    "She was silent in the library.",
    "His voice boomed through the hall.",
    "The city is always awake.",
    "",
    " ".join(["a house creaked at night"] * 12),
    "Numbers like 42 and symbols such as % appear.",
]

COMMON = dict(
    encoder_model="XLM-RoBERTa", pretrained_model="../encoder", hidden_sizes=[24, 16],
    activations="Tanh", dropout=0.1, nr_frozen_epochs=0.3, keep_embeddings_frozen=True, batch_size=4,
    load_pretrained_weights=False,
)
MODELS = {
    "kiwi": (UnifiedMetric, dict(input_segments=["mt", "src"], sent_layer="mix", layer_transformation="sparsemax",
                                 layer_norm=False, final_activation=None, word_level_training=False)),
    "unified": (UnifiedMetric, dict(input_segments=["mt", "src", "ref"], sent_layer="mix",
                                    layer_transformation="softmax", layer_norm=True, final_activation=None,
                                    word_level_training=True, word_layer=2, error_labels=["minor", "major"])),
    "unified-ref": (UnifiedMetric, dict(input_segments=["mt", "ref"], sent_layer=1, layer_transformation="softmax",
                                        layer_norm=False, final_activation="Sigmoid", word_level_training=False)),
    "xcomet": (XCOMETMetric, dict(sent_layer="mix", layer_transformation="sparsemax_patch", layer_norm=False,
                                  final_activation=None, word_layer=3,
                                  error_labels=["minor", "major", "critical"])),
    "xcomet-xl": (XCOMETMetric, dict(encoder_model="XLM-RoBERTa-XL", pretrained_model="../encoder-xl",
                                     sent_layer="mix", layer_transformation="sparsemax", layer_norm=False,
                                     final_activation=None, word_layer=2,
                                     error_labels=["minor", "major", "critical"])),
}
XL_TEXTS = ["The boy ran like the wind across the field.", "Numbers like 42 appear."]
MODES = {"src": ("src",), "ref": ("ref",), "src+ref": ("src", "ref")}


def xl_states(name):
    """The XL model's encoder saved as a standalone XLMRobertaXLModel, and its hidden states."""
    model = tiny_comet.load(OUT / name)
    enc = model.encoder.model.eval()
    d = OUT / "encoder-xl"
    enc.save_pretrained(d, safe_serialization=True)
    tok = model.encoder.tokenizer
    states = []
    for text in XL_TEXTS:
        batch = tok(text, return_tensors="pt")
        with torch.no_grad():
            out = enc(**batch, output_hidden_states=True)
        states.append({
            "text": text,
            "ids": batch["input_ids"][0].tolist(),
            "layers": [[[round(float(x), 6) for x in row] for row in h[0]] for h in out.hidden_states],
        })
    return states


def build(name, cls, spec, seed):
    model = tiny_comet.new_model(OUT / name, cls, dict(COMMON, **spec), seed)
    tiny_comet.randomise(model)
    model.eval()
    if hasattr(model, "hidden2tag"):
        center_tags(model)
    tiny_comet.save(OUT / name, model)


def center_tags(model):
    """Random tag weights favour one label everywhere (the word layer's states are alike after
    its LayerNorm); a bias that centres each label's logits over these inputs' tokens makes
    every label win somewhere, so that spans open, grow and close."""
    rows = [{"src": s, "mt": m, "ref": r} for s, m, r in zip(SRC, MT, REF)]
    with torch.no_grad():
        model.hidden2tag.bias.zero_()
        batch = model.prepare_sample(rows, stage="predict")
        logits = torch.cat([model.forward(**b).logits.flatten(0, 1) for b in batch])
        model.hidden2tag.bias.copy_(-logits.mean(dim=0) + 0.3 * torch.randn(logits.shape[1]))


def predict(name, mode):
    model = tiny_comet.load(OUT / name)
    data = []
    for s, m, r in zip(SRC, MT, REF):
        row = {"mt": m}
        if "src" in MODES[mode]:
            row["src"] = s
        if "ref" in MODES[mode]:
            row["ref"] = r
        data.append(row)
    out = model.predict(data, batch_size=4, gpus=0, progress_bar=False)
    result = {"scores": [round(float(x), 7) for x in out.scores]}
    meta = out.metadata if "metadata" in out else {}
    if "error_spans" in meta:
        result["error_spans"] = [
            [dict(s, confidence=round(float(s["confidence"]), 7)) for s in spans] for spans in meta["error_spans"]
        ]
    if "mqm_scores" in meta:
        result["mqm_scores"] = [round(float(x), 7) for x in meta["mqm_scores"]]
    return result


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    tiny_comet.write_encoder(OUT / "encoder")
    tiny_comet.write_encoder(OUT / "encoder-xl", xl=True)
    ref = {
        "meta": tiny_comet.meta("tools/gen/gen_comet_unified_fixtures.py", TOLERANCE),
        "src": SRC,
        "mt": MT,
        "ref": REF,
        "models": {},
    }
    for seed, (name, (cls, spec)) in enumerate(MODELS.items(), start=21):
        build(name, cls, spec, seed)
        ref["models"][name] = {}
        for mode in MODES:
            if name == "unified-ref" and mode == "src":
                continue  # requires references
            ref["models"][name][mode] = predict(name, mode)
    ref["encoder_xl_states"] = xl_states("xcomet-xl")
    (OUT / "reference.json").write_text(json.dumps(ref, indent=1, ensure_ascii=False))
    for name, modes in ref["models"].items():
        for mode, r in modes.items():
            print(name, mode, r["scores"], sum(len(s) for s in r.get("error_spans", [])), "spans")


if __name__ == "__main__":
    main()
