#!/usr/bin/env python3
"""Differential check of `hauser comet-score` / `hauser comet-compare` against unbabel-comet
2.2.7 on random files and random command lines, with the tiny COMET checkpoints of
hauser-nli/tests/fixtures (comet: estimator, regression, reference-free, classifier;
comet-unified: CometKiwi, XCOMET).

    .cache/pycomet/bin/python tools/diff/diff_comet_cli.py HAUSER [N] [SEED]

HAUSER is the `hauser` binary. comet runs with `Module.half` made a no-op, as in
tools/gen/gen_comet_cli_fixtures.py: its own commands score in float16, whose last digits follow the
processor's kernels (docs/DROP-IN-COMET-BERTSCORE.md, tools/diff/comet_half_dispatch.py). Each of N
rounds (default 30) writes a source, a reference and up to three system files of random text
(the lines of tools/diff/diff_common.py, empty lines included), draws the command, model,
`-r` or not, `--batch_size`, `--only_system`, `--quiet` or not, and for comet-compare the t-test
options, runs both, and compares standard output and the exit status. Printed scores may differ
in their fourth decimal where a float32 score lies within 1e-6 of a rounding boundary (the
kernels differ in their last bits); such lines are listed apart. Prints each differing round
and a summary; exits 1 if any round differs.
"""

import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# gen_comet_cli_fixtures (the checkpoints' run folders) is a fixture generator, in tools/gen/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gen"))
from diff_common import arguments, finish, line, pieces_match  # noqa: E402
from gen_comet_cli_fixtures import MODELS, RUNNER, UNIFIED, run_dir  # noqa: E402

# (checkpoint, needs a reference, family)
CHECKPOINTS = [
    ("regression", True, "models"),
    ("estimator", True, "models"),
    ("qe", False, "models"),
    ("cls", True, "models"),
    ("kiwi", False, "unified"),
    ("xcomet", False, "unified"),
]


def near(got, want):
    """Whether two outputs differ only in printed numbers one unit apart in the last digit."""
    return pieces_match(got, want, r"(\d+\.\d+)",
                        lambda a, b: abs(float(a) - float(b)) <= 1.01 * 10 ** -len(b.split(".")[1]))


def main():
    hauser, rounds, seed, rng = arguments(__doc__, 30)
    bad = close = 0
    with tempfile.TemporaryDirectory() as tmp:
        works = {"models": run_dir(Path(tmp) / "models", MODELS), "unified": run_dir(Path(tmp) / "unified", UNIFIED)}
        for k in range(rounds):
            name, needs_ref, family = rng.choice(CHECKPOINTS)
            work = works[family]
            root = MODELS if family == "models" else UNIFIED
            n = rng.randint(1, 9)
            files = {"src.txt": [line(rng) for _ in range(n)], "ref.txt": [line(rng) for _ in range(n)]}
            nsys = rng.randint(1, 3)
            for i in range(1, nsys + 1):
                files[f"sys{i}.txt"] = [line(rng) for _ in range(n)]
            for f, lines in files.items():
                (work / f).write_text("".join(l + "\n" for l in lines), encoding="utf-8")
            compare = nsys > 1 and rng.random() < 0.3
            argv = ["-s", "src.txt", "-t", *[f"sys{i}.txt" for i in range(1, nsys + 1)]]
            if needs_ref or rng.random() < 0.5:
                argv += ["-r", "ref.txt"]
            argv += ["--model", str(root / name / "checkpoints" / "model.ckpt"), "--gpus", "0"]
            if rng.random() < 0.8:
                argv.append("--quiet")
            if rng.random() < 0.5:
                argv += ["--batch_size", str(rng.choice([1, 2, 3, 8, 16]))]
            if compare:
                if rng.random() < 0.5:
                    argv += ["--t_test_alternative", rng.choice(["two-sided", "less", "greater"])]
                if rng.random() < 0.5:
                    argv += ["--num_splits", str(rng.choice([10, 50, 300])), "--sample_ratio", str(rng.choice([0.3, 0.5, 0.9]))]
                mod, fn, prog = "compare", "compare_command", "comet-compare"
            else:
                if rng.random() < 0.3:
                    argv.append("--only_system")
                mod, fn, prog = "score", "score_command", "comet-score"
            code = RUNNER.format(mod=mod, fn=fn, prog=prog)
            want = subprocess.run([sys.executable, "-c", code, *argv], cwd=work, capture_output=True, text=True)
            got = subprocess.run([hauser, prog, *argv], cwd=work, capture_output=True, text=True)
            if got.returncode == want.returncode and got.stdout == want.stdout:
                continue
            if got.returncode == want.returncode and near(got.stdout, want.stdout):
                close += 1
                print(f"--- round {k} (last-digit difference): {prog} {shlex.join(argv)}")
                for a, b in zip(got.stdout.splitlines(), want.stdout.splitlines()):
                    if a != b:
                        print(f"  comet:  {b}\n  hauser: {a}")
                continue
            bad += 1
            print(f"--- round {k}: {prog} {shlex.join(argv)}")
            print(f"comet (exit {want.returncode}):\n{want.stdout}{want.stderr[-1500:]}")
            print(f"hauser (exit {got.returncode}):\n{got.stdout}{got.stderr[-1500:]}")
            for f in files:
                print(f"{f}: {(work / f).read_bytes()!r}")
            sys.stdout.flush()
    finish("diff_comet_cli", rounds, bad, {}, "comet", f" (seed {seed})",
           [f"{close} rounds one unit apart in a printed last digit"], near=close)

if __name__ == "__main__":
    main()
