#!/usr/bin/env python3
"""How unbabel-comet 2.2.7's `comet-score` float16 lines depend on the CPU kernels it runs on.

    .cache/pycomet/bin/python tools/diff/comet_half_dispatch.py

comet-score calls `model.half()`, so on the CPU it scores in float16 with PyTorch's and
oneDNN's half-precision kernels. This script runs the unmodified command on the regression
checkpoint of hauser-nli/tests/fixtures/comet (the inputs of tools/gen/gen_comet_cli_fixtures.py)
several times on one machine: with the kernels PyTorch picks by default, with its CPU dispatch
capped by `ATEN_CPU_CAPABILITY` and oneDNN's by `ONEDNN_MAX_CPU_ISA` (both documented switches
of those libraries), and at several `--batch_size` values. It prints one Markdown row per run:
the segment scores and the system score as comet prints them. The float32 row makes
`Module.half` a no-op, as the golden cases do; it is the row `hauser comet-score` prints.

docs/DROP-IN-COMET-BERTSCORE.md ("Precision") quotes the table and says what it means: the
float16 lines are not a function of the command's inputs, so there is no one output to copy.
"""

import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

# gen_comet_cli_fixtures (the checkpoints' run folders) is a fixture generator, in tools/gen/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gen"))
from gen_comet_cli_fixtures import MODELS, run_dir, write_inputs  # noqa: E402

RUNNER = (
    "import sys, torch\n"
    "if {f32}: torch.nn.Module.half = lambda self: self\n"
    "from comet.cli.score import score_command\n"
    "sys.argv[0] = 'comet-score'\n"
    "score_command()\n"
)

# (label, environment, float32?, batch size)
RUNS = [
    ("float32 (`Module.half` a no-op), batch 8", {}, True, 8),
    ("float16, default kernels, batch 8", {}, False, 8),
    ("float16, default kernels, batch 1", {}, False, 1),
    ("float16, default kernels, batch 2", {}, False, 2),
    ("float16, `ONEDNN_MAX_CPU_ISA=AVX2`, batch 8", {"ONEDNN_MAX_CPU_ISA": "AVX2"}, False, 8),
    ("float16, `ATEN_CPU_CAPABILITY=avx2`, batch 8", {"ATEN_CPU_CAPABILITY": "avx2"}, False, 8),
    (
        "float16, `ATEN_CPU_CAPABILITY=default ONEDNN_MAX_CPU_ISA=SSE41`, batch 8",
        {"ATEN_CPU_CAPABILITY": "default", "ONEDNN_MAX_CPU_ISA": "SSE41"},
        False,
        8,
    ),
]


def cpu_flags():
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown"
    flags = next((l.split(":", 1)[1].split() for l in text.splitlines() if l.startswith("flags")), [])
    wanted = ("avx2", "avx512f", "avx512_fp16", "amx_tile", "f16c")
    return " ".join(f for f in wanted if f in flags) or "none of " + " ".join(wanted)


def main():
    import torch

    print(f"torch {torch.__version__}, {platform.machine()}, CPU flags: {cpu_flags()}")
    print()
    print("| run | segment scores | system |")
    print("| --- | --- | --- |")
    model = MODELS / "regression" / "checkpoints" / "model.ckpt"
    with tempfile.TemporaryDirectory() as tmp:
        work = run_dir(Path(tmp), MODELS)
        write_inputs(work)
        for label, env, f32, batch in RUNS:
            argv = ["-s", "src.txt", "-t", "sys1.txt", "-r", "ref.txt", "--model", str(model),
                    "--gpus", "0", "--quiet", "--batch_size", str(batch)]
            code = RUNNER.format(f32=f32)
            p = subprocess.run([sys.executable, "-c", code, *argv], cwd=work, capture_output=True,
                               text=True, env={**os.environ, **env})
            if p.returncode != 0:
                sys.exit(f"{label}: comet-score failed:\n{p.stderr}")
            scores = [l.rsplit(" ", 1)[1] for l in p.stdout.splitlines() if "score: " in l]
            print(f"| {label} | {' '.join(scores[:-1])} | {scores[-1]} |")


if __name__ == "__main__":
    main()
