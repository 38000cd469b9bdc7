#!/usr/bin/env python3
"""Checks that a second build resolves the same dependency features as the workspace's test build.

The Python wheel (maturin builds `hauser-python` alone) and the fuzz crate (a workspace of its own)
share the main workspace's target directory. They reuse its compiled dependencies only where cargo
resolves the same version and features for them as `cargo test --workspace` does; one differing
feature low in the graph (libc, syn, bytemuck) compiles candle, tokenizers and our crates a second
time, minutes of CI (issue 41). Their manifests pin those features ("workspace hack"
dependencies); this check fails, naming the packages, when a dependency update makes the two
resolutions drift apart again.

    python3 tools/check-shared-features.py python       the wheel's build
    python3 tools/check-shared-features.py fuzz         the fuzz build

Packages that only one side has are not compared; a package both have in different versions (the
fuzz crate's lock file is its own) is drift too. `--allow NAME` exempts a package whose
difference is known and cheap (the fuzz build: libfuzzer-sys's `cc/parallel` and the host `libc`
its jobserver uses, which recompile ring and the few crates above it).
"""

import argparse
import subprocess
import sys
from collections import defaultdict

SIDES = {
    "python": ["-p", "hauser-python", "-e", "normal,build"],
    "fuzz": ["--manifest-path", "fuzz/Cargo.toml", "-e", "normal,build"],
}
ALLOWED = {"python": set(), "fuzz": {"cc", "libc"}}


def features(args):
    """Package "name vX.Y.Z" -> the set of feature lists cargo tree prints for it (host and target)."""
    out = subprocess.run(
        ["cargo", "tree", "--quiet", "--prefix", "none", "-f", "{p}|{f}", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = defaultdict(set)
    for line in out.splitlines():
        if "|" not in line:
            continue
        package, feats = line.split("|", 1)
        name_version = " ".join(package.split()[:2])
        found[name_version].add(feats.replace(" (*)", "").strip())
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("side", choices=sorted(SIDES))
    parser.add_argument("--allow", action="append", default=[], help="a package name to exempt")
    args = parser.parse_args()
    allowed = ALLOWED[args.side] | set(args.allow)
    workspace = features(["--workspace", "-e", "normal,build,dev"])
    other = features(SIDES[args.side])
    drift = []
    versions = defaultdict(set)
    for package in workspace:
        versions[package.split()[0]].add(package)
    for package in sorted(other):
        name = package.split()[0]
        if name in versions and package not in versions[name] and name not in allowed:
            drift.append(f"  {package}: the test build has {', '.join(sorted(versions[name]))} (lock files differ)")
    for package in sorted(set(workspace) & set(other)):
        if package.split()[0] in allowed or workspace[package] == other[package]:
            continue
        drift.append(f"  {package}: test build {sorted(workspace[package])}, {args.side} build {sorted(other[package])}")
    if drift:
        print(
            f"check-shared-features: the {args.side} build resolves other features than the test build,"
            " so it would compile these and everything above them again; pin the test build's features"
            f" in its manifest:\n" + "\n".join(drift),
            file=sys.stderr,
        )
        return 1
    print(f"check-shared-features: the {args.side} build resolves the test build's features")
    return 0


if __name__ == "__main__":
    sys.exit(main())
