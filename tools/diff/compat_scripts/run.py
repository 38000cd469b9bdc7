#!/usr/bin/env python3
"""The hidden checks of issue 43, made visible: user scripts written against unbabel-comet's,
BLEURT's and Hugging Face evaluate's Python APIs, run once with the real package and once with
only the import line swapped to ``hauser.compat``; their printed output must agree (numbers
within 1e-5 for COMET and BLEURT, exactly for evaluate's text metrics; every other character
exactly).

Environment (interpreters; nothing here names a machine's paths):
  HAUSER_PYTHON        a Python with the hauser wheel installed (required)
  REF_COMET_PYTHON     a Python with unbabel-comet 2.2.7 (the COMET scripts; skipped without it)
  REF_EVALUATE_PYTHON  a Python with evaluate 0.4.6, sacrebleu 2.4.3, rouge-score 0.1.2, nltk,
                       jiwer 4 (the evaluate scripts; skipped without it), with
  EVALUATE_REPO        a checkout of huggingface/evaluate (commit a7dd338): the metric scripts
  NMT_BLEU             tensorflow/nmt's nmt/scripts/bleu.py (evaluate's bleu imports it)
  NLTK_DATA_ROOT       NLTK data with punkt_tab and wordnet for meteor (optional; see
                       tools/gen/gen_evaluate_fixtures.py's nltk_data())
BLEURT's TensorFlow package is not assumed: its side runs bleurt_ref/, BLEURT's argument
handling over the scores the fixtures' generators stored (bleurt-pytorch's).

Usage: python tools/diff/compat_scripts/run.py [NAME...]   (exit status 1 on any difference)
"""

import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
FIX = ROOT / "hauser-nli" / "tests" / "fixtures"

# The import lines a script may use, and what each becomes.
SWAPS = {
    "from comet import": "from hauser.compat.comet import",
    "import comet\n": "import hauser.compat.comet as comet\n",
    "from bleurt import score": "from hauser.compat.bleurt import score",
    "from bleurt.score import": "from hauser.compat.bleurt.score import",
    "import evaluate\n": "import hauser.compat.evaluate as evaluate\n",
    "from evaluate import": "from hauser.compat.evaluate import",
}

NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")


def cases():
    comet_models = [
        ("comet/regression", "src,mt,ref"),
        ("comet/estimator", "src,mt,ref"),
        ("comet/cls", "src,mt,ref"),
        ("comet/qe", "src,mt"),
        ("comet-unified/kiwi", "src,mt"),
        ("comet-unified/unified", "src,mt,ref"),
        ("comet-unified/unified-ref", "mt,ref"),
        ("comet-unified/xcomet", "src,mt,ref"),
        ("comet-unified/xcomet", "src,mt"),
        ("comet-unified/xcomet-xl", "mt,ref"),
    ]
    for model, mode in comet_models:
        yield {
            "name": f"comet_predict[{model}:{mode}]",
            "script": "comet_predict.py",
            "ref": os.environ.get("REF_COMET_PYTHON"),
            "cwd": FIX / model,
            "env": {"COMET_CHECKPOINT": "checkpoints/model.ckpt", "COMET_MODE": mode},
            "tol": 1e-5,
            # The ranking model's scores are unbounded distances (about -18 here): float32
            # rounding, which moves comet's own scores by 4e-6 between batch sizes, is 1e-6 of
            # them (docs/DROP-IN.md).
            "rel": 1e-6 if model == "comet/cls" else 0.0,
        }
    for model in ["comet/regression", "comet/qe", "comet-unified/kiwi", "comet-unified/xcomet"]:
        yield {
            "name": f"comet_mistakes[{model}]",
            "script": "comet_mistakes.py",
            "ref": os.environ.get("REF_COMET_PYTHON"),
            "cwd": FIX / model,
            "env": {"COMET_CHECKPOINT": "checkpoints/model.ckpt"},
            "tol": 1e-5,
        }
    for form in ["bleurt", "bleurt-20", "bleurt-20-d"]:
        yield {
            "name": f"bleurt_score[{form}]",
            "script": "bleurt_score.py",
            "ref": os.environ["HAUSER_PYTHON"],
            "ref_pythonpath": str(HERE / "bleurt_ref"),
            "cwd": ROOT,
            "env": {"BLEURT_CHECKPOINT": str(FIX / form), "BLEURT_INPUTS": str(FIX / form / "reference.json")},
            "tol": 1e-5,
        }
    for script in ["evaluate_text.py", "evaluate_wer.py", "evaluate_options.py", "evaluate_arrays.py", "evaluate_wer_edges.py", "evaluate_overlap_edges.py", "evaluate_combine.py"]:
        yield {
            "name": script[:-3],
            "script": script,
            "ref": os.environ.get("REF_EVALUATE_PYTHON"),
            "ref_wrapper": str(HERE / "ref_evaluate.py"),
            "cwd": ROOT,
            "env": {},
            "tol": 0.0,
        }


def run(python, script, case, pythonpath=None, wrapper=None):
    env = dict(os.environ, **case["env"], PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    argv = [python] + ([wrapper] if wrapper else []) + [script]
    p = subprocess.run(argv, cwd=case["cwd"], env=env, capture_output=True, text=True)
    out = p.stdout
    if p.returncode:
        out += f"\n<exit {p.returncode}>\n" + p.stderr.strip().splitlines()[-1] + "\n"
    return out


def same_line(a, b, tol, rel=0.0):
    if a == b:
        return True
    ta, tb = NUMBER.split(a), NUMBER.split(b)
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    if ta != tb or len(na) != len(nb):
        return False
    return all(abs(float(x) - float(y)) <= max(tol, rel * abs(float(x))) for x, y in zip(na, nb))


def main():
    only = set(sys.argv[1:])
    failed = 0
    for case in cases():
        if only and not any(case["name"].startswith(o) for o in only):
            continue
        if not case["ref"]:
            print(f"SKIP {case['name']}: no reference interpreter")
            continue
        source = (HERE / case["script"]).read_text()
        swapped = source
        for a, b in SWAPS.items():
            swapped = swapped.replace(a, b)
        assert swapped != source, case["script"]
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(swapped)
        want = run(case["ref"], str(HERE / case["script"]), case, case.get("ref_pythonpath"), case.get("ref_wrapper"))
        got = run(os.environ["HAUSER_PYTHON"], f.name, case)
        os.unlink(f.name)
        wl, gl = want.splitlines(), got.splitlines()
        bad = [(i, a, b) for i, (a, b) in enumerate(zip(wl, gl)) if not same_line(a, b, case["tol"], case.get("rel", 0.0))]
        if len(wl) != len(gl):
            failed += 1
            print(f"DIFF {case['name']}: {len(wl)} lines against {len(gl)}")
            for line in list(difflib.unified_diff(wl, gl, "ref", "hauser", lineterm="", n=1))[:60]:
                print("  " + line[:400])
        elif bad:
            failed += 1
            print(f"DIFF {case['name']}")
            for i, a, b in bad[:20]:
                print(f"  line {i + 1}\n    ref:    {a[:400]}\n    hauser: {b[:400]}")
        else:
            print(f"SAME {case['name']} ({len(wl)} lines)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
