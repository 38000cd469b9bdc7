#!/usr/bin/env python3
"""Differential check of `hauser.compat.sacrebleu` against sacreBLEU 2.4.3's Python API on
random corpora and random options.

    PY -m pip install sacrebleu==2.4.3 hauser   (the venv of tools/python-tests.sh has both)
    PY tools/diff/diff_sacrebleu_api.py [N] [SEED]

Each of N rounds (default 300) draws a corpus (the lines of tools/diff/diff_common.py: numbers,
punctuation, accents, CJK and Thai characters, empty segments, stray spaces), one to three
reference streams, a metric class with random constructor options (BLEU: lowercase, tokenize,
smoothing, max_ngram_order, effective_order; chrF: character and word orders, beta, lowercase,
whitespace, eps_smoothing; TER: normalized, no_punct, asian_support, case_sensitive) or one of
the module-level functions, and calls it the same way on both modules: corpus scores, with and
without `n_bootstrap`, sentence scores, signatures, `format()` with widths, `score_only`,
`is_json` and signatures, `str()` and the score fields. What each call prints, or the type and
message of the exception it raises, must be the same text, but where sacreBLEU crashes on a
documented bug (KNOWN in tools/diff/diff_sacrebleu_cli.py): such rounds are counted. Prints each
differing round and a summary; exits 1 if any round differs.
"""

import importlib
import io
import os
import random
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diff_common import arguments, finish, line, variant  # noqa: E402
from diff_sacrebleu_cli import KNOWN  # noqa: E402


def options(rng, name):
    if name == "BLEU":
        o = {}
        if rng.random() < 0.3:
            o["lowercase"] = True
        if rng.random() < 0.4:
            o["tokenize"] = rng.choice(["13a", "intl", "zh", "char", "none"])
        if rng.random() < 0.4:
            o["smooth_method"] = rng.choice(["none", "floor", "add-k", "exp"])
            if o["smooth_method"] in ("floor", "add-k") and rng.random() < 0.6:
                o["smooth_value"] = rng.choice([0.0, 0.1, 1, 2])
        if rng.random() < 0.2:
            o["max_ngram_order"] = rng.randint(1, 6)
        if rng.random() < 0.3:
            o["effective_order"] = True
        return o
    if name == "CHRF":
        o = {}
        if rng.random() < 0.3:
            o["char_order"] = rng.randint(1, 8)
        if rng.random() < 0.4:
            o["word_order"] = rng.randint(0, 3)
        if rng.random() < 0.3:
            o["beta"] = rng.randint(0, 3)
        for k in ("lowercase", "whitespace", "eps_smoothing"):
            if rng.random() < 0.2:
                o[k] = True
        return o
    o = {}
    for k in ("normalized", "no_punct", "asian_support", "case_sensitive"):
        if rng.random() < 0.25:
            o[k] = True
    return o


def script(mod, metrics, rng_seed, hyps, refs):
    """The calls of one round, printed; the same random choices for both modules."""
    rng = random.Random(rng_seed)

    def attempt(f):
        try:
            print(f())
        except Exception as e:  # noqa: BLE001 - the exception is the output compared
            print(type(e).__name__, e)

    name = rng.choice(["BLEU", "CHRF", "TER", "functions"])
    if name == "functions":
        h, r = hyps[0], [s[0] for s in refs]
        attempt(lambda: mod.corpus_bleu(hyps, refs, **options(rng, "BLEU")))
        attempt(lambda: mod.sentence_bleu(h, r, smooth_method=rng.choice(["exp", "floor", "add-k", "none"])))
        attempt(lambda: mod.corpus_chrf(hyps, refs, **{k: v for k, v in options(rng, "CHRF").items()
                                                       if k in ("char_order", "word_order", "beta", "eps_smoothing")}))
        attempt(lambda: mod.sentence_chrf(h, r, word_order=rng.randint(0, 2)))
        attempt(lambda: mod.corpus_ter(hyps, refs, **options(rng, "TER")))
        attempt(lambda: mod.sentence_ter(h, r, normalized=rng.random() < 0.5))
        return
    cls = getattr(metrics, name)
    opts = options(rng, name)
    m = cls(**opts)
    s = m.corpus_score(hyps, refs)
    sig = m.get_signature()
    print(repr(s), "|", sig, "|", sig.format(short=True))
    width = rng.randint(0, 4)
    print(s.format(width=width, score_only=rng.random() < 0.3, signature=str(sig) if rng.random() < 0.5 else ""))
    print(s.format(width=width, is_json=True, signature=sig.format(short=rng.random() < 0.5)))
    print(s.score)
    for field in ("counts", "totals", "precisions", "bp", "sys_len", "ref_len", "char_order",
                  "word_order", "beta", "num_edits", "ref_length", "name"):
        if hasattr(s, field):
            print(field, getattr(s, field))
    if rng.random() < 0.3:
        b = m.corpus_score(hyps, refs, n_bootstrap=rng.choice([1, 2, 10, 50]))
        print(b, "|", m.get_signature(), "|", b.format(width=2, is_json=True))
    for i in range(min(3, len(hyps))):
        attempt(lambda: m.sentence_score(hyps[i], [s_[i] for s_ in refs]))


def capture(modname, seed, hyps, refs):
    mod = importlib.import_module(modname)
    metrics = importlib.import_module(modname + ".metrics")
    buf = io.StringIO()
    with redirect_stdout(buf):
        try:
            script(mod, metrics, seed, hyps, refs)
        except Exception as e:  # noqa: BLE001
            print("raised", type(e).__name__, e)
    return buf.getvalue()


def main():
    _, rounds, seed, rng = arguments(__doc__, 300, binary=False)
    bad = 0
    crashes = {}
    for k in range(rounds):
        n = rng.randint(1, 10)
        first = [line(rng) for _ in range(n)]
        refs = [first] + [variant(rng, first) for _ in range(rng.randint(0, 2))]
        hyps = variant(rng, refs[rng.randrange(len(refs))])
        s = rng.randrange(2**32)
        want = capture("sacrebleu", s, hyps, refs)
        got = capture("hauser.compat.sacrebleu", s, hyps, refs)
        known = next((k2 for k2 in KNOWN if k2 in want), None)
        if known and got != want:
            crashes[known] = crashes.get(known, 0) + 1
        elif got != want:
            bad += 1
            print(f"--- round {k}\nhyps={hyps!r}\nrefs={refs!r}\n--- sacrebleu\n{want}--- hauser.compat.sacrebleu\n{got}")
    finish("diff_sacrebleu_api", rounds, bad, crashes, "sacreBLEU", f" (seed {seed})", doc="docs/DROP-IN.md")

if __name__ == "__main__":
    main()
