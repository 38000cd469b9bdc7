# wer / cer on the inputs ASR evaluation code meets: empty hypotheses, empty references,
# extra whitespace, case and punctuation, unicode.
import evaluate

cases = [
    (["hello world"], ["hello world"]),
    ([""], ["hello world"]),
    (["hello world", ""], ["hello world", "good morning"]),
    (["hello  world "], [" hello world"]),
    (["Hello, World!"], ["hello world"]),
    (["ça va très bien"], ["ça va bien"]),
    (["a b c d e f"], ["a"]),
    (["hello"], [""]),
    (["hello", "world"], ["", "world"]),
    ([""], [""]),
    (["\tnew\nline"], ["new line"]),
]
for name in ["wer", "cer"]:
    m = evaluate.load(name)
    for preds, refs in cases:
        for concat in (False, True):
            try:
                print(name, concat, preds, refs, repr(m.compute(predictions=preds, references=refs, concatenate_texts=concat)))
            except Exception as e:
                print(name, concat, preds, refs, type(e).__name__, e)
