#!/usr/bin/env python3
"""Golden fixture of figlang-metrics' significance tests (text::significance) and of its NumPy
random streams (stats::numpy_rng): sacreBLEU 2.4.3's `significance` module (`corpus_score(...,
n_bootstrap=N)` as `sacrebleu --confidence --confidence-n N`, `PairedTest` with test_type 'bs' and
'ar' as `--paired-bs[-n]` / `--paired-ar[-n]`), rouge-score 0.1.2's
`scoring.BootstrapAggregator`, and NumPy 2.4.6's SeedSequence / PCG64 / `Generator.integers` /
`Generator.choice` / legacy MT19937 `np.random.choice` draws.

Systems: a baseline and two systems, 40 segments each, written here against one reference each
(no test set download). For each metric configuration (BLEU with exp / floor / add-k / none
smoothing, chrF, chrF++, chrF with eps smoothing) the fixture holds sacreBLEU's per-segment
sufficient statistics (`_extract_corpus_statistics`), so the Rust test does not depend on the
Rust metric implementations, and sacreBLEU's outputs for seeds 12345 and 7 (`SACREBLEU_SEED`),
default and small sample counts: score, mean, ci (and p_value for the paired tests).

Floats are written as Python `repr` strings so that the Rust test can parse them exactly.
Tolerance the Rust test applies: RNG draws, statistics and p-values equal; scores, means, CIs and
percentiles within 1e-9 (bit-equal on Linux/glibc, where Rust and CPython share libm).

Writes figlang-metrics/tests/fixtures/sacrebleu_significance.json.
Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_significance_fixture.py
"""
import json
import os
import random

import numpy as np
import rouge_score
import sacrebleu
from rouge_score import rouge_scorer, scoring
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest, _bootstrap_resample

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "sacrebleu_significance.json")

REFS = [
    "Her laugh was a bell ringing across the quiet valley.",
    "The city never sleeps, it just blinks slowly at dawn.",
    "He was as stubborn as a mule on a muddy road.",
    "Time is a thief that steals our youngest years.",
    "The classroom was a zoo after the bell rang.",
    "Her words cut deeper than any knife could.",
    "The old car coughed and wheezed up the hill.",
    "My heart is a drum beating for the weekend.",
    "The snow fell like feathers from a torn pillow.",
    "His voice was smooth as honey on warm bread.",
    "The stars winked at us from the black sky.",
    "She is the sunshine of the whole family.",
    "The wind whispered secrets through the tall pines.",
    "Life is a roller coaster with no seat belts.",
    "The kitten was as light as a cloud.",
    "His temper is a volcano waiting to erupt.",
    "The news spread like wildfire through the town.",
    "Her eyes were diamonds glittering in the candlelight.",
    "The exam was a breeze for the prepared students.",
    "The leaves danced in the autumn wind.",
    "He runs like the wind when the bus is late.",
    "The room was an oven by noon in July.",
    "Memories are footprints in the sand of the mind.",
    "The river was a silver ribbon under the moon.",
    "She sings like an angel on Sunday mornings.",
    "The market crashed like a house of cards.",
    "His backpack weighed a ton after the library.",
    "The baby slept like a log all night long.",
    "Hope is a lighthouse in a stormy sea.",
    "The thunder grumbled like an angry giant.",
    "The idea was a seed that grew into a company.",
    "Her smile lit up the crowded room.",
    "The traffic crawled like a tired snail.",
    "Knowledge is a key that opens every door.",
    "The coffee was as black as midnight.",
    "The debate turned into a boxing match of insults.",
    "The sea swallowed the setting sun.",
    "He was a lion on the football field.",
    "The rumor buzzed around the office like a fly.",
    "Silence fell over the hall like a heavy blanket.",
]

SYNONYMS = {
    "quiet": "silent", "city": "town", "stubborn": "obstinate", "thief": "robber",
    "classroom": "class", "words": "remarks", "old": "ancient", "heart": "heart",
    "snow": "snowfall", "smooth": "soft", "stars": "stars", "whole": "entire",
    "whispered": "murmured", "kitten": "cat", "news": "story", "eyes": "eyes",
    "exam": "test", "leaves": "leaves", "late": "leaving", "room": "house",
    "river": "stream", "sings": "sang", "market": "economy", "backpack": "bag",
    "baby": "child", "Hope": "Faith", "thunder": "storm", "idea": "plan",
    "smile": "grin", "traffic": "car line", "Knowledge": "Learning", "coffee": "tea",
    "debate": "argument", "sea": "ocean", "lion": "tiger", "rumor": "gossip",
    "hall": "room", "night": "evening", "angry": "furious", "tall": "high",
}


def perturb(sentence, rng, p_drop, p_syn, p_swap):
    words = sentence.split()
    out = []
    for w in words:
        r = rng.random()
        if r < p_drop and len(words) > 3:
            continue
        if r < p_drop + p_syn and w in SYNONYMS:
            w = SYNONYMS[w]
        out.append(w)
    if len(out) > 3 and rng.random() < p_swap:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(out)


def systems():
    rng = random.Random(2024)
    base = [perturb(s, rng, 0.12, 0.3, 0.3) for s in REFS]
    sys_a = [perturb(s, rng, 0.06, 0.15, 0.15) for s in REFS]
    sys_b = [perturb(s, rng, 0.25, 0.5, 0.6) for s in REFS]
    sys_b[17] = ""  # an empty hypothesis: zero statistics
    return [("baseline", base), ("sys_a", sys_a), ("sys_b", sys_b)]


CONFIGS = {
    "bleu": ("bleu", lambda: BLEU(), {"kind": "bleu", "smooth": "exp"}),
    "bleu_floor": ("bleu", lambda: BLEU(smooth_method="floor"), {"kind": "bleu", "smooth": "floor"}),
    "bleu_addk": ("bleu", lambda: BLEU(smooth_method="add-k"), {"kind": "bleu", "smooth": "add-k"}),
    "bleu_none": ("bleu", lambda: BLEU(smooth_method="none"), {"kind": "bleu", "smooth": "none"}),
    "chrf": ("chrf", lambda: CHRF(), {"kind": "chrf", "word_order": 0}),
    "chrf_pp": ("chrf_pp", lambda: CHRF(word_order=2), {"kind": "chrf", "word_order": 2}),
    "chrf_eps": ("chrf", lambda: CHRF(eps_smoothing=True),
                 {"kind": "chrf", "word_order": 0, "eps_smoothing": True}),
}
SEEDS = [12345, 7]


def f(x):
    return None if x is None else repr(float(x))


def with_seed(seed, fn):
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        return fn()
    finally:
        if old is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = old


def result_json(r):
    return {"score": f(r.score), "p_value": f(r.p_value), "mean": f(r.mean), "ci": f(r.ci)}


def sacrebleu_cases(named):
    refs = [REFS]
    stats = {}
    for key, (stats_key, make, _) in CONFIGS.items():
        if stats_key not in stats:
            m = make()
            stats[stats_key] = [m._extract_corpus_statistics(h, refs) for _, h in named]
    confidence, paired_bs, paired_ar, samples = [], [], [], []
    for key, (stats_key, make, _) in CONFIGS.items():
        for seed in SEEDS:
            for n in [1000, 50]:
                for si in ([0, 2] if key in ("bleu", "chrf") else [0]):
                    score = with_seed(seed, lambda: make().corpus_score(
                        named[si][1], refs, n_bootstrap=n))
                    confidence.append({
                        "config": key, "system": si, "seed": seed, "n": n,
                        "score": f(score.score), "mean": f(score._mean), "ci": f(score._ci)})
    for key in ["bleu", "bleu_addk", "chrf", "chrf_pp"]:
        stats_key, make, _ = CONFIGS[key]
        for seed in SEEDS:
            for n in [1000, 25]:
                _, scores = with_seed(seed, lambda: PairedTest(
                    named, {key: make()}, refs, test_type="bs", n_samples=n)())
                (name,) = [k for k in scores if k != "System"]
                paired_bs.append({"config": key, "seed": seed, "n": n,
                                  "results": [result_json(r) for r in scores[name]]})
    for key in ["bleu", "bleu_addk", "chrf", "chrf_pp"]:
        stats_key, make, _ = CONFIGS[key]
        for seed in SEEDS:
            for n, conf in [(10000, -1), (50, -1), (60, 40)]:
                if conf > 0 and seed != SEEDS[0]:
                    continue
                _, scores = with_seed(seed, lambda: PairedTest(
                    named, {key: make()}, refs, test_type="ar", n_samples=n,
                    n_ar_confidence=conf)())
                (name,) = [k for k in scores if k != "System"]
                paired_ar.append({"config": key, "seed": seed, "n": n,
                                  "confidence_n": conf if conf > 0 else None,
                                  "results": [result_json(r) for r in scores[name]]})
    # Diagnostic: the resampled scores of small bootstrap runs.
    for key in ["bleu", "chrf"]:
        stats_key, make, _ = CONFIGS[key]
        seed_str, bs = with_seed(12345, lambda: _bootstrap_resample(
            stats[stats_key][0], make(), 50))
        samples.append({"config": key, "seed": int(seed_str), "n": 50,
                        "scores": [f(s.score) for s in bs]})
    return stats, confidence, paired_bs, paired_ar, samples


def rng_draws():
    out = {"seed_sequence": [], "pcg64_raw": [], "integers": [], "bools": [], "choice": [],
           "mt19937": []}
    for s in [0, 1, 7, 12345, 2**32 - 1, 2**32, 2**64 - 1]:
        ss = np.random.SeedSequence(s)
        out["seed_sequence"].append({
            "seed": s,
            "u32": [int(v) for v in ss.generate_state(8, np.uint32)],
            "u64": [int(v) for v in ss.generate_state(4, np.uint64)]})
    for s in [0, 12345, 2**64 - 1]:
        out["pcg64_raw"].append({
            "seed": s,
            "raw": [int(v) for v in np.random.default_rng(s).bit_generator.random_raw(8)]})
    for seed, n, size in ([(12345, n, 1000) for n in [2, 3, 40, 1000]]
                          + [(7, n, 64) for n in [1, 2**31 + 11, 2**32, 2**32 + 1,
                                                  2**40 + 3, 2**62 + 1]]):
        draws = np.random.default_rng(seed).integers(0, n, size=size)
        out["integers"].append({"seed": seed, "n": n, "draws": [int(v) for v in draws]})
    for seed, shape, then in [(12345, (40, 25), 40), (12345, (3, 7), 40), (7, (1, 64), 1000)]:
        rng = np.random.default_rng(seed)
        coins = rng.integers(2, size=shape, dtype=bool)
        after = rng.choice(then, size=(2, 10), replace=True)
        out["bools"].append({
            "seed": seed, "shape": list(shape),
            "coins": "".join("1" if c else "0" for c in coins.ravel()),
            "choice_n": then, "choice_after": [int(v) for v in after.ravel()]})
    idx = np.random.default_rng(12345).choice(40, size=(5, 40), replace=True)
    out["choice"].append({"seed": 12345, "n": 40, "shape": [5, 40],
                          "draws": [int(v) for v in idx.ravel()]})
    for s in [0, 42, 2**32 - 1]:
        for m in [1, 7, 40, 300]:
            np.random.seed(s)
            draws = [int(v) for _ in range(3)
                     for v in np.random.choice(np.arange(m), size=m)]
            out["mt19937"].append({"seed": s, "m": m, "repeats": 3, "draws": draws})
    raw = np.random.RandomState(5489).randint(0, 2**32, size=16, dtype=np.int64)
    out["mt19937_raw"] = {"seed": 5489, "u32": [int(v) for v in raw]}
    return out


def rouge_cases(named):
    types = ["rouge1", "rouge2", "rougeL"]
    scorer = rouge_scorer.RougeScorer(types)
    per_pair = [scorer.score(ref, hyp) for ref, hyp in zip(REFS, named[0][1])]
    scores = {t: [[f(s[t].precision), f(s[t].recall), f(s[t].fmeasure)] for s in per_pair]
              for t in types}
    cases = []
    for seed in [0, 42]:
        for conf, n in [(0.95, 1000), (0.9, 37)]:
            for subset in [types, ["rougeL"]]:
                np.random.seed(seed)
                agg = scoring.BootstrapAggregator(confidence_interval=conf, n_samples=n)
                for s in per_pair:
                    agg.add_scores({t: s[t] for t in subset})
                res = agg.aggregate()
                cases.append({
                    "seed": seed, "confidence": conf, "n": n, "types": list(res.keys()),
                    "results": [{b: [f(v) for v in getattr(res[t], b)]
                                 for b in ("low", "mid", "high")} for t in res]})
    return {"types": types, "scores": scores, "cases": cases}


def main():
    named = systems()
    stats, confidence, paired_bs, paired_ar, samples = sacrebleu_cases(named)
    fx = {
        "about": "tools/gen/gen_significance_fixture.py",
        "versions": {"sacrebleu": sacrebleu.__version__, "numpy": np.__version__,
                     "rouge_score": getattr(rouge_score, "__version__", "0.1.2")},
        "refs": REFS,
        "systems": [{"name": n, "hyps": h} for n, h in named],
        "configs": {k: dict(v[2], stats=v[0]) for k, v in CONFIGS.items()},
        "stats": stats,
        "confidence": confidence,
        "paired_bs": paired_bs,
        "paired_ar": paired_ar,
        "bootstrap_samples": samples,
        "rng": rng_draws(),
        "rouge": rouge_cases(named),
    }
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(fx, fh, ensure_ascii=False, separators=(",", ":"))
        fh.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
