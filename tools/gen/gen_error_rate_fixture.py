"""Golden fixture for WER and CER (figlang_metrics::text::metrics::error_rate) against jiwer 4.0.0.

Writes figlang-metrics/tests/fixtures/jiwer_error_rate.json:
  items   reference / hypothesis pairs written for this fixture: words of a vocabulary of 2-5
          words (so that many minimal alignments exist and rapidfuzz's choice decides MER and
          WIL), sentences of 60-200 words (rapidfuzz's bit-parallel blocks), whitespace of every
          kind (runs, tabs, no-break spaces, \\x1c-\\x1f, at the ends), empty and blank lines,
          CJK, combining marks and emoji, and lines of 2,100-3,000 characters for CER (rapidfuzz
          splits those with Hirschberg's algorithm; the last pair is one where that split
          changes the alignment)
  words   per item `jiwer.process_words(ref, hyp)`: wer, mer, wil, wip, hits, substitutions,
          deletions, insertions
  chars   per item `jiwer.process_characters(ref, hyp)`: cer, hits, substitutions, deletions,
          insertions
  corpus  `process_words` / `process_characters` over all items, over the first ten, and over
          the items whose reference is empty (jiwer then scores the number of insertions)

The counts must be equal; the rates agree to the last bit (the same float64 arithmetic), which
the test checks within 1e-12.

Usage, from the repository root, in the reference venv (tools/requirements.txt pins
jiwer==4.0.0 and rapidfuzz==3.14.6):
    python tools/gen/gen_error_rate_fixture.py
"""

import json
import os
import random
from importlib.metadata import version

import jiwer

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "jiwer_error_rate.json")


def items():
    rng = random.Random(20261207)
    out = [
        ("the cat sat on the mat", "the cat sit on mat"),
        ("a b", "b c"),
        ("hello world", "hello  there world"),
        ("", "a b"),
        ("", ""),
        ("   ", " x "),
        ("a b c", ""),
        ("  leading and trailing  ", "leading\tand trailing"),
        ("tab\tinside word", "tab inside word"),
        ("a \t b", "a b"),
        ("no\u00a0break space", "no break space"),
        ("sep\x1c\x1cinfo x\x1dy", "sep info x y"),
        ("\u3000wide\u3000\u3000space\u2003", "wide space"),
        ("猫が座った", "猫は座った"),
        ("cafe\u0301 na\u00efve", "café naive"),
        ("emoji 😀 here", "emoji 😃 here"),
        ("Case Matters", "case matters"),
        ("punctuation, too.", "punctuation too"),
        ("x", "x"),
        ("one two three four five", "five four three two one"),
    ]
    for _ in range(120):
        k = rng.choice([2, 3, 5])
        vocab = ["a", "b", "c", "d", "e"][:k]
        n = rng.choice([1, 2, 3, 5, 8, 13, 30, 63, 64, 65, 70, 130, 200])
        ref = [rng.choice(vocab) for _ in range(n)]
        if rng.random() < 0.5:
            hyp = [w if rng.random() > 0.3 else rng.choice(vocab) for w in ref]
            for _ in range(rng.randrange(5)):
                if hyp and rng.random() < 0.5:
                    del hyp[rng.randrange(len(hyp))]
                else:
                    hyp.insert(rng.randrange(len(hyp) + 1), rng.choice(vocab))
        else:
            hyp = [rng.choice(vocab) for _ in range(rng.choice([0, 1, 4, 20, 64, 66, 120]))]
        seps = [" ", " ", " ", "  ", "\t ", " \u00a0"]
        out.append(("".join(w + rng.choice(seps) for w in ref), " ".join(hyp)))
    # Long lines for CER: Hirschberg's split and the banded halves it leaves.
    for n, p in [(2200, 0.02), (2600, 0.3), (3000, 0.0)]:
        ref = "".join(rng.choice("abcd ") for _ in range(n))
        hyp = "".join(c if rng.random() > p else rng.choice("abcd ") for c in ref)
        if p == 0.0:
            hyp = "".join(rng.choice("abcd ") for _ in range(2500))
        out.append((ref, hyp))
    out.append(hirschberg_case())
    return out


def hirschberg_case():
    """A pair of 2,100 characters over {a, b} whose rapidfuzz alignment differs from the plain
    backtrace of the whole matrix (170 substitutions, 43 deletions, 32 insertions, where the
    whole matrix gives 168, 44, 33): found by drawing pairs as below (seed 1, the eleventh)."""
    rng = random.Random(1)
    for _ in range(11):
        a = [rng.randrange(2) for _ in range(2100)]
        p = rng.choice([0.05, 0.2, 0.5])
        b = [x if rng.random() > p else rng.randrange(2) for x in a]
        for _ in range(rng.randrange(40)):
            if rng.random() < 0.5:
                del b[rng.randrange(len(b))]
            else:
                b.insert(rng.randrange(len(b) + 1), rng.randrange(2))
    return "".join("ab"[x] for x in a), "".join("ab"[x] for x in b)


def words(ref, hyp):
    o = jiwer.process_words(ref, hyp)
    return {
        "wer": o.wer, "mer": o.mer, "wil": o.wil, "wip": o.wip, "hits": o.hits,
        "substitutions": o.substitutions, "deletions": o.deletions, "insertions": o.insertions,
    }


def chars(ref, hyp):
    o = jiwer.process_characters(ref, hyp)
    return {
        "cer": o.cer, "hits": o.hits, "substitutions": o.substitutions,
        "deletions": o.deletions, "insertions": o.insertions,
    }


def main():
    its = items()
    refs = [r for r, _ in its]
    hyps = [h for _, h in its]
    empty = [i for i, r in enumerate(refs) if r.strip() == ""]
    subsets = {"all": list(range(len(its))), "first10": list(range(10)), "empty_refs": empty}
    fixture = {
        "reference": f"jiwer {version('jiwer')}, rapidfuzz {version('rapidfuzz')}",
        "tolerance": 1e-12,
        "items": [{"ref": r, "hyp": h} for r, h in its],
        "words": [words(r, h) for r, h in its],
        "chars": [chars(r, h) for r, h in its],
        "corpus": {
            name: {
                "indices": idx,
                "words": words([refs[i] for i in idx], [hyps[i] for i in idx]),
                "chars": chars([refs[i] for i in idx], [hyps[i] for i in idx]),
            }
            for name, idx in subsets.items()
        },
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"wrote {OUT}: {len(its)} items")


if __name__ == "__main__":
    main()
