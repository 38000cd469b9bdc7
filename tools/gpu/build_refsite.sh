#!/usr/bin/env bash
# On the CPU machine, before a device call that runs tools/bench_gpu.sh: the reference packages the
# GPU machines lack, as one folder to put first on PYTHONPATH there, packed as gpu-carry/refsite.tar.xz
# (about 15 MiB; tools/gpu/device_setup.sh unpacks it).
#
#   bash tools/gpu/build_refsite.sh [--carry DIR]
#
# The device image has torch 2.11, transformers 5, numpy 2, pytorch-lightning 2.6 and
# sentence-transformers 6 (the device tool's KINDS.md), and no network. unbabel-comet 2.2.7,
# bleurt-pytorch and the metricx repository's code do not import under transformers 5 (removed
# tokenizer and pruning helpers), so this folder holds the transformers 4 stack they were checked
# with in tools/requirements-comet.txt (transformers 4.57.6, tokenizers 0.22.2, huggingface_hub
# 0.36.2, torchmetrics 0.10.3) with unbabel-comet 2.2.7 and its small dependencies (entmax 1.3,
# jsonargparse 3.13.1), bert-score 0.3.13, bleurt-pytorch (not on PyPI: copied from the comet venv
# where tools/requirements-comet.txt installed it, or $BLEURT_PYTORCH_DIR) and metricx23/metricx24
# from the metricx checkout ($METRICX_PATH, default .cache/metricx). The embedding and LM references
# (sentence-transformers, transformers) run on the device's own stack, without this folder.
# Checked on the CPU machine with the device's versions (torch 2.11.0, numpy 2.5.2, lightning 2.6.6,
# Python 3.12): every reference of tools/gpu/bench.py runs (tools/gpu/README.md).
set -euo pipefail
carry=gpu-carry
while [ $# -gt 0 ]; do
    case $1 in
    --carry) carry=$2; shift 2 ;;
    *) echo "build_refsite.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/../.."
py=${PYTHON:-.cache/pycomet/bin/python}
metricx=${METRICX_PATH:-.cache/metricx}
bleurt=${BLEURT_PYTORCH_DIR:-$("$py" -c 'import bleurt_pytorch, os; print(os.path.dirname(bleurt_pytorch.__file__))')}
[ -d "$metricx/metricx24" ] || { echo "build_refsite.sh: no metricx checkout at $metricx (METRICX_PATH)" >&2; exit 1; }
[ -f "$bleurt/__init__.py" ] || { echo "build_refsite.sh: no bleurt_pytorch package at $bleurt" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d "$tmp/whl" transformers==4.57.6 tokenizers==0.22.2 huggingface_hub==0.36.2 torchmetrics==0.10.3 \
    unbabel-comet==2.2.7 entmax==1.3 jsonargparse==3.13.1 bert-score==0.3.13
python3 -m pip install -q --no-index --no-deps --no-compile --target "$tmp/refsite" "$tmp"/whl/*.whl
cp -r "$bleurt" "$tmp/refsite/bleurt_pytorch"
cp -r "$metricx/metricx23" "$metricx/metricx24" "$tmp/refsite/"
find "$tmp/refsite" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$carry"
tar -C "$tmp" -cf - refsite | xz -6 -T1 > "$carry/refsite.tar.xz"
ls -l "$carry/refsite.tar.xz" >&2
