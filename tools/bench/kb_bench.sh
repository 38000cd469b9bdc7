#!/usr/bin/env bash
# Knowledge-base benchmark (issue 3), all in one run on one machine:
#   1. `hauser kb synth` writes a synthetic MAPS-KB-format CSV (default 4.3M rows, seed 1);
#   2. `hauser kb build` under /usr/bin/time -v: build time and peak RSS while building;
#   3. `hauser kb stats` and `hauser score --kb` on the 150 annotated similes under
#      /usr/bin/time -v: open + serve time and peak RSS while serving;
#   4. the pandas reference (tools/gen/kb_pandas_ref.py bench: read_csv + the original dataframe
#      filter per lookup);
#   5. criterion (benches/benches/kb.rs): open, indexed lookups, the naive full scan per lookup,
#      scoring of the 12,495 raw candidates and of the 150 annotated similes.
# Results: target/kb-bench/*.json|*.time and criterion's target/criterion/kb/.
# Usage: tools/bench/kb_bench.sh [ROWS]    (PY=python with pandas; default: the tools/pyref.sh environment)
set -euo pipefail
N=${1:-4300000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/target/kb-bench
PY=${PY:-$(bash "$ROOT/tools/pyref.sh")}
DATA=${HAUSER_SHARED_DATA:-$ROOT/../shared/data}
mkdir -p "$OUT"
cd "$ROOT"
cargo build --release -p hauser-cli --bin hauser
H=$ROOT/target/release/hauser
CSV=$OUT/synth-$N.csv
IDX=$OUT/synth-$N.idx

timed() { # name, command...: runs under /usr/bin/time -v, keeps stdout and the time report
  local name=$1; shift
  /usr/bin/time -v "$@" > "$OUT/$name.json" 2> "$OUT/$name.time"
  printf '%-12s wall %s  peak RSS %s kB\n' "$name" \
    "$(grep 'Elapsed (wall' "$OUT/$name.time" | awk '{print $NF}')" \
    "$(grep 'Maximum resident' "$OUT/$name.time" | awk '{print $NF}')"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB RAM, load $(cut -d' ' -f1-3 /proc/loadavg)"
timed synth "$H" kb synth --triplets "$N" --seed 1 --out "$CSV"
rm -f "$IDX"
timed build "$H" kb build --input "$CSV" --format maps-kb --out "$IDX"
timed stats "$H" kb stats "$IDX"
timed lookup "$H" kb lookup "$IDX" --topic "$(sed -n 2p "$CSV" | cut -d, -f1)" --vehicle "$(sed -n 2p "$CSV" | cut -d, -f3)"
if [ -f "$DATA/hauser/human_annotated.csv" ]; then
  "$PY" - "$DATA/hauser/human_annotated.csv" > "$OUT/annotated.jsonl" <<'PYEOF'
import ast, csv, json, sys
groups = {}
for row in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    g = groups.setdefault(row["literal_sentences"], {"literal": row["literal_sentences"], "candidates": [], "components": []})
    g["candidates"].append(row["similes"])
    g["components"].append([list(c) for c in ast.literal_eval(row["components"])])
for g in groups.values():
    print(json.dumps(g))
PYEOF
  timed score150 "$H" score --input "$OUT/annotated.jsonl" --kb "$IDX"
fi
echo "pandas reference (read_csv + dataframe filter per lookup):"
"$PY" tools/gen/kb_pandas_ref.py bench "$CSV" 20 | tee "$OUT/pandas.json"
HAUSER_KB_BENCH_TRIPLETS=$N cargo bench -p hauser-benches --bench kb -- --noplot 2>&1 | tee "$OUT/criterion.txt" \
  | grep -E '^kb/|time:'
