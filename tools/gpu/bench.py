#!/usr/bin/env python3
"""Throughput, memory and cold start of the neural metrics on a device (issue 39, items 1-3 and 5):
hauser against the reference package on the same card, written as `docs/bench/gpu.json`'s schema.

    bench.py prepare WORK [--scale S] [--workloads W,...]   random-weight models and inputs under WORK
    bench.py run --hauser BIN --work WORK [--device cuda] [--precisions f32,f16,bf16] [--budget S]
                 [--matrix matrix.json] [--out gpu.json]    the measurements, one JSON report
    bench.py ref KIND WORK N PRECISION DEVICE BATCH         (internal) one reference run, one JSON line
    bench.py --list                                         the workloads, their shapes and sizes

Workloads (`docs/bench/gpu.json` names), models of the released shapes with random weights, built by
tools/bench/bench_learned.py's builders (the fixtures' small vocabularies; the layers are what costs):
bertscore (RoBERTa large, layer 17, vs bert_score), comet (XLM-R large, wmt22-comet-da's estimator, vs
unbabel-comet 2.2.7 `predict`), cometkiwi (unified_metric, XLM-R base shape), xcomet (the XL layout at
base shape), bleurt (BLEURT-20: RemBERT 32 x 1152, vs bleurt-pytorch), metricx (MetricX-24 on mT5
base, vs the metricx repository's MT5ForRegression), embed (BERT base, mean pooling, `embed --format
npy`, vs sentence-transformers `encode`) and lm (gpt2-medium shape, sentence perplexity, vs a
transformers loop over length-sorted padded batches).

Timings. hauser: `hauser_process_s` is the whole process on N inputs; `hauser_s`, the work alone, is
the slope between that run and one on N_small inputs (same process kind, so the model load, device
start and JIT are subtracted), times N; null when the two runs are too close to tell. Reference: a fresh Python process (`reference_process_s`, wall
clock) that loads the model, runs an untimed pass on the first 64 inputs, then times the pass over all
N with the device synchronised before and after (`reference_s`). `ratio` = reference_s / hauser_s.
Memory: the device's used memory (nvidia-smi, polled every 0.2 s) above what it was before the process
started, for both sides (`peak_mem_mib`, `reference_peak_mem_mib`), and torch's own
`max_memory_allocated` beside the latter. `max_abs_diff`: hauser's scores against the reference's
f32 scores (embeddings element-wise; lm on ln perplexity, the mean negative log-likelihood), and
`max_abs_diff_same_precision` against the reference run at the same precision, both over the
values finite on both sides (`nonfinite_mismatches` counts those finite on one side only).
`first_call_s`: a fresh process (`embed` on one line with the tiny BERT fixture) with the driver's JIT
cache disabled (CUDA_CACHE_DISABLE=1), and `first_call_cached_s` the same with a cache a previous
process filled.

The report is rewritten after every run and every run has a time limit: a call cut short keeps what
it measured; what the --budget left out is listed as not run. With --device cpu the whole harness runs
on the CPU machine (f16/bf16 are then refused by hauser and recorded as errors): tools/gpu/check.sh.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "hauser-nli" / "tests" / "fixtures"
sys.path.insert(0, str(ROOT / "tools" / "bench"))
sys.path.insert(0, str(ROOT / "tools" / "gen"))
sys.path.insert(0, str(ROOT / "tools" / "gpu"))

from matrix import probe, tail  # noqa: E402  (the matrix's own helpers, standard library only)

COMET = "unbabel-comet 2.2.7 predict (f16/bf16: under torch.autocast)"
# name: model directory under WORK/models (tools/bench/bench_learned.py's names), the issue's
# size, the reference and the model's shape (hauser's command: hauser_argv).
WORKLOADS = {
    "bertscore": dict(model="bertscore", n=10_000, reference="bert_score 0.3.13 BERTScorer.score",
                      shape="RoBERTa large, layer 17"),
    "comet": dict(model="comet22", n=10_000, reference=COMET,
                  shape="XLM-R large, wmt22-comet-da estimator"),
    "cometkiwi": dict(model="kiwi", n=10_000, reference=COMET,
                      shape="unified_metric [mt, src], XLM-R base"),
    "xcomet": dict(model="xcomet", n=10_000, reference=COMET,
                   shape="xcomet_metric, XLM-R XL layout at base shape"),
    "bleurt": dict(model="bleurt20", n=10_000, reference="bleurt-pytorch (lucadiliello) forward loop",
                   shape="BLEURT-20, RemBERT 32 x 1152"),
    "metricx": dict(model="metricx", n=10_000, reference="metricx repository MT5ForRegression loop",
                    shape="MetricX-24, mT5 base"),
    "embed": dict(model="embed", n=156_320, reference="sentence-transformers encode",
                  shape="BERT base, mean pooling"),
    "lm": dict(model="lm", n=10_000, reference="transformers GPT2LMHeadModel, length-sorted padded batches",
               shape="gpt2-medium (24 x 1024)"),
}
# References that need the transformers 4 stack of tools/gpu/build_refsite.sh (--refsite); the
# embedding and LM references run on the machine's own packages.
ON_REFSITE = {"bertscore", "comet", "cometkiwi", "xcomet", "bleurt", "metricx"}
DTYPES = {"f32": None, "f16": "float16", "bf16": "bfloat16"}
WARMUP = 64


def hauser_argv(name: str, model: str, inp: Path, out_file: Path) -> list[str]:
    """The hauser command of a workload on the inputs under `inp` (argv after the binary)."""
    f = lambda n: str(inp / n)  # noqa: E731
    common = ["--sentence", "--format", "jsonl"]
    if name == "bertscore":
        return ["metric", "bertscore", "--model", model, "--layer", "17", "--hyp", f("mt.txt"), "--ref",
                f("ref.txt")] + common
    if name in ("comet", "xcomet"):
        return ["metric", "comet", "--model", model, "--src", f("src.txt"), "--hyp", f("mt.txt"), "--ref",
                f("ref.txt")] + common
    if name == "cometkiwi":
        return ["metric", "comet", "--model", model, "--src", f("src.txt"), "--hyp", f("mt.txt")] + common
    if name == "bleurt":
        return ["metric", "bleurt", "--model", model, "--hyp", f("mt.txt"), "--ref", f("ref.txt")] + common
    if name == "metricx":
        return ["metric", "metricx", "--model", model, "--metricx-version", "24", "--max-input-length", "1536",
                "--src", f("src.txt"), "--hyp", f("mt.txt"), "--ref", f("ref.txt")] + common
    if name == "embed":
        return ["embed", "--model", model, "-i", f("sents.txt"), "--format", "npy", "-o", str(out_file)]
    if name == "lm":
        return ["metric", "perplexity", "--model", model, "--hyp", f("sents.txt")] + common
    raise KeyError(name)


# ---------------------------------------------------------------------------------------------- prepare


def prepare_embed(models: Path) -> None:
    import torch
    from bench_learned import randomise
    from transformers import BertConfig, BertModel

    d = models / "embed"
    d.mkdir(parents=True, exist_ok=True)
    for f in ("vocab.txt", "tokenizer.json", "tokenizer_config.json"):
        shutil.copy(FIX / "bert" / f, d / f)
    small = json.loads((FIX / "bert" / "config.json").read_text())
    torch.manual_seed(5)
    m = BertModel(BertConfig(vocab_size=small["vocab_size"], hidden_size=768, num_hidden_layers=12,
                             num_attention_heads=12, intermediate_size=3072, max_position_embeddings=512),
                  add_pooling_layer=False)
    randomise(m)
    m.save_pretrained(d, safe_serialization=True)


def prepare_lm(models: Path) -> None:
    import torch
    from bench_learned import randomise
    from transformers import GPT2Config, GPT2LMHeadModel

    d = models / "lm"
    d.mkdir(parents=True, exist_ok=True)
    for f in ("vocab.json", "merges.txt", "tokenizer.json", "tokenizer_config.json"):
        shutil.copy(FIX / "gpt2" / f, d / f)
    small = json.loads((FIX / "gpt2" / "config.json").read_text())
    torch.manual_seed(6)
    m = GPT2LMHeadModel(GPT2Config(vocab_size=small["vocab_size"], n_embd=1024, n_layer=24, n_head=16,
                                   n_positions=1024, bos_token_id=0, eos_token_id=0))
    randomise(m)
    m.save_pretrained(d, safe_serialization=True)


def prepare(work: Path, scale: float, names: list[str]) -> None:
    from bench_learned import PREPARE, sentences

    models = work / "models"
    models.mkdir(parents=True, exist_ok=True)
    sizes = {n: size(n, scale) for n in names}
    (work / "sizes.json").write_text(json.dumps(sizes))
    pairs = max([sizes[n] for n in names if n not in ("embed", "lm")] or [0])
    cols = {"src.txt": sentences(pairs, 1), "mt.txt": sentences(pairs, 2), "ref.txt": sentences(pairs, 3)}
    for name, lines in cols.items():
        (work / name).write_text("".join(s + "\n" for s in lines))
    with open(work / "inputs.jsonl", "w") as f:
        for s, m, r in zip(cols["src.txt"], cols["mt.txt"], cols["ref.txt"]):
            f.write(json.dumps({"src": s, "mt": m, "ref": r}) + "\n")
    sents = max(sizes.get("embed", 0), sizes.get("lm", 0))
    (work / "sents.txt").write_text("".join(s + "\n" for s in sentences(sents, 4)))
    import torch

    for name in names:
        model = WORKLOADS[name]["model"]
        if (models / model / ".complete").exists():
            continue
        t = time.perf_counter()
        build = {"embed": prepare_embed, "lm": prepare_lm}.get(name, PREPARE[model])
        # Random weights are drawn on the GPU when there is one (a large model's initialisation
        # and randomisation take a minute on the CPU), except COMET's: its checkpoint is a
        # pickle, whose tensors would remember the GPU. Any failure there builds it on the CPU.
        gpu = torch.cuda.is_available() and name in ("embed", "lm", "bertscore", "bleurt", "metricx")
        try:
            with torch.device("cuda" if gpu else "cpu"):
                build(models)
        except Exception as e:  # noqa: BLE001
            if not gpu:
                raise
            print(f"prepare {name} on the GPU failed ({e}); on the CPU", file=sys.stderr)
            build(models)
        (models / model / ".complete").touch()
        print(f"prepared {name} ({model}) in {time.perf_counter() - t:.1f} s", file=sys.stderr)


def size(name: str, scale: float) -> int:
    return max(16, int(round(WORKLOADS[name]["n"] * scale)))


def inputs(work: Path, n: int) -> Path:
    """A folder with the first n lines of every input file."""
    d = work / f"in-{n}"
    if not (d / ".complete").exists():
        d.mkdir(exist_ok=True)
        for name in ("src.txt", "mt.txt", "ref.txt", "sents.txt", "inputs.jsonl"):
            src = work / name
            if src.exists():
                with open(src) as f, open(d / name, "w") as g:
                    for i, line in enumerate(f):
                        if i == n:
                            break
                        g.write(line)
        (d / ".complete").touch()
    return d


# -------------------------------------------------------------------------------------------- reference


def reference(kind: str, work: Path, n: int, precision: str, device: str, batch: int) -> None:
    """One reference run in this process: load, warm up, time the pass over N inputs, save the scores."""
    import numpy as np
    import torch

    import bench_learned

    t_start = time.perf_counter()
    dtype = getattr(torch, DTYPES[precision]) if DTYPES[precision] else None
    models = work / "models"
    model = WORKLOADS[kind]["model"]
    inp = inputs(work, n)
    cuda = device.startswith("cuda")
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    torch.set_grad_enabled(False)
    if kind == "embed":
        load, score = embed_scorer(models / model, (inp / "sents.txt").read_text().splitlines(), batch, device,
                                   dtype)
    elif kind == "lm":
        load, score = lm_scorer(models / model, (inp / "sents.txt").read_text().splitlines(), batch, device,
                                dtype)
    else:
        data = [json.loads(line) for line in (inp / "inputs.jsonl").read_text().splitlines()]
        load, score = bench_learned.scorer(model, models, data, batch, device, dtype)
        head = bench_learned.scorer(model, models, data[:WARMUP], batch, device, dtype)[1]
    state = load()
    loaded = time.perf_counter() - t_start
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    if kind in ("embed", "lm"):
        score(state, WARMUP)
    else:
        head(state)
    sync()
    t = time.perf_counter()
    scores = score(state, None) if kind in ("embed", "lm") else score(state)
    sync()
    seconds = time.perf_counter() - t
    out = work / "ref" / f"{kind}-{precision}.npy"
    out.parent.mkdir(exist_ok=True)
    np.save(out, np.asarray(scores, dtype=np.float64))
    print(json.dumps({
        "load_s": loaded, "seconds": seconds, "n": n, "scores": str(out), "torch": torch.__version__,
        "torch_max_allocated_mib": torch.cuda.max_memory_allocated() / 2**20 if cuda else None,
    }))


def embed_scorer(d: Path, sents: list[str], batch: int, device: str, dtype):
    from sentence_transformers import SentenceTransformer

    def load():
        m = SentenceTransformer(str(d), device=device)
        return m.to(dtype=dtype)  # None (float32) leaves it as it is

    def score(m, limit):
        e = m.encode(sents[:limit] if limit else sents, batch_size=batch, convert_to_tensor=True)
        return e.float().cpu().numpy()

    return load, score


def lm_scorer(d: Path, sents: list[str], batch: int, device: str, dtype):
    """Sentence ln-perplexity (mean NLL of the tokens after the first, no special tokens: transformers'
    `model(ids, labels=ids)` convention, what `hauser metric perplexity` computes by default)."""
    import torch
    from transformers import AutoTokenizer, GPT2LMHeadModel

    def load():
        m = GPT2LMHeadModel.from_pretrained(d).eval()
        m = m.to(device=device, dtype=dtype)
        return AutoTokenizer.from_pretrained(d), m

    def score(state, limit):
        tok, m = state
        texts = sents[:limit] if limit else sents
        ids = tok(texts, add_special_tokens=False)["input_ids"]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        nll = [math.nan] * len(ids)
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            width = max(len(ids[i]) for i in idx)
            x = torch.zeros((len(idx), width), dtype=torch.long)
            mask = torch.zeros((len(idx), width), dtype=torch.long)
            for r, i in enumerate(idx):
                x[r, :len(ids[i])] = torch.tensor(ids[i])
                mask[r, :len(ids[i])] = 1
            x, mask = x.to(device), mask.to(device)
            lp = torch.log_softmax(m(x, attention_mask=mask).logits[:, :-1].float(), -1)
            got = lp.gather(2, x[:, 1:, None])[..., 0] * mask[:, 1:]
            sums, counts = got.sum(1).tolist(), (mask[:, 1:].sum(1)).tolist()
            for r, i in enumerate(idx):
                nll[i] = -sums[r] / counts[r] if counts[r] else math.nan
        return nll

    return load, score


# ------------------------------------------------------------------------------------------------- run


class MemPoll:
    """Peak of the device's used memory above its level at start, polled with nvidia-smi."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and shutil.which("nvidia-smi") is not None
        self.base = self.read() if self.enabled else None
        self.peak = None
        self.stop = threading.Event()

    def read(self):
        out = probe(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"])
        try:
            return sum(float(x) for x in out.split()) if out else None
        except ValueError:
            return None

    def __enter__(self):
        if self.enabled and self.base is not None:
            def loop():
                while not self.stop.wait(0.2):
                    v = self.read()
                    if v is not None:
                        self.peak = max(self.peak or 0.0, v - self.base)
            self.thread = threading.Thread(target=loop, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if hasattr(self, "thread"):
            self.thread.join()


def timed_process(argv: list[str], timeout: float, env=None, mem=False) -> dict:
    with MemPoll(mem) as poll:
        t = time.perf_counter()
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
            status = "ok" if p.returncode == 0 else "error"
            stdout, stderr = p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            err = e.stderr or ""
            status, stdout = "timeout", ""
            stderr = err.decode(errors="replace") if isinstance(err, bytes) else err
        wall = time.perf_counter() - t
    return {"status": status, "wall_s": wall, "stdout": stdout, "stderr": tail(stderr, 3000), "peak_mem_mib": poll.peak,
            "argv": argv}


def hauser_scores(name: str, stdout: str, out_file: Path):
    import numpy as np

    if name == "embed":
        return np.load(out_file).astype(np.float64)
    vals = [json.loads(line)["score"] for line in stdout.splitlines() if line.strip()]
    vals = [math.nan if v is None else float(v) for v in vals]
    if name == "lm":
        vals = [math.log(v) if v > 0 else math.nan for v in vals]
    return np.asarray(vals, dtype=np.float64)


def max_abs_diff(a, b):
    """The largest difference where both are finite, and how many values are finite on one side
    only (None, None when there is nothing to compare)."""
    import numpy as np

    if a is None or b is None or a.shape != b.shape:
        return None, None
    both = np.isfinite(a) & np.isfinite(b)
    one_side = int((np.isfinite(a) != np.isfinite(b)).sum())
    return (float(np.abs(a[both] - b[both]).max()) if both.any() else 0.0), one_side


def gpu_info(device: str) -> dict:
    if not device.startswith("cuda") or shutil.which("nvidia-smi") is None:
        return {"device": device, "driver": None}
    q = (probe(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"])
         or "").splitlines()
    name, driver, mem = (q[0].split(", ") + ["", "", ""])[:3] if q else ("", "", "")
    return {"device": name, "driver": driver, "memory": mem}


def run(args) -> int:
    import numpy as np

    work, started = Path(args.work).resolve(), time.perf_counter()
    sizes = json.loads((work / "sizes.json").read_text())
    names = [n for n in args.workloads.split(",") if n] if args.workloads else list(sizes)
    out = Path(args.out or os.path.join(os.environ.get("OUT", "."), "gpu.json"))
    left = lambda: args.budget - (time.perf_counter() - started)  # noqa: E731
    dev = ["--device", args.device]
    report = dict(gpu_info(args.device), hauser_version=subprocess.run([args.hauser, "--version"], capture_output=True,
                                                                         text=True).stdout.strip(),
                  batch=args.batch, first_call_s=None, first_call_cached_s=None, workloads=[], heads=[],
                  not_run=[], multi_gpu={"status": "not measured",
                                          "why": "--device takes one device (item 4 is not implemented)"})
    if args.matrix and Path(args.matrix).exists():
        report["heads"] = json.loads(Path(args.matrix).read_text()).get("heads_table", [])

    def save():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(report, indent=1) + "\n")
        tmp.replace(out)

    # Item 1: the first device call of a process, without and with the driver's JIT cache.
    one = work / "one.txt"
    one.write_text("The boy ran like the wind.\n")
    first = [args.hauser, "embed", "--model", str(FIX / "bert"), "-i", str(one)] + dev
    cache = work / "jit-cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, CUDA_CACHE_DISABLE="1")
    r = timed_process(first, min(300, left()), env)
    report["first_call_s"] = r["wall_s"] if r["status"] == "ok" else None
    report["first_call"] = {k: r[k] for k in ("status", "stderr")} if r["status"] != "ok" else {"status": "ok"}
    env = dict(os.environ, CUDA_CACHE_PATH=str(cache), CUDA_CACHE_MAXSIZE=str(4 << 30))
    env.pop("CUDA_CACHE_DISABLE", None)
    timed_process(first, min(300, left()), env)
    r = timed_process(first, min(300, left()), env)
    report["first_call_cached_s"] = r["wall_s"] if r["status"] == "ok" else None
    save()

    def ref_env(name):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if args.refsite and name in ON_REFSITE:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (args.refsite, env.get("PYTHONPATH")) if p)
        return env

    ref_f32 = {}
    for precision in args.precisions.split(","):
        for name in names:
            n = sizes[name]
            small = max(1, min(512, n // 8))
            model = str(work / "models" / WORKLOADS[name]["model"])
            row = {"name": name if precision == "f32" else f"{name}:{precision}", "precision": precision, "n": n,
                   "n_small": small, "batch": args.batch, "shape": WORKLOADS[name]["shape"],
                   "reference": WORKLOADS[name]["reference"]}
            if left() < 10:
                report["not_run"].append(row["name"])
                save()
                continue
            res = {}
            for label, count in (("full", n), ("small", small)):
                outf = work / f"hauser-{name}-{precision}-{label}.npy"
                argv = [args.hauser] + hauser_argv(name, model, inputs(work, count), outf) + dev + [
                    "--precision", precision, "--batch-size", str(args.batch)]
                res[label] = timed_process(argv, min(args.timeout, left()), mem=label == "full")
                res[label]["out_file"] = outf
                if res[label]["status"] != "ok":
                    break
            full = res["full"]
            row["hauser_cmd"] = " ".join(full["argv"])
            ours = None
            if full["status"] == "ok" and res.get("small", {}).get("status") == "ok":
                row["hauser_process_s"] = full["wall_s"]
                row["hauser_small_process_s"] = res["small"]["wall_s"]
                slope = full["wall_s"] - res["small"]["wall_s"]
                # A run too short to rise above the processes' own variation has no work-alone time.
                row["hauser_s"] = slope * n / (n - small) if slope > 0 else None
                row["peak_mem_mib"] = full["peak_mem_mib"]
                ours = hauser_scores(name, full["stdout"], full["out_file"])
            else:
                bad = full if full["status"] != "ok" else res["small"]
                row["hauser_error"] = {"status": bad["status"], "stderr": bad["stderr"]}
            for f in (work / f"hauser-{name}-{precision}-full.npy", work / f"hauser-{name}-{precision}-small.npy"):
                f.unlink(missing_ok=True)
            argv = [args.ref_python, str(Path(__file__).resolve()), "ref", name, str(work), str(n), precision,
                    args.device, str(args.batch)]
            r = timed_process(argv, min(args.timeout, left()), ref_env(name), mem=True) if left() > 10 else None
            theirs = None
            if r is not None and r["status"] == "ok":
                got = json.loads(r["stdout"].strip().splitlines()[-1])
                row.update(reference_s=got["seconds"], reference_process_s=r["wall_s"],
                           reference_load_s=got["load_s"], reference_peak_mem_mib=r["peak_mem_mib"],
                           reference_torch_max_allocated_mib=got["torch_max_allocated_mib"], torch=got["torch"])
                theirs = np.load(got["scores"])
                if precision == "f32":
                    ref_f32[name] = theirs
            elif r is not None:
                row["reference_error"] = {"status": r["status"], "stderr": r["stderr"]}
            if row.get("hauser_s") and "reference_s" in row:
                row["ratio"] = row["reference_s"] / row["hauser_s"]
            row["max_abs_diff"], row["nonfinite_mismatches"] = max_abs_diff(ours, ref_f32.get(name))
            row["max_abs_diff_same_precision"], _ = max_abs_diff(ours, theirs)
            if name == "lm":
                row["compared"] = "ln perplexity"
            report["workloads"].append(row)
            save()
            print(f"{row['name']}: hauser {row.get('hauser_s', 'error')} s, reference {row.get('reference_s', 'error')}"
                  f" s, ratio {row.get('ratio')}, max_abs_diff {row['max_abs_diff']}", file=sys.stderr)
    report["elapsed_s"] = time.perf_counter() - started
    save()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    sub = ap.add_subparsers(dest="cmd")
    p = sub.add_parser("prepare")
    p.add_argument("work")
    p.add_argument("--scale", type=float, default=1.0, help="fraction of the issue's input sizes (at least 16)")
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    r = sub.add_parser("run")
    r.add_argument("--hauser", default=os.environ.get("HAUSER_BIN", "hauser"))
    r.add_argument("--work", required=True)
    r.add_argument("--device", default="cuda")
    r.add_argument("--precisions", default="f32,f16,bf16")
    r.add_argument("--workloads", default="", help="comma-separated, default: every prepared one")
    r.add_argument("--batch", type=int, default=64)
    r.add_argument("--budget", type=float, default=420.0, help="seconds for the whole run")
    r.add_argument("--timeout", type=float, default=240.0, help="seconds for one process")
    r.add_argument("--ref-python", default=sys.executable)
    r.add_argument("--refsite", default=os.environ.get("HAUSER_REFSITE"),
                   help="tools/gpu/build_refsite.sh's folder, put first on PYTHONPATH for the references that need it")
    r.add_argument("--matrix", help="a tools/gpu/matrix.py report whose heads_table becomes `heads`")
    r.add_argument("--out", help="default $OUT/gpu.json")
    f = sub.add_parser("ref")
    for a in ("kind", "work", "n", "precision", "device", "batch"):
        f.add_argument(a)
    args = ap.parse_args()
    if args.list:
        for name, w in WORKLOADS.items():
            print(f"{name:10} n={w['n']:<7} {w['shape']}  vs {w['reference']}")
        return 0
    if args.cmd == "prepare":
        prepare(Path(args.work), args.scale, [n for n in args.workloads.split(",") if n])
        return 0
    if args.cmd == "ref":
        reference(args.kind, Path(args.work), int(args.n), args.precision, args.device, int(args.batch))
        return 0
    if args.cmd == "run":
        return run(args)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
