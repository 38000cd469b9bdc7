#!/usr/bin/env python3
"""Golden fixture of `hauser rerank`: unbabel-comet 2.2.7's own MBR and QE reranking on the tiny
COMET models of hauser-nli/tests/fixtures (tools/gen/gen_comet_fixtures.py,
tools/gen/gen_comet_unified_fixtures.py).

    .cache/pycomet/bin/python tools/gen/gen_rerank_fixture.py

MBR: `comet.cli.mbr`'s `build_embeddings` and `mbr_decoding` on the `regression` model, and
`torch.argmax` of each row, as `comet-mbr` runs them. `comet-mbr` itself moves the model to the
GPU in half precision (`model.cuda(); model.half()`); here the same two functions are called
directly on the CPU in float32, so that the fixture is exact to float32 and needs no GPU.
QE: the scores `comet.cli.mbr.rerank_top_k` ranks by (`model.predict` on `{src, mt}` rows), for
the reference-free `qe` model and the unified `kiwi` model (CometKiwi's class), with the order
`np.argsort(...)[::-1]` gives.

Writes hauser-cli/tests/fixtures/rerank/comet.json. Tolerance: 1e-4 absolute on scores; the
chosen candidates and orders exact.
Checkpoints load through tools/gen/tiny_comet.py, the builder of those models.
"""

import json

import comet
import numpy as np
import torch
import transformers
from comet.cli.mbr import build_embeddings, mbr_decoding

from tiny_comet import FIXTURES, ROOT, load

OUT = ROOT / "hauser-cli" / "tests" / "fixtures" / "rerank" / "comet.json"

# Candidates of each source (comet-mbr needs the same number per source, so groups of one size
# are decoded together; the groups here have 3, 4 and 5).
GROUPS = [
    ("The boy ran like the wind across the field.",
     ["The boy ran very fast across the field.", "The boy sprinted over the field.",
      "A boy ran fast.", "The wind ran across the field."]),
    ("She was as quiet as a mouse in the library.",
     ["She was quiet in the library.", "She was silent as a mouse.",
      "The library was quiet.", "She whispered in the library.", "A mouse was in the library."]),
    ("His voice thundered through the empty hall.",
     ["His voice boomed through the hall.", "He shouted in the empty hall.",
      "The hall was empty."]),
    ("A storm of anger rose inside him.",
     ["Anger rose inside him.", "He became very angry.", "A storm rose.",
      "He felt a storm of anger."]),
    ("The city never sleeps.",
     ["The city is always awake.", "The city never rests.", "Nobody sleeps in the city."]),
]


def mbr(model):
    by_size = {}
    for i, (_, cands) in enumerate(GROUPS):
        by_size.setdefault(len(cands), []).append(i)
    out = [None] * len(GROUPS)
    for n, ids in by_size.items():
        sources = [GROUPS[i][0] for i in ids]
        translations = [c for i in ids for c in GROUPS[i][1]]
        src_emb, mt_emb = build_embeddings(sources, translations, model, batch_size=4)
        mt_emb = mt_emb.reshape(len(sources), n, -1)
        matrix = mbr_decoding(src_emb, mt_emb, model)
        for row, i in enumerate(ids):
            out[i] = {
                "scores": [round(float(x), 7) for x in matrix[row, :]],
                "best": int(torch.argmax(matrix[row, :])),
            }
    return out


def qe(model):
    data = [{"src": s, "mt": c} for s, cands in GROUPS for c in cands]
    scores = model.predict(data, batch_size=4, gpus=0, progress_bar=False).scores
    out, k = [], 0
    for _, cands in GROUPS:
        seg = np.array(scores[k:k + len(cands)])
        k += len(cands)
        out.append({
            "scores": [round(float(x), 7) for x in seg],
            # rerank_top_k's order, best first.
            "order": [int(i) for i in np.argsort(seg)[::-1]],
        })
    return out


def main():
    torch.manual_seed(0)
    ref = {
        "meta": {
            "generator": "tools/gen/gen_rerank_fixture.py",
            "unbabel-comet": comet.__version__,
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "precision": "float32, CPU (comet-mbr itself runs .cuda().half())",
            "tolerance": 1e-4,
        },
        "groups": [{"src": s, "candidates": c} for s, c in GROUPS],
        "mbr": {"regression": mbr(load(FIXTURES / "comet" / "regression"))},
        "qe": {
            "qe": qe(load(FIXTURES / "comet" / "qe")),
            "kiwi": qe(load(FIXTURES / "comet-unified" / "kiwi")),
        },
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(ref, indent=1) + "\n")
    print(json.dumps(ref["mbr"], indent=1))
    print(json.dumps(ref["qe"], indent=1))


if __name__ == "__main__":
    main()
