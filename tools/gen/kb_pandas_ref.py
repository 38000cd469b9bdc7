#!/usr/bin/env python3
"""The reference method of HAUSER's KB criteria, with pandas, for parity fixtures and benchmarks.

The HAUSER scorers (code/scorers/Relevance.py, Creativity.py, commit 31701b3) load the KB as a
pandas DataFrame and, for every component of every candidate, filter all rows:
  relevance:  rows with new_topic == clean(topic) and new_vehicle == clean(vehicle), summing
              plausibility * count over them (iterating with iterrows), 0 when none match;
              averaged over the candidate's components;
  creativity: the sum of `count` over rows with new_vehicle == clean(vehicle), averaged over the
              components, then -log(x + 1) (after NaN -> 0).
This script does the same (the reference's `clean` is in tools/gen/kb_golden.py).

  golden: build the KB DataFrame from SPGC_parsed.tsv (one row per simile, count 1,
          plausibility 1, keys cleaned) and write the raw scores of the 150 annotated similes:
          kb_reproduction.rs compares hauser-kb's raw scores with them.
  bench CSV [N]: time read_csv and N reference lookups of each kind on a MAPS-KB-format CSV;
          prints JSON (median seconds per lookup, extrapolation to 12,495 candidates).
"""
import ast
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from kb_golden import reference_clean as clean  # noqa: E402


def relevance(kb, comps):
    scores = []
    for cc in comps:
        hits = []
        rows = kb[(kb.new_topic == clean(cc[0] or "-")) & (kb.new_vehicle == clean(cc[1] or "-"))]
        for _, row in rows.iterrows():
            hits.append(row["plausibility"] * row["count"])
        scores.append(0 if len(hits) == 0 else np.sum(np.array(hits)))
    return float(np.average(np.array(scores))) if scores else float("nan")


def vehicle_total(kb, vehicle):
    return np.sum(np.array(kb[kb.new_vehicle == clean(vehicle or "-")]["count"]))


def creativity(kb, comps):
    scores = np.array([vehicle_total(kb, cc[1]) for cc in comps])
    m = float(np.mean(scores)) if len(scores) else float("nan")
    m = 0.0 if np.isnan(m) else m
    return float(-np.log(m + 1))


def golden(data):
    rows = []
    with open(data / "simile-kb/SPGC_parsed.tsv", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            rows.append({"new_topic": clean(parts[1]), "property": parts[2],
                         "new_vehicle": clean(parts[3]), "count": 1, "plausibility": 1.0})
    kb = pd.DataFrame(rows)
    ann = pd.read_csv(data / "hauser/human_annotated.csv")
    out = []
    for comps in ann["components"]:
        c = ast.literal_eval(comps)
        r = relevance(kb, c)
        out.append({"components": comps, "relevance_raw": None if np.isnan(r) else r,
                    "creativity_raw": creativity(kb, c)})
    json.dump({"generator": "tools/gen/kb_pandas_ref.py golden",
               "reference": f"HAUSER scorers (commit 31701b3) re-run with pandas {pd.__version__}, "
                            f"numpy {np.__version__}",
               "kb": "SPGC_parsed.tsv, one row per simile, count 1, plausibility 1, keys cleaned",
               "tolerance": "1e-12 absolute; null = NaN (no components)", "scores": out}, sys.stdout, indent=1)
    sys.stdout.write("\n")


def bench(csv, n):
    t0 = time.perf_counter()
    kb = pd.read_csv(csv)
    load = time.perf_counter() - t0
    step = max(1, len(kb) // n)
    sample = kb.iloc[::step].head(n)
    rel_t, veh_t = [], []
    for t, v in zip(sample.new_topic, sample.new_vehicle):
        s = time.perf_counter()
        relevance(kb, [(t, v, None)])
        rel_t.append(time.perf_counter() - s)
        s = time.perf_counter()
        vehicle_total(kb, v)
        veh_t.append(time.perf_counter() - s)
    rel, veh = statistics.median(rel_t), statistics.median(veh_t)
    json.dump({"rows": len(kb), "read_csv_seconds": load, "lookups": len(rel_t),
               "relevance_median_seconds": rel, "vehicle_count_median_seconds": veh,
               "pandas": pd.__version__,
               "extrapolated_12495_candidates_seconds": 12495 * (rel + veh)}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if sys.argv[1] == "golden":
        golden(Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parent / "../../../shared/data")
    else:
        bench(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 20)
