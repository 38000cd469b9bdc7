#!/usr/bin/env bash
# Zero-shot scoring benchmark of the figurative narratives (docs/PERFORMANCE.md, "Figurative
# narratives: zero-shot scoring"): a GPT-2-small-sized model (seeded random weights, prepared by
# tools/bench/bench_gpt2.py with the tiny fixture tokenizer) scoring ITEMS narratives of the idiom dev
# file (4 conditional log-likelihoods each), hauser (release build of the bench_narratives
# driver) side by side with transformers on PyTorch in one run.
#
# Usage: bash tools/bench/bench_narratives.sh [ITEMS=40] [BATCH=16] [REPEATS=2]
# Needs: ../shared/data/narratives (HAUSER_SHARED_DATA) and a Python with tools/requirements.txt
# (PYTHON, default: the tools/pyref.sh environment).
set -euo pipefail
cd "$(dirname "$0")/../.."
ITEMS="${1:-40}"
BATCH="${2:-16}"
REPEATS="${3:-2}"
PY="${PYTHON:-$(bash tools/pyref.sh)}"
DATA="${HAUSER_SHARED_DATA:-../shared/data}/narratives/idiom/dev.jsonl"
OUT=.cache/bench-gpt2
mkdir -p "$OUT"
export HF_HUB_OFFLINE=1
"$PY" tools/bench/bench_gpt2.py prepare "$OUT" hauser-nli/tests/fixtures/gpt2 1
cargo build --release -p hauser-benches --bin bench_narratives
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $ITEMS items; batch $BATCH; best of $REPEATS"
echo "hauser:       $(target/release/bench_narratives "$OUT/model" "$DATA" "$ITEMS" "$BATCH" "$REPEATS" | tee "$OUT/narr-ours.json")"
echo "transformers: $("$PY" tools/bench/bench_narratives.py "$OUT/model" "$DATA" "$ITEMS" "$BATCH" "$REPEATS" | tee "$OUT/narr-torch.json")"
"$PY" - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
o = json.load(open(f"{d}/narr-ours.json")); t = json.load(open(f"{d}/narr-torch.json"))
assert o["items"] == t["items"]
print(f"transformers / hauser: {t['seconds'] / o['seconds']:.2f}x ({t['seconds']:.2f} s vs {o['seconds']:.2f} s)")
for k in ("sum_lm", "sum_dcpmi"):
    print(f"{k}: {o[k]} vs {t[k]}, relative difference {abs(o[k] - t[k]) / abs(t[k]):.2e}")
PY
