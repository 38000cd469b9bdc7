#!/usr/bin/env python3
"""Golden outputs of bert_score 0.3.13's `bert-score` command on the tiny random BERT and
RoBERTa of hauser-nli/tests/fixtures, replayed through `hauser bert-score` by
hauser-cli/tests/it/drop_in_bert_score.rs.

bert_score needs matplotlib and the COMET venv's torch and transformers; a venv beside it:

    python3 -m venv .cache/pybs
    echo "$PWD/.cache/pycomet/lib/python3.11/site-packages" > .cache/pybs/lib/python3.11/site-packages/pycomet.pth
    .cache/pybs/bin/pip install bert_score==0.3.13 --no-deps && .cache/pybs/bin/pip install matplotlib
    .cache/pybs/bin/python tools/gen/gen_bert_score_cli_fixtures.py

Writes hauser-cli/tests/fixtures/drop-in-bert-score/: the inputs (cand.txt, ref1.txt, ref2.txt,
ref3.txt, baseline.csv) and cases.json, one case per run: argv (after the program name), the exit
status and stdout. Each run's directory holds the inputs and the models as `bert/` and
`roberta/`, so `-m bert` names the tiny BERT (bert_score prints the model as given), and
`bertc/` and `robc/`, copies naming model-specific tokenizer classes (CLASS_COPIES).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import bert_score
import transformers

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "hauser-nli" / "tests" / "fixtures"
OUT = ROOT / "hauser-cli" / "tests" / "fixtures" / "drop-in-bert-score"

CAND = [
    "the cat sat like a king",
    "she sang softly",
    "rain fell like tears",
    "",
    "his words were daggers in the night and the night was long",
]
REF1 = [
    "a cat was sitting",
    "she was singing quietly",
    "it rained",
    "nothing at all",
    "he spoke cruelly",
]
REF2 = [
    "the cat sat down",
    "soft singing",
    "rain like tears fell",
    "empty",
    "his words cut like knives",
]
# An empty reference line, and a whitespace-only one (bert_score strips lines).
REF3 = [
    "a cat was sitting",
    "",
    "it rained",
    "   ",
    "he spoke cruelly",
]
# LAYER,P,R,F rows as bert_score's rescale_baseline files; row N is layer N.
BASELINE = "LAYER,P,R,F\n0,0.5,0.45,0.47\n1,0.31,0.32,0.315\n2,0.2,0.25,0.22\n"

CASES = [
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "2"],
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "2", "-s"],
    ["-r", "ref1.txt", "ref2.txt", "-c", "cand.txt", "-m", "bert", "-l", "1", "-s"],
    ["-r", "ref1.txt", "ref2.txt", "-c", "cand.txt", "-m", "bert", "--num_layers", "2", "--idf", "-s"],
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "0", "-s", "--batch_size", "2"],
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "roberta", "-l", "2", "-s"],
    ["-r", "ref1.txt", "ref2.txt", "-c", "cand.txt", "-m", "roberta", "-l", "1", "--idf", "-b", "3", "-s"],
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "2", "--lang", "en", "--rescale_with_baseline", "--baseline_path", "baseline.csv", "-s"],
    ["-r", "ref1.txt", "ref2.txt", "-c", "cand.txt", "--model", "roberta", "-l", "1", "--lang", "en", "--rescale_with_baseline", "--baseline_path", "baseline.csv"],
    # No baseline file for a local model: bert_score warns, keeps the scores, says -rescaled.
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "2", "--lang", "en", "--rescale_with_baseline"],
    # The flag is store_false: given, it turns the fast tokenizer off.
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "2", "--use_fast_tokenizer", "-s"],
    # Not files: one pair of texts.
    ["-r", "a cat was sitting", "-c", "the cat sat like a king", "-m", "bert", "-l", "2", "-s"],
    # Empty sentences: with the tiny models' generic tokenizer class (PreTrainedTokenizerFast)
    # bert_score encodes them as no token at all (0/0: nan, and IDF counts an empty document);
    # with a model-specific class (bertc, robc: copies naming BertTokenizer and RobertaTokenizer)
    # as [CLS] [SEP], and P and R are set to 0.
    ["-r", "ref3.txt", "-c", "cand.txt", "-m", "bert", "-l", "2", "--idf", "-s"],
    ["-r", "ref1.txt", "ref3.txt", "-c", "cand.txt", "-m", "roberta", "-l", "1", "-s"],
    ["-r", "ref3.txt", "ref2.txt", "-c", "cand.txt", "-m", "roberta", "-l", "2", "--idf", "-s"],
    ["-r", "ref3.txt", "-c", "cand.txt", "-m", "bertc", "-l", "2", "--idf", "-s"],
    ["-r", "ref1.txt", "ref3.txt", "-c", "cand.txt", "-m", "robc", "-l", "1", "--idf", "-s"],
    # bert_score's own failures are Python exceptions: exit 1.
    ["-r", "a cat", "-c", "the cat", "-m", "bert", "-l", "2", "--idf"],
    ["-r", "missing.txt", "-c", "cand.txt", "-m", "bert", "-l", "2"],
    ["-r", "ref1.txt", "-c", "cand.txt", "-m", "bert", "-l", "2", "--rescale_with_baseline"],
]

# Copies of the tiny models whose tokenizer_config.json names a model-specific class, as hub
# models do (the Rust test makes the same copies).
CLASS_COPIES = {"bertc": ("bert", "BertTokenizer"), "robc": ("roberta", "RobertaTokenizer")}


def copy_models(work):
    for m in ("bert", "roberta"):
        shutil.copytree(MODELS / m, work / m)
    for name, (m, cls) in CLASS_COPIES.items():
        shutil.copytree(MODELS / m, work / name)
        p = work / name / "tokenizer_config.json"
        cfg = json.loads(p.read_text(encoding="utf-8"))
        cfg["tokenizer_class"] = cls
        p.write_text(json.dumps(cfg, indent=1) + "\n", encoding="utf-8")


def write_inputs(d):
    for name, lines in (("cand.txt", CAND), ("ref1.txt", REF1), ("ref2.txt", REF2), ("ref3.txt", REF3)):
        (d / name).write_text("".join(l + "\n" for l in lines), encoding="utf-8")
    (d / "baseline.csv").write_text(BASELINE, encoding="utf-8")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    write_inputs(OUT)
    cases = []
    exe = Path(sys.executable).parent / "bert-score"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_inputs(work)
        copy_models(work)
        for argv in CASES:
            p = subprocess.run([str(exe), *argv], cwd=work, capture_output=True, text=True)
            print(" ".join(argv), "->", p.returncode, file=sys.stderr)
            if p.returncode != 0:
                print(p.stderr, file=sys.stderr)
            cases.append({"argv": argv, "status": p.returncode, "stdout": p.stdout})
    meta = {
        "generator": "tools/gen/gen_bert_score_cli_fixtures.py",
        "bert_score": "0.3.13 (its __version__ says " + bert_score.__version__ + ")",
        "transformers": transformers.__version__,
    }
    (OUT / "cases.json").write_text(json.dumps({"meta": meta, "cases": cases}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
