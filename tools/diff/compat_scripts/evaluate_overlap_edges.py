# The overlap metrics on the inputs summarisation and generation code meets: empty outputs,
# non-Latin text, references of different numbers per prediction, long multi-sentence texts.
import evaluate

long_pred = "The committee met on Tuesday.\nIt approved the budget.\nMembers voted 7 to 2."
cases = [
    (["a summary"], [["a summary", "the summary here"]]),
    ([""], ["reference text"]),
    (["prediction text"], [""]),
    (["Привет мир, как дела?"], ["Привет, мир! Как дела?"]),
    (["这是一个测试"], ["这是测试"]),
    (["one two three", "four five"], [["one two three four"], ["four", "five six", "four five"]]),
    ([long_pred], ["The committee met Tuesday.\nThe budget was approved.\nThe vote was 7-2."]),
    (["don't stop-believing 3.14 U.S.A."], ["do not stop believing 3.14 USA"]),
]
for name in ["rouge", "bleu", "meteor", "sacrebleu", "chrf", "ter"]:
    for preds, refs in cases:
        for opts in ({}, {"rouge": {"use_stemmer": True, "use_aggregator": False}, "bleu": {"smooth": True},
                          "sacrebleu": {"tokenize": "char"}, "chrf": {"word_order": 2},
                          "ter": {"normalized": True}, "meteor": {"gamma": 0.2}}[name]):
            try:
                print(name, opts, preds, refs, evaluate.load(name, seed=3).compute(predictions=preds, references=refs, **opts))
            except Exception as e:
                print(name, opts, preds, refs, type(e).__name__, e)
