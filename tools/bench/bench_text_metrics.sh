#!/usr/bin/env bash
# Text-metric benchmark against sacreBLEU in one run (see tools/bench/bench_text_metrics.py).
# Needs a Python with sacrebleu==2.4.3 (PYTHON, default: the tools/pyref.sh environment).
# BENCH_N (pairs, 100000) and BENCH_REPEAT (runs per side, best kept, 1) pass through.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-$(bash tools/pyref.sh)}"
# One thread on each side (TER and the paired test would otherwise run on rayon's pool).
export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-1}"
cargo build --release -p hauser-benches --bin bench_text
"$PYTHON" tools/bench/bench_text_metrics.py target/release/bench_text
