#!/usr/bin/env bash
# WMD benchmark against gensim 4.4.0 + POT in one run (see tools/bench/bench_wmd.py).
# Needs a Python with gensim==4.4.0 and POT (PYTHON, default: the tools/pyref.sh environment).
# BENCH_N (pairs, 10000), BENCH_VOCAB (words, 100000) and BENCH_DIM (300) pass through.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-$(bash tools/pyref.sh)}"
cargo build --release -p hauser-benches --bin bench_wmd
"$PYTHON" tools/bench/bench_wmd.py target/release/bench_wmd
