"""Shared fixtures of the Python package's tests: the repository, the `hauser` CLI to compare
with, the text-metric corpus of the Rust golden tests, and the tolerances those tests use.

The CLI is `$HAUSER_CLI`, else `target/debug/hauser` of the repository (tools/python-tests.sh
builds it); tests needing it fail, never pass unchecked, when it is missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import pytest

ROOT = Path(__file__).resolve().parents[3]
# The fixture generators, whose sentence corpus and patched references the tests import.
GENERATORS = ROOT / "tools" / "gen"
NLI_FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
METRIC_FIXTURES = ROOT / "figlang-metrics" / "tests" / "fixtures"
STATS_FIXTURES = ROOT / "figlang-stats" / "tests" / "fixtures"
WORDNET = Path(os.environ.get("WORDNET_DIR", "/usr/share/wordnet"))


def nli_reference(*parts: str) -> Any:
    """The reference values a learned-metric fixture's generator stored (its reference.json)."""
    return json.loads(NLI_FIXTURES.joinpath(*parts, "reference.json").read_text())


def comet_samples(r: Any, mode: str) -> List[Dict[str, str]]:
    """unbabel-comet's samples of a COMET fixture's texts, with `src` and `ref` where `mode`
    ("src", "ref", "src+ref") names them."""
    rows = []
    for s, m, f in zip(r["src"], r["mt"], r["ref"]):
        row = {"mt": m}
        if "src" in mode:
            row["src"] = s
        if "ref" in mode:
            row["ref"] = f
        rows.append(row)
    return rows


def unified_cases() -> List[Any]:
    """Every (model, mode) of the unified COMET fixture, as pytest parameters."""
    r = nli_reference("comet-unified")
    return [pytest.param(m, mode, id=f"{m}-{mode}") for m, modes in r["models"].items() for mode in modes]

# The Rust golden tests' tolerances (docs/METRICS.md, figlang-metrics/tests/fixtures/*.json).
TEXT_TOL = 1e-9
STAT_ABS = 1e-12
P_REL = 1e-9

sys.path.insert(0, str(GENERATORS))


def cli_path() -> Path:
    env = os.environ.get("HAUSER_CLI")
    return Path(env) if env else ROOT / "target" / "debug" / "hauser"


@pytest.fixture(scope="session")
def cli() -> "Cli":
    path = cli_path()
    if not path.exists():
        pytest.fail(f"no hauser CLI at {path}: build it (cargo build -p hauser-cli) or set HAUSER_CLI")
    return Cli(path)


class Cli:
    """Runs the `hauser` binary."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, args: Sequence[str], stdin: Optional[str] = None) -> str:
        p = subprocess.run(
            [str(self.path), *map(str, args)],
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
        )
        if p.returncode != 0:
            raise AssertionError(f"hauser {' '.join(map(str, args))} failed ({p.returncode}): {p.stderr}")
        return p.stdout

    def json(self, args: Sequence[str]) -> Any:
        return json.loads(self.run(args))

    def jsonl(self, args: Sequence[str]) -> List[Any]:
        return [json.loads(line) for line in self.run(args).splitlines() if line.strip()]

    def floats(self, args: Sequence[str]) -> List[float]:
        return [float(line) for line in self.run(args).splitlines()]


def write_lines(path: Path, lines: Sequence[str]) -> Path:
    """Writes one segment per line (the CLI's --hyp/--ref files)."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def corpus() -> List[Any]:
    """(hypothesis, [references]) items of the Rust golden tests (tools/gen/text_metric_corpus.py)."""
    import text_metric_corpus

    return text_metric_corpus.pairs()


@pytest.fixture(scope="session")
def single(corpus: List[Any]) -> Any:
    """The single-reference items whose texts fit on one line: (hypotheses, references)."""
    items = [(h, r[0]) for h, r in corpus if len(r) == 1 and "\n" not in h + r[0]]
    return [h for h, _ in items], [r for _, r in items]


@pytest.fixture(scope="session")
def multi(corpus: List[Any]) -> Any:
    """Items with three references each: (hypotheses, [refs1, refs2, refs3]) streams."""
    items = [(h, r) for h, r in corpus if len(r) == 3]
    return [h for h, _ in items], [[r[k] for _, r in items] for k in range(3)]


def close(a: float, b: float, tol: float = TEXT_TOL) -> bool:
    """Equal within `tol` (absolute), NaN equal to NaN and to None (the CLI's JSON null)."""
    if a is None or b is None:
        return (a is None or a != a) and (b is None or b != b)
    if a != a or b != b:
        return a != a and b != b
    return abs(a - b) <= tol


needs_wordnet = pytest.mark.skipif(
    not (WORDNET / "data.noun").exists(),
    reason=f"no WordNet database at {WORDNET} (apt-get install wordnet-base)",
)
