"""Scores (hyp, ref) pairs from a Parquet file with chrF and sentence BLEU, in Arrow batches:
on one machine, or as a Ray Data job with the same batch function.

    python examples/python/score_pairs.py pairs.parquet scores.parquet            # one process
    python examples/python/score_pairs.py pairs.parquet scores_ray --engine ray   # Ray Data

`score_batch` is the whole of the work: it takes an Arrow record batch with `hyp` and `ref`
columns and returns it with `chrf` (sacreBLEU's chrF, 0-1) and `bleu` (NLTK sentence BLEU with
method1, 0-1) added. hauser reads the Arrow string columns from their buffers, scores the batch
in Rust with the interpreter released, on all cores (rayon), and hands back NumPy arrays, so the
batch never becomes Python strings. On a Ray cluster the same function runs in every worker; the
one line to change is `ray.init()` (see `run_ray`).
"""

from __future__ import annotations

import argparse
import os
import time

import pyarrow as pa
import pyarrow.parquet as pq

from hauser import metrics

BATCH = 65_536


def score_batch(batch):
    """`batch` (an Arrow RecordBatch or Table) with chrF and sentence BLEU of each (hyp, ref)
    pair added."""
    hyp, ref = batch.column("hyp"), batch.column("ref")
    chrf = metrics.sentence_chrf(hyp, ref)
    bleu = metrics.nltk_sentence_bleu(hyp, ref)
    return batch.append_column("chrf", pa.array(chrf)).append_column("bleu", pa.array(bleu))


def run_local(src: str, dst: str) -> int:
    """Reads `src` batch by batch, scores, writes `dst`: memory stays at one batch."""
    reader = pq.ParquetFile(src)
    n, writer = 0, None
    try:
        for batch in reader.iter_batches(batch_size=BATCH, columns=["id", "hyp", "ref"]):
            scored = score_batch(batch)
            if writer is None:
                writer = pq.ParquetWriter(dst, scored.schema)
            writer.write_batch(scored)
            n += batch.num_rows
    finally:
        if writer is not None:
            writer.close()
    return n


def run_ray(src: str, dst: str) -> int:
    """The same `score_batch` as a Ray Data UDF. Each Ray task scores one batch on one core
    (RAYON_NUM_THREADS=1), and Ray runs one task per core: the parallelism is Ray's."""
    import ray

    # On a cluster: ray.init(address="auto", runtime_env=...) (or "ray://<head>:10001"), with
    # `src` and `dst` on storage every node reads (s3://..., a shared file system).
    ray.init(runtime_env={"env_vars": {"RAYON_NUM_THREADS": "1"}}, include_dashboard=False)
    # Two blocks per core, so that every core gets a task: Ray reads one file as one block.
    blocks = 2 * int(ray.cluster_resources().get("CPU", 1))
    ds = ray.data.read_parquet(src).repartition(blocks)
    ds = ds.map_batches(score_batch, batch_format="pyarrow", batch_size=BATCH)
    ds.write_parquet(dst)
    n = pq.ParquetDataset(dst).read(columns=["id"]).num_rows
    ray.shutdown()
    return n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--engine", choices=["local", "ray"], default="local")
    a = p.parse_args()
    start = time.perf_counter()
    n = (run_ray if a.engine == "ray" else run_local)(a.src, a.dst)
    t = time.perf_counter() - start
    print(f"{a.engine}: scored {n:,} pairs in {t:.2f} s ({n / t:,.0f} pairs/s) on {os.cpu_count()} cores -> {a.dst}")


if __name__ == "__main__":
    main()
