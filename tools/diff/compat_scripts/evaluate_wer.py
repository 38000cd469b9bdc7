# evaluate's wer and cer as their metric cards use them.
import evaluate

predictions = ["this is the prediction", "there is an other sample", "hello world"]
references = ["this is the reference", "there is another one", "hello duck"]

wer = evaluate.load("wer")
wer_score = wer.compute(predictions=predictions, references=references)
print(wer_score, type(wer_score).__name__)
print(wer.compute(predictions=predictions, references=references, concatenate_texts=True))
cer = evaluate.load("cer")
cer_score = cer.compute(predictions=predictions, references=references)
print(cer_score, type(cer_score).__name__)
print(cer.compute(predictions=predictions, references=references, concatenate_texts=True))
for p, r in zip(predictions, references):
    wer.add(prediction=p, reference=r)
print("add", wer.compute())
wer.add_batch(predictions=predictions, references=references)
print("add_batch", wer.compute())
print(f"WER: {100 * wer.compute(predictions=predictions, references=references):.2f}%")
try:
    print(wer.compute(predictions=predictions, references=[["a"], ["b"], ["c"]]))
except Exception as e:
    print(type(e).__name__)

# notebook boilerplate
evaluate.logging.set_verbosity_error()
evaluate.utils.logging.set_verbosity_warning()
evaluate.disable_progress_bar()
print(evaluate.logging.get_verbosity(), evaluate.is_progress_bar_enabled())
evaluate.enable_progress_bar()
print(evaluate.utils.logging.get_verbosity() == evaluate.logging.WARNING, evaluate.is_progress_bar_enabled())
