"""Golden fixture for `hauser metric`'s options: every sacreBLEU / rouge-score / NLTK option the
command exposes, computed by the reference library on inputs written here, with the edge cases
those libraries' own test suites cover (empty and whitespace-only segments, smoothing values,
effective order, n-gram orders, beta, eps smoothing, stemming, multi-sentence ROUGE-Lsum,
several references, weights).

Writes hauser-cli/tests/fixtures/metric_options.json:
  {"meta": {...}, "cases": [{"name", "metric", "args": [flags], "input": "files" | "jsonl",
    "hyps": [...], "refs": [[ref list 1], [ref list 2]...] (refs[k][i] = k-th reference of
    hypothesis i), "corpus": {field: value}, "sentence": [{field: value}, ...]}]}
The values are in `hauser metric`'s conventions: corpus BLEU/chrF 0-100, sentence scores 0-1
(sacreBLEU's sentence BLEU/chrF divided by 100), BLEU precisions 0-100 as sacreBLEU gives them.
`hauser metric NAME ARGS --format json` must print every corpus field, `--sentence --format
jsonl` every sentence field (hauser-cli/tests/it/metric_options.rs checks them, 1e-9).

References: sacreBLEU 2.4.3 (BLEU, CHRF, TER), rouge-score 0.1.2 (RougeScorer), NLTK 3.10.4
(sentence_bleu, corpus_bleu, modified_precision, word_tokenize with the Punkt model of
figlang-metrics/data/punkt_english).
Run from the repository root:  "$(bash tools/pyref.sh)" tools/gen/gen_metric_options_fixture.py
"""

import json
import os
import sys
import warnings
from fractions import Fraction
from importlib.metadata import version

sys.path.insert(0, os.path.dirname(__file__))
import gen_text_metric_fixtures as base  # noqa: E402  (sets up NLTK's Punkt data)
from nltk.tokenize import word_tokenize  # noqa: E402
from nltk.translate.bleu_score import (  # noqa: E402
    SmoothingFunction, closest_ref_length, corpus_bleu, modified_precision, sentence_bleu)
from rouge_score import rouge_scorer  # noqa: E402
from sacrebleu.metrics import BLEU, CHRF, TER  # noqa: E402

warnings.filterwarnings("ignore")
OUT = os.path.join(base.ROOT, "hauser-cli", "tests", "fixtures", "metric_options.json")

HYPS = [
    "The cat sat on the mat.",
    "",
    "A quick brown fox jumps over the lazy dog",
    "   ",
    "He said: \"it's 3.5 km - not 4!\"",
    "the the the the",
    "Politicians argue about the new tax law, again.",
    "short",
]
REFS = [
    ["The cat is on the mat.", "something else entirely", "The quick brown fox jumped over a lazy dog.", "",
     "He said: \"it is 3.5 km, not 4.\"", "the cat", "Politicians argued about the new tax law.", "short"],
    ["There is a cat on the mat.", "", "A fast brown fox leaps over the lazy dog", "nothing",
     "He told us it's 3.5 km.", "the", "Lawmakers debate the tax law again.", "a short one"],
]
ZH_HYPS = ["我们今天去公园散步。", "他说：“好的。”", "", "Hello 世界 2024."]
ZH_REFS = [["我们今天到公园散步。", "他说：“好。”", "空", "Hello 世界 2024 !"]]
SUMMARIES = [
    ("The cat sat on the mat.\nIt was happy.", ["A cat was on the mat.\nThe cat was happy."]),
    ("Stocks rose sharply. Investors cheered the news.", ["Stocks climbed. Investors were happy with the news."]),
    ("", ["Nothing here."]),
    ("One sentence only", ["One sentence only.\nAnd another one."]),
    ("Running runners ran quickly.\nThey were running.", ["The runner runs quickly.\nRunning is fun."]),
]


def sacre_bleu_case(name, args, kw, hyps=HYPS, refs=REFS):
    corpus = BLEU(**kw).corpus_score(hyps, refs)
    sent_kw = dict(kw, effective_order=True)
    sentence = []
    for i, h in enumerate(hyps):
        s = BLEU(**sent_kw).sentence_score(h, [r[i] for r in refs])
        sentence.append(bleu_fields(s, 100.0))
    return {"name": name, "metric": "bleu", "args": args, "input": "files", "hyps": hyps, "refs": refs,
            "corpus": bleu_fields(corpus, 1.0), "sentence": sentence}


def bleu_fields(s, divisor):
    return {"score": s.score / divisor, "counts": list(s.counts), "totals": list(s.totals),
            "precisions": list(s.precisions), "bp": s.bp, "ratio": s.ratio, "sys_len": s.sys_len,
            "ref_len": s.ref_len}


def chrf_case(name, metric, args, kw):
    m = CHRF(**kw)
    corpus = m.corpus_score(HYPS, REFS)
    sentence = [{"score": m.sentence_score(h, [r[i] for r in REFS]).score / 100.0} for i, h in enumerate(HYPS)]
    return {"name": name, "metric": metric, "args": args, "input": "files", "hyps": HYPS, "refs": REFS,
            "corpus": {"score": corpus.score, "char_order": m.char_order, "word_order": m.word_order,
                       "beta": m.beta},
            "sentence": sentence}


def ter_case(name, args, kw, hyps=HYPS, refs=REFS):
    m = TER(**kw)
    corpus = m.corpus_score(hyps, refs)
    sentence = []
    for i, h in enumerate(hyps):
        s = m.sentence_score(h, [r[i] for r in refs])
        sentence.append({"score": s.score / 100.0, "num_edits": s.num_edits, "ref_length": s.ref_length})
    return {"name": name, "metric": "ter", "args": args, "input": "files", "hyps": hyps, "refs": refs,
            "corpus": {"score": corpus.score, "num_edits": corpus.num_edits, "ref_length": corpus.ref_length},
            "sentence": sentence}


def rouge_case(name, metric, args, kw, pairs=None):
    sc = rouge_scorer.RougeScorer([metric], **kw)
    if pairs is None:
        pairs = [(h, [r[i] for r in REFS]) for i, h in enumerate(HYPS)]
    sentence = []
    for h, rs in pairs:
        s = sc.score_multi(rs, h)[metric]
        sentence.append({"score": s.fmeasure, "precision": s.precision, "recall": s.recall,
                         "fmeasure": s.fmeasure})
    mean = lambda k: sum(x[k] for x in sentence) / len(sentence)  # noqa: E731
    hyps = [h for h, _ in pairs]
    refs = [[rs[k] for _, rs in pairs] for k in range(len(pairs[0][1]))]
    multiline = any("\n" in t for t in hyps + [r for rr in refs for r in rr])
    return {"name": name, "metric": metric, "args": args, "input": "jsonl" if multiline else "files",
            "hyps": hyps, "refs": refs,
            "corpus": {k: mean(k) for k in ("score", "precision", "recall", "fmeasure")},
            "sentence": sentence}


def nltk_fields(refs_tok, hyp_tok, n):
    nums, dens = [], []
    for k in range(1, n + 1):
        f = modified_precision(refs_tok, hyp_tok, k)
        nums.append(f.numerator)
        dens.append(f.denominator)
    return nums, dens


def nltk_case(name, args, weights=(0.25, 0.25, 0.25, 0.25), smoothing="method1", auto_reweigh=False,
              corpus_mode=False):
    sf = getattr(SmoothingFunction(), smoothing)
    tok = [word_tokenize(h) for h in HYPS]
    rtok = [[word_tokenize(r[i]) for r in REFS] for i in range(len(HYPS))]
    sentence = []
    for h, rs in zip(tok, rtok):
        nums, dens = nltk_fields(rs, h, len(weights))
        hyp_len, ref_len = len(h), closest_ref_length(rs, len(h))
        score = sentence_bleu(rs, h, weights=weights, smoothing_function=sf, auto_reweigh=auto_reweigh)
        sentence.append({"score": float(score), "p_numerators": nums, "p_denominators": dens,
                         "precisions": [float(Fraction(a, b, _normalize=False)) for a, b in zip(nums, dens)],
                         "hyp_len": hyp_len, "ref_len": ref_len})
    if corpus_mode:
        nums = [sum(s["p_numerators"][k] for s in sentence) for k in range(len(weights))]
        dens = [sum(s["p_denominators"][k] for s in sentence) for k in range(len(weights))]
        corpus = {"score": float(corpus_bleu(rtok, tok, weights=weights, smoothing_function=sf,
                                             auto_reweigh=auto_reweigh)),
                  "p_numerators": nums, "p_denominators": dens,
                  "hyp_len": sum(s["hyp_len"] for s in sentence), "ref_len": sum(s["ref_len"] for s in sentence)}
    else:
        corpus = {"score": sum(s["score"] for s in sentence) / len(sentence)}
    return {"name": name, "metric": "sentbleu", "args": args, "input": "files", "hyps": HYPS, "refs": REFS,
            "corpus": corpus, "sentence": sentence}


def main():
    cases = [
        sacre_bleu_case("bleu defaults", [], {}),
        sacre_bleu_case("bleu intl lowercase", ["-tok", "intl", "-lc"], {"tokenize": "intl", "lowercase": True}),
        sacre_bleu_case("bleu none tokenizer", ["--tokenize", "none"], {"tokenize": "none"}),
        sacre_bleu_case("bleu char", ["-tok", "char"], {"tokenize": "char"}),
        sacre_bleu_case("bleu zh", ["-tok", "zh"], {"tokenize": "zh"}, ZH_HYPS, ZH_REFS),
        sacre_bleu_case("bleu 13a on Chinese", [], {}, ZH_HYPS, ZH_REFS),
        sacre_bleu_case("bleu floor default", ["-s", "floor"], {"smooth_method": "floor"}),
        sacre_bleu_case("bleu floor 0.3", ["--smooth-method", "floor", "--smooth-value", "0.3"],
                        {"smooth_method": "floor", "smooth_value": 0.3}),
        sacre_bleu_case("bleu add-k 2", ["-s", "add-k", "-sv", "2"], {"smooth_method": "add-k", "smooth_value": 2}),
        sacre_bleu_case("bleu add-k default", ["--smooth", "add-k"], {"smooth_method": "add-k"}),
        sacre_bleu_case("bleu none smoothing", ["-s", "none"], {"smooth_method": "none"}),
        sacre_bleu_case("bleu order 2", ["--max-ngram-order", "2"], {"max_ngram_order": 2}),
        sacre_bleu_case("bleu order 6", ["--max-ngram-order", "6"], {"max_ngram_order": 6}),
        sacre_bleu_case("bleu corpus effective order", ["--effective-order"], {"effective_order": True}),
        sacre_bleu_case("bleu one reference", [], {}, HYPS, REFS[:1]),
        chrf_case("chrf defaults", "chrf", [], {}),
        chrf_case("chrf++ defaults", "chrf++", [], {"word_order": 2}),
        chrf_case("chrf orders beta", "chrf", ["-cc", "4", "-cw", "1", "--chrf-beta", "1"],
                  {"char_order": 4, "word_order": 1, "beta": 1}),
        chrf_case("chrf beta 0", "chrf", ["--chrf-beta", "0"], {"beta": 0}),
        chrf_case("chrf whitespace lowercase", "chrf", ["--chrf-whitespace", "--chrf-lowercase"],
                  {"whitespace": True, "lowercase": True}),
        chrf_case("chrf eps smoothing", "chrf++", ["--chrf-eps-smoothing"], {"word_order": 2, "eps_smoothing": True}),
        chrf_case("chrf char order 1", "chrf", ["--chrf-char-order", "1"], {"char_order": 1}),
    ]
    cases += [
        ter_case("ter defaults", [], {}),
        ter_case("ter case sensitive", ["--ter-case-sensitive"], {"case_sensitive": True}),
        ter_case("ter normalized", ["--ter-normalized"], {"normalized": True}),
        ter_case("ter no punct", ["--ter-no-punct"], {"no_punct": True}),
        ter_case("ter asian normalized", ["--ter-asian-support", "--ter-normalized"],
                 {"asian_support": True, "normalized": True}, ZH_HYPS, ZH_REFS),
        ter_case("ter asian no punct", ["--ter-asian-support", "--ter-no-punct"],
                 {"asian_support": True, "no_punct": True}, ZH_HYPS, ZH_REFS),
        ter_case("ter one reference", [], {}, HYPS, REFS[:1]),
    ]
    for metric in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        cases.append(rouge_case(f"{metric} defaults", metric, [], {}))
        cases.append(rouge_case(f"{metric} stemmer", metric, ["--use-stemmer"], {"use_stemmer": True}))
    cases.append(rouge_case("rougeLsum newlines", "rougeLsum", [], {}, SUMMARIES))
    cases.append(rouge_case("rougeLsum newlines stemmer", "rougeLsum", ["--use-stemmer"], {"use_stemmer": True}, SUMMARIES))
    cases.append(rouge_case("rougeLsum split summaries", "rougeLsum", ["--split-summaries"],
                            {"split_summaries": True}, [(h.replace("\n", " "), [r.replace("\n", " ") for r in rs])
                                                        for h, rs in SUMMARIES]))
    cases.append(rouge_case("rouge1 summaries", "rouge1", [], {}, SUMMARIES))
    cases += [
        nltk_case("sentbleu defaults (method1)", []),
        nltk_case("sentbleu method0 (NLTK default)", ["-s", "method0"], smoothing="method0"),
        nltk_case("sentbleu method3", ["--smooth-method", "method3"], smoothing="method3"),
        nltk_case("sentbleu method4", ["--smooth-method", "method4"], smoothing="method4"),
        nltk_case("sentbleu method7", ["--smooth-method", "method7"], smoothing="method7"),
        nltk_case("sentbleu unigram weights", ["--weights", "1"], weights=(1.0,)),
        nltk_case("sentbleu bigram weights", ["--weights", "0.5,0.5"], weights=(0.5, 0.5)),
        nltk_case("sentbleu five weights", ["--weights", "0.2,0.2,0.2,0.2,0.2"], weights=(0.2,) * 5),
        nltk_case("sentbleu uneven weights", ["--weights", "0.6,0.3,0.1"], weights=(0.6, 0.3, 0.1)),
        nltk_case("sentbleu auto reweigh", ["--auto-reweigh"], auto_reweigh=True),
        nltk_case("sentbleu corpus_bleu", ["--corpus"], corpus_mode=True),
        nltk_case("sentbleu corpus_bleu method0 weights", ["--corpus", "-s", "method0", "--weights", "0.5,0.5"],
                  weights=(0.5, 0.5), smoothing="method0", corpus_mode=True),
        nltk_case("sentbleu corpus_bleu auto reweigh", ["--corpus", "--auto-reweigh"], auto_reweigh=True,
                  corpus_mode=True),
    ]
    meta = {"generator": "tools/gen/gen_metric_options_fixture.py", "sacrebleu": version("sacrebleu"),
            "rouge-score": version("rouge-score"), "nltk": version("nltk"), "tolerance": 1e-9}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "cases": cases}, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases -> {os.path.relpath(OUT, base.ROOT)}")


if __name__ == "__main__":
    main()
