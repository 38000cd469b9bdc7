#!/usr/bin/env python3
"""Expected ROUGE-L of the figurative-narratives authors' released dev generations, by
tools/gen/narratives_eval_ref.py (their automatic_metrics.py steps, pltrdy rouge 1.0.1), gold
rebuilt from ../shared/data/narratives/{idiom,simile}/dev.jsonl.

The generations are read from ../shared/data/narratives-released/ when it is there, else from
.cache/narratives-released/, where tools/test-assets.sh fetches them (pinned commit, SHA-256
checked). Writes figlang-tasks/tests/fixtures/narratives/released_dev.json.
Tolerance the Rust test applies: 1e-6 on the x100 scale.
Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_released_narratives_fixture.py
"""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("HAUSER_SHARED_DATA", ROOT.parent / "shared/data"))
RELEASED = SHARED / "narratives-released"
if not RELEASED.is_dir():
    RELEASED = ROOT / ".cache/narratives-released"
DATA = SHARED / "narratives"
OUT = ROOT / "figlang-tasks/tests/fixtures/narratives/released_dev.json"


def main():
    out = {
        "meta": {
            "generator": "tools/gen/gen_released_narratives_fixture.py via tools/gen/narratives_eval_ref.py",
            "source": "github.com/tuhinjubcse/FigurativeNarrativeBenchmark@9640095ed599d70d5a2e612d4731c2c27ef59015 output/*/generative/*_dev_*",
            "gold": "../shared/data/narratives/{task}/dev.jsonl",
            "tolerance": 1e-6,
        },
        "files": [],
    }
    for task in ["idiom", "simile"]:
        for f in sorted(os.listdir(RELEASED / task)):
            r = json.loads(subprocess.check_output([
                sys.executable, str(ROOT / "tools/gen/narratives_eval_ref.py"),
                "--pred", str(RELEASED / task / f), "--data", str(DATA / task / "dev.jsonl"),
            ]))
            out["files"].append({"task": task, "file": f, "rouge_l": r["rouge_l"], "n": r["n"]})
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
