#!/usr/bin/env python3
"""Golden outputs of unbabel-comet 2.2.7's `comet-score` and `comet-compare` on the tiny COMET
checkpoints of hauser-nli/tests/fixtures/comet (made by tools/gen/gen_comet_fixtures.py), replayed
through `hauser comet-score` / `hauser comet-compare` by hauser-cli/tests/it/drop_in_comet.rs.

    .cache/pycomet/bin/python tools/gen/gen_comet_cli_fixtures.py

Writes hauser-cli/tests/fixtures/drop-in-comet/: the input files (src.txt, ref.txt, sys1.txt,
sys2.txt, sys3.txt) and cases.json, one case per run: argv (after the program name), the exit
status, stdout, and for --to_json the file written. Paths are relative to the run's directory,
where the inputs lie; `{MODELS}` stands for hauser-nli/tests/fixtures/comet.

Precision: both commands call `model.half()` before predicting, so unbabel-comet scores in
float16 (on a GPU, and on the CPU too with torch 2.x); its printed numbers then depend on the
hardware's half-precision kernels and on how --batch_size pads them. hauser scores in float32
(or --precision on a GPU), so the runs recorded here keep comet's float32 weights: this script
makes `Module.half` a no-op in the comet process. Everything else is comet's own code path.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "hauser-nli" / "tests" / "fixtures" / "comet"
# unified_metric (CometKiwi) and xcomet_metric checkpoints, made by tools/gen/gen_comet_unified_fixtures.py.
UNIFIED = ROOT / "hauser-nli" / "tests" / "fixtures" / "comet-unified"
OUT = ROOT / "hauser-cli" / "tests" / "fixtures" / "drop-in-comet"

SRC = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the library.",
    "His voice thundered through the empty hall.",
    "",
    "A storm of anger rose inside him.",
    " ".join(["the old house creaked in the cold night air"] * 8),
    "Time is a thief.",
    "Her smile was sunshine on a rainy day.",
]
REF = [
    "The boy sprinted across the field.",
    "She was silent in the library.",
    "His voice boomed through the hall.",
    "The city is always awake.",
    "",
    " ".join(["a house creaked at night"] * 12),
    "Time steals everything.",
    "Her smile brightened the gloomy day.",
]
SYS1 = [
    "The boy ran very fast across the field.",
    "She was quiet in the library.",
    "",
    "The city never sleeps.",
    "A storm of anger rose inside him.",
    "the old house creaked",
    "Time is a thief.",
    "She smiled like the sun.",
]
SYS2 = [
    "The boy sprinted across the field.",
    "She was as quiet as a mouse.",
    "His voice thundered.",
    "The city is awake.",
    "He was angry.",
    "the house creaked at night in the cold",
    "Time steals.",
    "Her smile was sunshine.",
]
SYS3 = [
    "A boy ran.",
    "Quiet library.",
    "The hall was empty.",
    "City.",
    "A storm rose inside him.",
    "creak",
    "Time is a thief who steals.",
    "Her smile was sunshine on a rainy day.",
]

RUNNER = (
    "import sys, torch\n"
    "torch.nn.Module.half = lambda self: self\n"
    "from comet.cli.{mod} import {fn}\n"
    "sys.argv[0] = '{prog}'\n"
    "{fn}()\n"
)

REG = "{MODELS}/regression/checkpoints/model.ckpt"
EST = "{MODELS}/estimator/checkpoints/model.ckpt"
QE = "{MODELS}/qe/checkpoints/model.ckpt"
CLS = "{MODELS}/cls/checkpoints/model.ckpt"
KIWI = "{UNIFIED}/kiwi/checkpoints/model.ckpt"
XCOMET = "{UNIFIED}/xcomet/checkpoints/model.ckpt"

SCORE = [
    ["-s", "src.txt", "-t", "sys1.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", EST, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "sys3.txt", "-r", "ref.txt", "--model", CLS, "--gpus", "0", "--quiet", "--only_system"],
    ["-s", "src.txt", "-t", "sys2.txt", "--model", QE, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "-r", "ref.txt", "--model", QE, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet", "--batch_size", "1"],
    ["-s", "src.txt", "-t", "sys1.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet", "--batch_size", "2"],
    ["-s", "src.txt", "-t", "sys3.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet", "--batch_size", "16", "--disable_length_batching"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet", "--to_json", "out.json"],
    ["-s", "src.txt", "-t", "sys1.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--only_system", "--quiet"],
    # The unified classes: CometKiwi without and with a reference, XCOMET with source and reference.
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "--model", KIWI, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", KIWI, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", XCOMET, "--gpus", "0", "--quiet"],
    # Errors comet reports through its parser (exit 2).
    ["-t", "sys1.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "--model", REG, "--gpus", "0", "--quiet"],
]
COMPARE = [
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "sys3.txt", "-r", "ref.txt", "--model", EST, "--gpus", "0", "--quiet"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "sys3.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet", "--t_test_alternative", "less", "--num_splits", "50", "--sample_ratio", "0.5"],
    ["-s", "src.txt", "-t", "sys3.txt", "sys1.txt", "--model", QE, "--gpus", "0", "--quiet", "--t_test_alternative", "greater", "--num_splits", "1000", "--sample_ratio", "0.9", "--batch_size", "3"],
    ["-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", CLS, "--gpus", "0", "--quiet", "--to_json", "cmp.json"],
    ["-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model", REG, "--gpus", "0", "--quiet"],
]


def run_dir(base, models):
    """`base/work`, a directory to run comet in beside `base/encoder`, a link to the encoder of
    the fixture family `models`: the checkpoints name their encoder `../encoder`, relative to
    the directory comet runs in."""
    (base / "work").mkdir(parents=True)
    os.symlink(models / "encoder", base / "encoder")
    return base / "work"


def write_inputs(d):
    for name, lines in (("src.txt", SRC), ("ref.txt", REF), ("sys1.txt", SYS1), ("sys2.txt", SYS2), ("sys3.txt", SYS3)):
        (d / name).write_text("".join(l + "\n" for l in lines), encoding="utf-8")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    write_inputs(OUT)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        # One run directory per fixture family.
        works = {key: run_dir(Path(tmp) / key.strip("{}"), root) for key, root in (("{MODELS}", MODELS), ("{UNIFIED}", UNIFIED))}
        for command, mod, fn, runs in (("comet-score", "score", "score_command", SCORE), ("comet-compare", "compare", "compare_command", COMPARE)):
            for argv in runs:
                work = works["{UNIFIED}" if any("{UNIFIED}" in a for a in argv) else "{MODELS}"]
                for f in work.iterdir():
                    f.unlink()
                write_inputs(work)
                real = [a.replace("{MODELS}", str(MODELS)).replace("{UNIFIED}", str(UNIFIED)) for a in argv]
                code = RUNNER.format(mod=mod, fn=fn, prog=command)
                p = subprocess.run([sys.executable, "-c", code, *real], cwd=work, capture_output=True, text=True)
                # No machine paths: the model paths go back to their placeholders.
                hide = lambda text: text.replace(str(MODELS), "{MODELS}").replace(str(UNIFIED), "{UNIFIED}")
                case = {"command": command, "argv": argv, "status": p.returncode, "stdout": hide(p.stdout)}
                if "--to_json" in argv:
                    name = argv[argv.index("--to_json") + 1]
                    case["to_json"] = hide((work / name).read_text(encoding="utf-8"))
                print(command, " ".join(argv), "->", p.returncode, file=sys.stderr)
                if p.returncode not in (0, 2):
                    print(p.stderr, file=sys.stderr)
                cases.append(case)
    meta = {
        "generator": "tools/gen/gen_comet_cli_fixtures.py",
        "unbabel-comet": "2.2.7",
        "precision": "float32 (Module.half made a no-op; see the generator's docstring)",
    }
    (OUT / "cases.json").write_text(json.dumps({"meta": meta, "cases": cases}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
