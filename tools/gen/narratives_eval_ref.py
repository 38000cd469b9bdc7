#!/usr/bin/env python3
"""Reference implementation of the figurative-narratives generation evaluator, and its fixture.

A reimplementation of FigurativeNarrativeBenchmark's src/generative/automatic_metrics.py
(Chakrabarty, Choi, Shwartz, TACL 2022; ROUGE-L and BERTScore, BLEU left out) for one
prediction file:
  - gold per narrative: `row[row["correctanswer"]]` of every data row (JSONL: narrative, option1,
    option2, correctanswer) with that narrative, in file order, stored as `ans + " <eos>"` and
    cleaned as the authors clean it (`.replace("<eos>", "").replace("<pad>", "").strip()`);
    the prediction files' `gold` is [] in the released files, so it is rebuilt from the data by
    matching the `input` (or `narrative`) string exactly
  - predictions: the same cleaning, then cut at the LAST period (`p[:p.rfind(".")]` when "." is
    in p, nothing stripped after), then empty ones dropped
  - ROUGE-L per narrative: max over (reference, hypothesis) of pltrdy `rouge` 1.0.1's
    `Rouge().get_scores([hyp], [ref])[0]["rouge-l"]["f"]`; 0.0 when no prediction is left
  - BERTScore per narrative: `BERTScorer(model_type=M, num_layers=L, idf=False,
    rescale_with_baseline=False).score(refs, hyps)` over itertools.product(refs, hyps)
    (references passed as candidates, as the authors did), max of F1; 0.0 when none is left
  - totals: `np.mean(per-narrative scores) * 100.0`, as the authors compute them (numpy's mean
    of the list: float32 when every BERTScore value is a float32, float64 once a 0.0 is in it)

CLI:  narratives_eval_ref.py --pred F --data F [--bertscore-model DIR --bertscore-layers L]
prints {"rouge_l": x, "bertscore_f1": y (with a model), "n": prediction lines, "per_narrative":
[{"rouge_l", "bertscore_f1", "n_refs", "n_hyps"}]} (per-narrative scores in [0, 1], totals x100;
float64 printed in full by json).
bert_score 0.3.13 on transformers 5 needs the workarounds of tools/gen/gen_neural_metric_fixtures.py
(copied here): the tokenizer is loaded with AutoTokenizer (RobertaTokenizer / DebertaTokenizer
for RoBERTa / DeBERTa v1 directories) and RoBERTa / DeBERTa v1 inputs get the leading space
that transformers 5 no longer adds.

--write-fixture writes figlang-tasks/tests/fixtures/narratives/{data.jsonl, pred.jsonl,
expected.json}: a made-up dataset (7 rows, 6 narratives, one with two gold references) and a
prediction file exercising the cleaning (<eos>/<pad> inside predictions, several periods, no
period, a prediction emptied by the cleaning, two predictions, mixed case); expected.json is the
CLI output with BERTScore from the tiny BERT of hauser-nli/tests/fixtures/bert, num_layers 2.

Reference versions: rouge 1.0.1 (pltrdy), bert_score 0.3.13, transformers 5.23, torch 2.x
(CPU, float32), numpy.
Run from the repository root:
  HF_HUB_OFFLINE=1 "$(bash tools/pyref.sh)" tools/gen/narratives_eval_ref.py --write-fixture
Tolerance the Rust tests apply: ROUGE-L 1e-9 (same arithmetic), BERTScore 1e-5 per narrative
(float32 model), 1e-3 on the x100 total.
"""

import argparse
import itertools
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_DIR = Path("figlang-tasks") / "tests" / "fixtures" / "narratives"
FIXTURE_MODEL = "hauser-nli/tests/fixtures/bert"
FIXTURE_LAYERS = 2
TOLERANCE = {"rouge_l": 1e-9, "bertscore_f1_per_narrative": 1e-5, "bertscore_f1": 1e-3}


def clean(s):
    return s.replace("<eos>", "").replace("<pad>", "").strip()


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def gold_by_narrative(data_rows):
    gold = {}
    for row in data_rows:
        gold.setdefault(row["narrative"], []).append(clean(row[row["correctanswer"]] + " <eos>"))
    return gold


def clean_predictions(preds):
    preds = [clean(p) for p in preds]
    preds = [p[: p.rfind(".")] if "." in p else p for p in preds]
    return [p for p in preds if len(p) != 0]


def load(pred_path, data_path):
    """(references, hypotheses) per prediction line."""
    gold = gold_by_narrative(read_jsonl(data_path))
    out = []
    for k, ex in enumerate(read_jsonl(pred_path)):
        text = ex["input"] if "input" in ex else ex["narrative"]
        if text not in gold:
            sys.exit(f"{pred_path}:{k + 1}: narrative not in {data_path}")
        out.append((gold[text], clean_predictions(ex["predictions"])))
    return out


def sentence_level_rouge(rouge, references, hypotheses):
    return max(rouge.get_scores([hyp], [ref])[0]["rouge-l"]["f"] for ref in references for hyp in hypotheses)


# --- bert_score on transformers 5 (as tools/gen/gen_neural_metric_fixtures.py) -------------------

def patch_bert_score():
    import bert_score.scorer as bss
    import bert_score.utils as bsu
    from transformers import AutoTokenizer, DebertaTokenizer, RobertaTokenizer

    def sent_encode(tokenizer, sent):
        sent = sent.strip()
        if sent == "":
            # transformers 5 tokenizers lack build_inputs_with_special_tokens; same ids.
            return tokenizer.encode("", add_special_tokens=True)
        if isinstance(tokenizer, (RobertaTokenizer, DebertaTokenizer)):
            sent = " " + sent
        return tokenizer.encode(sent, add_special_tokens=True,
                                max_length=tokenizer.model_max_length, truncation=True)

    def get_tokenizer(model_type, use_fast=False):
        if os.path.exists(os.path.join(model_type, "vocab.json")) and "roberta" in model_type:
            return RobertaTokenizer.from_pretrained(model_type)
        if os.path.basename(os.path.normpath(model_type)) in ("deberta", "deberta-large-mnli"):
            return DebertaTokenizer.from_pretrained(model_type)
        return AutoTokenizer.from_pretrained(model_type)

    bsu.sent_encode = sent_encode
    bsu.get_tokenizer = get_tokenizer
    bss.get_tokenizer = get_tokenizer


def compute_bert_score(bert_scorer, references, hypotheses):
    references, hypotheses = zip(*itertools.product(references, hypotheses))
    return bert_scorer.score(list(references), list(hypotheses))[-1].detach().numpy().max()


# --------------------------------------------------------------------------------------------

def evaluate(pred_path, data_path, bertscore_model=None, bertscore_layers=None):
    from rouge import Rouge

    rouge = Rouge()
    items = load(pred_path, data_path)
    rouge_scores = [sentence_level_rouge(rouge, g, preds) if len(preds) > 0 else 0.0 for g, preds in items]
    per = [{"rouge_l": float(r), "n_refs": len(g), "n_hyps": len(p)} for r, (g, p) in zip(rouge_scores, items)]
    result = {"rouge_l": float(np.mean(rouge_scores) * 100.0)}
    if bertscore_model is not None:
        import torch
        from bert_score import BERTScorer

        torch.set_grad_enabled(False)
        patch_bert_score()
        scorer = BERTScorer(model_type=bertscore_model, num_layers=bertscore_layers, idf=False,
                            rescale_with_baseline=False, device="cpu")
        bs = [compute_bert_score(scorer, g, preds) if len(preds) > 0 else 0.0 for g, preds in items]
        for p, b in zip(per, bs):
            p["bertscore_f1"] = float(b)
        result["bertscore_f1"] = float(np.mean(bs) * 100.0)
    result["n"] = len(items)
    result["per_narrative"] = per
    return result


# --- the fixture ----------------------------------------------------------------------------

N_MARK = "Mark had worked on the report all night, and by morning he was <b>dead on his feet</b>."
N_LILY = "Lily won the spelling contest and she was <b>on cloud nine</b> for the rest of the week."
N_TOM = "Tom promised not to tell anyone, so he kept the news <b>under his hat</b>."
N_TEAM = "The coach said the match was a piece of cake, but the other team played like lions."
N_RIVER = "The river was a silver ribbon winding through the sleepy valley."
N_ANNA = "Anna finally decided to <b>bite the bullet</b> and call the dentist."

DATA = [
    {"narrative": N_MARK, "option1": "He went straight to bed after handing it in.",
     "option2": "He ran a marathon before lunch.", "correctanswer": "option1"},
    {"narrative": N_LILY, "option1": "She felt miserable and stayed at home.",
     "option2": "She smiled at everyone and thanked her friends.", "correctanswer": "option2"},
    {"narrative": N_TOM, "option1": "He kept the secret to himself.",
     "option2": "He told the whole school at once.", "correctanswer": "option1"},
    # The same narrative again, other options, the second one correct: two gold references.
    {"narrative": N_MARK, "option1": "He felt full of energy all day.",
     "option2": "He could hardly keep his eyes open. He needed sleep.", "correctanswer": "option2"},
    {"narrative": N_TEAM, "option1": "The team celebrated an easy victory.",
     "option2": "The team lost the game badly.", "correctanswer": "option2"},
    {"narrative": N_RIVER, "option1": "The water looked dark and muddy.",
     "option2": "The water shone brightly in the sun.", "correctanswer": "option2"},
    {"narrative": N_ANNA, "option1": "She made the appointment despite her fear.",
     "option2": "She forgot about her teeth.", "correctanswer": "option1"},
]

# One line per narrative, not in the data's order; `gold` empty as in the released files.
PREDICTIONS = [
    # Cleaning leaves "." -> cut at the period -> "" -> dropped: the narrative scores 0.
    (N_RIVER, [". <eos>"]),
    # Several periods: cut at the last one, the earlier ones stay (two ROUGE sentences).
    (N_MARK, ["He was so tired. He went straight to bed. Then he slept <eos> <pad> <pad>"]),
    # No period, mixed case.
    (N_LILY, ["She SMILED at Everyone and thanked her Friends <eos>"]),
    # <eos> and <pad> inside the text, nothing after the last period kept.
    (N_TOM, ["<pad> He kept <eos>the secret to<pad> himself. and then some more words"]),
    # Two predictions left (max over hypotheses), one emptied by the cleaning.
    (N_TEAM, ["The team won an easy game.", "<pad>.<eos>", "The team lost the game. <eos>"]),
    (N_ANNA, ["Mrs. Jones made the appointment and felt brave. <eos>"]),
]


def write_fixture():
    out = ROOT / FIXTURE_DIR
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "data.jsonl", "w", encoding="utf-8") as f:
        for row in DATA:
            f.write(json.dumps(row) + "\n")
    with open(out / "pred.jsonl", "w", encoding="utf-8") as f:
        for narrative, preds in PREDICTIONS:
            f.write(json.dumps({"input": narrative, "gold": [], "predictions": preds}) + "\n")
    assert len({r["narrative"] for r in DATA}) == len(PREDICTIONS)
    os.chdir(ROOT)
    result = evaluate(FIXTURE_DIR / "pred.jsonl", FIXTURE_DIR / "data.jsonl", FIXTURE_MODEL, FIXTURE_LAYERS)
    from importlib.metadata import version

    import torch
    import transformers

    result["bertscore_model"] = FIXTURE_MODEL
    result["bertscore_layers"] = FIXTURE_LAYERS
    result["meta"] = {
        "generator": "tools/gen/narratives_eval_ref.py --write-fixture",
        # bert_score 0.3.13's __version__ still says 0.3.12: the installed distributions' versions.
        "rouge": version("rouge"),
        "bert_score": version("bert-score"),
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "numpy": np.__version__,
        "tolerance": TOLERANCE,
    }
    (out / "expected.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pred")
    ap.add_argument("--data")
    ap.add_argument("--bertscore-model")
    ap.add_argument("--bertscore-layers", type=int)
    ap.add_argument("--write-fixture", action="store_true")
    args = ap.parse_args()
    if args.write_fixture:
        write_fixture()
        return
    if not args.pred or not args.data:
        ap.error("--pred and --data are required (or --write-fixture)")
    if args.bertscore_model and args.bertscore_layers is None:
        ap.error("--bertscore-layers is required with --bertscore-model")
    print(json.dumps(evaluate(args.pred, args.data, args.bertscore_model, args.bertscore_layers)))


if __name__ == "__main__":
    main()
