# evaluate fed from NumPy arrays and pandas columns, as notebook code feeds it.
import numpy as np
import pandas as pd

import evaluate

df = pd.DataFrame(
    {
        "prediction": ["the cat sat on the mat", "a dog barked", "hello world", "it rains"],
        "reference": ["the cat is on the mat", "the dog barked loudly", "hello, world", "it is raining"],
    }
)
for name in ["sacrebleu", "chrf", "ter", "rouge", "wer", "cer", "bleu", "meteor"]:
    metric = evaluate.load(name)
    for label, preds, refs in [
        ("series", df["prediction"], df["reference"]),
        ("numpy", df["prediction"].to_numpy(), df["reference"].to_numpy()),
        ("tolist", df["prediction"].tolist(), df["reference"].tolist()),
    ]:
        try:
            print(name, label, metric.compute(predictions=preds, references=refs))
        except Exception as e:
            print(name, label, type(e).__name__)
    metric = evaluate.load(name)
    for _, row in df.iterrows():
        metric.add(prediction=row["prediction"], reference=row["reference"])
    print(name, "iterrows", metric.compute())

# several references per prediction as a 2-D array
refs2d = np.array([["the cat is on the mat", "a cat sat on a mat"], ["the dog barked loudly", "a dog was barking"]])
for name in ["sacrebleu", "chrf", "rouge", "bleu", "meteor", "ter"]:
    print(name, "2-D", evaluate.load(name).compute(predictions=np.array(df["prediction"][:2]), references=refs2d))
# (A filtered frame's column, whose index does not hold 0, is evaluate's KeyError: it reads
# column[0]; hauser reads it as a list: docs/DROP-IN.md.)
