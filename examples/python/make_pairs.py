"""Writes a Parquet file of (hyp, ref) pairs for the scale-out example: references drawn from
the 40 hand-written sentences of tools/gen/text_metric_corpus.py, hypotheses made from them by
seeded word edits (the workload of tools/bench/bench_text_metrics.py), in row groups of 100,000.

    python examples/python/make_pairs.py pairs.parquet [N=1000000]
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "gen"))
from text_metric_corpus import edited_pairs  # noqa: E402


def pairs(n: int, seed: int = 7):
    """`n` (hypothesis, reference) pairs, deterministic for a seed."""
    return edited_pairs(n, seed)


def main() -> None:
    out = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    schema = pa.schema([("id", pa.int64()), ("hyp", pa.string()), ("ref", pa.string())])
    with pq.ParquetWriter(out, schema) as writer:
        batch, start = [], 0
        for hyp, ref in pairs(n):
            batch.append((hyp, ref))
            if len(batch) == 100_000:
                writer.write_table(_table(batch, start, schema))
                start += len(batch)
                batch = []
        if batch:
            writer.write_table(_table(batch, start, schema))
    print(f"wrote {n:,} pairs to {out}")


def _table(batch, start, schema):
    return pa.table(
        {"id": range(start, start + len(batch)), "hyp": [h for h, _ in batch], "ref": [r for _, r in batch]},
        schema=schema,
    )


if __name__ == "__main__":
    main()
