#!/usr/bin/env bash
# Issue 39 in one go on a GPU machine: the correctness matrix of every head (tools/gpu/matrix.py,
# item 0) and the throughput, memory and cold-start benchmark (tools/gpu/bench.py, items 1-3),
# written as one report, `gpu.json` (item 5's schema; `docs/bench/gpu.json` in the repository).
#
#   eval "$(bash tools/gpu/device_setup.sh gpu-carry)"       # HAUSER_BIN, HAUSER_REFSITE, ...
#   bash tools/bench_gpu.sh [--scale S] [--budget SECONDS] [--matrix-budget SECONDS]
#                           [--workloads bertscore,comet,...] [--precisions f32,f16,bf16]
#                           [--device cuda] [--batch B] [--no-matrix] [--work DIR] [--out DIR]
#
# Defaults: --scale 1 (the issue's sizes: 10,000 pairs or triples, 156,320 sentences for embed),
# --budget 420 for the benchmark and --matrix-budget 150 for the matrix (seconds; what does not fit
# is reported as not run), --device cuda, --batch 64, --out $OUT (else docs/bench): matrix.json and
# gpu.json. Models of the issue's shapes are built on the machine with random weights (a few GB;
# --work, default ${TMPDIR:-/tmp}/hauser-bench-gpu, keeps them for a rerun on the same machine).
#
# On the CPU machine the same script checks the harness end to end at a small size, hauser and the
# references on the CPU (half precisions are refused there, and reported so):
#   PYTHON=.cache/gpuref/bin/python HAUSER_BIN=target/release/hauser HAUSER_REFSITE=... \
#     bash tools/bench_gpu.sh --device cpu --scale 0.0016 --precisions f32 --no-matrix --out "$(mktemp -d)"
# (tools/gpu/README.md: how the venv of the device's versions and the reference folder are made).
set -euo pipefail
cd "$(dirname "$0")/.."
scale=1 budget=420 matrix_budget=150 workloads= precisions=f32,f16,bf16 device=cuda batch=64 matrix=1
work=${TMPDIR:-/tmp}/hauser-bench-gpu out=${OUT:-docs/bench}
while [ $# -gt 0 ]; do
    case $1 in
    --scale) scale=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --matrix-budget) matrix_budget=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --precisions) precisions=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --no-matrix) matrix=0; shift ;;
    --work) work=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "bench_gpu.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
py=${PYTHON:-python3}
hauser=${HAUSER_BIN:?bench_gpu.sh: set HAUSER_BIN (tools/gpu/device_setup.sh prints it)}
mkdir -p "$out" "$work"
all=$("$py" tools/gpu/bench.py --list | cut -d' ' -f1 | paste -sd, -)
workloads=${workloads:-$all}
if [ "$matrix" = 1 ]; then
    # f32 first, then the half precisions: the budget costs those first.
    "$py" tools/gpu/matrix.py --hauser "$hauser" --device "$device" --budget "$matrix_budget" \
        --out "$out/matrix.json" || echo "bench_gpu.sh: the matrix failed; the benchmark goes on" >&2
fi
# The models (the COMET ones need unbabel-comet: the reference folder) and inputs.
PYTHONPATH="${HAUSER_REFSITE:+$HAUSER_REFSITE${PYTHONPATH:+:}}${PYTHONPATH:-}" \
    "$py" tools/gpu/bench.py prepare "$work" --scale "$scale" --workloads "$workloads"
"$py" tools/gpu/bench.py run --hauser "$hauser" --work "$work" --device "$device" --precisions "$precisions" \
    --workloads "$workloads" --batch "$batch" --budget "$budget" --out "$out/gpu.json" \
    ${HAUSER_REFSITE:+--refsite "$HAUSER_REFSITE"} $([ "$matrix" = 1 ] && echo --matrix "$out/matrix.json")
