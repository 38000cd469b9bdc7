#!/usr/bin/env bash
# On the device machine: unpack what tools/gpu/build_carry.sh packed (the carry folder, default
# gpu-carry) and make the CUDA binary runnable, with nothing but Python's standard library (the
# device machine may have no xz):
#   - gpu-carry/hauser.xz        -> DIR/bin/hauser (lzma), executable;
#   - the CUDA 13 libraries the binary loads (libcublas.so.13, libcublasLt.so.13, libcurand.so.10,
#     libcudart.so.13; libnvrtc.so.13 and its builtins when present), found in $CUDA_LIB_DIR (default
#     /usr/local/cuda-13.0/targets/x86_64-linux/lib) or else in the Python packages' nvidia/cu13/lib
#     or torch/lib, linked by soname into DIR/lib (libcuda.so.1, the driver's, is the system's);
#   - gpu-carry/wordnet.tar.xz   -> DIR/wordnet (for `newsmet candidates`), when carried;
#   - gpu-carry/refsite.tar.xz   -> DIR/refsite (tools/gpu/build_refsite.sh: the reference packages
#     of tools/bench_gpu.sh), when carried.
# Prints `export` lines on stdout (HAUSER_BIN, LD_LIBRARY_PATH, WORDNET_DIR and HAUSER_REFSITE when
# unpacked), the rest on stderr:
#
#   eval "$(bash tools/gpu/device_setup.sh [CARRY [DIR]])"     # DIR default: ${TMPDIR:-/tmp}/hauser-gpu
set -euo pipefail
carry=${1:-gpu-carry}
dir=${2:-${TMPDIR:-/tmp}/hauser-gpu}
cuda_lib=${CUDA_LIB_DIR:-/usr/local/cuda-13.0/targets/x86_64-linux/lib}
carry=$(cd "$carry" && pwd)
mkdir -p "$dir/bin" "$dir/lib"
dir=$(cd "$dir" && pwd)

python3 - "$carry" "$dir" <<'EOF' >&2
import lzma, os, shutil, sys, tarfile, time
carry, out = sys.argv[1], sys.argv[2]
t = time.monotonic()
src = os.path.join(carry, "hauser.xz")
if not os.path.isfile(src):
    sys.exit(f"device_setup: no {src} (tools/gpu/build_carry.sh makes it)")
dst = os.path.join(out, "bin", "hauser")
with lzma.open(src) as f, open(dst + ".tmp", "wb") as g:
    shutil.copyfileobj(f, g, 1 << 20)
os.chmod(dst + ".tmp", 0o755)
os.replace(dst + ".tmp", dst)
print(f"device_setup: {dst} ({os.path.getsize(dst) >> 20} MiB) in {time.monotonic() - t:.1f} s")
for name, what in (("wordnet", "WordNet"), ("refsite", "reference packages")):
    packed = os.path.join(carry, f"{name}.tar.xz")
    if os.path.isfile(packed):
        with tarfile.open(packed) as tf:
            if hasattr(tarfile, "data_filter"):
                tf.extractall(out, filter="data")
            else:
                tf.extractall(out)
        print(f"device_setup: {what} in {os.path.join(out, name)}")
EOF

# The CUDA 13 libraries, by soname. Search order: $CUDA_LIB_DIR, then the pip wheels' folders.
search=("$cuda_lib")
while IFS= read -r d; do search+=("$d"); done < <(python3 - <<'EOF' 2>/dev/null || true
import glob, site, sys
roots = site.getsitepackages() + [site.getusersitepackages()] + sys.path
seen = set()
for r in roots:
    for d in glob.glob(f"{r}/nvidia/cu13/lib") + glob.glob(f"{r}/nvidia/*/lib") + glob.glob(f"{r}/torch/lib"):
        if d not in seen:
            seen.add(d)
            print(d)
EOF
)
missing=()
# (libnvrtc and its builtins are not needed by candle's shipped PTX; linked when present.)
for so in libcublas.so.13 libcublasLt.so.13 libcurand.so.10 libcudart.so.13 libnvrtc.so.13 libnvrtc-builtins.so.13.0; do
    found=
    for d in "${search[@]}"; do
        [ -d "$d" ] || continue
        # the exact soname, else a versioned file of it (libcublas.so.13.0.2.14)
        for f in "$d/$so" "$d/$so".*; do
            if [ -e "$f" ]; then found=$f; break 2; fi
        done
    done
    if [ -n "$found" ]; then
        ln -sf "$(readlink -f "$found")" "$dir/lib/$so"
        echo "device_setup: $so -> $(readlink -f "$found")" >&2
    else
        missing+=("$so")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "device_setup: not found (searched ${search[*]}): ${missing[*]}" >&2
fi

export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if command -v ldd >/dev/null; then
    if ldd "$dir/bin/hauser" | grep "not found" >&2; then
        echo "device_setup: the binary still lacks the libraries above" >&2
    fi
fi
"$dir/bin/hauser" --version >&2 || echo "device_setup: $dir/bin/hauser --version failed" >&2
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >&2 || true

echo "export HAUSER_BIN=\"$dir/bin/hauser\" LD_LIBRARY_PATH=\"$LD_LIBRARY_PATH\""
[ -f "$dir/wordnet/data.verb" ] && echo "export WORDNET_DIR=\"$dir/wordnet\""
[ -d "$dir/refsite/comet" ] && echo "export HAUSER_REFSITE=\"$dir/refsite\""
true
