#!/usr/bin/env bash
# The Python package (bindings/python), as .ci/run checks it:
#   1. rustfmt and clippy (-D warnings) on the bindings crate (a member of the main workspace,
#      not a default one), with and without its default features;
#   2. a fresh virtual environment, .cache/python-tests, from tools/requirements-python-tests.txt
#      (maturin, pytest, NumPy/pandas/pyarrow and the reference packages: sacreBLEU, rouge-score,
#      NLTK, SciPy, scikit-learn, statsmodels, krippendorff), plus
#      tools/requirements-python-tests-neural.txt (torch, transformers, bert_score) when
#      HAUSER_PYTEST_NEURAL_REFS=1;
#   3. the wheel, built by maturin (the dev profile, whose dependencies are optimised; pass
#      --release for the distributable wheel), installed into that environment;
#   4. the `hauser` CLI the tests compare with (`cargo build -p hauser-cli`, or $HAUSER_CLI);
#   5. mypy --strict on the package's sources and stubs, stubtest of the stubs against the
#      installed wheel;
#   6. pytest on bindings/python/tests, from outside the source tree so that the installed
#      wheel is what is imported.
# Builds share the main workspace's target directory (or $CARGO_TARGET_DIR), so the bindings
# reuse the dependencies the workspace build compiled (its manifest pins the features the test
# build resolves: tools/check-shared-features.py, which .ci/run runs, keeps them equal); HAUSER_PYTHON_BUILD_TOOLCHAIN names the
# toolchain of the build steps (.ci/run passes its test build's), the lints use the default one
# as the workspace's lints do. `--release` first builds the distributable wheel; other
# arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_INCREMENTAL=0
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
profile=dev
if [ "${1:-}" = "--release" ]; then
    profile=release
    shift
fi

with_toolchain() {
    if [ -n "${HAUSER_PYTHON_BUILD_TOOLCHAIN:-}" ]; then
        RUSTUP_TOOLCHAIN="$HAUSER_PYTHON_BUILD_TOOLCHAIN" "$@"
    else
        "$@"
    fi
}

cargo fmt -p hauser-python -- --check
cargo clippy --quiet -p hauser-python --all-targets -- -D warnings
cargo clippy --quiet -p hauser-python --all-targets --no-default-features -- -D warnings
echo "python-tests: bindings crate formatted and lint-free ($SECONDS s)"

venv=.cache/python-tests
rm -rf "$venv"
python3 -m venv "$venv"
py="$root/$venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet -r tools/requirements-python-tests.txt
if [ "${HAUSER_PYTEST_NEURAL_REFS:-0}" = 1 ]; then
    "$py" -m pip install --quiet -r tools/requirements-python-tests-neural.txt
fi
echo "python-tests: fresh environment $venv ($("$py" --version); $SECONDS s)"

wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
(cd bindings/python && with_toolchain "$root/$venv/bin/maturin" build --quiet --profile "$profile" --interpreter "$py" --out "$wheels")
"$py" -m pip install --quiet "$wheels"/hauser-*.whl
echo "python-tests: installed $(basename "$wheels"/hauser-*.whl) ($SECONDS s)"

if [ -z "${HAUSER_CLI:-}" ]; then
    with_toolchain cargo build --quiet -p hauser-cli
    export HAUSER_CLI="$CARGO_TARGET_DIR/debug/hauser"
fi

# The types: the package's annotations and _hauser.pyi under mypy --strict, and the stubs
# against the installed extension module (stubtest; allowlist: bindings/python/stubtest-allowlist.txt).
(cd bindings/python/python && "$py" -m mypy --strict --no-incremental --cache-dir=/dev/null hauser)
(cd "$wheels" && "$py" -m mypy.stubtest hauser --allowlist "$root/bindings/python/stubtest-allowlist.txt")
echo "python-tests: mypy --strict and stubtest pass ($SECONDS s)"

cd "$wheels"
"$py" -m pytest -q -p no:cacheprovider --durations=5 --rootdir "$root/bindings/python" "$root/bindings/python/tests" "$@"
