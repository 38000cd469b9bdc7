"""Golden fixture for `hauser metric`'s significance options against sacreBLEU 2.4.3 and
rouge-score 0.1.2, end to end through the CLI: `--confidence [--confidence-n N]` on bleu, chrf,
chrf++ and ter (sacreBLEU's `corpus_score(..., n_bootstrap=N)`: score, mean, ci), ROUGE's
`--confidence` (rouge-score's `BootstrapAggregator` low/mid/high after `np.random.seed(seed)`),
and `--paired-bs` / `--paired-ar` with two systems against a baseline (sacreBLEU's
`PairedTest`), for SACREBLEU_SEED 12345 (the default) and 7.

Systems and references are tools/gen/gen_significance_fixture.py's (a baseline and two systems, 40
segments, one empty hypothesis). Writes hauser-cli/tests/fixtures/metric_significance.json,
checked by hauser-cli/tests/it/metric_significance.rs (1e-9; p-values equal).
Run from the repository root:  "$(bash tools/pyref.sh)" tools/gen/gen_metric_significance_fixture.py
"""

import json
import os
import sys
from importlib.metadata import version

import numpy as np
from rouge_score import rouge_scorer, scoring
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

sys.path.insert(0, os.path.dirname(__file__))
from gen_significance_fixture import REFS, systems, with_seed  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "hauser-cli", "tests", "fixtures", "metric_significance.json")
METRICS = {"bleu": BLEU, "chrf": CHRF, "chrf++": lambda: CHRF(word_order=2), "ter": TER}


def fl(x):
    """A JSON number (NumPy float32 values as the exact double they hold)."""
    return None if x is None else float(x)


def main():
    named = systems()
    refs = [REFS]
    cases = []
    for name, make in METRICS.items():
        for seed in (12345, 7):
            for n in (1000, 60):
                score = with_seed(seed, lambda: make().corpus_score(named[0][1], refs, n_bootstrap=n))
                cases.append({"kind": "confidence", "metric": name, "seed": seed, "n": n,
                              "args": ["--confidence", "--confidence-n", str(n)],
                              "expect": {"score": fl(score.score), "confidence_mean": fl(score._mean),
                                         "confidence_var": fl(score._ci)}})
            for test, n in (("bs", 1000), ("bs", 40), ("ar", 10000), ("ar", 70)):
                _, scores = with_seed(seed, lambda: PairedTest(named, {name: make()}, refs,
                                                               test_type=test, n_samples=n)())
                (key,) = [k for k in scores if k != "System"]
                cases.append({"kind": "paired", "metric": name, "seed": seed, "n": n,
                              "args": [f"--paired-{test}", f"--paired-{test}-n", str(n)],
                              "expect": [{"score": fl(r.score), "p_value": fl(r.p_value), "mean": fl(r.mean), "ci": fl(r.ci)}
                                         for r in scores[key]]})
    for rtype in ("rouge1", "rougeL"):
        sc = rouge_scorer.RougeScorer([rtype])
        for seed in (12345, 7):
            agg = scoring.BootstrapAggregator()
            for h, r in zip(named[0][1], REFS):
                agg.add_scores(sc.score(r, h))
            np.random.seed(seed)
            res = agg.aggregate()[rtype]
            cases.append({"kind": "confidence", "metric": rtype, "seed": seed, "n": 1000,
                          "args": ["--confidence"],
                          "expect": {side: {"precision": fl(getattr(res, side).precision),
                                            "recall": fl(getattr(res, side).recall),
                                            "fmeasure": fl(getattr(res, side).fmeasure)}
                                     for side in ("low", "mid", "high")}})
    meta = {"generator": "tools/gen/gen_metric_significance_fixture.py", "sacrebleu": version("sacrebleu"),
            "rouge-score": version("rouge-score"), "numpy": np.__version__, "tolerance": 1e-9}
    with open(OUT, "w") as f:
        json.dump({"meta": meta, "systems": [list(s) for s in named], "refs": REFS, "cases": cases}, f,
                  separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
