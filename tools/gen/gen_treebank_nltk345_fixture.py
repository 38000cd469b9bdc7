"""Golden fixture for figlang-metrics' NLTK 3.4.5 word tokenizer (treebank_legacy.rs).

The formality-transfer paper's BLEU column was computed with NLTK <= 3.4.5, whose word
tokenizer differs from today's (e.g. `..` stays attached to a word). This script needs a
separate venv with that NLTK version (here under the repository's ignored .cache/):

    python -m venv .cache/venv-nltk345 && .cache/venv-nltk345/bin/pip install nltk==3.4.5
    NLTK_DATA=.cache/nltk_data .cache/venv-nltk345/bin/python tools/gen/gen_treebank_nltk345_fixture.py

NLTK 3.4.5 predates Python 3.11; two stdlib names it imports are shimmed below.
Output: figlang-metrics/tests/fixtures/treebank_nltk345.json (one sentence per case, no Punkt).
"""

import collections
import collections.abc
import inspect
import json
import os
import sys

for _n in ("Sequence", "Mapping", "Iterable", "Callable", "MutableMapping", "Hashable",
           "Iterator", "Sized", "Container", "MutableSet", "Set"):
    if not hasattr(collections, _n):
        setattr(collections, _n, getattr(collections.abc, _n))


def _formatargspec(args, varargs=None, varkw=None, defaults=None, *_a, formatarg=str,
                   formatvarargs=lambda n: "*" + n, formatvarkw=lambda n: "**" + n,
                   formatvalue=lambda v: "=" + repr(v), **_k):
    specs = []
    first = len(args) - len(defaults) if defaults else len(args)
    for i, a in enumerate(args):
        s = formatarg(a)
        if defaults and i >= first:
            s += formatvalue(defaults[i - first])
        specs.append(s)
    if varargs is not None:
        specs.append(formatvarargs(formatarg(varargs)))
    if varkw is not None:
        specs.append(formatvarkw(formatarg(varkw)))
    return "(" + ", ".join(specs) + ")"


inspect.formatargspec = _formatargspec

import nltk  # noqa: E402
from nltk.tokenize import _treebank_word_tokenizer  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from gen_text_metric_fixtures_texts import all_texts  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
assert nltk.__version__ == "3.4.5", nltk.__version__
cases = [{"text": t, "tokens": _treebank_word_tokenizer.tokenize(t)} for t in all_texts()]
out = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "treebank_nltk345.json")
with open(out, "w", encoding="utf-8") as f:
    json.dump({"reference": "nltk 3.4.5 _treebank_word_tokenizer.tokenize", "cases": cases}, f,
              ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print(out, len(cases))

# rouge 0.3.2 (pltrdy), whose ROUGE-L F-measure differs from 1.0.1 (pip install rouge==0.3.2).
from importlib.metadata import version  # noqa: E402

from rouge import Rouge  # noqa: E402
from text_metric_corpus import pairs  # noqa: E402

assert version("rouge") == "0.3.2", version("rouge")
rouge_cases = []
for hyp, refs in pairs():
    for ref in refs:
        try:
            s = Rouge().get_scores(hyp, ref)[0]
            v = {k: [s[k]["p"], s[k]["r"], s[k]["f"]] for k in ["rouge-1", "rouge-2", "rouge-l"]}
        except (ValueError, RecursionError) as e:
            v = f"error: {type(e).__name__}"
        rouge_cases.append({"hyp": hyp, "ref": ref, "scores": v})
out = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "rouge_pltrdy032.json")
with open(out, "w", encoding="utf-8") as f:
    json.dump({"reference": "rouge (pltrdy) 0.3.2 Rouge().get_scores", "tolerance": 1e-9,
               "cases": rouge_cases}, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print(out, len(rouge_cases))

# METEOR of NLTK 3.4.5 (strings in, lowercased and whitespace-split), WordNet 3.0 found through
# NLTK_DATA=<dir with corpora/wordnet> (Debian's wordnet-base files plus the `lexnames` and empty
# `index.sense` that tools/gen/gen_text_metric_fixtures.py also writes).
from nltk.translate.meteor_score import meteor_score  # noqa: E402

meteor_cases = [{"hyp": h, "refs": refs, "score": meteor_score(refs, h)} for h, refs in pairs()]
out = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "meteor_nltk345.json")
with open(out, "w", encoding="utf-8") as f:
    json.dump({"reference": "nltk 3.4.5 meteor_score(reference strings, hypothesis string), "
                            "WordNet 3.0 (Debian wordnet-base)", "tolerance": 1e-9,
               "cases": meteor_cases}, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
print(out, len(meteor_cases))