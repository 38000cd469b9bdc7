"""TER of the formality-transfer outputs (../shared/data/formality/*.human.txt: column 3 the
system output, column 4 the reference) with sacreBLEU 2.4.3's TER, corpus and sentence level,
default settings and --ter-normalized. Only the scores are stored, never the texts.

Writes hauser-cli/tests/fixtures/ter_formality.json:
  {"meta", "systems": {NAME: {"default": {"corpus": x, "sentence": [...]},
                              "normalized": {...}}}}
(sentence values divided by 100, as `hauser metric ter --sentence` prints them).
Checked by hauser-cli/tests/it/shared_data/ter_formality.rs (1e-9).
Run from the repository root:
  HAUSER_SHARED_DATA=../shared/data "$(bash tools/pyref.sh)" tools/gen/gen_ter_formality_fixture.py
"""

import glob
import json
import os
from importlib.metadata import version

from sacrebleu.metrics import TER

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(os.environ.get("HAUSER_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data")), "formality")
OUT = os.path.join(ROOT, "hauser-cli", "tests", "fixtures", "ter_formality.json")


def rows(path):
    with open(path, encoding="utf-8") as f:
        cols = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return [c[2] for c in cols], [c[3] for c in cols]


def main():
    systems = {}
    for path in sorted(glob.glob(os.path.join(DATA, "*.human.txt"))):
        name = os.path.basename(path).split(".")[0]
        hyps, refs = rows(path)
        out = {}
        for label, kw in (("default", {}), ("normalized", {"normalized": True})):
            m = TER(**kw)
            out[label] = {"corpus": m.corpus_score(hyps, [refs]).score,
                          "sentence": [m.sentence_score(h, [r]).score / 100.0 for h, r in zip(hyps, refs)]}
        systems[name] = out
    meta = {"generator": "tools/gen/gen_ter_formality_fixture.py", "sacrebleu": version("sacrebleu"), "tolerance": 1e-9}
    with open(OUT, "w") as f:
        json.dump({"meta": meta, "systems": systems}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(systems)} systems -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
