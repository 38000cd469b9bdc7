"""The sentence pairs behind the text-metric golden fixtures (imported by gen_text_metric_fixtures.py).

Hand-written references, then hypotheses derived from them by seeded edits (drops, swaps,
casing, punctuation, contractions, numbers, unicode), plus edge cases: empty and one-word
hypotheses, and multi-reference items. Deterministic: the same list on every run.
"""

import random

REFERENCES = [
    "It all depends on when you are ready.",
    "If you are asking, then you should break up with him/her and then open yourself up to other options.",
    "Why do homosexuals want to get married?",
    "The old man's voice was as soft as velvet.",
    "She ran like the wind, faster than anyone had ever seen.",
    "I can't believe it's already 3:45 p.m. on a Tuesday!",
    "Mr. Smith paid $3.88 (roughly 3,36 euros) in New York.",
    "\"Don't go,\" she said, \"it's cold outside.\"",
    "The U.S. economy grew by 2.5% in 2019, according to Dr. Jones.",
    "He's gonna wanna see this -- trust me.",
    "Cannot you see that 'tis the season?",
    "Her smile was like a ray of sunshine on a cloudy day.",
    "They'll arrive at 10 a.m. tomorrow. Please be ready.",
    "Wait... what did you just say?!",
    "The café served crème brûlée and naïve jokes.",
    "Straße, Zürich and Ærøskøbing are all names with diacritics.",
    "日本語のテキストも含まれています。",
    "Emoji can appear too 😀 in informal text.",
    "The quick brown fox jumps over the lazy dog.",
    "You've got to be kidding me; that's impossible.",
    "We'd better leave before it's too late, hadn't we?",
    "1,000,000 people attended the concert on 12/05/2020.",
    "The temperature dropped to -5.5 degrees overnight.",
    "Email me at john@example.com or call #555-1234.",
    "Life is like a box of chocolates: you never know what you'll get.",
    "His heart was as cold as ice, and his words cut like knives.",
    "The children laughed, played, and sang all afternoon.",
    "I'm not sure whether they're coming or not.",
    "gimme a break, lemme think about it.",
    "The meeting (which lasted three hours) was finally over.",
    "She whispered: \"the stars are watching us.\"",
    "It was a dark and stormy night; the rain fell in torrents.",
    "«Bonjour», dit-il, «comment ça va?»",
    "The price rose from €10 to €12.50 — a 25% increase.",
    "O'Neill and D'Angelo met at the rock 'n' roll show.",
    "He said 'yes' but meant \"no\".",
    "This is the end.",
    "Thank you very much for your help!",
    "The A.I. system answered in 0.3 seconds.",
    "Can we meet at 5 pm? I'll bring the documents.",
]

CONTRACTIONS = [
    ("do not", "don't"), ("it is", "it's"), ("you are", "you're"), ("I am", "I'm"),
    ("cannot", "can't"), ("they will", "they'll"), ("we would", "we'd"), ("is not", "isn't"),
]


def _edits(rng, ref):
    words = ref.split()
    out = []
    # word drop
    if len(words) > 2:
        i = rng.randrange(len(words))
        out.append(" ".join(words[:i] + words[i + 1:]))
    # adjacent swap
    if len(words) > 3:
        i = rng.randrange(len(words) - 1)
        w = list(words)
        w[i], w[i + 1] = w[i + 1], w[i]
        out.append(" ".join(w))
    # lowercase, no final punctuation
    out.append(ref.lower().rstrip(".!?"))
    # contraction toggles
    s = ref
    for a, b in CONTRACTIONS:
        if a in s:
            s = s.replace(a, b)
        elif b in s:
            s = s.replace(b, a)
    out.append(s)
    # synonym-ish substitution and an inserted word
    w = list(words)
    i = rng.randrange(len(w))
    w.insert(i, rng.choice(["really", "very", "quite", "just", "the", "a"]))
    out.append(" ".join(w))
    # uppercase shout
    out.append(ref.upper())
    return out


def pairs():
    """(hypothesis, [references]) items, at least 200, deterministic."""
    rng = random.Random(20261122)
    items = []
    for ref in REFERENCES:
        items.append((ref, [ref]))
        for hyp in _edits(rng, ref):
            items.append((hyp, [ref]))
    # edge cases
    items += [
        ("", ["The cat sat on the mat."]),
        ("cat", ["The cat sat on the mat."]),
        ("dog", ["The cat sat on the mat."]),
        ("The", ["The"]),
        ("the", ["The"]),
        (".", ["."]),
        ("!!!", ["Wow!!!"]),
        ("a a a a a a a", ["a a a"]),
        ("the the the the", ["the cat is on the mat"]),
        ("   spaced    out   words  ", ["spaced out words"]),
        ("tab\tseparated\twords", ["tab separated words"]),
        ("123", ["123"]),
        ("3.14159", ["3.14"]),
        ("It is a guide to action which ensures that the military always obeys the commands of the party.",
         ["It is a guide to action that ensures that the military will forever heed Party commands.",
          "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
          "It is the practical guide for the army always to heed the directions of the party."]),
        ("He read the book because he was interested in world history.",
         ["He was interested in world history because he read the book.",
          "He read the book because he liked history."]),
        ("the cat", ["the cat sat on the mat", "a cat is on the mat"]),
        ("She moves like a cat.", ["She walks like a cat.", "She moves as gracefully as a cat.",
                                    "Her movements are cat-like."]),
        ("", ["", "something"]),
        ("Hello, world!", ["Hello world", "hello, World!"]),
        ("naïve café", ["naive cafe", "naïve café"]),
    ]
    for i in range(0, len(REFERENCES) - 2, 3):
        items.append((REFERENCES[i], [REFERENCES[i + 1], REFERENCES[i + 2], REFERENCES[i]]))
    return items


def edited_pairs(n, seed=7):
    """`n` benchmark (hypothesis, reference) pairs, deterministic for a seed: a reference drawn
    from REFERENCES and 0-3 seeded word edits (drop, insert or replace a corpus word). The
    workload of tools/bench/bench_text_metrics.py, tools/bench/bench_python.py and
    examples/python/make_pairs.py."""
    rng = random.Random(seed)
    words = " ".join(REFERENCES).split()
    for _ in range(n):
        ref = rng.choice(REFERENCES)
        w = ref.split()
        for _ in range(rng.randrange(4)):
            op, i = rng.randrange(3), rng.randrange(len(w))
            if op == 0 and len(w) > 1:
                del w[i]
            elif op == 1:
                w.insert(i, rng.choice(words))
            else:
                w[i] = rng.choice(words)
        yield " ".join(w), ref


if __name__ == "__main__":
    print(len(pairs()))
