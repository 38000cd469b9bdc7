#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer on stable Rust (docs/FUZZING.md).
#
#   bash tools/fuzz.sh list                   the targets
#   bash tools/fuzz.sh build                  build every target (instrumented, see tools/fuzz-rustc.sh)
#   bash tools/fuzz.sh seeds                  generate the seed corpora from ../shared/data
#   bash tools/fuzz.sh run TARGET [ARGS...]   fuzz one target; ARGS go to libFuzzer
#                                             (e.g. -runs=10000000, -max_total_time=60)
#   bash tools/fuzz.sh smoke [SECONDS]        every target for SECONDS (default 5) each
#
# Needs only cargo and a C++ compiler (libfuzzer-sys compiles libFuzzer); no nightly, no
# cargo-fuzz. The corpus a run grows is fuzz/corpus/TARGET (ignored by git); it also reads the
# committed seeds (fuzz/seeds/TARGET) and crash reproducers (fuzz/regressions/TARGET). A crash
# is written to fuzz/artifacts/TARGET/; copy it to fuzz/regressions/TARGET/ once fixed, and
# `cargo test -p hauser-cli --test it fuzz::` replays it from then on. Logs: fuzz/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# The main workspace's target directory: the fuzz build reuses its compiled dependencies.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_INCREMENTAL=0
export RUSTC_WRAPPER="$root/tools/fuzz-rustc.sh"
targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^hauser-fuzz$')

build() {
    cargo build --quiet --manifest-path fuzz/Cargo.toml --bins
}

run() {
    local t=$1
    shift
    echo "$targets" | grep -qx "$t" || { echo "fuzz: unknown target $t (bash tools/fuzz.sh list)" >&2; exit 2; }
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t" "fuzz/logs" "fuzz/seeds/$t" "fuzz/regressions/$t"
    # Scratch files of the command-level targets go to a private directory, removed afterwards.
    local tmp
    tmp=$(mktemp -d)
    # -max_len: user files are larger, but the parsers work line by line and record by record;
    # 4 KiB leaves room for several records while keeping executions fast.
    set +e
    TMPDIR=$tmp nice "$CARGO_TARGET_DIR/debug/$t" -artifact_prefix="fuzz/artifacts/$t/" \
        -max_len=4096 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 "$@" \
        "fuzz/corpus/$t" "fuzz/seeds/$t" "fuzz/regressions/$t" 2>&1 | tee "fuzz/logs/$t.log"
    local rc=${PIPESTATUS[0]}
    set -e
    rm -rf "$tmp"
    return "$rc"
}

case "${1:-}" in
list) echo "$targets" ;;
build) build ;;
seeds) python3 tools/fuzz_seeds.py ;;
run)
    [ $# -ge 2 ] || { echo "usage: bash tools/fuzz.sh run TARGET [libFuzzer args]" >&2; exit 2; }
    build
    shift
    run "$@"
    ;;
smoke)
    secs=${2:-5}
    build
    for t in $targets; do
        run "$t" -max_total_time="$secs" >/dev/null 2>&1 || { tail -40 "fuzz/logs/$t.log" >&2; exit 1; }
        echo "fuzz smoke: $t: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "fuzz/logs/$t.log" | grep -o '[0-9]*$') runs in ${secs}s, no failure"
    done
    ;;
*)
    sed -n '2,16p' "$0" >&2
    exit 2
    ;;
esac
