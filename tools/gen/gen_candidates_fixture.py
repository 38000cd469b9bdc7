#!/usr/bin/env python3
"""Generates figlang-tasks' NewsMet candidate-generation fixture with transformers and NLTK.

The pipeline, as the NewsMet authors' github_candidates.ipynb runs it (cells 10 and 27) with
the paper's filters:
  1. mask the focus verb: its letters in its own token ("token"), or the authors' cell 10
     ("substring": `re.compile(re.escape(re.sub('[^A-Za-z0-9]+', '', verb)), re.I).sub(mask, text)`);
  2. `probs = softmax(logits[mask positions])`, `topk(probs, K)`, each rank decoded with
     `tokenizer.decode(ids of that rank over the masks)`;
  3. drop fillers that are not `str.isalpha()`, that have no verb synset
     (`wn.synsets(f.lower(), 'v')`), and whose lemma (`wn.morphy(f.lower(), 'v') or f.lower()`)
     an earlier filler had;
  4. put each kept filler where the mask was (`masked.replace(mask, filler)`), classify it
     with the detector, argmax class 1 = metaphorical, keep the first KEEP of each side.

Models: hauser-nli/tests/fixtures/masked-lm/bert (tiny BertForMaskedLM, from
tools/gen/gen_mlm_fixtures.py) and, as the detector, a tiny 2-class BertForSequenceClassification
made here (figlang-tasks/tests/fixtures/newsmet/detector/, the BERT fixture's tokenizer; weights
drawn wide, initializer_range 1.0, so that its argmax differs between fillers and both sides
fill).
WordNet 3.0 from Debian's wordnet-base (tools/gen/nltk_wordnet.py; WORDNET_DIR overrides).

Writes figlang-tasks/tests/fixtures/newsmet/candidates.json:
{"meta", "top_k", "keep", "cases": [{"headline", "focus": token index, "masking",
 "masked", "masks", "kept": [{"candidate", "rank", "prob", "p_metaphorical"}],
 "dropped": {"non_alphabetic", "not_verb", "duplicate_lemma"}, "metaphorical", "literal"}]}
Run from the repository root:
  HF_HUB_OFFLINE=1 "$(bash tools/pyref.sh)" tools/gen/gen_candidates_fixture.py
Tolerance the Rust test applies: 1e-4 on probabilities; strings and ranks exact.
"""

import json
import re
import tempfile
from pathlib import Path

import nltk
import torch
import transformers
from nltk_wordnet import wordnet_reader
import shutil

from gen_tiny_models import small
from transformers import (
    AutoModelForMaskedLM,
    AutoModelForSequenceClassification,
    AutoTokenizer,
    BertConfig,
    BertForSequenceClassification,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
OUT = ROOT / "figlang-tasks" / "tests" / "fixtures" / "newsmet" / "candidates.json"
DETECTOR = OUT.parent / "detector"
TOP_K = 100
KEEP = 3
METAPHORICAL = 1
SEED = 31

CASES = [
    ("The boy ran like the wind across the field.", 2, "token"),
    ("His voice thundered through the empty hall.", 2, "token"),
    ("The soldiers marched slowly towards the river.", 2, "token"),
    ("They laughed together under the bright summer sun.", 1, "token"),
    ("A storm of anger rose, inside him.", 4, "token"),
    # "is" is also inside "This": two masks, fillers joined by the decoder.
    ("This city is like a hive.", 2, "substring"),
    ("The soldiers MARCHED slowly, they marched on.", 2, "substring"),
]


def letters(token):
    return "".join(c for c in token if c.isalpha())


def mask_text(headline, focus, masking, mask):
    tokens = headline.split()
    word = letters(tokens[focus])
    if masking == "token":
        t = tokens[focus]
        at = t.index(word)
        tokens[focus] = t[:at] + mask + t[at + len(word):]
        return " ".join(tokens), 1
    verb = re.sub("[^A-Za-z0-9]+", "", word)
    rx = re.compile(re.escape(verb), re.IGNORECASE)
    return rx.sub(mask, headline), len(rx.findall(headline))


def make_detector():
    DETECTOR.mkdir(parents=True, exist_ok=True)
    for f in ["tokenizer.json", "tokenizer_config.json", "vocab.txt"]:
        shutil.copy(FIXTURES / "bert" / f, DETECTOR / f)
    vocab = json.loads((FIXTURES / "bert" / "config.json").read_text())["vocab_size"]
    cfg = BertConfig(vocab_size=vocab, type_vocab_size=2, pad_token_id=0, num_labels=2,
                     id2label={0: "literal", 1: "metaphorical"}, label2id={"literal": 0, "metaphorical": 1},
                     **small(initializer_range=1.0, num_hidden_layers=1))
    torch.manual_seed(SEED)
    BertForSequenceClassification(cfg).eval().save_pretrained(DETECTOR)


def main():
    torch.set_grad_enabled(False)
    wn = wordnet_reader(tempfile.mkdtemp())
    mlm_dir = FIXTURES / "masked-lm" / "bert"
    tok = AutoTokenizer.from_pretrained(str(mlm_dir))
    mlm = AutoModelForMaskedLM.from_pretrained(str(mlm_dir)).eval()
    make_detector()
    det_dir = DETECTOR
    det_tok = AutoTokenizer.from_pretrained(str(det_dir))
    det = AutoModelForSequenceClassification.from_pretrained(str(det_dir)).eval()
    cases = []
    for headline, focus, masking in CASES:
        masked, n = mask_text(headline, focus, masking, tok.mask_token)
        ids = tok.encode(masked, return_tensors="pt")
        logits = mlm(ids).logits[0]
        at = (ids[0] == tok.mask_token_id).nonzero().flatten()
        assert len(at) == n, (masked, n)
        probs = torch.softmax(logits[at], dim=1)
        top = torch.topk(probs, TOP_K)
        fillers = []
        for r in range(TOP_K):
            rank_ids = top.indices[:, r]
            fillers.append((tok.decode(rank_ids), float(torch.prod(top.values[:, r]))))
        dropped = {"non_alphabetic": 0, "not_verb": 0, "duplicate_lemma": 0}
        lemmas, kept = set(), []
        for r, (f, p) in enumerate(fillers):
            if not f.isalpha():
                dropped["non_alphabetic"] += 1
                continue
            lower = f.lower()
            if not wn.synsets(lower, "v"):
                dropped["not_verb"] += 1
                continue
            lemma = wn.morphy(lower, "v") or lower
            if lemma in lemmas:
                dropped["duplicate_lemma"] += 1
                continue
            lemmas.add(lemma)
            kept.append({"candidate": f, "rank": r, "prob": round(p, 8)})
        metaphorical, literal = [], []
        for k in kept:
            enc = det_tok(masked.replace(tok.mask_token, k["candidate"]), return_tensors="pt")
            p = torch.softmax(det(**enc).logits[0], dim=-1)
            k["p_metaphorical"] = round(float(p[METAPHORICAL]), 8)
            print("   ", k["candidate"], [round(float(x), 3) for x in p])
            side = metaphorical if int(p.argmax()) == METAPHORICAL else literal
            if len(side) < KEEP:
                side.append(k["candidate"])
        cases.append({"headline": headline, "focus": focus, "masking": masking, "masked": masked,
                      "masks": n, "kept": kept, "dropped": dropped, "metaphorical": metaphorical,
                      "literal": literal})
        print(f"{headline!r}: kept {[k['candidate'] for k in kept]}, dropped {dropped}, "
              f"met {metaphorical}, lit {literal}")
    meta = {"generator": "tools/gen/gen_candidates_fixture.py", "transformers": transformers.__version__,
            "torch": torch.__version__, "nltk": nltk.__version__, "wordnet": "3.0 (Debian wordnet-base)",
            "mlm": "hauser-nli/tests/fixtures/masked-lm/bert", "detector": "figlang-tasks/tests/fixtures/newsmet/detector",
            "tolerance": 1e-4}
    OUT.write_text(json.dumps({"meta": meta, "top_k": TOP_K, "keep": KEEP, "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
