"""Golden fixture for hauser.compat.evaluate against Hugging Face evaluate's metric scripts.

Writes bindings/python/tests/fixtures/evaluate_compute.json: for each case, the module, the
predictions and references (written for this fixture: one and several references per
prediction, empty predictions, whitespace of every kind, casing, punctuation, CJK), the keyword
options, and what the script's `_compute` returns (`value`) or the exception it raises
(`error`: type and message). The scripts are huggingface/evaluate's metrics/NAME/NAME.py at
commit a7dd338, run directly (`_compute`), since the hub is not reachable in tests; their
packages: evaluate 0.4.6, sacrebleu 2.4.3, jiwer 4.0.0, rapidfuzz 3.14.6, nltk 3.10.4 (meteor,
with the Punkt model of figlang-metrics/data/punkt_english and WordNet 3.0 from WORDNET_DIR,
default /usr/share/wordnet), rouge-score 0.1.2 (with absl-py, six). bleu's script imports
`nmt_bleu`, which evaluate downloads from tensorflow/nmt's nmt/scripts/bleu.py (master,
commit 0be8642): NMT_BLEU names that file. A `tokenizer` option is the name of one of
TOKENIZERS (the tests map it to the same callable); a case's `seed` is the module's seed, with
which evaluate's `compute` seeds NumPy's global generator before `_compute` (rouge's bootstrap
aggregator draws from it).

Usage, from the repository root, with a checkout of huggingface/evaluate at that commit:
    EVALUATE_REPO=/path/to/evaluate NMT_BLEU=/path/to/nmt/nmt/scripts/bleu.py \
        python tools/gen/gen_evaluate_fixtures.py
"""

import importlib.util
import json
import os
import subprocess
from importlib.metadata import version

import random
import shutil
import sys
import tempfile

import nltk
import numpy as np

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
# 13a's special cases (entities, <skipped>, hyphen-newlines, numbers) and ROUGE-Lsum's lines.
HYPS13A = [
    "He said &quot;hi&quot; &amp; left &lt;now&gt;.",
    "3.5-4 items, 1,000 units<skipped> sold",
    "line-\nbreak\nhere (and) [there] {x} $5 @home #tag",
    "The runners were running quickly.\nThey stopped.",
]
REFS13A = [
    'He said "hi" & left <now>.',
    "3.5 - 4 items , 1,000 units sold",
    "linebreak here and there",
    "A runner runs quickly.\n\nThen they stopped running.",
]


def sentences(seed, n):
    """`n` pseudo-random (prediction, reference) pairs over a small vocabulary with punctuation,
    casing and stemmable words, sharing words so that every n-gram order matches somewhere."""
    rng = random.Random(seed)
    words = ["the", "The", "cat", "cats", "sat", "sitting", "on", "mat", "mats", "a", "dog", "dogs",
             "barked", "barking", "quickly", "running", "runs", ",", ".", "!", "and", "was", "is"]
    preds, refs = [], []
    for _ in range(n):
        ref = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        pred = [w if rng.random() < 0.6 else rng.choice(words) for w in ref]
        pred = pred[: rng.randint(0, len(pred))] + [rng.choice(words) for _ in range(rng.randint(0, 3))]
        preds.append(" ".join(pred))
        refs.append(" ".join(ref))
    return preds, refs


RAND_HYPS, RAND_REFS = sentences(7, 40)
RAND_REFS2 = sentences(8, 40)[1]
RAND_MULTI = [[a, b] for a, b in zip(RAND_REFS, RAND_REFS2)]
RAGGED = [REFS[:1], REFS[1:3], MULTI[2]]

# Tokenizer callables a case may name (the tests map the same names to the same callables).
TOKENIZERS = {
    "str.split": str.split,
    "list": list,
    "lower_split": lambda s: s.lower().split(),
}

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
    ("meteor", HYPS, REFS, {"alpha": 0.5, "beta": 2, "gamma": 0.3}),
    ("meteor", HYPS, MULTI, {"alpha": 1.0, "beta": 1.5, "gamma": 0.0}),
    ("meteor", RAND_HYPS, RAND_REFS, {"alpha": 0.75, "beta": 4.5, "gamma": 0.9}),
    # alpha 2: NLTK's fmean divides by zero (precision 0.5, recall 1) and the score is 0.
    ("meteor", ["cat dog bird fish"], ["cat dog"], {"alpha": 2}),
    ("meteor", HYPS[:3], RAGGED, {"gamma": 1}),
    # (2/3) ** -2000 overflows: NLTK's OverflowError.
    ("meteor", ["the cat sat", "a b x c"], ["the cat sat", "a b c"], {"beta": -2000}),
    ("meteor", [], [], {}),
    ("meteor", ["a", "b"], [["a"], []], {}),
    ("bleu", HYPS, REFS, {}),
    ("bleu", HYPS, MULTI, {}),
    ("bleu", HYPS, MULTI, {"max_order": 2, "smooth": True}),
    ("bleu", HYPS, REFS, {"smooth": True, "max_order": 6}),
    ("bleu", HYPS[:3], RAGGED, {}),
    ("bleu", HYPS13A, REFS13A, {}),
    ("bleu", RAND_HYPS, RAND_MULTI, {}),
    ("bleu", RAND_HYPS, RAND_REFS, {"smooth": True}),
    ("bleu", HYPS, REFS, {"tokenizer": "str.split"}),
    ("bleu", HYPS, MULTI, {"tokenizer": "list", "max_order": 3}),
    ("bleu", ["", "a"], ["", "b"], {}),
    ("bleu", ["a b"], [""], {}),
    ("bleu", [""], ["a b"], {}),
    ("bleu", ["a"], ["a"], {"max_order": 0}),
    ("bleu", [], [], {}),
    ("bleu", ["a", "b"], [["a"], []], {}),
    ("rouge", HYPS, REFS, {}, 0),
    ("rouge", HYPS, MULTI, {}, 12345),
    ("rouge", HYPS, MULTI, {"use_aggregator": False}),
    ("rouge", HYPS, REFS, {"use_aggregator": False, "use_stemmer": True}),
    ("rouge", HYPS13A, REFS13A, {"use_aggregator": False, "use_stemmer": True}),
    ("rouge", HYPS13A, REFS13A, {"use_stemmer": True}, 3),
    ("rouge", RAND_HYPS, RAND_REFS, {}, 2024),
    ("rouge", RAND_HYPS, RAND_MULTI, {"use_stemmer": True}, 99),
    ("rouge", RAND_HYPS, RAND_MULTI, {"use_aggregator": False}),
    ("rouge", RAND_HYPS, RAND_REFS, {"rouge_types": ["rougeLsum", "rouge3", "rouge1", "rouge1"], "use_stemmer": True}, 5),
    ("rouge", RAND_HYPS, RAND_MULTI, {"rouge_types": ["rouge4", "rougeL"], "use_aggregator": False, "use_stemmer": True}),
    ("rouge", HYPS, REFS, {"rouge_types": ["rougeLsum"], "use_aggregator": False}),
    ("rouge", HYPS, MULTI, {"tokenizer": "str.split", "use_aggregator": False}),
    ("rouge", HYPS13A, REFS13A, {"tokenizer": "lower_split", "use_aggregator": False, "use_stemmer": True}),
    ("rouge", RAND_HYPS, RAND_MULTI, {"tokenizer": "list", "rouge_types": ["rouge2", "rougeLsum"]}, 77),
    ("rouge", HYPS[:3], RAGGED, {"use_aggregator": False}),
    ("rouge", HYPS[:3], RAGGED, {}, 1),
    ("rouge", ["a", "b"], [[], ["b"]], {}, 0),
    ("rouge", ["a"], ["a"], {"rouge_types": ["rouge1", "rouge0"]}, 0),
    ("rouge", ["a"], ["a"], {"rouge_types": ["rougeX"]}, 0),
    ("rouge", ["a"], ["a"], {"rouge_types": []}, 0),
    ("rouge", ["a b"], ["a b"], {}, 0),
    ("rouge", [], [], {}, 0),
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
    """The metric script as a package (bleu's imports its neighbours and nmt_bleu), as
    evaluate's loader lays it out."""
    package = os.path.join(tempfile.mkdtemp(prefix="evaluate_metric_"), f"evaluate_metric_{name}")
    shutil.copytree(os.path.join(repo, "metrics", name), package)
    open(os.path.join(package, "__init__.py"), "w").close()
    if name == "bleu":
        shutil.copy(os.environ["NMT_BLEU"], os.path.join(package, "nmt_bleu.py"))
    sys.path.insert(0, os.path.dirname(package))
    module = importlib.import_module(f"evaluate_metric_{name}.{name}")
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
    for name, hyps, refs, options, *seed in CASES:
        case = {"module": name, "predictions": hyps, "references": refs, "options": options}
        kwargs = dict(options)
        if "tokenizer" in kwargs:
            kwargs["tokenizer"] = TOKENIZERS[kwargs["tokenizer"]]
        if seed:
            case["seed"] = seed[0]
            np.random.seed(seed[0])
        try:
            value = script(name, repo)._compute(predictions=hyps, references=refs, **kwargs)
            # meteor's mean is a NumPy float64; JSON keeps the number.
            # (rouge's aggregated values too: they are NumPy float64s, floats to JSON).
            case["value"] = {k: float(v) for k, v in value.items()} if name == "meteor" else value
        except Exception as e:  # noqa: BLE001 - the fixture records what the script raises
            case["error"] = {"type": type(e).__name__, "message": str(e)}
        cases.append(case)
    fixture = {
        "reference": f"huggingface/evaluate {COMMIT} metric scripts; evaluate {version('evaluate')}, "
        f"sacrebleu {version('sacrebleu')}, jiwer {version('jiwer')}, rapidfuzz {version('rapidfuzz')}, "
        f"nltk {version('nltk')}, rouge-score {version('rouge_score')}; tensorflow/nmt 0be8642 bleu.py",
        "tolerance": 1e-9,
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(cases)} cases")


if __name__ == "__main__":
    main()
