#!/usr/bin/env python3
"""The correctness matrix of issue 39, item 0: every neural head of `hauser` on a device, against the CPU.

Runs each head (one `hauser` command on one of the repository's tiny random-weight fixture models) once
with `--device cpu --precision f32` (the reference) and once per `--device DEVICE --precision P` for P in
--precisions (f32, f16, bf16 by default), parses what each run printed, and writes one JSON report:
per head and precision the largest absolute difference of the numbers against the CPU f32 run (and
against the device's f32 run), the values that must match exactly (labels, token counts, generated
text, error spans) that did not, the wall time, pass/fail (f32 only: difference <= --tol, 1e-4 by
default, and no exact-value mismatch) and, for a failed run, its command line and stderr.

A failure of one head never stops the others; every command has a timeout (--timeout) and the whole
matrix a time budget (--budget): runs not started within it are recorded as "not run". The report is
rewritten after every run, so a run cut short still leaves its results. Python 3 standard library only;
it drives the binary given by --hauser or $HAUSER_BIN and reads the fixtures of the repository it lives
in (or --repo). Nothing here needs a GPU: `--device cpu` checks the harness itself (f16/bf16 are then
refused by the CLI and recorded as such).

    python3 tools/gpu/matrix.py --hauser target/debug/hauser --device cpu --out "$(mktemp -d)/matrix.json"
    python3 tools/gpu/matrix.py --hauser gpu/hauser            # $OUT/matrix.json, --device cuda
    python3 tools/gpu/matrix.py --list                         # the heads and their commands
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

# Keys whose values name the run rather than its results (the signature records device, precision and
# kernels), and keys of timings: never compared.
IGNORED_KEYS = {"signature", "device", "precision_mode", "elapsed", "elapsed_s", "seconds", "time_s"}

SENTS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse.",
    "Rain fell like tears on the old roof.",
    "A storm of anger rose inside him.",
    "The city slept under a blanket of snow.",
]
REFS = [
    "The boy ran very fast across the field.",
    "She was very quiet.",
    "It rained on the old roof.",
    "He became very angry.",
    "The city was covered in snow at night.",
]
HEADLINES = [
    {"headline": "A storm of anger rose, inside him.", "focus": 4},
    {"headline": "Stocks soared as rates fell"},
    {"headline": "Rain falls on the quiet city"},
]
SCORE_INPUT = [
    {
        "id": "g1",
        "literal": "The boy ran.",
        "candidates": ["The boy ran like the wind.", "The boy ran like a deer."],
    },
    {
        "id": "g2",
        "literal": "She was quiet.",
        "candidates": ["She was as quiet as a mouse.", "She was quiet like snow."],
    },
]


def heads(repo: str, work: str, wordnet: str) -> list[dict]:
    """The heads of the matrix: name, architecture, head kind, argv (without device flags) and, for
    commands that write a file, the output file's name (a per-run path replaces `{OUT}`)."""
    fx = os.path.join(repo, "hauser-nli/tests/fixtures")
    m = lambda rel: os.path.join(fx, rel)  # noqa: E731
    narr = os.path.join(repo, "figlang-tasks/tests/fixtures/narratives/data.jsonl")
    detector = os.path.join(repo, "figlang-tasks/tests/fixtures/newsmet/detector")
    w = lambda name: os.path.join(work, name)  # noqa: E731
    metricx_len = str(
        json.load(open(m("metricx/reference.json")))["meta"].get("max_input_length", 64)
    )
    out: list[dict] = []

    def add(name, arch, head, argv, output=None, needs=None):
        out.append(
            {"name": name, "architecture": arch, "head": head, "argv": argv, "output": output, "needs": needs}
        )

    # Encoders: mean-pooled hidden states (every layer kind of the encoder families).
    for arch, rel in [
        ("bert", "bert"),
        ("roberta", "roberta"),
        ("xlm-roberta", "xlm-roberta"),
        ("distilbert", "distilbert"),
        ("deberta-v1", "deberta"),
        ("deberta-v2", "deberta-v2"),
    ]:
        add(f"embed/{rel}", arch, "encoder", ["embed", "--model", m(rel), "-i", w("sents.txt"), "--batch-size", "2"])
    add("embed/bert-layer0", "bert", "encoder", ["embed", "--model", m("bert"), "-i", w("sents.txt"), "--layer", "0"])

    # Sequence classification: probabilities of every class.
    for arch, rel in [
        ("bert", "bert"),
        ("roberta", "roberta"),
        ("xlm-roberta", "xlm-roberta"),
        ("distilbert", "distilbert"),
        ("deberta-v1", "deberta"),
        ("deberta-v1", "deberta-abs"),
        ("deberta-v2", "deberta-v2"),
        ("deberta-v2", "deberta-v2-conv"),
        ("albert", "masked-lm/albert-classifier"),
    ]:
        add(
            f"classify/{rel}",
            arch,
            "sequence-classification",
            ["classify", "--model", m(rel), "-i", w("sents.txt"), "--json", "--batch-size", "2"],
        )
    add(
        "metric-style/roberta",
        "roberta",
        "sequence-classification",
        ["metric", "style", "--model", m("roberta"), "--label", "POSITIVE", "--hyp", w("sents.txt"),
         "--sentence", "--format", "jsonl"],
    )

    # HAUSER's criteria with neural models (NLI: BERT classifier; sentiment: RoBERTa classifier).
    add(
        "score/nli-bert+sentiment-roberta",
        "bert+roberta",
        "sequence-classification",
        ["score", "-i", w("score.jsonl"), "--nli", m("bert"), "--sentiment", m("roberta")],
    )

    # Multiple choice (narratives choose).
    for arch in ["bert", "roberta"]:
        add(
            f"narratives-choose/{arch}",
            arch,
            "multiple-choice",
            ["narratives", "choose", "--data", narr, "--model", m(f"multiple-choice/{arch}"), "-o", "{OUT}"],
            output="choose.jsonl",
        )

    # Causal LM: scoring, perplexity, greedy generation.
    add(
        "narratives-score/gpt2",
        "gpt2",
        "causal-lm",
        ["narratives", "score", "--data", narr, "--model", m("gpt2"), "--score", "dcpmi"],
    )
    add(
        "metric-perplexity/gpt2",
        "gpt2",
        "causal-lm",
        ["metric", "perplexity", "--model", m("gpt2"), "--hyp", w("sents.txt"), "--sentence", "--format", "jsonl"],
    )
    add(
        "narratives-generate/gpt2-greedy",
        "gpt2",
        "generation",
        ["narratives", "generate", "--data", narr, "--model", m("gpt2"), "--greedy", "--max-new-tokens", "8",
         "-o", "{OUT}"],
        output="generate.jsonl",
    )

    # Masked LM (newsmet candidates: fillers from the MLM, split by a sequence classifier).
    for arch, rel in [("bert", "masked-lm/bert"), ("roberta", "masked-lm/roberta"), ("albert", "masked-lm/albert")]:
        add(
            f"newsmet-candidates/{arch}",
            arch,
            "masked-lm",
            ["newsmet", "candidates", "-i", w("headlines.jsonl"), "--mlm", m(rel), "--detector", detector,
             "--top-k", "50", "--keep", "3", "--wordnet", wordnet, "--batch-size", "2"],
            needs="wordnet",
        )

    # BERTScore.
    for arch, rel in [("bert", "bert"), ("roberta", "roberta"), ("deberta-v1", "deberta")]:
        add(
            f"bertscore/{rel}",
            arch,
            "bertscore",
            ["metric", "bertscore", "--model", m(rel), "--layer", "2", "--idf", "--hyp", w("hyp.txt"), "--ref",
             w("ref.txt"), "--sentence", "--format", "jsonl"],
        )

    # BLEURT: the original (BERT, WordPiece) layout, BLEURT-20 (RemBERT-like) and BLEURT-20-D.
    for rel in ["bleurt", "bleurt-20", "bleurt-20-d"]:
        add(
            f"bleurt/{rel}",
            "bert" if rel == "bleurt" else "rembert",
            "bleurt",
            ["metric", "bleurt", "--model", m(rel), "--hyp", w("hyp.txt"), "--ref", w("ref.txt"), "--sentence",
             "--format", "jsonl"],
        )

    # COMET: estimator, regression (CLS and averaged pooling), referenceless regression, unified
    # (CometKiwi, src+ref, ref only), XCOMET with error spans, XCOMET's XL layout.
    c = lambda name: ["--src", w(f"{name}.src"), "--hyp", w(f"{name}.mt")]  # noqa: E731
    r = lambda name: ["--ref", w(f"{name}.ref")]  # noqa: E731
    for rel, args in [
        ("comet/estimator", c("comet") + r("comet")),
        ("comet/regression", c("comet") + r("comet")),
        ("comet/cls", c("comet") + r("comet")),
        ("comet/qe", c("comet")),
        ("comet-unified/kiwi", c("unified")),
        ("comet-unified/unified", c("unified") + r("unified")),
        ("comet-unified/unified-ref", ["--hyp", w("unified.mt")] + r("unified")),
        ("comet-unified/xcomet", c("unified") + r("unified")),
        ("comet-unified/xcomet-xl", c("unified") + r("unified")),
    ]:
        arch = "xlm-roberta-xl" if rel.endswith("-xl") else "xlm-roberta"
        add(
            f"comet/{rel.split('/')[1]}",
            arch,
            "comet",
            ["metric", "comet", "--model", m(rel)] + args + ["--sentence", "--format", "jsonl", "--batch-size", "3"],
        )

    # MetricX-23 and -24 (mT5 encoder; gated-GELU and ReLU feed-forward).
    for rel, version, qe in [("metricx", "24", False), ("metricx", "23", False), ("metricx", "24", True),
                             ("metricx-relu", "24", False)]:
        args = ["--src", w("hyp.txt"), "--hyp", w("hyp.txt")] if qe else ["--src", w("hyp.txt"), "--hyp",
                                                                        w("hyp.txt"), "--ref", w("ref.txt")]
        if version == "23":
            args = ["--hyp", w("hyp.txt"), "--ref", w("ref.txt")]
        add(
            f"metricx/{rel}-{version}{'-qe' if qe else ''}",
            "mt5",
            "metricx",
            ["metric", "metricx", "--model", m(rel), "--metricx-version", version, "--max-input-length", metricx_len]
            + args + ["--sentence", "--format", "jsonl", "--batch-size", "2"],
        )

    # Rerank: COMET MBR, CometKiwi QE, MetricX QE.
    add("rerank/comet-mbr", "xlm-roberta", "comet",
        ["rerank", "--metric", "comet", "--model", m("comet/regression"), "--mbr", "-i", w("groups.jsonl")])
    add("rerank/kiwi-qe", "xlm-roberta", "comet",
        ["rerank", "--metric", "comet", "--model", m("comet-unified/kiwi"), "-i", w("groups.jsonl")])
    add("rerank/metricx-qe", "mt5", "metricx",
        ["rerank", "--metric", "metricx", "--model", m("metricx"), "-i", w("groups.jsonl")])
    return out


# Heads the issue lists that no command can run: recorded in the report as such.
NOT_COVERED = [
    {
        "head": "comet/ranking",
        "why": "CometModel::load refuses class_identifier ranking_metric (COMET's ranking class has no "
        "segment-score inference path in hauser); hauser-nli/tests/it/comet.rs checks the refusal",
    },
]


def write_inputs(repo: str, work: str) -> None:
    def lines(name, rows):
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            f.writelines(f"{x}\n" for x in rows)

    lines("sents.txt", SENTS)
    lines("hyp.txt", SENTS)
    lines("ref.txt", REFS)
    lines("headlines.jsonl", [json.dumps(h) for h in HEADLINES])
    lines("score.jsonl", [json.dumps(h) for h in SCORE_INPUT])
    lines("groups.jsonl", [json.dumps({"src": REFS[i], "candidates": SENTS[:3]}) for i in range(2)])
    fx = os.path.join(repo, "hauser-nli/tests/fixtures")
    for name, rel in [("comet", "comet/reference.json"), ("unified", "comet-unified/reference.json")]:
        ref = json.load(open(os.path.join(fx, rel), encoding="utf-8"))
        for col, ext in [("src", "src"), ("mt", "mt"), ("ref", "ref")]:
            lines(f"{name}.{ext}", [s.replace("\n", " ") for s in ref[col]])


def leaves(value, path: str, acc: list) -> None:
    """Flattens parsed output into (path, value) pairs, dropping IGNORED_KEYS."""
    if isinstance(value, dict):
        for k in sorted(value):
            if k not in IGNORED_KEYS:
                leaves(value[k], f"{path}.{k}", acc)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            leaves(v, f"{path}[{i}]", acc)
    else:
        acc.append((path, value))


def parse_output(text: str) -> list:
    """Every non-empty line as JSON when it parses (records, bare numbers), else as a string."""
    acc: list = []
    for i, line in enumerate(l for l in text.splitlines() if l.strip()):
        try:
            v = json.loads(line)
        except ValueError:
            v = line
        leaves(v, f"line{i}", acc)
    return acc


def is_float(v) -> bool:
    return isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool))


def compare(ref: list, got: list) -> dict:
    """Largest absolute difference of the numbers; count of exact values (ints on both sides, strings,
    booleans, nulls) that differ; structure (paths) that differ."""
    res = {"n_values": len(ref), "max_abs_diff": 0.0, "worst_path": None, "worst": None, "exact_mismatches": 0,
           "structure_mismatch": None, "examples": []}
    rp, gp = [p for p, _ in ref], [p for p, _ in got]
    if rp != gp:
        only_ref = [p for p in rp if p not in set(gp)][:5]
        only_got = [p for p in gp if p not in set(rp)][:5]
        res["structure_mismatch"] = {"ref_values": len(rp), "values": len(gp), "only_ref": only_ref,
                                     "only_device": only_got}
    gmap = dict(got)
    for p, a in ref:
        if p not in gmap:
            continue
        b = gmap[p]
        exact = (isinstance(a, int) and isinstance(b, int)) or not (is_float(a) and is_float(b))
        if exact:
            if a != b:
                res["exact_mismatches"] += 1
                if len(res["examples"]) < 5:
                    res["examples"].append({"path": p, "cpu": a, "device": b})
            continue
        if isinstance(a, float) and isinstance(b, float) and (math.isnan(a) or math.isnan(b)):
            d = 0.0 if (math.isnan(a) and math.isnan(b)) else math.inf
        else:
            d = abs(float(a) - float(b))
        if d > res["max_abs_diff"] or (math.isinf(d) and not math.isinf(res["max_abs_diff"])):
            res["max_abs_diff"], res["worst_path"], res["worst"] = d, p, {"cpu": a, "device": b}
    if math.isinf(res["max_abs_diff"]):
        res["max_abs_diff"] = "inf"
    return res


def tail(text: str, n: int = 4000) -> str:
    return text if len(text) <= n else "..." + text[-n:]


class Runner:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.deadline = time.monotonic() + args.budget
        self.env = dict(os.environ)
        # The driver's JIT cache: keep candle's compiled PTX between the matrix's processes.
        self.env.setdefault("CUDA_CACHE_MAXSIZE", str(4 << 30))
        self.env.setdefault("CUDA_CACHE_PATH", os.path.join(tempfile.gettempdir(), "hauser-matrix-nvcache"))

    def run(self, head: dict, device: str, precision: str) -> dict:
        tag = f"{device}-{precision}".replace(":", "_")
        argv = [self.args.hauser]
        out_file = None
        for a in head["argv"]:
            if a == "{OUT}":
                out_file = os.path.join(self.work, f"{head['name'].replace('/', '_')}.{tag}.{head['output']}")
                a = out_file
            argv.append(a)
        argv += ["--device", device, "--precision", precision]
        rec = {"device": device, "precision": precision, "cmd": shlex.join(argv)}
        left = self.deadline - time.monotonic()
        if left <= 1:
            rec.update(status="not run", why="matrix time budget (--budget) spent")
            return rec
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, capture_output=True, text=True, errors="replace", env=self.env,
                               timeout=min(self.args.timeout, left), cwd=self.work)
        except subprocess.TimeoutExpired as e:
            rec.update(status="timeout", wall_s=round(time.monotonic() - t0, 3),
                       stderr=tail((e.stderr or b"").decode("utf-8", "replace")
                                   if isinstance(e.stderr, bytes) else (e.stderr or "")))
            return rec
        except OSError as e:
            rec.update(status="error", wall_s=0.0, stderr=str(e))
            return rec
        rec["wall_s"] = round(time.monotonic() - t0, 3)
        rec["returncode"] = p.returncode
        text = p.stdout
        if out_file and os.path.exists(out_file):
            with open(out_file, encoding="utf-8", errors="replace") as f:
                text = f.read()
        if p.returncode != 0:
            last = [l for l in p.stderr.splitlines() if l.strip()]
            rec.update(status="error", message=last[-1] if last else "", stderr=tail(p.stderr))
            return rec
        rec["status"] = "ok"
        rec["_values"] = parse_output(text)
        if not rec["_values"]:
            rec.update(status="error", message="no output", stderr=tail(p.stderr))
        return rec


def probe(cmd: list) -> str | None:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (p.stdout or p.stderr).strip() or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hauser", default=os.environ.get("HAUSER_BIN"),
                    help="the hauser binary (default: $HAUSER_BIN)")
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(here)),
                    help="repository root holding the fixtures (default: this script's)")
    ap.add_argument("--device", default="cuda", help="device under test (default: cuda)")
    ap.add_argument("--ref-device", default="cpu", help="reference device, run in f32 (default: cpu)")
    ap.add_argument("--precisions", default="f32,f16,bf16", help="precisions on the device (default: f32,f16,bf16)")
    ap.add_argument("--out", default=None, help="report file (default: $OUT/matrix.json, else matrix.json)")
    ap.add_argument("--tol", type=float, default=1e-4, help="f32 tolerance (default: 1e-4)")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per command (default: 180)")
    ap.add_argument("--budget", type=float, default=480.0,
                    help="seconds for the whole matrix; later runs are recorded as not run (default: 480)")
    ap.add_argument("--heads", default=None, help="regular expression: only heads whose name matches")
    ap.add_argument("--wordnet", default=os.environ.get("WORDNET_DIR", "/usr/share/wordnet"),
                    help="WordNet 3.0 directory for newsmet candidates (default: $WORDNET_DIR or /usr/share/wordnet)")
    ap.add_argument("--no-probe", action="store_true",
                    help="skip the JIT probe (embed/bert twice on the device before the matrix)")
    ap.add_argument("--keep-work", action="store_true", help="keep the work directory (inputs, -o files)")
    ap.add_argument("--list", action="store_true", help="print the heads and their commands, run nothing")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="hauser-matrix-")
    hs = heads(os.path.abspath(args.repo), work, args.wordnet)
    if args.heads:
        hs = [h for h in hs if re.search(args.heads, h["name"])]
    if args.list:
        for h in hs:
            print(f"{h['name']}\t{h['architecture']}\t{h['head']}\thauser {shlex.join(h['argv'])}")
        shutil.rmtree(work, ignore_errors=True)
        return 0
    if not args.hauser:
        ap.error("give the binary with --hauser PATH or $HAUSER_BIN")
    args.hauser = os.path.abspath(args.hauser)
    if args.out is None:
        args.out = os.path.join(os.environ["OUT"], "matrix.json") if os.environ.get("OUT") else "matrix.json"
    precisions = [p for p in args.precisions.split(",") if p]
    write_inputs(os.path.abspath(args.repo), work)
    runner = Runner(args, work)
    has_wordnet = os.path.isfile(os.path.join(args.wordnet, "data.verb"))

    report = {
        "tool": "tools/gpu/matrix.py",
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "hauser": args.hauser,
        "hauser_version": probe([args.hauser, "--version"]),
        "device": args.device,
        "ref_device": args.ref_device,
        "precisions": precisions,
        "tol_f32": args.tol,
        "timeout_s": args.timeout,
        "budget_s": args.budget,
        "host": platform.node(),
        "gpu": probe(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"]),
        "env": {k: os.environ.get(k) for k in ["CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "CUDA_CACHE_PATH",
                                              "CUDA_CACHE_MAXSIZE", "RAYON_NUM_THREADS"]},
        "not_covered": NOT_COVERED,
        "heads": [],
        "summary": {},
    }

    def save():
        tmp = args.out + ".tmp"
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        os.replace(tmp, args.out)

    entries = []
    values: dict = {}  # per head: the parsed reference and device-f32 values (not in the report)
    for h in hs:
        e = {k: h[k] for k in ["name", "architecture", "head"]}
        e["runs"] = {}
        if h["needs"] == "wordnet" and not has_wordnet:
            e["skipped"] = f"no WordNet database at {args.wordnet} (--wordnet DIR or $WORDNET_DIR)"
        entries.append((h, e))
        report["heads"].append(e)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    # The reference runs first (all of them), then the device: f32 for every head before f16, bf16,
    # so that a budget spent early costs the half precisions, not the f32 verdicts.
    for h, e in entries:
        if "skipped" in e:
            continue
        rec = runner.run(h, args.ref_device, "f32")
        values[h["name"]] = {"ref": rec.pop("_values", None)}
        e["reference"] = rec
        log(f"[ref] {h['name']}: {rec['status']} {rec.get('wall_s', '')}s {rec.get('message', '')}")
        save()
    # The driver's JIT of candle's PTX: the same small command twice on the device before the matrix.
    # The first is the process's cold start (issue 39, item 1); the second shows whether the JIT
    # cache carries over between processes (if not, every device process pays the cold start).
    probe_head = next((h for h in hs if h["name"] == "embed/bert"), None)
    if probe_head is not None and not args.no_probe:
        calls = [runner.run(probe_head, args.device, "f32") for _ in range(2)]
        for c in calls:
            c.pop("_values", None)
        report["jit_probe"] = {"cmd": calls[0]["cmd"], "first_call_s": calls[0].get("wall_s"),
                               "second_call_s": calls[1].get("wall_s"),
                               "status": [c["status"] for c in calls],
                               "message": calls[0].get("message")}
        log(f"[probe] {args.device}: first call {calls[0].get('wall_s')} s, second {calls[1].get('wall_s')} s "
            f"{calls[0].get('message', '')}")
        save()
    first = "jit_probe" not in report  # the first device process, when no probe ran before it
    for p in precisions:
        for h, e in entries:
            if "skipped" in e:
                continue
            rec = runner.run(h, args.device, p)
            if first and rec.get("status") not in ("not run",):
                rec["first_device_process"] = True
                first = False
            vals = rec.pop("_values", None)
            v = values.setdefault(h["name"], {})
            if p == "f32":
                v["dev32"] = vals
            if vals is not None:
                if v.get("ref") is not None:
                    rec.update(compare(v["ref"], vals))
                else:
                    rec["status"] = "no reference"
                if p != "f32" and v.get("dev32") is not None:
                    c = compare(v["dev32"], vals)
                    rec["max_abs_diff_vs_device_f32"] = c["max_abs_diff"]
                    rec["exact_mismatches_vs_device_f32"] = c["exact_mismatches"]
            if p == "f32":
                ok = (rec["status"] == "ok" and rec.get("structure_mismatch") is None
                      and rec.get("exact_mismatches") == 0 and isinstance(rec.get("max_abs_diff"), float)
                      and rec["max_abs_diff"] <= args.tol)
                rec["pass"] = ok
            if rec.get("status") != "ok" or rec.get("pass") is False:
                rec.setdefault("stderr", None)
            e["runs"][p] = rec
            log(f"[{args.device} {p}] {h['name']}: {rec['status']} {rec.get('wall_s', '')}s "
                f"diff={rec.get('max_abs_diff', '-')} exact_mismatches={rec.get('exact_mismatches', '-')} "
                f"{rec.get('message', '')}")
            save()

    # Summary.
    summ = {"heads": len(entries), "skipped": [e["name"] for _, e in entries if "skipped" in e],
            "reference_failed": [e["name"] for _, e in entries
                                 if "reference" in e and e["reference"]["status"] != "ok"]}
    for p in precisions:
        runs = [(e["name"], e["runs"][p]) for _, e in entries if p in e["runs"]]
        diffs = [(r["max_abs_diff"], n) for n, r in runs if isinstance(r.get("max_abs_diff"), float)]
        s = {
            "ran": sum(1 for _, r in runs if r["status"] == "ok"),
            "errors": {n: r.get("message") or r["status"] for n, r in runs if r["status"] != "ok"},
            "max_abs_diff": max(diffs)[0] if diffs else None,
            "worst_head": max(diffs)[1] if diffs and max(diffs)[0] > 0 else None,
            "exact_mismatch_heads": [n for n, r in runs if r.get("exact_mismatches")],
            "wall_s": round(sum(r.get("wall_s", 0.0) for _, r in runs), 3),
        }
        if p == "f32":
            s["passed"] = sum(1 for _, r in runs if r.get("pass"))
            s["failed"] = [n for n, r in runs if not r.get("pass")]
            s["all_pass"] = not s["failed"] and not summ["skipped"] and len(runs) == len(entries)
        summ[p] = s
    summ["first_device_call_s"] = report.get("jit_probe", {}).get("first_call_s") or next(
        (r.get("wall_s") for _, e in entries for r in e["runs"].values() if r.get("first_device_process")), None)
    summ["second_device_call_s"] = report.get("jit_probe", {}).get("second_call_s")
    report["summary"] = summ
    report["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    # The reference and device values themselves stay out of the report; the heads table of
    # docs/bench/gpu.json (issue 39, item 5) is derived from it.
    report["heads_table"] = [
        {"name": e["name"], "architecture": e["architecture"], "head": e["head"], "precision": p,
         "max_abs_diff": r.get("max_abs_diff"), "status": r["status"], "pass": r.get("pass")}
        for _, e in entries for p, r in e["runs"].items()
    ]
    if args.keep_work:
        report["work"] = work
    save()
    if not args.keep_work:
        shutil.rmtree(work, ignore_errors=True)
    log(json.dumps(summ, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
