#!/usr/bin/env bash
# Installs what the test suite needs beyond cargo, idempotently:
# - nothing yet beyond the Rust toolchain; later issues add WordNet and the MiniLM wheel here.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
