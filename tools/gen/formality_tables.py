#!/usr/bin/env python3
"""Expected values of `hauser formality reproduce`, computed the way the authors' scripts do.

The formality paper's analysis scripts (github.com/laihuiyuan/eval-formality-transfer:
cal_corr_content.py, cal_corr_style.py, cal_iaa.py, kendalltau.py) on the released files: human =
mean of the two raters, 8 systems (REF excluded), system level = scipy.stats.pearsonr of the
system means, segment level = their WMT17 Kendall-like tau per source, averaged over the sources
where it is defined (79 of 80 for content: one source ties every output). The style classifiers'
probabilities are flipped (1 - p) for lines 41-80, as the paper reports them.
The Rust test hauser-cli/tests/it/shared_data/formality_command.rs holds these values.

Run:  "$(bash tools/pyref.sh)" tools/gen/formality_tables.py ../shared/data/formality
Requirements: numpy, scipy (tools/requirements.txt).
"""

import sys
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr

SYSTEMS = ["BART", "HIGH", "IBT", "LUO", "NIU", "RAO", "YI", "ZHOU"]
CONTENT = ["COMET", "COMET-w", "BLEURT", "BERTScore", "METEOR", "chrF", "WMD", "BLEU",
           "ROUGE-1", "ROUGE-2", "ROUGE-L"]


def kendall_wmt(h, m):
    conc = disc = 0
    for i in range(len(h)):
        for j in range(i + 1, len(h)):
            if h[i] == h[j]:
                continue
            if np.sign(h[i] - h[j]) * np.sign(m[i] - m[j]) == 1:
                conc += 1
            else:
                disc += 1
    return (conc - disc) / (conc + disc)


def lines(d, system, kind):
    return [l.rstrip("\n").split("\t") for l in open(d / f"{system}.{kind}.txt", encoding="utf-8")]


def correlate(d, kind, human_cols, metric):
    human = np.array([[(float(r[human_cols[0]]) + float(r[human_cols[1]])) / 2 for r in lines(d, s, kind)]
                      for s in SYSTEMS])
    auto = np.array([[metric(i, r) for i, r in enumerate(lines(d, s, kind))] for s in SYSTEMS])
    taus = []
    for i in range(human.shape[1]):
        try:
            taus.append(kendall_wmt(human[:, i], auto[:, i]))
        except ZeroDivisionError:
            continue
    return pearsonr(human.mean(1), auto.mean(1))[0], float(np.mean(taus)), len(taus)


def main():
    d = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/formality")
    for kind in ["reg.pt16", "cls.pt16", "cls.xformal"]:
        flip = kind.startswith("cls.")
        r, tau, n = correlate(d, kind, (5, 8),
                              lambda i, row: 1 - float(row[-1]) if flip and i >= 40 else float(row[-1]))
        print(f'("style", "{kind}", {r!r}, {tau!r}, {n}),')
    for k, name in enumerate(CONTENT):
        r, tau, n = correlate(d, "content.ref", (4, 7), lambda i, row, k=k: float(row[-11 + k]))
        print(f'("content", "{name}", {r!r}, {tau!r}, {n}),')
    for k, aspect in enumerate(["content", "style", "fluency"]):
        a = [float(r[4 + k]) for s in SYSTEMS for r in lines(d, s, "human")]
        b = [float(r[7 + k]) for s in SYSTEMS for r in lines(d, s, "human")]
        print(f'("iaa", "{aspect}", {pearsonr(a, b)[0]!r}),')


if __name__ == "__main__":
    main()
