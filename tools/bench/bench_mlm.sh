#!/usr/bin/env bash
# Fill-mask top-k benchmark (docs/PERFORMANCE.md, "NewsMet: masked-LM top-k"): ITEMS NewsMet
# headlines with their middle word masked, top-K fillers each, hauser (release build of the
# bench_mlm driver) side by side with transformers on PyTorch in one run. ARCH albert: a
# seeded random AlbertForMaskedLM the size of albert-base-v2 (candle path); bert: a BertForMaskedLM
# the size of bert-base (packed CPU kernels). Both use the tiny fixture tokenizers.
#
# Usage: bash tools/bench/bench_mlm.sh [ARCH=albert] [ITEMS=200] [K=200] [BATCH=16] [REPEATS=2]
# Needs: ../shared/data/newsmet (HAUSER_SHARED_DATA) and a Python with tools/requirements.txt
# (PYTHON, default: the tools/pyref.sh environment).
set -euo pipefail
cd "$(dirname "$0")/../.."
ARCH="${1:-albert}"
ITEMS="${2:-200}"
K="${3:-200}"
BATCH="${4:-16}"
REPEATS="${5:-2}"
PY="${PYTHON:-$(bash tools/pyref.sh)}"
DATA="${HAUSER_SHARED_DATA:-../shared/data}/newsmet/test_goldplus.csv"
OUT=.cache/bench-mlm
mkdir -p "$OUT"
export HF_HUB_OFFLINE=1
"$PY" tools/bench/bench_mlm.py prepare "$OUT" "$ARCH" "$DATA" "$ITEMS"
cargo build --release -p hauser-benches --bin bench_mlm
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $ARCH; $ITEMS texts; top-$K; batch $BATCH; best of $REPEATS"
target/release/bench_mlm "$OUT/$ARCH" "$OUT/masked.txt" "$K" "$BATCH" "$REPEATS" >"$OUT/ours.json"
"$PY" tools/bench/bench_mlm.py time "$OUT/$ARCH" "$OUT/masked.txt" "$K" "$BATCH" "$REPEATS" >"$OUT/torch.json"
"$PY" - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
o = json.load(open(f"{d}/ours.json")); t = json.load(open(f"{d}/torch.json"))
assert o["items"] == t["items"]
print(f"hauser ({o['kernels']}): {o['seconds']:.2f} s; transformers: {t['seconds']:.2f} s")
print(f"transformers / hauser: {t['seconds'] / o['seconds']:.2f}x")
same1 = sum(a == b for a, b in zip(o["top1"], t["top1"]))
samek = sum(a == b for a, b in zip(o["topk_ids"], t["topk_ids"]))
print(f"top-1 equal on {same1}/{o['items']}, whole top-k list equal on {samek}/{o['items']}; "
      f"sum of top-1 probabilities {o['sum_top1']:.6f} vs {t['sum_top1']:.6f}")
PY
