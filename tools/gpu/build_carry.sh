#!/usr/bin/env bash
# On the CPU machine, before any device call: the folder a device call carries (default gpu-carry/,
# git-ignored; the device tool carries at most 64 MiB): the CUDA build of `hauser`, stripped and
# xz-compressed (hauser.xz), and WordNet for `newsmet candidates` (wordnet.tar.xz, ~6 MiB) when the
# machine has it. tools/gpu/device_setup.sh unpacks both on the device.
#
#   bash tools/gpu/build_carry.sh                  # release build with --features cuda, then pack
#   bash tools/gpu/build_carry.sh --binary PATH    # pack an existing binary (no build)
#
# The build uses the shared CUDA 13.0 recipe (../shared/tools/cuda-toolkit.sh, or $HAUSER_CUDA_TOOLKIT)
# with candle's real kernels (never tools/nvcc-check-stub.sh): about 10 minutes of one core for the
# kernels, more for the crates. CUDA_COMPUTE_CAP defaults to 90 (H100/H200); the PTX also runs on
# other cards through the driver's JIT. Release binaries carry line tables at most: the profile's
# `debug` is overridden to 0 here and the binary is stripped anyway.
set -euo pipefail
carry=gpu-carry binary=
while [ $# -gt 0 ]; do
    case $1 in
    --binary) binary=$2; shift 2 ;;
    --carry) carry=$2; shift 2 ;;
    *) echo "build_carry.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/../.."
if [ -z "$binary" ]; then
    recipe=${HAUSER_CUDA_TOOLKIT:-../shared/tools/cuda-toolkit.sh}
    cargo fetch --quiet   # the recipe's driver stub is generated from cudarc's sources
    eval "$(bash "$recipe")"
    unset NVCC
    CARGO_PROFILE_RELEASE_DEBUG=0 cargo build --release -p hauser-cli --features cuda
    binary=target/release/hauser
fi
mkdir -p "$carry"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$binary" "$tmp/hauser"
strip "$tmp/hauser"
xz -9 -T1 -c "$tmp/hauser" > "$carry/hauser.xz"
if [ -f "${WORDNET_DIR:-/usr/share/wordnet}/data.verb" ]; then
    src=${WORDNET_DIR:-/usr/share/wordnet}
    tar -C "$(dirname "$src")" -cf - --transform "s,^$(basename "$src"),wordnet," "$(basename "$src")" \
        | xz -6 -T1 > "$carry/wordnet.tar.xz"
else
    echo "build_carry.sh: no WordNet (apt-get install wordnet-base, or WORDNET_DIR): newsmet heads will be skipped" >&2
fi
ls -l "$carry" >&2
total=$(du -cb "$carry"/* | tail -1 | cut -f1)
echo "build_carry.sh: $carry holds $((total >> 20)) MiB (carry limit 64 MiB, with the rest of the call's carry)" >&2
if [ "$total" -gt $((60 << 20)) ]; then
    echo "build_carry.sh: too large for the device carry" >&2
    exit 1
fi
