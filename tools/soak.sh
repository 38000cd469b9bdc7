#!/usr/bin/env bash
# Soak test of `hauser score` (docs/RELIABILITY.md, "Soak"): N candidate groups generated from the
# shipped data (../shared/data/hauser/simile_candidates_raw.json when present, else
# examples/data/similes.jsonl), scored with a synthetic MAPS-KB-sized knowledge base and the tiny
# NLI test model. For each size it checks records in = records out and reports wall time and peak
# RSS; then it kills `kb build` and `score --output` with SIGKILL mid-run and checks that no
# partial output is left at the output path (and that an existing output is left untouched).
# Usage: bash tools/soak.sh [GROUPS ...]        (default: 10000 100000 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SOAK_NO_BUILD:-0}" = 1 ] || cargo build --release --quiet -p hauser-cli
H=$PWD/target/release/hauser
NLI=$PWD/hauser-nli/tests/fixtures/bert
W=$(mktemp -d "${TMPDIR:-/tmp}/hauser-soak.XXXXXX")
trap 'rm -rf "$W"' EXIT
[ $# -gt 0 ] || set -- 10000 100000 1000000
rss() { /usr/bin/time -f "%e %M" -o "$W/time" "$@"; }

"$H" kb synth --triplets 1000000 --seed 7 --out "$W/kb.csv" >/dev/null 2>&1
"$H" kb build --input "$W/kb.csv" --format maps-kb --out "$W/kb.idx" >/dev/null 2>&1
echo "kb: 1,000,000 synthetic triplets, index $(du -h "$W/kb.idx" | cut -f1)"

gen() { # gen N FILE -> prints the number of candidates
    python3 - "$1" "$2" <<'PY'
import json, os, sys
n, out = int(sys.argv[1]), sys.argv[2]
raw = "../shared/data/hauser/simile_candidates_raw.json"
if os.path.exists(raw):
    groups = [(g["origin_sentence"], g["cands"]) for g in json.load(open(raw, encoding="utf-8"))]
else:
    groups = [(g["literal"], g["candidates"]) for g in map(json.loads, open("examples/data/similes.jsonl", encoding="utf-8"))]
total = 0
with open(out, "w", encoding="utf-8") as f:
    for i in range(n):
        lit, cands = groups[i % len(groups)]
        total += len(cands)
        f.write(json.dumps({"id": f"g{i}", "literal": lit, "candidates": cands}) + "\n")
print(total)
PY
}

printf '%10s %11s %9s %9s %12s %11s\n' groups candidates input_MB wall_s peak_RSS_MB records
for n in "$@"; do
    cands=$(gen "$n" "$W/in.jsonl")
    status=0
    rss "$H" score --input "$W/in.jsonl" --kb "$W/kb.idx" --nli "$NLI" \
        --nli-labels entailment,neutral,contradiction --output "$W/out.jsonl" 2>"$W/err" || status=$?
    read -r wall kb <"$W/time"
    records=$(wc -l <"$W/out.jsonl")
    awk -v n="$n" -v c="$cands" -v b="$(stat -c %s "$W/in.jsonl")" -v w="$wall" -v k="$kb" -v r="$records" \
        'BEGIN { printf "%10s %11s %9.1f %9s %12.0f %11s\n", n, c, b / 1048576, w, k / 1024, r }'
    if [ "$records" != "$cands" ] || [ "$status" -gt 1 ]; then
        echo "soak: FAILED: $cands candidates in, $records records out, exit $status" >&2
        tail -5 "$W/err" >&2
        exit 1
    fi
    rm -f "$W/out.jsonl"
done

killed_midway() { # killed_midway OUTPUT SECONDS COMMAND...
    local out=$1 after=$2; shift 2
    "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep "$after"
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "soak: FAILED: $* finished within ${after}s; use a bigger input" >&2
        exit 1
    fi
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
}
"$H" kb synth --triplets 8000000 --seed 8 --out "$W/big.csv" >/dev/null 2>&1
killed_midway "$W/big.idx" 2 "$H" kb build --input "$W/big.csv" --format maps-kb --out "$W/big.idx"
[ ! -e "$W/big.idx" ] || { echo "soak: FAILED: kb build left $W/big.idx after kill -9" >&2; exit 1; }
echo "kill -9 during kb build: no file at the output path; left in its directory: $(cd "$W" && ls -A | grep -v -E '^(kb\.csv|kb\.idx|big\.csv|in\.jsonl|err|time)$' | tr '\n' ' ')"

killed_midway "$W/out.jsonl" 3 "$H" score --input "$W/in.jsonl" --kb "$W/kb.idx" --nli "$NLI" \
    --nli-labels entailment,neutral,contradiction --output "$W/out.jsonl"
[ ! -e "$W/out.jsonl" ] || { echo "soak: FAILED: score left $W/out.jsonl after kill -9" >&2; exit 1; }
echo "previous output" >"$W/out.jsonl"
killed_midway "$W/out.jsonl" 3 "$H" score --input "$W/in.jsonl" --kb "$W/kb.idx" --nli "$NLI" \
    --nli-labels entailment,neutral,contradiction --output "$W/out.jsonl"
[ "$(cat "$W/out.jsonl")" = "previous output" ] || { echo "soak: FAILED: score changed an existing output when killed" >&2; exit 1; }
echo "kill -9 during score --output: no file at a new output path, an existing output left unchanged; left in its directory: $(cd "$W" && ls -A | grep -v -E '^(kb\.csv|kb\.idx|big\.csv|in\.jsonl|out\.jsonl|err|time)$' | tr '\n' ' ')"
