#!/usr/bin/env bash
# Text-metric benchmark against sacreBLEU in one run (see tools/bench/bench_text_metrics.py).
# Needs a Python with sacrebleu==2.4.3 (PYTHON, default: the tools/pyref.sh environment).
# BENCH_N (pairs, 100000), BENCH_PAIRED_N (segments of the paired test, 10000) and BENCH_REPEAT
# (runs per side, best kept, 1) pass through. The main table runs the Rust driver with one rayon
# thread (RAYON_NUM_THREADS=1, as sacreBLEU has one), the scaling table with two.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-$(bash tools/pyref.sh)}"
cargo build --release -p hauser-benches --bin bench_text
"$PYTHON" tools/bench/bench_text_metrics.py target/release/bench_text
