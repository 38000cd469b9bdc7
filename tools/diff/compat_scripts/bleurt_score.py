# A BLEURT scoring script as the google-research/bleurt README writes it. The runner sets
# BLEURT_CHECKPOINT (in real use: "BLEURT-20") and BLEURT_INPUTS (a JSON file of references and
# candidates).
import json
import os

from bleurt import score

checkpoint = os.environ["BLEURT_CHECKPOINT"]
with open(os.environ["BLEURT_INPUTS"], encoding="utf-8") as f:
    inputs = json.load(f)
references = inputs["references"]
candidates = inputs["candidates"]

scorer = score.BleurtScorer(checkpoint)
scores = scorer.score(references=references, candidates=candidates)
assert isinstance(scores, list) and len(scores) == len(candidates)
print(scores)
print(type(scores[0]).__name__)
print(scorer.score(references=references, candidates=candidates, batch_size=1))
print(scorer.score(references=tuple(references[:2]), candidates=tuple(candidates[:2])))
print(scorer.score(references=[], candidates=[]))
print(scorer.score(references=(r for r in references), candidates=iter(candidates)) == scores)
for c, s in zip(candidates, scores):
    print(f"{s:.5f}\t{c}")
try:
    scorer.score(references, candidates)
except AssertionError as e:
    print("AssertionError", e)
try:
    scorer.score(references=references[:1], candidates=candidates)
except AssertionError as e:
    print("AssertionError", e)
lb = score.LengthBatchingBleurtScorer(checkpoint)
print(lb.score(references=references, candidates=candidates, batch_size=4))
