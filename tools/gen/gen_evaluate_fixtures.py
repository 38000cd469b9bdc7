"""Golden fixture for hauser.compat.evaluate against Hugging Face evaluate's metric scripts.

Writes bindings/python/tests/fixtures/evaluate_compute.json: for each case, the module, the
predictions and references (written for this fixture: one and several references per
prediction, empty predictions, whitespace of every kind, casing, punctuation, CJK), the keyword
options, and what the script's `_compute` returns (`value`) or the exception it raises
(`error`: type and message). The scripts are huggingface/evaluate's metrics/NAME/NAME.py at
commit a7dd338, run directly (`_compute`), since the hub is not reachable in tests; their
packages: evaluate 0.4.6, sacrebleu 2.4.3, jiwer 4.0.0, rapidfuzz 3.14.6, nltk 3.10.4 (meteor,
with the Punkt model of figlang-metrics/data/punkt_english and WordNet 3.0 from WORDNET_DIR,
default /usr/share/wordnet).

Usage, from the repository root, with a checkout of huggingface/evaluate at that commit:
    EVALUATE_REPO=/path/to/evaluate python tools/gen/gen_evaluate_fixtures.py
"""

import importlib.util
import json
import os
import subprocess
from importlib.metadata import version

import shutil
import sys
import tempfile

import nltk

import evaluate

sys.path.insert(0, os.path.dirname(__file__))
from nltk_wordnet import wordnet_reader  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "bindings", "python", "tests", "fixtures", "evaluate_compute.json")
COMMIT = "a7dd338"

HYPS = [
    "The cat sat on the mat.",
    "the dog  barked at the\tmailman",
    "",
    "An apple a day keeps the doctor away!",
    "猫がマットの上に座った。",
    "Hello,   world ",
]
REFS = [
    "The cat is sitting on the mat.",
    "The dog barked at the postman.",
    "Nothing was said.",
    "An apple a day keeps the doctor away.",
    "猫はマットの上に座った。",
    "hello world",
]
REFS2 = [
    "A cat sat on a mat.",
    "the dog barked at the mailman",
    "",
    "One apple a day keeps doctors away.",
    "猫がマットに座った。",
    "Hello, World!",
]
MULTI = [[a, b] for a, b in zip(REFS, REFS2)]

CASES = [
    ("sacrebleu", HYPS, REFS, {}),
    ("sacrebleu", HYPS, MULTI, {}),
    ("sacrebleu", HYPS, MULTI, {"smooth_method": "floor", "smooth_value": 0.2, "lowercase": True}),
    ("sacrebleu", HYPS, REFS, {"tokenize": "intl", "use_effective_order": True}),
    ("sacrebleu", HYPS, REFS, {"smooth_method": "none", "tokenize": "char"}),
    ("sacrebleu", HYPS, REFS, {"smooth_method": "add-k", "tokenize": "zh", "force": True}),
    ("sacrebleu", HYPS[:2], [REFS[:1], REFS[1:3]], {}),
    ("chrf", HYPS, REFS, {}),
    ("chrf", HYPS, MULTI, {"word_order": 2}),
    ("chrf", HYPS, REFS, {"char_order": 4, "word_order": 1, "beta": 1, "lowercase": True, "whitespace": True}),
    ("chrf", HYPS, MULTI, {"eps_smoothing": True}),
    ("chrf", HYPS[:2], [REFS[:1], REFS[1:3]], {}),
    ("ter", HYPS, REFS, {}),
    ("ter", HYPS, MULTI, {"normalized": True, "ignore_punct": True}),
    ("ter", HYPS, REFS, {"support_zh_ja_chars": True, "normalized": True, "case_sensitive": True}),
    ("wer", HYPS, REFS, {}),
    ("wer", HYPS, REFS, {"concatenate_texts": True}),
    ("wer", HYPS[:2] + ["extra words here"], REFS[:2] + [""], {}),
    ("wer", ["a b"], [""], {}),
    ("wer", ["a b"], [""], {"concatenate_texts": True}),
    ("cer", HYPS, REFS, {}),
    ("cer", HYPS, REFS, {"concatenate_texts": True}),
    ("cer", ["  abc "], ["abd"], {}),
    ("meteor", HYPS, REFS, {}),
    ("meteor", HYPS, MULTI, {}),
]


def nltk_data():
    """An NLTK data root with our Punkt model and WordNet 3.0 from WORDNET_DIR (meteor's
    word_tokenize and synonyms), instead of the downloads of the script's
    `_download_and_prepare`."""
    root = tempfile.mkdtemp(prefix="nltk_data_")
    shutil.copytree(os.path.join(ROOT, "figlang-metrics", "data", "punkt_english"),
                    os.path.join(root, "tokenizers", "punkt_tab", "english"))
    wordnet_reader(root)
    return root


def script(name, repo):
    path = os.path.join(repo, "metrics", name, f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"evaluate_metric_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = next(
        v for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, evaluate.Metric) and v is not evaluate.Metric
    )
    return cls()


def main():
    repo = os.environ["EVALUATE_REPO"]
    head = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert head.startswith(COMMIT), f"{repo} is at {head}, not {COMMIT}"
    nltk.data.path.insert(0, nltk_data())
    cases = []
    for name, hyps, refs, options in CASES:
        case = {"module": name, "predictions": hyps, "references": refs, "options": options}
        try:
            value = script(name, repo)._compute(predictions=hyps, references=refs, **options)
            # meteor's mean is a NumPy float64; JSON keeps the number.
            case["value"] = {k: float(v) for k, v in value.items()} if name == "meteor" else value
        except Exception as e:  # noqa: BLE001 - the fixture records what the script raises
            case["error"] = {"type": type(e).__name__, "message": str(e)}
        cases.append(case)
    fixture = {
        "reference": f"huggingface/evaluate {COMMIT} metric scripts; evaluate {version('evaluate')}, "
        f"sacrebleu {version('sacrebleu')}, jiwer {version('jiwer')}, rapidfuzz {version('rapidfuzz')}, "
        f"nltk {version('nltk')}",
        "tolerance": 1e-9,
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(cases)} cases")


if __name__ == "__main__":
    main()
