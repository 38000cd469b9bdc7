#!/usr/bin/env bash
# Creates (once) the Python environment of the reference tools, .cache/pyref, from
# tools/requirements.txt, and prints its interpreter's path. Generators and benchmarks default to
# it: the tools/bench/ scripts, once they cd to the repository root, with
# PYTHON="${PYTHON:-$(bash tools/pyref.sh)}", and the tools/gen/ generators' usage lines with
# "$(bash tools/pyref.sh)" tools/gen/NAME.py.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.cache/pyref
if [ ! -f "$venv/.done" ] || [ tools/requirements.txt -nt "$venv/.done" ]; then
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet -r tools/requirements.txt >&2
    touch "$venv/.done"
fi
echo "$PWD/$venv/bin/python"
