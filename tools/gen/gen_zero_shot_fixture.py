#!/usr/bin/env python3
"""Golden fixture of the figurative-narratives zero-shot scorer (figlang-tasks).

Reference: surface-form-competition's scoring (the authors' pointer for zero-shot GPT-2),
re-implemented here on transformers' GPT2LMHeadModel: the premise is the narrative with <b>
markup removed, kept when it ends in "." or "!", else with "." appended (its StoryCloze
loader); premise and " " + option are encoded separately without special tokens; the premise
is cut from the left to n_positions - len(option); the option's summed log-probability is
`lm`, divided by its token count `tok_mean`, and minus its log-probability after the domain
premise " The story continues:" `dcpmi`, and minus its log-probability after ":" (SFC's token
25) `pmi` (added after the committed fixture was generated: a fixture written by this version
carries `pmi`, which the Rust tests then compare too).

Model: the tiny random GPT-2 of hauser-nli/tests/fixtures/gpt2 (64 positions, so long
narratives are cut). Data: figlang-tasks/tests/fixtures/narratives/data.jsonl.
Writes figlang-tasks/tests/fixtures/narratives/zero_shot.json. Tolerance: 1e-4 absolute.
Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_zero_shot_fixture.py
"""
import json
from pathlib import Path

import torch
import transformers
from transformers import AutoTokenizer, GPT2LMHeadModel

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "hauser-nli/tests/fixtures/gpt2"
DIR = ROOT / "figlang-tasks/tests/fixtures/narratives"
DOMAIN = " The story continues:"


def premise(narrative):
    p = narrative.replace("<b>", "").replace("</b>", "")
    return p if p.endswith(".") or p.endswith("!") else p + "."


def main():
    tok = AutoTokenizer.from_pretrained(MODEL)
    model = GPT2LMHeadModel.from_pretrained(MODEL).eval()
    limit = model.config.n_positions

    def cond(ctx, hyp):
        ctx = ctx[-(limit - len(hyp)):]
        ids = torch.tensor([ctx + hyp])
        with torch.no_grad():
            lp = torch.log_softmax(model(ids).logits[0].double(), dim=-1)
        return sum(float(lp[len(ctx) - 1 + i, t]) for i, t in enumerate(hyp))

    domain = tok.encode(DOMAIN, add_special_tokens=False)
    uncond = tok.encode(":", add_special_tokens=False)
    items = []
    for line in (DIR / "data.jsonl").read_text().splitlines():
        row = json.loads(line)
        ctx = tok.encode(premise(row["narrative"]), add_special_tokens=False)
        opts = []
        for key in ("option1", "option2"):
            hyp = tok.encode(" " + row[key], add_special_tokens=False)
            lm = cond(ctx, hyp)
            opts.append({"lm": lm, "tok_mean": lm / len(hyp), "dcpmi": lm - cond(domain, hyp),
                         "pmi": lm - cond(uncond, hyp), "tokens": len(hyp)})
        items.append({"options": opts, "premise_tokens": len(ctx)})
    meta = {"generator": "tools/gen/gen_zero_shot_fixture.py", "transformers": transformers.__version__,
            "torch": torch.__version__, "tolerance": 1e-4}
    (DIR / "zero_shot.json").write_text(json.dumps({"meta": meta, "items": items}, indent=1) + "\n")


if __name__ == "__main__":
    main()
