# Hugging Face evaluate's text metrics as their metric cards use them: compute with options,
# several references per prediction, add / add_batch loops, printed results.
import evaluate

predictions = ["hello there general kenobi", "foo bar foobar", "the cat sat on the mat", "A storm rose."]
references = [
    ["hello there general kenobi", "hello there !"],
    ["foo bar foobar", "foo bar foobar"],
    ["the cat is on the mat", "there is a cat on the mat"],
    ["A storm of anger rose.", "Anger rose like a storm."],
]
single = [r[0] for r in references]


def show(name, result):
    print(name, result)
    if isinstance(result, dict):
        print(" ", {k: type(v).__name__ for k, v in result.items()})
    else:
        print(" ", type(result).__name__)


sacrebleu = evaluate.load("sacrebleu")
print(sacrebleu.name)
show("sacrebleu", sacrebleu.compute(predictions=predictions, references=references))
show("sacrebleu single", sacrebleu.compute(predictions=predictions, references=single))
show("sacrebleu opts", sacrebleu.compute(predictions=predictions, references=references, lowercase=True,
                                         tokenize="char", smooth_method="floor", smooth_value=0.1))
print(round(sacrebleu.compute(predictions=predictions, references=references)["score"], 1))

bleu = evaluate.load("bleu")
show("bleu", bleu.compute(predictions=predictions, references=references))
show("bleu single", bleu.compute(predictions=predictions, references=single, max_order=2, smooth=True))

chrf = evaluate.load("chrf")
show("chrf", chrf.compute(predictions=predictions, references=references))
show("chrf++", chrf.compute(predictions=predictions, references=references, word_order=2))
show("chrf opts", chrf.compute(predictions=predictions, references=references, lowercase=True, char_order=4, beta=1))

ter = evaluate.load("ter")
show("ter", ter.compute(predictions=predictions, references=references))
show("ter opts", ter.compute(predictions=predictions, references=references, case_sensitive=True,
                             normalized=True, ignore_punct=True))

rouge = evaluate.load("rouge")
show("rouge", rouge.compute(predictions=predictions, references=references))
show("rouge single", rouge.compute(predictions=predictions, references=single))
show("rouge no agg", rouge.compute(predictions=predictions, references=references, use_aggregator=False))
show("rouge types", rouge.compute(predictions=predictions, references=single, rouge_types=["rouge1", "rougeL"],
                                  use_stemmer=True))
print(rouge.compute(predictions=predictions, references=single)["rougeL"] * 100)

meteor = evaluate.load("meteor")
show("meteor", meteor.compute(predictions=predictions, references=references))
show("meteor single", meteor.compute(predictions=predictions, references=single))
show("meteor opts", meteor.compute(predictions=predictions, references=single, alpha=0.8, beta=2, gamma=0.4))
print(round(meteor.compute(predictions=predictions, references=single)["meteor"], 2))

# add / add_batch loops
for name in ["sacrebleu", "chrf", "ter", "rouge", "meteor", "bleu"]:
    metric = evaluate.load(name)
    for p, r in zip(predictions, references):
        metric.add(prediction=p, reference=r)
    show(name + " add", metric.compute())
    metric = evaluate.load(name)
    for i in range(0, len(predictions), 2):
        metric.add_batch(predictions=predictions[i:i + 2], references=references[i:i + 2])
    show(name + " add_batch", metric.compute())

# combined
clf = evaluate.load("sacrebleu")
clf.add_batch(predictions=predictions[:2], references=references[:2])
show("mixed", clf.compute(predictions=predictions[2:], references=references[2:]))

# common mistakes
for call in [
    lambda: evaluate.load("sacrebleu").compute(predictions=predictions, references=[["a"], ["b", "c"], ["d"], ["e"]]),
    lambda: evaluate.load("sacrebleu").compute(predictions=predictions[:2], references=references),
    lambda: evaluate.load("chrf").compute(predictions=predictions, references=references, no_such_option=1),
    lambda: evaluate.load("rouge").compute(predictions=predictions),
    lambda: evaluate.load("bleu").compute(predictions="the cat", references="the cat"),
    lambda: evaluate.load("sacrebleu").compute(),
]:
    try:
        print("ok", call())
    except Exception as e:
        print(type(e).__name__)
