# evaluate.combine, as its documentation uses it.
import evaluate

preds = ["the cat sat on the mat", "a dog barked at the mailman", "hello world"]
refs = ["the cat is on the mat", "the dog barked at the postman", "hello, world"]

combined = evaluate.combine(["sacrebleu", "chrf", "rouge", "meteor"])
print(combined.compute(predictions=preds, references=refs))
print(evaluate.combine(["chrf", "ter"]).compute(predictions=preds, references=refs))
print(evaluate.combine(["chrf", "ter"], force_prefix=True).compute(predictions=preds, references=refs))
print(evaluate.combine({"chrf": "chrf", "chrf++": evaluate.load("chrf")}).compute(predictions=preds, references=refs))
print(evaluate.combine([evaluate.load("sacrebleu"), evaluate.load("sacrebleu")]).compute(predictions=preds, references=refs))
m = evaluate.combine(["bleu", "rouge"])
for p, r in zip(preds, refs):
    m.add(prediction=p, reference=r)
print(m.compute())
m.add_batch(predictions=preds, references=refs)
print(m.compute())
for call in [
    lambda: evaluate.combine(["chrf", "ter"]).compute(predictions=preds, references=refs, lowercase=True),
    lambda: evaluate.combine(["chrf", "wer"]).compute(predictions=preds, references=refs),
]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__)
