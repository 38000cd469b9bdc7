#!/usr/bin/env bash
# Learned-metric benchmark (docs/PERFORMANCE.md, "Learned metrics"): BLEURT-20-D12-shaped,
# CometKiwi (unified_metric) and XCOMET (XLM-R XL layout) on base-shaped encoders, and
# MetricX-24 on an mT5-base-shaped model, all with random weights, on CPU: hauser's release
# `bench_learned` driver side by side with bleurt-pytorch, unbabel-comet 2.2.7 and the metricx
# repository (tools/bench/bench_learned.py) in one run. Each row also gives the rate of the
# model's matrix products in hauser's run (their floating-point operations, counted by
# hauser_nli::gemm_flops, over the scoring time) and its share of the GEMM peak that
# benches/src/bin/bench_gemm.rs measures on the same machine and threads first (torch.mm's,
# tools/bench/bench_gemm.py, is printed beside it).
#
# Usage: bash tools/bench/bench_learned.sh [N=256] [BATCH=32] [REPEATS=2] [KINDS="bleurt kiwi xcomet metricx"]
# (KINDS may also name bleurt20, comet22 and bertscore: see tools/bench/bench_learned.py)
# Needs: the venv of tools/requirements-comet.txt (PYTHON, default .cache/pycomet/bin/python)
# and, for metricx, the metricx repository at the commit of tools/gen/gen_metricx_fixtures.py on
# METRICX_PATH (default .cache/metricx).
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-256}"
BATCH="${2:-32}"
REPEATS="${3:-2}"
KINDS="${4:-bleurt kiwi xcomet metricx}"
PY="${PYTHON:-.cache/pycomet/bin/python}"
OUT=.cache/bench-learned
export PYTHONPATH="${METRICX_PATH:-$PWD/.cache/metricx}${PYTHONPATH:+:$PYTHONPATH}"
[ -f "$OUT/inputs.jsonl" ] && [ "$(wc -l < "$OUT/inputs.jsonl")" -eq "$N" ] || "$PY" tools/bench/bench_learned.py prepare "$OUT" "$N"
for kind in $KINDS; do
    [ -f "$OUT/$kind/.complete" ] || "$PY" tools/bench/bench_learned.py model "$OUT" "$kind"
done
cargo build --quiet --release -p hauser-benches --bin bench_learned --bin bench_gemm
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $N segments, batch $BATCH, best of $REPEATS"
# The GEMM peak on the same threads: the gemm crate as hauser's kernels call it, and torch.mm.
gemm=$(target/release/bench_gemm "$(nproc)")
tgemm=$("$PY" tools/bench/bench_gemm.py "$(nproc)")
peak() { "$PY" -c "import json, sys; print('%.1f' % json.load(sys.stdin)['peak_gflops'])"; }
echo "GEMM peak, $(nproc) threads: gemm crate $(peak <<< "$gemm") GFLOP/s, torch.mm $(peak <<< "$tgemm") GFLOP/s"
echo "| model (random weights, released shape) | hauser s | reference s | reference / hauser | hauser GEMM GFLOP/s | share of the gemm crate's peak | checksums |"
echo "|---|---|---|---|---|---|---|"
for kind in $KINDS; do
    case $kind in
        bleurt) ours=bleurt; dir=$OUT/bleurt; what="BLEURT-20-D12 shape (bleurt-pytorch)" ;;
        bleurt20) ours=bleurt; dir=$OUT/bleurt20; what="BLEURT-20 shape, RemBERT 32 x 1152 (bleurt-pytorch)" ;;
        comet22) ours=comet; dir=$OUT/comet22; what="COMET-22, XLM-R large shape (unbabel-comet)" ;;
        bertscore) ours=bertscore; dir=$OUT/bertscore; what="BERTScore, RoBERTa large shape, layer 17 (bert_score)" ;;
        kiwi) ours=comet; dir=$OUT/kiwi; what="CometKiwi, XLM-R base shape (unbabel-comet)" ;;
        xcomet) ours=comet; dir=$OUT/xcomet; what="XCOMET, XLM-R XL layout at base shape (unbabel-comet)" ;;
        metricx) ours=metricx; dir=$OUT/metricx; what="MetricX-24, mT5-base shape (metricx repository)" ;;
    esac
    h=$(target/release/bench_learned "$ours" "$dir" "$OUT/inputs.jsonl" "$BATCH" "$REPEATS")
    p=$("$PY" tools/bench/bench_learned.py time "$OUT" "$kind" "$BATCH" "$REPEATS" 2>/dev/null | tail -1)
    "$PY" - "$what" "$h" "$p" "$gemm" <<'PY'
import json, sys
what, h, p, g = sys.argv[1], *(json.loads(a) for a in sys.argv[2:])
share = h['gemm_gflops'] / g['peak_gflops']
print(f"| {what} | {h['seconds']:.2f} | {p['seconds']:.2f} | {p['seconds'] / h['seconds']:.2f}x "
      f"| {h['gemm_gflops']:.1f} ({h['gemm_gflop']:.0f} GFLOP) | {share:.0%} | {h['checksum']:.4f} / {p['checksum']:.4f} |")
PY
done
