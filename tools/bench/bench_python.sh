#!/usr/bin/env bash
# Benchmark of the Python package (docs/PERFORMANCE.md, "Python package"): builds the release
# wheel, installs it into PYTHON's environment and runs tools/bench/bench_python.py there (hauser per
# call and vectorised against sacreBLEU, NLTK, rouge-score and bert_score in one run).
#
# Usage: bash tools/bench/bench_python.sh [REPEATS=1]
# PYTHON: an interpreter whose environment gets the wheel (and maturin to build it); default
# .cache/bench-python, made from tools/requirements-python-tests.txt, plus
# tools/requirements-python-tests-neural.txt (torch, bert_score: the BERTScore rows) when
# HAUSER_BENCH_NEURAL=1. The BERTScore rows also need MiniLM (tools/test-assets.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
REPEATS="${1:-1}"
# The main workspace's target directory: the release build reuses its compiled dependencies.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
if [ -z "${PYTHON:-}" ]; then
    venv=.cache/bench-python
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        "$venv/bin/python" -m pip install --quiet -r tools/requirements-python-tests.txt
    fi
    if [ "${HAUSER_BENCH_NEURAL:-0}" = 1 ]; then
        "$venv/bin/python" -m pip install --quiet -r tools/requirements-python-tests-neural.txt
    fi
    PYTHON="$root/$venv/bin/python"
fi
"$PYTHON" -m pip install --quiet "maturin==1.16.0"
bash tools/test-assets.sh >/dev/null 2>&1 || echo "bench-python: test assets incomplete; BERTScore rows may be skipped" >&2
export HF_HUB_OFFLINE=1
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
(cd bindings/python && "$PYTHON" -m maturin build --quiet --release --interpreter "$PYTHON" --out "$wheels")
"$PYTHON" -m pip install --quiet --force-reinstall --no-deps "$wheels"/hauser-*.whl
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$PYTHON" tools/bench/bench_python.py --repeat "$REPEATS"
