#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, generated from ../shared/data (docs/FUZZING.md).

Writes small inputs (under 4 KiB, the fuzzers' -max_len) into fuzz/corpus/TARGET/, a folder git
ignores: the shared data is never copied into the repository. Targets whose first byte selects
options (see fuzz/src/targets.rs) get one seed per useful option value. The
kb_index seeds are real index files, built with the `hauser` binary when one is found
($HAUSER_BIN, else target/debug/hauser or target/release/hauser).

    python3 tools/fuzz_seeds.py [--data ../shared/data] [--out fuzz/corpus]
"""

import argparse
import ast
import csv
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX = 4096


def write(out: Path, target: str, data: bytes) -> None:
    """Stores one seed, named by its hash (as libFuzzer names corpus files)."""
    if len(data) > MAX:
        data = data[:MAX]
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def chunks(items, size):
    for i in range(0, len(items), size):
        yield items[i : i + size]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("HAUSER_SHARED_DATA", str(ROOT.parent / "shared" / "data")))
    ap.add_argument("--out", default=str(ROOT / "fuzz" / "corpus"))
    ap.add_argument("--per-target", type=int, default=40)
    args = ap.parse_args()
    data, out, n = Path(args.data), Path(args.out), args.per_target
    if not data.is_dir():
        print(f"fuzz_seeds: no shared data at {data}; only the committed seeds will be used", file=sys.stderr)
        return 0
    rng = random.Random(14)

    groups = json.loads((data / "hauser/simile_candidates_raw.json").read_text(encoding="utf-8"))
    with open(data / "hauser/human_annotated.csv", newline="", encoding="utf-8") as f:
        annotated = list(csv.DictReader(f))
    with open(data / "simile-kb/SPGC_parsed.tsv", encoding="utf-8") as f:
        spgc = [line.rstrip("\n") for line in f if line.strip()]
    with open(data / "simile-kb/general_corpus.csv", newline="", encoding="utf-8") as f:
        general = list(csv.DictReader(f))
    similes = [c for g in groups[:400] for c in g["cands"]]

    # score: the original JSON array (the release's indentation), JSONL with ids and components.
    for part in list(chunks(groups, 2))[:n]:
        write(out, "score_input", json.dumps(part, indent=4, ensure_ascii=False).encode())
    for rows in list(chunks(annotated, 4))[:n]:
        lines = []
        for i, r in enumerate(rows):
            rec = {"id": i, "literal": r["literal_sentences"], "candidates": [r["similes"]]}
            try:
                comps = ast.literal_eval(r["components"])
                rec["components"] = [[list(c) for c in comps]]
            except (ValueError, SyntaxError):
                pass
            lines.append(json.dumps(rec, ensure_ascii=False))
        write(out, "score_input", ("\n".join(lines) + "\n").encode())

    # extract: plain lines and JSONL records; option byte 0/1 (--like-only).
    for k, part in enumerate(list(chunks(similes, 6))[:n]):
        if k % 2:
            body = "\n".join(json.dumps({"simile": s, "literal": groups[k]["origin_sentence"]}) for s in part)
        else:
            body = "\n".join(part)
        write(out, "extract", bytes([k % 2]) + body.encode())
    for k, r in enumerate(annotated[:n]):
        write(out, "rule_extractor", bytes([k % 4]) + f"{r['similes']}\n{r['literal_sentences']}".encode())
        write(out, "components_literal", r["components"].encode())

    # kb_ingest: option byte = format (0 MAPS-KB CSV, 1 triplets, 2 simile TSV, 3 similes) + flags.
    for k, part in enumerate(list(chunks(spgc, 25))[: n // 2]):
        write(out, "kb_ingest", bytes([2 | (k % 2) << 2]) + ("\n".join(part) + "\n").encode())
        trip = []
        for line in part:
            f = line.split("\t")
            if len(f) == 4:
                trip.append(f"{f[1]}\t{f[2]}\t{f[3]}\t{rng.randint(1, 9)}")
        write(out, "kb_ingest", bytes([1]) + ("topic\tproperty\tvehicle\tcount\n" + "\n".join(trip) + "\n").encode())
    for k, part in enumerate(list(chunks(general, 20))[: n // 2]):
        rows = ["new_topic,property,new_vehicle,frequency,plausibility,typicality"]
        for r in part:
            try:
                prop = r[f"option{int(r['ans_idx'])}"]
            except (KeyError, ValueError):
                continue
            cells = [r["topic"], prop, r["vehicle"], str(rng.randint(1, 50)), f"{rng.random():.3f}", f"{rng.random():.3f}"]
            rows.append(",".join('"' + c.replace('"', '""') + '"' if ("," in c or '"' in c) else c for c in cells))
        write(out, "kb_ingest", bytes([0 | (k % 2) << 2]) + ("\n".join(rows) + "\n").encode())
        write(out, "kb_ingest", bytes([3]) + "\n".join(r["sentence"].replace("_", "bright") for r in part).encode())

    # kb_index: real indexes, option byte 1 (repair checksums after mutation).
    hauser = os.environ.get("HAUSER_BIN") or next(
        (str(p) for p in (ROOT / "target/debug/hauser", ROOT / "target/release/hauser") if p.exists()), None
    )
    if hauser:
        with tempfile.TemporaryDirectory() as tmp:
            for k, part in enumerate(list(chunks(spgc, 8))[:12]):
                src, idx = Path(tmp) / "in.tsv", Path(tmp) / "kb.idx"
                src.write_text("\n".join(part) + "\n", encoding="utf-8")
                clean = ["reference", "strip-punctuation"][k % 2]
                cmd = [hauser, "kb", "build", "--input", str(src), "--format", "simile-tsv", "--out", str(idx),
                       "--clean", clean, "--skip-bad-rows"]
                if subprocess.run(cmd, capture_output=True).returncode == 0:
                    write(out, "kb_index", b"\x01" + idx.read_bytes())
    else:
        print("fuzz_seeds: no hauser binary (HAUSER_BIN): kb_index gets the committed seeds only", file=sys.stderr)

    # meta_eval: system, segment, human, metric rows from the formality study; option byte 0-3.
    systems = ["BART", "HIGH", "IBT", "LUO", "NIU", "RAO", "YI", "ZHOU"]
    human, metric = {}, {}
    for s in systems:
        for i, line in enumerate((data / f"formality/{s}.human.txt").read_text(encoding="utf-8").splitlines()):
            cells = line.split("\t")
            try:
                human[s, i] = sum(float(c) for c in cells[-6:]) / 6
            except ValueError:
                pass
        for i, line in enumerate((data / f"formality/{s}.content.ref.txt").read_text(encoding="utf-8").splitlines()):
            metric[s, i] = line.split("\t")[-6]
    for k in range(n // 2):
        segs = rng.sample(range(80), rng.randint(2, 8))
        rows = ["system\tsegment\thuman\tmetric"]
        for s in systems[: rng.randint(2, 8)]:
            rows += [f"{s}\t{i}\t{human.get((s, i), 50)}\t{metric.get((s, i), 0.5)}" for i in segs]
        write(out, "meta_eval", bytes([k % 4]) + ("\n".join(rows) + "\n").encode())

    # text metrics and tokenizers: system outputs against references.
    outputs = (data / "formality/BART.content.ref.txt").read_text(encoding="utf-8").splitlines()
    for k, part in enumerate(list(chunks(outputs, 3))[:n]):
        cells = [line.split("\t") for line in part]
        hyps = "\n".join(c[2] for c in cells if len(c) > 3)
        refs = "\n".join(c[3] for c in cells if len(c) > 3)
        # options byte, then the metric (its index in NAMES, mod 13): every metric gets seeds.
        write(out, "text_metrics", bytes([rng.randrange(256), k % 13]) + f"{hyps}\0{refs}".encode())
        # the first byte picks the tokenizer (mod 8)
        write(out, "tokenizers", bytes([k % 8]) + "\n".join(c[1] for c in cells if len(c) > 1).encode())
    for k, line in enumerate((data / "narratives/simile/dev.jsonl").read_text(encoding="utf-8").splitlines()[: n // 2]):
        write(out, "tokenizers", bytes([k % 8]) + json.loads(line)["narrative"].encode())
    print(f"fuzz_seeds: seeds in {out}: " + ", ".join(f"{d.name} {len(list(d.iterdir()))}" for d in sorted(out.iterdir())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
