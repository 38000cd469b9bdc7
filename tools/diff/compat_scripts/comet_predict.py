# A COMET scoring script as the unbabel-comet README writes it. The runner sets COMET_CHECKPOINT
# (in real use: model_path = download_model("Unbabel/wmt22-comet-da")) and COMET_MODE.
import json
import os

from comet import download_model, load_from_checkpoint  # noqa: F401

model_path = os.environ["COMET_CHECKPOINT"]
mode = os.environ.get("COMET_MODE", "src,mt,ref").split(",")
src = [
    "Dem Feuer konnte Einhalt geboten werden",
    "Schulen und Kindergärten wurden eröffnet.",
    "Er lief wie der Wind über das Feld.",
]
mt = [
    "The fire could be stopped",
    "Schools and kindergartens were open",
    "He ran like wind across the field.",
]
ref = [
    "They were able to control the fire.",
    "Schools and kindergartens opened",
    "He ran like the wind across the field.",
]
columns = {"src": src, "mt": mt, "ref": ref}
data = [dict((k, columns[k][i]) for k in mode) for i in range(len(mt))]

model = load_from_checkpoint(model_path)
model_output = model.predict(data, batch_size=8, gpus=0)
print(model_output)
print(model_output.scores)
print(model_output.system_score)
print(model_output["scores"] == model_output.scores, model_output["system_score"])
print(type(model_output).__name__, type(model_output.scores).__name__, type(model_output.system_score).__name__)
print(list(model_output.keys()))
print("metadata" in model_output, hasattr(model_output, "metadata"))
print(list(json.loads(json.dumps(model_output))))
print(model_output[0] == model_output.scores, model_output[1])
for i, (seg, score) in enumerate(zip(data, model_output.scores)):
    print(i, seg["mt"], f"{score:.4f}", round(score, 4))
print(f"System score: {model_output.system_score:.4f}")
if "metadata" in model_output:
    print(type(model_output.metadata).__name__, list(model_output.metadata.keys()))
    print(model_output.metadata)
    for spans in model_output.metadata.error_spans:
        print(len(spans), [(s["text"], s["severity"], s["start"], s["end"], round(s["confidence"], 4)) for s in spans])
        print([sorted(s) for s in spans])

# Other options the README mentions.
out2 = model.predict(data, batch_size=2, gpus=0, progress_bar=False, length_batching=False)
print(out2.scores, out2.system_score)
out3 = model.predict(data[:1], gpus=0)
print(out3)
# comet's defaults (gpus=1: Lightning's "auto" accelerator, the CPU on a machine without CUDA)
out4 = model.predict(data)
print(out4.scores, out4.system_score, list(out4))
print(out4.scores.index(max(out4.scores)), sorted(range(len(data)), key=lambda i: out4.scores[i]))
try:
    out_missing = out2.metadata
    print("metadata attr", out_missing)
except AttributeError as e:
    print("AttributeError")
try:
    load_from_checkpoint("no/such/checkpoints/model.ckpt")
except Exception as e:
    print("bad path", type(e).__name__, e)
