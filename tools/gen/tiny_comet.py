"""The builder of the tiny random-weight COMET checkpoints, shared by the scripts that make or read
them: tools/gen/gen_comet_fixtures.py (hauser-nli/tests/fixtures/comet),
tools/gen/gen_comet_unified_fixtures.py (.../comet-unified), tools/gen/gen_rerank_fixture.py and
tools/bench/bench_learned.py (base-shaped models of the same layout). Not a script: the others
import it (tools/gen/ is their own folder; the bench puts it on sys.path).

Runs in the venv of tools/requirements-comet.txt (unbabel-comet 2.2.7, transformers < 5).

A model directory is laid out as unbabel-comet writes it, beside an encoder directory:
  encoder/                  an XLM-RoBERTa (or XLM-RoBERTa XL) config and the tiny BPE tokenizer
                            of the xlm-roberta fixture (what `pretrained_model` names in hparams.yaml,
                            `../encoder`, relative to the model directory, as hauser resolves it)
  <model>/hparams.yaml      class_identifier and the model's hyper-parameters
  <model>/checkpoints/model.ckpt
                            a PyTorch Lightning checkpoint (torch.save zip): state_dict with the
                            encoder, the layer-wise attention and the heads, hyper_parameters
"""

import contextlib
import os
import shutil
from pathlib import Path

import pytorch_lightning as ptl
import torch
import transformers
import yaml
from comet import load_from_checkpoint
from comet.models import str2model
from transformers import XLMRobertaConfig, XLMRobertaXLConfig

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "hauser-nli" / "tests" / "fixtures"
# The tiny BPE tokenizer every COMET encoder here uses (300 ids).
TOKENIZER_FROM = FIXTURES / "xlm-roberta"

# The tiny encoder of the test fixtures: 3 layers of 32, no dropout.
TINY = dict(hidden_size=32, num_hidden_layers=3, num_attention_heads=4, intermediate_size=37,
            max_position_embeddings=66, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
# XLM-R base's layer shapes (tools/bench/bench_learned.py), with transformers' default dropout.
BASE = dict(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
            max_position_embeddings=514)

# `class_identifier` of each model class, from unbabel-comet's own table.
CLASS_ID = {cls: name for name, cls in str2model.items()}


def write_encoder(d, xl=False, shape=TINY):
    """An encoder directory: the tiny tokenizer and an XLM-RoBERTa (XL: pre-LayerNorm) config of
    `shape` with its 300-id vocabulary and fairseq's special ids."""
    d.mkdir(parents=True, exist_ok=True)
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(TOKENIZER_FROM / f, d / f)
    cls = XLMRobertaXLConfig if xl else XLMRobertaConfig
    cls(vocab_size=300, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2, layer_norm_eps=1e-5,
        **shape).save_pretrained(d)


@contextlib.contextmanager
def inside(d):
    """`pretrained_model` is relative to the model directory, as hauser resolves it."""
    d.mkdir(parents=True, exist_ok=True)
    cwd = os.getcwd()
    os.chdir(d)
    try:
        yield
    finally:
        os.chdir(cwd)


def new_model(d, cls, hp, seed):
    """`cls(**hp)` made in the model directory `d`, after `torch.manual_seed(seed)`."""
    torch.manual_seed(seed)
    with inside(d):
        return cls(**hp)


def randomise(model):
    """Random weights everywhere on the scoring path (the fixtures' scheme): the encoder's own init
    is small, so it is scaled up to keep layers distinguishable; the mix weights and gamma start at
    0 and 1; the word-level head gets logits wide enough that every label wins somewhere."""
    with torch.no_grad():
        for n, p in model.named_parameters():
            if n.startswith("encoder."):
                if "LayerNorm" in n:
                    p.copy_(1.0 + 0.2 * torch.randn_like(p) if n.endswith("weight") else 0.1 * torch.randn_like(p))
                else:
                    p.copy_(0.3 * torch.randn_like(p))
            elif n.startswith("layerwise_attention.scalar_parameters"):
                p.copy_(0.4 * torch.randn_like(p))
            elif n == "layerwise_attention.gamma":
                p.fill_(1.7)
            elif n.startswith("estimator."):
                p.copy_(0.5 * torch.randn_like(p))
            elif n.startswith("hidden2tag."):
                p.copy_(1.5 * torch.randn_like(p))


def save(d, model, hparams=None):
    """`d/hparams.yaml` (class_identifier and `hparams`, by default the model's own, without
    load_pretrained_weights and local_files_only) and `d/checkpoints/model.ckpt`."""
    (d / "checkpoints").mkdir(parents=True, exist_ok=True)
    hparams = {"class_identifier": CLASS_ID[type(model)], **(dict(model.hparams) if hparams is None else hparams)}
    for k in ("load_pretrained_weights", "local_files_only"):
        hparams.pop(k, None)
    (d / "hparams.yaml").write_text(yaml.dump(hparams))
    torch.save(
        {
            "epoch": 0,
            "global_step": 0,
            "pytorch-lightning_version": ptl.__version__,
            "state_dict": model.state_dict(),
            "hparams_name": "kwargs",
            "hyper_parameters": dict(model.hparams),
        },
        d / "checkpoints" / "model.ckpt",
    )


def load(d):
    """The checkpoint of the model directory `d`, as unbabel-comet loads it, in eval mode."""
    with inside(d):
        model = load_from_checkpoint("checkpoints/model.ckpt")
    model.eval()
    return model


def meta(generator, tolerance):
    """The `meta` of a reference.json: generator and versions."""
    return {
        "generator": generator,
        "unbabel-comet": "2.2.7",
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "pytorch-lightning": ptl.__version__,
        "tolerance": tolerance,
    }
