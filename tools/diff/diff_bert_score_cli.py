#!/usr/bin/env python3
"""Differential check of `hauser bert-score` against bert_score 0.3.13's `bert-score` command
on random files and random command lines, with the tiny random BERT and RoBERTa of
hauser-nli/tests/fixtures.

    .cache/pybs/bin/python tools/diff/diff_bert_score_cli.py HAUSER [N] [SEED]

(.cache/pybs as tools/gen/gen_bert_score_cli_fixtures.py sets it up.) HAUSER is the `hauser`
binary. Each of N rounds (default 40) writes candidates and one to three reference files of
random text (the lines of tools/diff/diff_common.py, empty lines included; the tiny models'
vocabularies turn most of it into [UNK] pieces, which is fine: the arithmetic is the same),
sometimes passes texts instead of files, draws `-m`, `-l`, `--idf`, `-b`, `-s`,
`--rescale_with_baseline` with or without `--baseline_path` and `--lang`, and compares standard
output and the exit status. As in hauser-cli/tests/it/drop_in_bert_score.rs, the transformers
version in bert_score's hash is replaced by hauser's, and a printed number may be one unit off
in its sixth decimal (hauser's greedy matching is f64, bert_score's float32;
docs/DROP-IN-COMET-BERTSCORE.md); rounds where bert_score crashes on a batch of token-less texts
(KNOWN) are counted instead. Prints each differing round and a summary; exits 1 if any
round differs.
"""

import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from diff_common import arguments, finish, line, pieces_match  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "hauser-nli" / "tests" / "fixtures"
# bert_score crashes where hauser prints the scores (docs/DROP-IN-COMET-BERTSCORE.md): with the
# tiny models' generic tokenizer class an empty text has no token, and a batch of such texts
# (or a pair whose reference batch holds only such texts) fails in torch. Counted, not compared.
KNOWN = (
    "Expected reduction dim 2 to have non-zero size",
    "index 0 is out of bounds for dimension 1 with size 0",
)
BASELINE = "LAYER,P,R,F\n0,0.5,0.45,0.47\n1,0.31,0.32,0.315\n2,0.2,0.25,0.22\n"


def same(got, want, version):
    want = re.sub(r"\(hug_trans=[^)]*\)", f"(hug_trans=hauser-{version})", want)
    return pieces_match(got, want, r"[\t \n]", lambda a, b: abs(float(a) - float(b)) < 1.5e-6)


def main():
    hauser, rounds, seed, rng = arguments(__doc__, 40)
    version = subprocess.run([hauser, "--version"], capture_output=True, text=True).stdout.split()[-1]
    exe = Path(sys.executable).parent / "bert-score"
    bad = 0
    crashes = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for m in ("bert", "roberta"):
            shutil.copytree(MODELS / m, work / m)
        (work / "baseline.csv").write_text(BASELINE, encoding="utf-8")
        for k in range(rounds):
            n = rng.randint(1, 8)
            cands = [line(rng) for _ in range(n)]
            nrefs = rng.randint(1, 3)
            for i in range(nrefs):
                lines = [line(rng) for _ in range(n)]
                (work / f"ref{i}.txt").write_text("".join(l + "\n" for l in lines), encoding="utf-8")
            (work / "cand.txt").write_text("".join(l + "\n" for l in cands), encoding="utf-8")
            if rng.random() < 0.1:
                argv = ["-r", line(rng) or "x", "-c", line(rng) or "y"]
            else:
                argv = ["-r", *[f"ref{i}.txt" for i in range(nrefs)], "-c", "cand.txt"]
            argv += ["-m", rng.choice(["bert", "roberta"]), "-l", str(rng.randint(0, 2))]
            if rng.random() < 0.4:
                argv.append("--idf")
            if rng.random() < 0.4:
                argv += ["-b", str(rng.randint(1, 5))]
            if rng.random() < 0.6:
                argv.append("-s")
            if rng.random() < 0.3:
                argv += ["--lang", "en", "--rescale_with_baseline"]
                if rng.random() < 0.8:
                    argv += ["--baseline_path", "baseline.csv"]
            want = subprocess.run([str(exe), *argv], cwd=work, capture_output=True, text=True)
            got = subprocess.run([hauser, "bert-score", *argv], cwd=work, capture_output=True, text=True)
            known = next((k2 for k2 in KNOWN if want.returncode != 0 and k2 in want.stderr), None)
            if known:
                crashes[known] = crashes.get(known, 0) + 1
                continue
            if got.returncode != want.returncode or not same(got.stdout, want.stdout, version):
                bad += 1
                print(f"--- round {k}: bert-score {shlex.join(argv)}")
                print(f"bert_score (exit {want.returncode}):\n{want.stdout}{want.stderr[-2000:]}")
                print(f"hauser (exit {got.returncode}):\n{got.stdout}{got.stderr[-2000:]}")
                for name in ["cand.txt"] + [f"ref{i}.txt" for i in range(nrefs)]:
                    print(f"{name}: {(work / name).read_bytes()!r}")
                sys.stdout.flush()
    finish("diff_bert_score_cli", rounds, bad, crashes, "bert_score", f" (seed {seed})",
           doc="docs/DROP-IN-COMET-BERTSCORE.md")

if __name__ == "__main__":
    main()
