#!/usr/bin/env python3
"""Golden fixtures for hauser-kb: key normalisation and XXH64.

The key normaliser is the reference implementation's `clean` (HAUSER, code/scorers/utils.py,
commit 31701b3): its two modes are reproduced here from its documented steps and its regular
expressions, which are data (the pattern strings), and run through Python's `re` so that the
fixture records what CPython actually does with them. XXH64 values come from the `xxhash`
package (3.5.0).

Usage: "$(bash tools/pyref.sh)" tools/gen/kb_golden.py > hauser-kb/tests/fixtures/kb_golden.json
"""
import json
import platform
import re
import sys

import xxhash

# The reference's patterns, verbatim (the first one's character class ends at its first `]`).
PUNCT = "[\"'\u201d\u201c\u2019\u2018[]_*-\u2022\u2026/><=]+"
LIKE = "^(like) "
LEADING = ("^(like|your|my|her|his|its|their|our|the|that|this|these|thy|those|all|other|"
           "another|what|every|a|an|even|just|only|each) ")


def reference_clean(word, mode="vehicle"):
    w = re.sub(" +", " ", word.lower())
    w = re.sub(PUNCT, "", w).strip()
    if mode == "vehicle":
        w = re.sub(LIKE, "", w)
    return re.sub(LEADING, "", w)


INPUTS = [
    "a child", "A Child", "the wind", "like the wind", "Like  The   Wind", "like like wind",
    "the the wind", "these stars", "theatre", "an apple", "an", "a", "another day", "another",
    "  his   father's   eyes ", "the sun's eye", "\"a ghost\"", "\u201cthe moon\u201d",
    "a \u2018lost\u2019 child", "[a] dog", "x'__-\u2022\u2026/><=]]y", "\"-\u2022\u2026/><=]",
    "a-bomb", "the * star", "all the king's men", "each\tother", "the\twind", "\u1f00 the wind",
    "\u0130stanbul", "\u00c9T\u00c9", "CAF\u00c9 au lait", "\u001fwind\u001c", "my  \u00a0friend",
    "only a dream", "just like that", "what a", "every", "thy will", "our  own   kind", "",
    "   ", "Their", "their house", "like", "like ", "its", "its own", "Even So", "other than",
    "a > b", "x = y", "\u2026 and then", "\u2022 bullet", "/slash/", "<tag>", "under_score",
]


def main():
    clean = [
        {"input": s, "vehicle": reference_clean(s), "other": reference_clean(s, mode="topic")}
        for s in INPUTS
    ]
    blobs = [b"", b"a", b"abc", b"0123456789abcdef" * 2, bytes(range(256)) * 3,
             b"hauser-kb xxh64 golden " * 7]
    xxh = [{"hex": b.hex(), "xxh64": format(xxhash.xxh64_intdigest(b), "016x")} for b in blobs]
    json.dump({
        "generator": "tools/gen/kb_golden.py",
        "reference": "HAUSER code/scorers/utils.py clean (commit 31701b3), CPython re "
                     + platform.python_version() + "; xxhash " + xxhash.VERSION,
        "tolerance": "exact string / integer equality",
        "clean": clean,
        "xxh64": xxh,
    }, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
