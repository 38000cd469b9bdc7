#!/usr/bin/env bash
# An `nvcc` for compile checks of the `cuda` feature (`.ci/run`): candle-kernels' build script
# compiles candle's CUDA C++ kernels (PTX and a static MoE/GGUF library) even for `cargo check`,
# which needs none of them: about 10 minutes of one core on the 2-core CI machine. Pointed to
# by NVCC (which cudaforge, candle's kernel builder, reads first), this script writes each
# output it is asked for as an empty file and passes every other call (`--version`,
# `--list-gpu-code`) to the real nvcc on PATH (../shared/tools/cuda-toolkit.sh's). So the CI
# check compiles and lints all the Rust code of the GPU path (hauser's, candle-core's CUDA
# backend, cudarc) but not candle's kernels, which the GPU builds (docs/PERFORMANCE.md, the
# device runs) compile for real. Never use it for a binary that is to run.
set -euo pipefail
out= ptx_dir= ptx=0 prev= last=
for a in "$@"; do
    case "$prev" in
    -o) out=$a ;;
    --output-directory) ptx_dir=$a ;;
    esac
    [ "$a" = --ptx ] && ptx=1
    prev=$a
    last=$a
done
if [ "$ptx" = 1 ] && [ -n "$ptx_dir" ]; then
    name=$(basename "$last")
    : >"$ptx_dir/${name%.cu}.ptx"
elif [ -n "$out" ]; then
    : >"$out"
else
    exec nvcc "$@"
fi
