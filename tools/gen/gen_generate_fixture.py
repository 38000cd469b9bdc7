#!/usr/bin/env python3
"""Generates hauser-nli's decoding fixture with Hugging Face transformers (reference).

Writes hauser-nli/tests/fixtures/gpt2/generate.json, from the tiny GPT-2 of
hauser-nli/tests/fixtures/gpt2 (tools/gen/gen_tiny_models.py; eos 0, 64 positions):
  greedy                 `model.generate(ids, do_sample=False, max_new_tokens=M,
                         no_repeat_ngram_size=N, eos_token_id=0, pad_token_id=0)` on a few
                         prompts x (M, N) in {(20, 3), (20, 0), (5, 3)}: the new ids only
                         (stopping at eos, eos included, as transformers does); one prompt ends
                         in the end-of-text token, so its first new token is eos
  ensemble_greedy        a Python loop, 20 steps, never stopping at eos: the next-token logits
                         (float32) of each prompt + the ids so far, run alone (no padding),
                         summed in prompt order (float32), argmax (first maximum)
  ensemble_greedy_ngram  the same, with transformers' NoRepeatNGramLogitsProcessor(3) applied
                         to the summed logits using the FIRST prompt's ids + the new ids
                         (both: "first_step_logits", the summed, banned logits of step 1)
  top_k                  softmax (float64) of TopKLogitsWarper(5)(TemperatureLogitsWarper(0.7)
                         (logits)) (warpers in float32): the model's next-token logits for one
                         prompt, and a hand-made vector with ties at the 5th place (kept)
Each greedy / ensemble case also has "min_margin": the smallest gap between the largest and
second-largest (processed) logit along its path, how far the ids are from a near-tie.

Reference: transformers 5.23 / torch 2.x, float32 on CPU.
Run from the repository root:  HF_HUB_OFFLINE=1 "$(bash tools/pyref.sh)" tools/gen/gen_generate_fixture.py
Tolerance the Rust tests apply to logits and probabilities: 1e-4 absolute (ids: exact).
"""

import json
from pathlib import Path

import torch
import transformers
from gen_tiny_models import rounded
from transformers import (
    AutoTokenizer,
    GenerationConfig,
    GPT2LMHeadModel,
    NoRepeatNGramLogitsProcessor,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
)

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "hauser-nli" / "tests" / "fixtures" / "gpt2"
OUT = MODEL / "generate.json"
TOLERANCE = 1e-4
EOS = 0
N_POSITIONS = 64

GREEDY_PROMPTS = [
    "The boy ran like the wind.",
    "She was as quiet as a mouse",
    "The boy ran like the wind ====== ",
    # Ends in the end-of-text token: the model's first new token is eos, generation stops.
    "I am not happy<|endoftext|>",
]
GREEDY_SETTINGS = [(20, 3), (20, 0), (5, 3)]

ENSEMBLE = [
    {
        "narrative": "The boy ran like the wind",
        "inferences": ["He is fast.", "He runs.", "The wind blows."],
    },
    {
        "narrative": "She was quiet",
        "inferences": ["She is calm.", "She reads.", "A mouse."],
    },
]
ENSEMBLE_STEPS = 20

TOP_K_PROMPT = "His voice thundered through the empty hall"
TOP_K, TEMPERATURE = 5, 0.7
# Ties at the 5th largest value (2.0, four times): all of them are kept (6 tokens).
TIED_LOGITS = [1.0, 3.0, 2.0, 0.5, 2.0, -1.0, 4.0, 2.0, 0.0, 1.5, 2.0, -0.5]


def margin(scores):
    top = scores.topk(2).values
    return (top[0] - top[1]).item()


def greedy_cases(model, tok):
    cases = []
    for prompt in GREEDY_PROMPTS:
        ids = tok(prompt)["input_ids"]
        for max_new, ngram in GREEDY_SETTINGS:
            assert len(ids) + max_new <= N_POSITIONS
            x = torch.tensor([ids])
            cfg = GenerationConfig(
                do_sample=False,
                max_new_tokens=max_new,
                no_repeat_ngram_size=ngram,
                eos_token_id=EOS,
                pad_token_id=EOS,
                bos_token_id=EOS,
                output_scores=True,
                return_dict_in_generate=True,
            )
            out = model.generate(x, attention_mask=torch.ones_like(x), generation_config=cfg)
            new = out.sequences[0, len(ids):].tolist()
            cases.append({
                "prompt": prompt,
                "prompt_ids": ids,
                "max_new_tokens": max_new,
                "no_repeat_ngram_size": ngram,
                "new_ids": new,
                "min_margin": round(min(margin(s[0]) for s in out.scores), 7),
            })
    return cases


def ensemble_loop(model, prompt_ids, steps, ngram):
    ban = NoRepeatNGramLogitsProcessor(ngram) if ngram else None
    new, margins, first = [], [], None
    for _ in range(steps):
        total = None
        for ids in prompt_ids:
            logits = model(torch.tensor([ids + new])).logits[0, -1].float()
            total = logits.clone() if total is None else total + logits
        if ban is not None:
            total = ban(torch.tensor([prompt_ids[0] + new]), total[None].clone())[0]
        if first is None:
            first = total.clone()
        margins.append(margin(total))
        new.append(int(torch.argmax(total).item()))
    return new, min(margins), first


def ensemble_cases(model, tok, ngram):
    cases = []
    for case in ENSEMBLE:
        prompts = [f"{inf} @@@ {case['narrative']} ====== " for inf in case["inferences"]]
        prompt_ids = [tok(p)["input_ids"] for p in prompts]
        assert all(len(p) + ENSEMBLE_STEPS <= N_POSITIONS for p in prompt_ids)
        new, min_margin, first = ensemble_loop(model, prompt_ids, ENSEMBLE_STEPS, ngram)
        cases.append({
            "prompts": prompts,
            "prompt_ids": prompt_ids,
            "steps": ENSEMBLE_STEPS,
            "no_repeat_ngram_size": ngram,
            "new_ids": new,
            "min_margin": round(min_margin, 7),
            "first_step_logits": rounded(first),
        })
    return cases


def top_k_probs(logits):
    """softmax(top-k(logits / temperature)) as transformers' warpers give it (float32), the
    softmax in float64; -inf -> probability 0."""
    x = torch.tensor([logits], dtype=torch.float32)
    x = TemperatureLogitsWarper(TEMPERATURE)(None, x)
    x = TopKLogitsWarper(TOP_K)(None, x)
    return torch.softmax(x[0].double(), dim=-1).tolist()


def top_k_cases(model, tok):
    ids = tok(TOP_K_PROMPT)["input_ids"]
    logits = model(torch.tensor([ids])).logits[0, -1].float().tolist()
    cases = []
    for name, vec in (("model", logits), ("ties", TIED_LOGITS)):
        probs = top_k_probs(vec)
        cases.append({
            "name": name,
            "prompt": TOP_K_PROMPT if name == "model" else None,
            "prompt_ids": ids if name == "model" else None,
            "logits": vec,
            "k": TOP_K,
            "temperature": TEMPERATURE,
            "probs": probs,
            "kept": sum(p > 0 for p in probs),
        })
    assert cases[1]["kept"] == 6
    return cases


def main():
    torch.set_grad_enabled(False)
    tok = AutoTokenizer.from_pretrained(str(MODEL))
    model = GPT2LMHeadModel.from_pretrained(str(MODEL)).eval()
    ref = {
        "meta": {
            "model": "gpt2",
            "generator": "tools/gen/gen_generate_fixture.py",
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "tolerance": TOLERANCE,
        },
        "greedy": greedy_cases(model, tok),
        "ensemble_greedy": ensemble_cases(model, tok, 0),
        "ensemble_greedy_ngram": ensemble_cases(model, tok, 3),
        "top_k": top_k_cases(model, tok),
    }
    OUT.write_text(json.dumps(ref))
    for c in ref["greedy"]:
        print(f"greedy {c['prompt']!r} M={c['max_new_tokens']} N={c['no_repeat_ngram_size']}: "
              f"{len(c['new_ids'])} new, min margin {c['min_margin']:.2e}")
    for key in ("ensemble_greedy", "ensemble_greedy_ngram"):
        for c in ref[key]:
            print(f"{key}: {c['new_ids']} min margin {c['min_margin']:.2e}")
    for c in ref["top_k"]:
        print(f"top_k {c['name']}: {c['kept']} kept")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
