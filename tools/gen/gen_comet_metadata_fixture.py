#!/usr/bin/env python3
"""Golden fixture for hauser.compat.comet's `Prediction`: what unbabel-comet 2.2.7's `predict`
returns, whole, for the UnifiedMetric and XCOMET fixture models of
tools/gen/gen_comet_unified_fixtures.py (hauser-nli/tests/fixtures/comet-unified, read, not
rebuilt) in each input mode: the keys of the output and of its metadata in comet's order, and
every metadata list (src_scores, ref_scores, unified_scores, mqm_scores, error_spans).

Runs in the venv of tools/requirements-comet.txt:

    .cache/pycomet/bin/python tools/gen/gen_comet_metadata_fixture.py

Writes bindings/python/tests/fixtures/comet_metadata.json. Tolerance: 1e-5 on scores.
"""

import json
import sys
from pathlib import Path

import tiny_comet
from tiny_comet import FIXTURES

OUT = Path(__file__).resolve().parents[2] / "bindings" / "python" / "tests" / "fixtures" / "comet_metadata.json"


def rows(r, mode):
    """conftest.comet_samples: the fixture's texts with `src` and `ref` where `mode` names them."""
    out = []
    for s, m, f in zip(r["src"], r["mt"], r["ref"]):
        row = {"mt": m}
        if "src" in mode:
            row["src"] = s
        if "ref" in mode:
            row["ref"] = f
        out.append(row)
    return out


def main():
    r = json.loads((FIXTURES / "comet-unified" / "reference.json").read_text())
    cases = {}
    for name, modes in r["models"].items():
        model = tiny_comet.load(FIXTURES / "comet-unified" / name)
        for mode in modes:
            out = model.predict(rows(r, mode), batch_size=8, gpus=0, progress_bar=False)
            case = {"keys": list(out.keys()), "scores": out.scores}
            if "metadata" in out:
                case["metadata_keys"] = list(out.metadata.keys())
                case["metadata"] = {k: v for k, v in out.metadata.items()}
            cases[f"{name}/{mode}"] = case
            print(name, mode, case.get("metadata_keys"), file=sys.stderr)
    fixture = {"meta": tiny_comet.meta("tools/gen/gen_comet_metadata_fixture.py", 1e-5), "cases": cases}
    OUT.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
