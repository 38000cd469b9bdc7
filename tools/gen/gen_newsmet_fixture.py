#!/usr/bin/env python3
"""Golden fixture of NewsMet's detection evaluation (figlang-tasks, `hauser newsmet eval`).

For each released test set (../shared/data/newsmet/test_set_1.csv, test_set_2.csv,
test_goldplus.csv; pandas reads them as the authors' notebooks do) three deterministic prediction
lists are made, each the gold label flipped on row i when (i * a) % b == 0 for (a, b) in
PATTERNS (not a model: the evaluation is what is tested; the Rust test builds the same lists from
the data, so no label of the data is copied into the repository), and
figlang-tasks/tests/fixtures/newsmet/expected.json holds scikit-learn's numbers (accuracy_score, classification_report's
per-class precision/recall/f1/support and macro F1, cohen_kappa_score), statsmodels' mcnemar
(exact=True; exact=False, correction=True) on the right/wrong table of systems 1 and 2, and
statsmodels' fleiss_kappa of the three.
Tolerance the Rust test applies: 1e-12.
Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_newsmet_fixture.py
"""
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn
import statsmodels
from sklearn.metrics import accuracy_score, classification_report, cohen_kappa_score
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.inter_rater import fleiss_kappa

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("HAUSER_SHARED_DATA", ROOT.parent / "shared/data")) / "newsmet"
OUT = ROOT / "figlang-tasks/tests/fixtures/newsmet"
PATTERNS = [(7, 5), (3, 4), (11, 3)]  # row i flipped when (i * a) % b == 0


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    expected = {"meta": {"generator": "tools/gen/gen_newsmet_fixture.py", "scikit-learn": sklearn.__version__,
                         "statsmodels": statsmodels.__version__, "tolerance": 1e-12}, "sets": {}}
    for name in ["test_set_1", "test_set_2", "test_goldplus"]:
        gold = pd.read_csv(DATA / f"{name}.csv")["label"].astype(int).to_numpy()
        preds = []
        for k, (a, b) in enumerate(PATTERNS, 1):
            p = np.array([1 - g if (i * a) % b == 0 else g for i, g in enumerate(gold)])
            preds.append(p)
        rep = classification_report(gold, preds[0], output_dict=True, zero_division=0)
        r1, r2 = preds[0] == gold, preds[1] == gold
        table = [[int(np.sum(r1 & r2)), int(np.sum(r1 & ~r2))], [int(np.sum(~r1 & r2)), int(np.sum(~r1 & ~r2))]]
        ex, ch = mcnemar(table, exact=True), mcnemar(table, exact=False, correction=True)
        counts = np.array([[sum(p[i] == 0 for p in preds), sum(p[i] == 1 for p in preds)] for i in range(len(gold))])
        expected["sets"][name] = {
            "n": len(gold),
            "accuracy": accuracy_score(gold, preds[0]),
            "macro_f1": rep["macro avg"]["f1-score"],
            "per_class": {c: {"precision": rep[c]["precision"], "recall": rep[c]["recall"],
                              "f1": rep[c]["f1-score"], "support": int(rep[c]["support"])} for c in ["0", "1"]},
            "mcnemar": {"table": table, "exact": {"statistic": float(ex.statistic), "p_value": float(ex.pvalue)},
                        "chi2_corrected": {"statistic": float(ch.statistic), "p_value": float(ch.pvalue)}},
            "cohen_kappa": cohen_kappa_score(preds[0], preds[1]),
            "fleiss_kappa": fleiss_kappa(counts),
        }
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
