#!/usr/bin/env bash
# RUSTC_WRAPPER of the fuzz build (tools/fuzz.sh): adds libFuzzer's coverage instrumentation
# (SanitizerCoverage, the flags cargo-fuzz passes; all of them work on stable Rust) to the
# project's own crates and the fuzz crate only. Dependencies stay as the main workspace builds
# them, so the fuzz build reuses their compiled copies in the shared target directory, and the
# fuzzer spends its coverage map on our parsers rather than on Candle. hauser_nli is
# instrumented for COMET's hparams.yaml reader (comet_hparams), which it holds.
set -euo pipefail
rustc=$1
shift
crate=
prev=
for arg in "$@"; do
    [ "$prev" = --crate-name ] && crate=$arg
    prev=$arg
done
case "$crate" in
hauser_core | hauser_kb | hauser_extract | hauser_cli | figlang_metrics | hauser_nli | hauser_fuzz | \
    score_input | extract | rule_extractor | kb_ingest | kb_index | meta_eval | tokenizers | \
    text_metrics | components_literal | word_vectors)
    exec "$rustc" "$@" --cfg fuzzing -Cpasses=sancov-module \
        -Cllvm-args=-sanitizer-coverage-level=4 \
        -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
        -Cllvm-args=-sanitizer-coverage-pc-table \
        -Cllvm-args=-sanitizer-coverage-trace-compares
    ;;
*) exec "$rustc" "$@" ;;
esac
