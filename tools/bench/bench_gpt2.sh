#!/usr/bin/env bash
# GPT-2 log-probability benchmark (docs/PERFORMANCE.md, "Causal LM (perplexity)"): a
# GPT-2-small-sized model (seeded random weights) on N deterministic sequences of 8-64 token
# ids, hauser-nli (release build of its bench_gpt2 example) side by side with transformers on
# PyTorch in one run.
#
# Usage: bash tools/bench/bench_gpt2.sh [BATCH=32] [REPEATS=3] [N=1000]
# Needs: a Python with tools/requirements.txt (PYTHON, default: the tools/pyref.sh environment).
set -euo pipefail
cd "$(dirname "$0")/../.."
BATCH="${1:-32}"
REPEATS="${2:-3}"
N="${3:-1000}"
PY="${PYTHON:-$(bash tools/pyref.sh)}"
OUT=.cache/bench-gpt2
mkdir -p "$OUT"
export HF_HUB_OFFLINE=1
"$PY" tools/bench/bench_gpt2.py prepare "$OUT" hauser-nli/tests/fixtures/gpt2 "$N"
cargo build --release -p hauser-benches --bin bench_gpt2
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; batch $BATCH; best of $REPEATS"
echo "hauser-nli: $(target/release/bench_gpt2 "$OUT/model" "$OUT/ids.json" "$BATCH" "$REPEATS" | tee "$OUT/ours.json")"
echo "pytorch:    $("$PY" tools/bench/bench_gpt2.py time "$OUT" "$BATCH" "$REPEATS" | tee "$OUT/torch.json")"
"$PY" - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
o = json.load(open(f"{d}/ours.json")); t = json.load(open(f"{d}/torch.json"))
assert o["sequences"] == t["sequences"] and o["tokens"] == t["tokens"]
n = o["sequences"]
print(f"| run | seconds | sequences/s | transformers loop time / this |")
print(f"|---|---|---|---|")
for name, s in [("hauser-nli packed CPU kernels", o["packed"]), ("hauser-nli candle path", o["candle"]),
                ("transformers, one sequence at a time", t["loop"]), ("transformers, sorted batches", t["batched"])]:
    print(f"| {name} | {s:.2f} | {n/s:.1f} | {t['loop']/s:.2f} |")
print(f"best transformers / packed: {min(t['loop'], t['batched'])/o['packed']:.2f}x")
sums = [o["sum_packed"], o["sum_candle"], t["sum_loop"], t["sum_batched"]]
print("sum of all log-probabilities (packed, candle, torch loop, torch batched):", sums,
      "max relative spread", (max(sums) - min(sums)) / abs(sums[0]))
PY
