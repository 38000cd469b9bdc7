# Mistakes a COMET user makes: the errors (their types) comet gives for them.
import os

from comet import load_from_checkpoint

model = load_from_checkpoint(os.environ["COMET_CHECKPOINT"])
attempts = {
    "no ref": [{"src": "Hallo Welt", "mt": "Hello world"}],
    "no src": [{"mt": "Hello world", "ref": "Hello, world"}],
    "no mt": [{"src": "Hallo Welt", "ref": "Hello world"}],
    "only mt": [{"mt": "Hello world"}],
    "ragged": [{"src": "Hallo Welt", "mt": "Hello world", "ref": "Hello, world"}, {"mt": "Hi"}],
    "empty list": [],
    "checkpoint folder": None,
}
for name, data in attempts.items():
    try:
        if data is None:
            load_from_checkpoint(os.path.dirname(os.environ["COMET_CHECKPOINT"]) or ".")
            print(name, "loaded")
        else:
            out = model.predict(data, batch_size=8, gpus=0)
            print(name, "ok", [round(s, 4) for s in out.scores])
    except Exception as e:
        print(name, type(e).__name__, e)
