#!/usr/bin/env bash
# WMT meta-evaluation benchmark: `hauser meta-eval`'s WMT report against Google's mt-metrics-eval
# on the same table, in one run (see tools/bench/bench_wmt_meta.py).
#
# mt-metrics-eval at commit 68a481aea1a787392d55af8f76ac8ef40c5f4664: MTME_DIR names a checkout
# of it (its root, holding mt_metrics_eval/), or MTME_GIT a clone (bare or not), from which
# that commit is exported into a temporary folder. Needs a Python with NumPy and SciPy
# (PYTHON, default: the tools/pyref.sh environment); apache_beam and dacite are stubbed.
# BENCH_METRICS (20), BENCH_SYSTEMS (15), BENCH_SEGMENTS (1500), BENCH_RESAMPLES (1000) and
# BENCH_REF_PAIRS (all) pass through; HAUSER_BIN skips the release build and times that binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
COMMIT=68a481aea1a787392d55af8f76ac8ef40c5f4664
PYTHON="${PYTHON:-$(bash tools/pyref.sh)}"
if [ -z "${MTME_DIR:-}" ]; then
    if [ -z "${MTME_GIT:-}" ]; then
        echo "set MTME_DIR (a checkout of google-research/mt-metrics-eval at $COMMIT) or MTME_GIT (a clone)" >&2
        exit 2
    fi
    MTME_DIR="$(mktemp -d)"
    trap 'rm -rf "$MTME_DIR"' EXIT
    git --git-dir="$MTME_GIT" archive "$COMMIT" | tar -x -C "$MTME_DIR" 2>/dev/null ||
        git -C "$MTME_GIT" archive "$COMMIT" | tar -x -C "$MTME_DIR"
fi
if [ -z "${HAUSER_BIN:-}" ]; then
    cargo build --release -p hauser-cli
    HAUSER_BIN=target/release/hauser
fi
PYTHONPATH="$MTME_DIR${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" tools/bench/bench_wmt_meta.py "$HAUSER_BIN"
