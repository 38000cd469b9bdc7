# evaluate's text metrics with the options and habits of training-loop code: seeds, tokenizer
# callables, hub ids, tuples, repeated computes, per-epoch add_batch loops, empty inputs.
import numpy as np

import evaluate

preds = [
    "The quick brown fox jumps over the lazy dog.",
    "A stitch in time saves nine",
    "猫はマットの上に座った。",
    "",
    "It was the best of times, it was the worst of times.",
    "Hello,   world !",
]
refs = [
    ("The quick brown fox jumped over the lazy dog.", "A fast brown fox leaps over a lazy dog."),
    ("A stitch in time saves nine.", "Fix it early."),
    ("猫がマットの上に座った。", "猫はマットに座った。"),
    ("Nothing.", "Empty."),
    ("It was the best of times and the worst of times.", "Times were good and bad."),
    ("Hello world!", "hello, world"),
]

np.random.seed(0)
rouge = evaluate.load("evaluate-metric/rouge")
print(rouge.compute(predictions=preds, references=refs))
print(rouge.compute(predictions=preds, references=refs, use_stemmer=True))
print(evaluate.load("rouge", seed=123).compute(predictions=preds, references=[r[0] for r in refs]))
print(rouge.compute(predictions=preds, references=refs, tokenizer=lambda x: x.lower().split()))
print(rouge.compute(predictions=preds, references=refs, rouge_types=["rouge1", "rouge3", "rougeLsum"],
                    use_aggregator=False))

bleu = evaluate.load("bleu")
print(bleu.compute(predictions=preds[:3], references=refs[:3]))
print(bleu.compute(predictions=preds[:3], references=refs[:3], tokenizer=str.split, max_order=3))

sb = evaluate.load("sacrebleu")
print(sb.compute(predictions=preds, references=[list(r) for r in refs], use_effective_order=True))
print(sb.compute(predictions=preds, references=[list(r) for r in refs], tokenize="intl"))
print(sb.compute(predictions=preds, references=[list(r) for r in refs], tokenize="zh"))
print(evaluate.load("chrf").compute(predictions=preds, references=[list(r) for r in refs], whitespace=True,
                                    eps_smoothing=True))
print(evaluate.load("ter").compute(predictions=preds, references=[list(r) for r in refs], support_zh_ja_chars=True))
print(evaluate.load("meteor").compute(predictions=preds, references=refs))

# an epoch loop: add_batch per step, compute per epoch
for name in ["sacrebleu", "rouge", "chrf", "wer", "bleu"]:
    metric = evaluate.load(name, seed=7) if name == "rouge" else evaluate.load(name)
    for epoch in range(2):
        for step in range(0, len(preds), 3):
            batch_refs = [r[0] for r in refs[step:step + 3]] if name == "wer" else [list(r) for r in refs[step:step + 3]]
            metric.add_batch(predictions=preds[step:step + 3], references=batch_refs)
        try:
            print(name, epoch, metric.compute())
        except Exception as e:
            print(name, epoch, type(e).__name__, e)

# the same module object computed twice, and the dict used as researchers use it
chrf = evaluate.load("chrf")
a = chrf.compute(predictions=preds, references=[list(r) for r in refs])
b = chrf.compute(predictions=preds, references=[list(r) for r in refs])
print(a == b, list(a), f"{a['score']:.2f}")
results = evaluate.load("rouge").compute(predictions=preds, references=refs)
print({k: round(v * 100, 2) for k, v in results.items()})
print(float(results["rougeL"]), isinstance(results["rouge1"], float))
for name in ["wer", "cer"]:
    m = evaluate.load(name)
    print(name, m.compute(predictions=["a b c", "d e"], references=["a b x", "d e"]))
    try:
        print(name, m.compute(predictions=[], references=[]))
    except Exception as e:
        print(name, type(e).__name__, e)
for name in ["sacrebleu", "chrf", "ter", "rouge", "meteor", "bleu"]:
    try:
        print(name, evaluate.load(name).compute(predictions=[], references=[]))
    except Exception as e:
        print(name, type(e).__name__, e)
