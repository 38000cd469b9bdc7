#!/usr/bin/env bash
# Diversity benchmark (docs/PERFORMANCE.md, "NewsMet diversity"): Lesk senses and LCH clusters of
# the 711 released candidate families (6 candidates each), `hauser newsmet diversity` (release
# build) side by side with NLTK 3.10.4 (tools/gen/newsmet_diversity_ref.py, same rules) in one run;
# the two lists of diversity counts must be equal.
#
# Usage: bash tools/bench/bench_newsmet_diversity.sh [REPEATS=3]
# Needs: ../shared/data/newsmet (HAUSER_SHARED_DATA), WordNet 3.0 (WORDNET_DIR, default
# /usr/share/wordnet), a Python with tools/requirements.txt (PYTHON, default tools/pyref.sh's).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEATS="${1:-3}"
PY="${PYTHON:-$(bash tools/pyref.sh)}"
WN="${WORDNET_DIR:-/usr/share/wordnet}"
OUT=.cache/bench-newsmet
mkdir -p "$OUT"
"$PY" tools/gen/newsmet_diversity_ref.py jsonl "$OUT/families.jsonl"
cargo build --release -p hauser-cli
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $(wc -l < "$OUT/families.jsonl") families; best of $REPEATS"
best=""
for _ in $(seq "$REPEATS"); do
    # The whole command: opening WordNet, the verbs' depth table, every family.
    s=$( { /usr/bin/time -f "%e" target/release/hauser newsmet diversity -i "$OUT/families.jsonl" --wordnet "$WN" > "$OUT/ours.jsonl"; } 2>&1 )
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
done
echo "hauser: $best s (whole command)"
"$PY" tools/gen/newsmet_diversity_ref.py time "$OUT/families.jsonl" "$REPEATS" > "$OUT/nltk.json" 2>/dev/null
"$PY" - "$OUT" "$best" <<'PY'
import json, sys
d, ours_s = sys.argv[1], float(sys.argv[2])
t = json.load(open(f"{d}/nltk.json"))
ours = [json.loads(l)["diversity"] for l in open(f"{d}/ours.jsonl")]
assert ours == t["diversity"], "diversity counts differ"
print(f"nltk: {t['seconds']:.2f} s (clustering only, WordNet already loaded)")
print(f"nltk / hauser: {t['seconds'] / ours_s:.1f}x; all {len(ours)} diversity counts equal")
PY
