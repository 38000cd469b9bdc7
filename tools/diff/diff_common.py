#!/usr/bin/env python3
"""Shared pieces of the random differential checks (tools/diff/diff_*.py): random text lines with the
inputs reference tools trip over (numbers, punctuation, accents, CJK and Thai characters, empty
and whitespace-only lines), the command-line arguments every check takes, and its summary."""

import os
import random
import re
import sys

WORDS = (
    "the a cat dog sat on mat quick brown fox jumps over lazy market went yesterday raining "
    "London budget committee approved new Monday it's don't U.S. e.g. 3.14 1,000 42 -5 "
    "café naïve Zürich résumé façade ÆSIR straße 東京 北京市 天气 很好 ภาษาไทย สวัสดี "
    "Привет мир γειά σου (hello) [x] {y} \"quoted\" 'single' a-b a/b 50% $5 #tag @me & ... !? ; :"
).split()


def line(rng):
    r = rng.random()
    if r < 0.06:
        return ""
    if r < 0.09:
        return rng.choice([" ", "  ", "\t"]).strip("\t") + " "
    n = rng.randint(1, 14)
    words = [rng.choice(WORDS) for _ in range(n)]
    text = " ".join(words)
    if rng.random() < 0.3:
        text += rng.choice([".", "!", "?", " .", ","])
    if rng.random() < 0.05:
        text = "  " + text + "  "
    return text


def variant(rng, lines):
    """A noisy copy: some words dropped, swapped or replaced."""
    out = []
    for l in lines:
        words = l.split(" ")
        if rng.random() < 0.7 and words:
            for _ in range(rng.randint(0, 3)):
                i = rng.randrange(len(words))
                op = rng.random()
                if op < 0.4:
                    words[i] = rng.choice(WORDS)
                elif op < 0.7 and len(words) > 1:
                    del words[i]
                else:
                    j = rng.randrange(len(words))
                    words[i], words[j] = words[j], words[i]
        out.append(" ".join(words) if rng.random() > 0.04 else "")
    return out


def arguments(doc, default_rounds, binary=True):
    """`[HAUSER] [N] [SEED]` from the command line: the hauser binary (when `binary`), the
    number of rounds and a seeded random generator; the usage (`doc`) when HAUSER is missing."""
    args = sys.argv[1:]
    hauser = None
    if binary:
        if not args:
            sys.exit(doc)
        hauser = os.path.abspath(args.pop(0))
    rounds = int(args[0]) if args else default_rounds
    seed = int(args[1]) if len(args) > 1 else 1
    return hauser, rounds, seed, random.Random(seed)


def pieces_match(got, want, pattern, close):
    """Whether `got` and `want`, split by the regular expression `pattern`, have the same
    pieces, but that two differing pieces pass where `close(a, b)` holds (a number read from
    each; a piece that is no such number differs)."""
    g, w = re.split(pattern, got), re.split(pattern, want)
    if len(g) != len(w):
        return False
    for a, b in zip(g, w):
        if a == b:
            continue
        try:
            if close(a, b):
                continue
        except (ValueError, IndexError):
            pass
        return False
    return True


def finish(tool, rounds, bad, crashes, who, note="", extra=(), doc="", near=0):
    """Prints the summary (rounds identical, `extra` lines, rounds not compared because `who`
    crashed: one line per known crash, which `doc` documents) and exits 1 when `bad` rounds
    differed. `near` rounds differed within a stated tolerance: neither identical nor bad."""
    skipped = sum(crashes.values())
    print(f"{tool}: {rounds - bad - skipped - near} of {rounds} rounds identical{note}")
    for line_ in extra:
        print(f"  {line_}")
    for text, n in crashes.items():
        print(f"  {n} rounds not compared: {who} crashed with {text!r}{f' ({doc})' if doc else ''}")
    sys.exit(1 if bad else 0)
