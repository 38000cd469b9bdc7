#!/usr/bin/env bash
# Checks of the GPU harness that need no GPU (not part of .ci/run): the scripts parse, the matrix
# lists its heads, and, given a CPU `hauser` ($HAUSER_BIN or target/debug/hauser), the comparison
# works end to end: a stand-in "device" that is the CPU in f32 must pass with difference 0, and one
# that adds 1e-3 to every number it prints in bf16 must show that difference.
#
#   bash tools/gpu/check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -m py_compile tools/gpu/matrix.py tools/gpu/bench.py
for s in tools/gpu/device_setup.sh tools/gpu/build_carry.sh tools/gpu/build_refsite.sh tools/bench_gpu.sh; do
    bash -n "$s"
done
n=$(python3 tools/gpu/matrix.py --list | wc -l)
[ "$n" -ge 40 ] || { echo "check.sh: only $n heads listed" >&2; exit 1; }
w=$(python3 tools/gpu/bench.py --list | wc -l)
[ "$w" -eq 8 ] || { echo "check.sh: $w benchmark workloads listed, not 8" >&2; exit 1; }
echo "check.sh: the scripts parse; $n heads, $w benchmark workloads (the benchmark's end-to-end CPU check needs torch: tools/gpu/README.md)" >&2
bin=${HAUSER_BIN:-target/debug/hauser}
if [ ! -x "$bin" ]; then
    echo "check.sh: no hauser binary at $bin: the end-to-end check is skipped" >&2
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/fake-device" <<'EOF'
#!/usr/bin/env python3
# A stand-in device: runs the real binary on the CPU in f32; in bf16 adds 1e-3 to every decimal number.
import os, re, subprocess, sys
args = sys.argv[1:]
dev, prec = args[args.index("--device") + 1], args[args.index("--precision") + 1]
args[args.index("--device") + 1], args[args.index("--precision") + 1] = "cpu", "f32"
p = subprocess.run([os.environ["REAL_HAUSER"]] + args, capture_output=True, text=True)
out = p.stdout
if dev == "fake" and prec == "bf16":
    out = re.sub(r"(?<![\w.])-?\d+\.\d+(?:[eE][-+]?\d+)?", lambda m: repr(float(m.group(0)) + 1e-3), out)
sys.stdout.write(out)
sys.stderr.write(p.stderr)
sys.exit(p.returncode)
EOF
chmod +x "$tmp/fake-device"
REAL_HAUSER=$(readlink -f "$bin") python3 tools/gpu/matrix.py --hauser "$tmp/fake-device" --device fake \
    --precisions f32,bf16 --heads '^(embed/bert|bertscore/bert|comet/xcomet)$' --out "$tmp/m.json" 2>/dev/null
python3 - "$tmp/m.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
assert s["f32"]["all_pass"] and s["f32"]["max_abs_diff"] == 0.0, s["f32"]
d = s["bf16"]["max_abs_diff"]
assert d is not None and abs(d - 1e-3) < 1e-9, s["bf16"]
for e in r["heads"]:
    assert e["runs"]["bf16"]["status"] == "ok" and e["runs"]["bf16"]["max_abs_diff"] > 0, e
print(f"check.sh: end to end: f32 all pass, the perturbed bf16 differs by {d:g}", file=sys.stderr)
EOF
