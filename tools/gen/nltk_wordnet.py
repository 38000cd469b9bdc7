"""NLTK's WordNet corpus reader on WordNet 3.0 as Debian's wordnet-base installs it, shared by the
fixture generators (tools/gen/gen_text_metric_fixtures.py, tools/gen/gen_wordnet_sim_fixture.py)."""
import os
import shutil

import nltk
from nltk.corpus.reader.wordnet import WordNetCorpusReader

WORDNET = os.environ.get("WORDNET_DIR", "/usr/share/wordnet")

# WordNet 3.0's lexicographer files, in number order.
LEXNAMES = ("adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact "
            "noun.attribute noun.body noun.cognition noun.communication noun.event "
            "noun.feeling noun.food noun.group noun.location noun.motive noun.object "
            "noun.person noun.phenomenon noun.plant noun.possession noun.process "
            "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time "
            "verb.body verb.change verb.cognition verb.communication verb.competition "
            "verb.consumption verb.contact verb.creation verb.emotion verb.motion "
            "verb.perception verb.possession verb.social verb.stative verb.weather "
            "adj.ppl").split()


def wordnet_reader(root):
    """A WordNetCorpusReader on a copy of WORDNET under the NLTK data root `root` (added to
    nltk.data.path): NLTK only reads corpora below its data roots."""
    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)
    wn_dir = os.path.join(root, "corpora", "wordnet")
    if not os.path.isdir(wn_dir):
        shutil.copytree(WORDNET, wn_dir, ignore=shutil.ignore_patterns("bin", "pixmaps", "wnres"))
    lexnames = os.path.join(wn_dir, "lexnames")
    if not os.path.exists(lexnames):
        # wordnet-base lacks the lexicographer-file list NLTK insists on reading; it only names
        # synsets' lexicographer files, which neither METEOR nor Lesk/LCH use.
        kind = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
        with open(lexnames, "w") as f:
            for i, n in enumerate(LEXNAMES):
                f.write(f"{i:02d}\t{n}\t{kind[n.split('.')[0]]}\n")
    sense = os.path.join(wn_dir, "index.sense")
    if not os.path.exists(sense):
        # Also absent from wordnet-base; NLTK reads it only to map sense keys across WordNet
        # versions (unused here), so an empty file is enough.
        open(sense, "w").close()
    return WordNetCorpusReader(wn_dir, None)
