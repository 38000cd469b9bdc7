#!/usr/bin/env python3
"""Golden fixture of figlang-metrics' WordNet senses and similarity (text::wordnet_sim):
NLTK 3.10.4's `wordnet.synsets`, `Synset.name()`, `Synset.definition()`, `nltk.wsd.lesk` (and
NLTK 3.4.5's lesk, whose tie rule differs, re-stated below) and `Synset.lch_similarity`
(simulate_root=True), on WordNet 3.0 read from WORDNET_DIR (default
/usr/share/wordnet, Debian's wordnet-base), on verbs, nouns and headline contexts written here.

Writes figlang-metrics/tests/fixtures/wordnet_sim.json. Tolerance the Rust test applies: names
equal, LCH within 1e-12.
Run from the repository root: "$(bash tools/pyref.sh)" tools/gen/gen_wordnet_sim_fixture.py
"""
import itertools
import json
import os
import tempfile

import nltk
from nltk.wsd import lesk

from nltk_wordnet import wordnet_reader

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "wordnet_sim.json")

VERBS = """attack beat bite blast block blow boost break bury call carry catch chase claim climb
crash crush cut dance dive drag drive drop dump eat fall feed fight fire float fly freeze grab
grow hammer hit hunt jump kick kill kiss launch lead lift melt push race rain ram run rush sail
scream seize shake shoot sink slam slash slip soar spark spill stab steal storm strike surge swallow
sweep swim tackle tear throw topple trip tumble walk warn wipe win""".split()
NOUNS = """market storm war fire river price wall bridge heart engine wave bank army ship door
road tree stone glass voice money crowd battle game court""".split()
CONTEXTS = [
    "Markets tumble as investors flee risky assets",
    "Trump kicks CNN reporter out of Oval Office",
    "Storm slams coast , thousands lose power",
    "Senate Democrats block the tax bill again",
    "Oil prices soar after pipeline attack",
    "The Fed raises rates to cool inflation",
    "Police chase suspect through downtown streets",
    "Tech giants swallow startups at record pace",
    "Voters punish ruling party in local elections",
    "Flood waters sweep away homes in the valley",
    "Scandal shakes the foundations of the club",
    "Company slashes jobs as sales fall",
    "Hackers steal millions from crypto exchange",
    "Team crushes rivals to win the championship",
    "Wildfire races toward the town as winds grow",
    "Minister dodges questions on budget cuts",
    "Startup launches rocket into orbit",
    "Unions warn of strikes over pay",
    "Protesters storm the parliament building",
    "Heat wave melts records across Europe",
]


def reader():
    return wordnet_reader(tempfile.mkdtemp(prefix="nltk_data_"))


def lesk_nltk345(context_sentence, ambiguous_word, pos, synsets):
    """NLTK 3.4.5's nltk.wsd.lesk (the release NewsMet's numbers follow): the same overlap, but
    max over (overlap, synset) tuples, so ties go to the largest synset name."""
    context = set(context_sentence)
    synsets = [ss for ss in synsets if str(ss.pos()) == pos]
    if not synsets:
        return None
    _, sense = max((len(context.intersection(ss.definition().split())), ss) for ss in synsets)
    return sense


def main():
    wn = reader()
    lesk_cases = []
    for ctx in CONTEXTS:
        tokens = ctx.split()
        for v in VERBS[::3] + [t.lower() for t in tokens]:
            # nltk.wsd.lesk reads the module-level corpus; pass the synsets of our reader.
            ss = [x for x in wn.synsets(v) if str(x.pos()) == "v"]
            s = lesk(tokens, v, pos="v", synsets=ss) if ss else None
            old = lesk_nltk345(tokens, v, "v", wn.synsets(v))
            lesk_cases.append({"context": tokens, "word": v, "sense": s.name() if s else None,
                               "sense_nltk345": old.name() if old else None})
    synsets = {}
    for w in VERBS + NOUNS:
        synsets[w] = [{"name": x.name(), "pos": x.pos(), "offset": x.offset(), "definition": x.definition()}
                      for x in wn.synsets(w)]
    lch = []
    firsts = [wn.synsets(v, "v")[0] for v in VERBS]
    for a, b in itertools.combinations(firsts, 2):
        lch.append({"a": a.name(), "b": b.name(), "a_offset": a.offset(), "b_offset": b.offset(),
                    "pos": "v", "lch": a.lch_similarity(b)})
    nouns = [wn.synsets(n, "n")[0] for n in NOUNS]
    for a, b in itertools.combinations(nouns, 2):
        lch.append({"a": a.name(), "b": b.name(), "a_offset": a.offset(), "b_offset": b.offset(),
                    "pos": "n", "lch": a.lch_similarity(b)})
    meta = {"generator": "tools/gen/gen_wordnet_sim_fixture.py", "nltk": nltk.__version__, "wordnet": wn.get_version(),
            "tolerance": 1e-12, "verb_max_depth": wn._compute_max_depth("v", True)}
    with open(OUT, "w") as f:
        json.dump({"meta": meta, "lesk": lesk_cases, "synsets": synsets, "lch": lch}, f)
    print(len(lesk_cases), "lesk cases,", len(lch), "lch pairs,", sum(len(v) for v in synsets.values()), "synsets")


if __name__ == "__main__":
    main()
