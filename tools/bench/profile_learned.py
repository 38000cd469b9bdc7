#!/usr/bin/env python3
"""Where the learned metrics' CPU time goes (docs/PERFORMANCE.md, "Learned metrics"): runs
hauser's `bench_learned` driver under `perf record` for each kind of tools/bench/bench_learned.sh
and sorts the samples of its own symbols into the stages of a run.

    python tools/bench/profile_learned.py OUT N BATCH [KINDS...]

OUT is bench_learned.sh's model folder (.cache/bench-learned), N the number of its input rows to
score, BATCH the batch size. Needs `perf` and the release driver (target/release/bench_learned).
Prints one Markdown row per kind: the share of samples per stage, and the driver's load and
scoring seconds.
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

DRIVER = {"bleurt": "bleurt", "bleurt20": "bleurt", "kiwi": "comet", "xcomet": "comet",
          "comet22": "comet", "metricx": "metricx", "bertscore": "bertscore"}
# Stages by symbol, first match wins: the matrix products (the gemm crate's kernels and packing),
# attention's softmax, norms, bias and activation, tokenization, the weights' conversion at load
# (candle's strided copies, safetensors reads), memory copies; then the kernel's share, the rest.
STAGES = [
    ("GEMM", r"gemm_f32|gemm_common|gemm::"),
    ("attention softmax", r"softmax"),
    ("norms", r"layer_norm|rms_norm|add_layer_norm"),
    ("bias + activation", r"bias_activate|gelu|tanh|relu"),
    ("tokenization", r"tokenizers::|sentencepiece|spm::|unigram|bpe"),
    ("load (weights, packing)", r"copy_strided|safetensors|crc32|pack::|memmap"),
    ("copies", r"memmove|memcpy|memset"),
]
# The kernel's samples (page faults of fresh buffers, scheduling) are counted apart.
KERNEL = "kernel"


def profile(out, kind, rows, batch):
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        res = subprocess.run(["perf", "record", "-q", "-o", str(data), "target/release/bench_learned",
                              DRIVER[kind], str(out / kind), str(rows), str(batch), "1"],
                             capture_output=True, text=True, check=True)
        timing = json.loads(res.stdout.strip().splitlines()[-1])
        rep = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "symbol",
                              "--stdio"], capture_output=True, text=True, check=True).stdout
    shares = {name: 0.0 for name, _ in STAGES}
    shares[KERNEL] = shares["other"] = 0.0
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[([.k])\]\s+(.*)", line)
        if not m:
            continue
        pct, sym = float(m.group(1)), m.group(3)
        if m.group(2) == "k":
            shares[KERNEL] += pct
            continue
        for name, pat in STAGES:
            if re.search(pat, sym):
                shares[name] += pct
                break
        else:
            shares["other"] += pct
    return timing, shares


def main():
    out, n, batch = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    kinds = sys.argv[4:] or ["bleurt", "kiwi", "xcomet", "metricx"]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.writelines((out / "inputs.jsonl").read_text().splitlines(keepends=True)[:n])
        rows = f.name
    names = [name for name, _ in STAGES] + [KERNEL, "other"]
    print("| kind | load s | scoring s | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 3) + "|")
    for kind in kinds:
        timing, shares = profile(out, kind, rows, batch)
        print(f"| {kind} | {timing['load']:.1f} | {timing['seconds']:.1f} | "
              + " | ".join(f"{shares[k]:.1f}%" for k in names) + " |")
    Path(rows).unlink()


if __name__ == "__main__":
    main()
