#!/usr/bin/env python3
"""NewsMet's diversity (Algorithm 1) in Python with NLTK, on the families of the released
*_goldplus.csv files (each gold headline with its 6 gold_plus children; the candidates are the
children's tokens at the replaced position), as the reference of `hauser newsmet diversity`.

  newsmet_diversity_ref.py jsonl OUT.jsonl          the families as `hauser newsmet diversity` input
  newsmet_diversity_ref.py fixture                  figlang-tasks/tests/fixtures/newsmet/diversity_release.json
  newsmet_diversity_ref.py time IN.jsonl REPEATS    one JSON line: best seconds, the diversity counts

Lesk follows NLTK 3.4.5's tie rule (largest synset name), LCH is NLTK 3.10.4's
`lch_similarity` (simulate_root=True), threshold 1.7; a candidate without a verb synset is a
singleton. WordNet 3.0 from WORDNET_DIR (default /usr/share/wordnet); data from
HAUSER_SHARED_DATA (default ../shared/data).
Run from the repository root with "$(bash tools/pyref.sh)".
"""
import csv
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "gen"))
from gen_wordnet_sim_fixture import lesk_nltk345, reader  # noqa: E402

DATA = Path(os.environ.get("HAUSER_SHARED_DATA", ROOT.parent / "shared/data")) / "newsmet"


def families():
    out = []
    for split in ["train", "val", "test"]:
        rows = list(csv.DictReader(open(DATA / f"{split}_goldplus.csv", encoding="utf-8")))
        golds = [r for r in rows if r["sample_type"] == "gold"]
        kids = [r for r in rows if r["sample_type"] == "gold_plus"]
        for i in range(0, len(kids), 6):
            block = kids[i:i + 6]
            for g in golds:
                gt = g["Text"].split()
                pos = set()
                ok = True
                for c in block:
                    ct = c["Text"].split()
                    d = [k for k, (a, b) in enumerate(zip(gt, ct)) if a != b] if len(ct) == len(gt) else []
                    if len(d) != 1:
                        ok = False
                        break
                    pos.add(d[0])
                if ok and len(pos) == 1:
                    p = pos.pop()
                    out.append({"headline": g["Text"], "focus": p,
                                "candidates": [c["Text"].split()[p] for c in block]})
                    break
    return out


def diversity(wn, fam):
    tokens = fam["headline"].split()
    senses = []
    for c in fam["candidates"]:
        h = list(tokens)
        h[fam["focus"]] = c
        senses.append(lesk_nltk345(h, c, "v", wn.synsets(c)))
    clusters = []

    def find(x):
        return next((k for k, cl in enumerate(clusters) if x in cl), None)

    n = len(senses)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = senses[i], senses[j]
            if a is None or b is None:
                continue
            s = a.lch_similarity(b)
            if s is None or not s > 1.7:
                continue
            if find(i) is not None:
                clusters[find(i)].append(j) if j not in clusters[find(i)] else None
            elif find(j) is not None:
                clusters[find(j)].append(i)
            else:
                clusters.append([i, j])
    return len(clusters) + sum(1 for i in range(n) if find(i) is None)


def main():
    cmd = sys.argv[1]
    if cmd == "jsonl":
        with open(sys.argv[2], "w") as f:
            for fam in families():
                f.write(json.dumps(fam) + "\n")
        return
    wn = reader()
    if cmd == "fixture":
        counts = [diversity(wn, fam) for fam in families()]
        out = ROOT / "figlang-tasks/tests/fixtures/newsmet/diversity_release.json"
        meta = {"generator": "tools/gen/newsmet_diversity_ref.py fixture", "families": len(counts)}
        out.write_text(json.dumps({"meta": meta, "diversity": counts}) + "\n")
        return
    fams = [json.loads(l) for l in open(sys.argv[2])]
    best, counts = float("inf"), None
    for _ in range(int(sys.argv[3])):
        wn = reader()  # a fresh reader each time: NLTK caches synsets and depths
        t = time.perf_counter()
        counts = [diversity(wn, fam) for fam in fams]
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"seconds": best, "diversity": counts}))


if __name__ == "__main__":
    main()
