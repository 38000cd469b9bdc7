#!/usr/bin/env python3
"""COMET golden fixtures: tiny random-weight models built with unbabel-comet 2.2.7, and its scores.

unbabel-comet pins transformers < 5 and numpy < 2, so it needs its own venv (the repository's
ignored .cache/), made from tools/requirements-comet.txt:

    python3 -m venv .cache/pycomet && .cache/pycomet/bin/pip install -r tools/requirements-comet.txt
    .cache/pycomet/bin/python tools/gen/gen_comet_fixtures.py

Writes hauser-nli/tests/fixtures/comet/:
  encoder/                  a tiny XLM-RoBERTa config and the tiny BPE tokenizer of the
                            xlm-roberta fixture (what `pretrained_model` names in hparams.yaml)
  <model>/hparams.yaml      as unbabel-comet writes it (class_identifier, pool, layer, ...)
  <model>/checkpoints/model.ckpt
                            a PyTorch Lightning checkpoint (torch.save zip): state_dict with the
                            encoder, the layer-wise attention and the estimator, hyper_parameters
  reference.json            COMET's `model.predict` scores for every model on the inputs below,
                            with and without the source (COMET-w), and the token ids

The builder (encoder, random weights, checkpoint writing) is tools/gen/tiny_comet.py's.

The models differ in every choice on the scoring path, so a wrong one fails a test:
  estimator     regression_metric, layer mix, softmax, layer norm, avg pooling (wmt20-comet-da)
  regression    regression_metric, layer mix, sparsemax, no layer norm, avg pooling, a sigmoid
                (wmt22-comet-da's layout, with a final activation)
  qe            referenceless_regression_metric, layer mix, sparsemax_patch (= softmax since
                2.2.4), layer norm, max pooling (the reference-free form)
  cls           regression_metric, layer 2 (no mix), cls pooling, Softplus
Scalar-mix weights, gamma and every weight are random (fixed seeds). Tolerance: 1e-4 absolute.
"""

import json
import shutil

from comet.models import ReferencelessRegression, RegressionMetric

import tiny_comet
from tiny_comet import FIXTURES

OUT = FIXTURES / "comet"
TOLERANCE = 1e-4

SRC = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the library.",
    "His voice thundered through the empty hall.",
    "",
    "A storm of anger rose inside him.",
    " ".join(["the old house creaked in the cold night air"] * 8),
]
MT = [
    "The boy ran very fast across the field.",
    "She was quiet in the library.",
    "",
    "The city never sleeps.",
    "A storm of anger rose inside him.",
    "the old house creaked",
]
REF = [
    "The boy sprinted across the field.",
    "She was silent in the library.",
    "His voice boomed through the hall.",
    "The city is always awake.",
    "",
    " ".join(["a house creaked at night"] * 12),
]

MODELS = {
    "estimator": dict(cls=RegressionMetric, layer="mix", layer_transformation="softmax",
                      layer_norm=True, pool="avg", activations="Tanh", final_activation=None),
    "regression": dict(cls=RegressionMetric, layer="mix", layer_transformation="sparsemax",
                       layer_norm=False, pool="avg", activations="Tanh",
                       final_activation="Sigmoid"),
    "qe": dict(cls=ReferencelessRegression, layer="mix", layer_transformation="sparsemax_patch",
               layer_norm=True, pool="max", activations="Tanh", final_activation=None),
    "cls": dict(cls=RegressionMetric, layer=2, layer_transformation="softmax", layer_norm=False,
                pool="cls", activations="Softplus", final_activation=None),
}


def build(name, spec, seed):
    hp = dict(
        encoder_model="XLM-RoBERTa", pretrained_model="../encoder", pool=spec["pool"],
        layer=spec["layer"], layer_transformation=spec["layer_transformation"],
        layer_norm=spec["layer_norm"], hidden_sizes=[24, 16], activations=spec["activations"],
        final_activation=spec["final_activation"], dropout=0.1, nr_frozen_epochs=0.3,
        keep_embeddings_frozen=True, batch_size=4, load_pretrained_weights=False,
    )
    model = tiny_comet.new_model(OUT / name, spec["cls"], hp, seed)
    tiny_comet.randomise(model)
    model.eval()
    # hparams.yaml keeps the arguments given here, not every default of the class.
    tiny_comet.save(OUT / name, model, hp)


def predict(name, with_src):
    model = tiny_comet.load(OUT / name)
    data = []
    for s, m, r in zip(SRC, MT, REF):
        row = {"src": s if with_src else "", "mt": m}
        if name != "qe":
            row["ref"] = r
        data.append(row)
    out = model.predict(data, batch_size=4, gpus=0, progress_bar=False)
    ids = {k: [model.encoder.prepare_sample([t])["input_ids"][0].tolist() for t in v]
           for k, v in (("src", SRC), ("mt", MT), ("ref", REF))}
    return [round(float(x), 7) for x in out.scores], ids


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    tiny_comet.write_encoder(OUT / "encoder")
    ref = {
        "meta": tiny_comet.meta("tools/gen/gen_comet_fixtures.py", TOLERANCE),
        "src": SRC,
        "mt": MT,
        "ref": REF,
        "models": {},
    }
    for seed, (name, spec) in enumerate(MODELS.items(), start=11):
        build(name, spec, seed)
        scores, ids = predict(name, True)
        no_src, _ = predict(name, False)
        ref["models"][name] = {"scores": scores, "scores_no_src": no_src}
        ref["ids"] = ids
    (OUT / "reference.json").write_text(json.dumps(ref, indent=1))
    for name, m in ref["models"].items():
        print(name, m["scores"], m["scores_no_src"])


if __name__ == "__main__":
    main()
