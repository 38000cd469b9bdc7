#!/usr/bin/env bash
# Publishing checks for the library crates (run by .ci/run):
# 1. a user's `cargo add figlang-metrics` without features compiles no neural crate;
# 2. every library crate builds on its own without default features;
# 3. `cargo package` assembles every publishable crate (workspace mode resolves the
#    dependencies between them through a local registry, as `cargo publish` would);
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0

neural=$(cargo tree -p figlang-metrics -e normal --prefix none | grep -Ec '^(candle|tokenizers|hf-hub|hauser-nli) ' || true)
if [ "$neural" != 0 ]; then
    echo "figlang-metrics without features pulls in neural crates:" >&2
    cargo tree -p figlang-metrics -e normal | grep -E 'candle|tokenizers|hf-hub|hauser-nli' >&2
    exit 1
fi
echo "publish-checks: figlang-metrics without features depends on no neural crate"

# clippy rather than check: it reuses the workspace clippy run's dependency builds, and lints the
# feature-less configuration a user of one crate compiles.
for crate in hauser-core hauser-extract hauser-kb figlang-stats figlang-metrics hauser-nli figlang-tasks; do
    cargo clippy --quiet -p "$crate" --no-default-features --all-targets -- -D warnings
done
echo "publish-checks: library crates build and lint with --no-default-features"

# --no-verify: the workspace build above already compiles these sources; verifying would build
# Candle a second time under a different profile (6 minutes on CI's two cores). A verified run is
# `cargo package --workspace --exclude hauser-examples --exclude hauser-benches --exclude hauser-testkit --exclude hauser-python`.
cargo package --quiet --workspace --exclude hauser-examples --exclude hauser-benches --exclude hauser-testkit --exclude hauser-python --no-verify
echo "publish-checks: cargo package assembled $(ls target/package/*.crate | wc -l) crates"
