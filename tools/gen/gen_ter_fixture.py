"""Golden fixture for TER (figlang_metrics::text::ter) against sacreBLEU 2.4.3 `TER`.

Writes figlang-metrics/tests/fixtures/sacrebleu_ter.json:
  items            hypothesis / references pairs written for this fixture (shifted blocks of
                   1-10 words, repeated words, sentences of 40-130 words so that the beam, the
                   shift distance and the candidate limit matter, punctuation, casing, CJK and
                   kana text, 2-3 references, empty / whitespace-only / one-word edge cases,
                   references whose second pass through the tokenizer changes them)
  configs          for each of the 16 combinations of case_sensitive, normalized, no_punct and
                   asian_support: per item [score, num_edits, ref_length, score bits,
                   ref_length bits] (bits: the IEEE-754 double as an integer) of
                   `TER.sentence_score`, the signature sacreBLEU prints for a sentence (per
                   number of references, the only field that varies), and the corpus score,
                   num_edits, ref_length (and bits) and signature of `TER.corpus_score` over
                   all items (missing references are None, so nrefs is "var")
  tokenize         `TER._preprocess_segment` of tricky strings under every combination
  sacrebleu_tests  the cases of sacreBLEU's own test/test_ter.py, re-typed as data, with their
                   expected score (checked there to 1e-3) and the exact corpus score here

Scores are compared with a tolerance of 1e-9; they agree to the last bit, which the test checks
on the stored bits. sacreBLEU's TER is slow on the long cases: the script runs the 16 settings
in parallel processes and takes about five CPU-minutes.

Usage, from the repository root, in the reference venv (tools/requirements.txt pins
sacrebleu==2.4.3):
    HF_HUB_OFFLINE=1 python tools/gen/gen_ter_fixture.py
"""

import json
import multiprocessing
import os
import random
import struct
from importlib.metadata import version

from sacrebleu.metrics import TER

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "figlang-metrics", "tests", "fixtures", "sacrebleu_ter.json")

FLAGS = ["case_sensitive", "normalized", "no_punct", "asian_support"]

LONG_A = (
    "the old lighthouse keeper watched the storm roll in like a herd of grey horses , and he "
    "said that the sea was a restless animal that never slept , always pacing the shore and "
    "waiting for a careless sailor to turn his back on the dark water before the dawn"
)
LONG_B = (
    "her laughter was a bright bell ringing through the quiet house , waking the dusty books "
    "on the shelves and the sleeping cat by the fire , until even the clock on the wall seemed "
    "to tick a little faster as if it wanted to join the music of that afternoon"
)
LONG_C = (
    "time is a thief that steals the colour from our photographs and the names from our "
    "memories , yet every spring the garden forgets its winter and blooms again as though "
    "nothing had ever been lost , and the children run through it like small bright flames "
    "chasing the wind across the grass while their grandparents watch from the porch"
)


def move_block(text, start, length, target):
    """`text` with words[start:start+length] moved to word position `target` of the rest."""
    w = text.split()
    block = w[start:start + length]
    rest = w[:start] + w[start + length:]
    return " ".join(rest[:target] + block + rest[target:])


def hand_written():
    """(name, hypothesis, references) written for this fixture."""
    c = []
    add = lambda name, hyp, *refs: c.append((name, hyp, list(refs)))  # noqa: E731

    # Shifts of blocks of 1-10 words.
    add("shift1_front", "sat the cat on the mat", "the cat sat on the mat")
    add("shift1_end", "quickly he ran to the station", "he ran to the station quickly")
    add("shift2", "like a rose her cheeks were red", "her cheeks were red like a rose")
    add("shift3", "as brave as a lion the soldier stood", "the soldier stood as brave as a lion")
    add("shift3_sacre", "d e f g h a b c", "a b c d e f g h")
    add("shift4_middle", "he was in the dark hours of the night a candle",
        "he was a candle in the dark hours of the night")
    add("shift5", "the wind howled through the valley like a hungry wolf at dusk",
        "like a hungry wolf at dusk the wind howled through the valley")
    add("two_shifts", "c d a b g h e f", "a b c d e f g h")
    add("shift_and_sub", "like a rose her cheek was red", "her cheeks were red like a rose")
    add("swap_halves", "the moon was a ghostly galleon tossed upon cloudy seas",
        "tossed upon cloudy seas the moon was a ghostly galleon")
    add("reverse", "h g f e d c b a", "a b c d e f g h")
    add("shift_long_distance",
        "w01 w02 w03 w04 w05 w06 w07 w08 w09 w10 w11 w12 w13 w14 w15 w16 w17 w18 x y",
        "x y w01 w02 w03 w04 w05 w06 w07 w08 w09 w10 w11 w12 w13 w14 w15 w16 w17 w18")
    for k, length in enumerate([1, 2, 4, 6, 8, 10]):
        add(f"long_a_move{length}", move_block(LONG_A, 3 + k, length, 30 + 2 * k), LONG_A)
    add("long_a_move12", move_block(LONG_A, 0, 12, 35), LONG_A)
    for k, (start, length, target) in enumerate([(2, 3, 40), (40, 5, 1), (10, 10, 30)]):
        add(f"long_b_move{k}", move_block(LONG_B, start, length, target), LONG_B)
    add("long_c_far_move", move_block(LONG_C, 0, 7, 50), LONG_C)
    add("long_c_two_moves", move_block(move_block(LONG_C, 5, 4, 44), 30, 6, 2), LONG_C)
    # Repeated words.
    add("repeated_the", "the the the cat the mat the", "the cat sat on the mat")
    add("repeated_block", "a b a b a b c", "c a b a b a b")
    add("repeated_ref", "run run run", "run fast run fast run fast")
    add("repeated_many", " ".join(["la"] * 30 + ["da"] * 5), " ".join(["da"] * 5 + ["la"] * 28))
    # Long sentences, edits near the ends.
    add("long_identical", LONG_A, LONG_A)
    add("long_dropped_words", LONG_B.replace("dusty ", "").replace("little ", ""), LONG_B)
    add("long_vs_other", LONG_A, LONG_B)
    add("long_prefix_junk_beam", " ".join(f"junk{i}" for i in range(35)) + " " + LONG_A, LONG_A)
    add("long_suffix_junk", LONG_C + " " + " ".join(f"tail{i}" for i in range(30)), LONG_C)
    add("short_hyp_long_ref_ratio", "the sea", " ".join([LONG_A, LONG_B, LONG_C]))
    add("long_hyp_short_ref", " ".join([LONG_A, LONG_B, LONG_C]), "the sea")
    add("long_concat_swapped", LONG_B + " " + LONG_A, LONG_A + " " + LONG_B)
    # Punctuation and normalisation.
    add("punct_spacing", "Hello, world! It's 3.5 o'clock.", "Hello , world ! It 's 3.5 o'clock .")
    add("punct_quotes", 'He said "run" (quickly).', 'he said " run " ( quickly ) .')
    add("punct_possessive", "The cat's whiskers were wires.", "The cats' whiskers were like wires.")
    add("punct_numbers", "It costs 1,000.50 dollars, 12-15 days.", "It costs 1,000.50 dollars , 12 - 15 days .")
    add("punct_xml", "fish &amp; chips &lt;3 &quot;yes&quot; &gt;", 'fish & chips <3 "yes" >')
    add("punct_newline", "a long-\nawaited day\nof rain", "a longawaited day of rain")
    add("punct_dots", "wait... what?! no;really:yes", "wait . . . what ? ! no ; really : yes")
    add("punct_brackets", "[x] {y} <z> a/b c|d e~f", "x y z a b c d e f")
    add("punct_only", ".,!?", "...")
    add("punct_trailing_space", "The end.   \t ", "the end .")
    # Casing.
    add("case_mixed", "The River Was A Silver Snake", "the river was a silver snake")
    add("case_upper", "HE WAS AS QUIET AS A MOUSE", "he was as quiet as a mouse")
    add("case_unicode", "ÉLAN Über STRASSE İstanbul", "élan über strasse istanbul")
    add("case_sigma", "ΟΔΟΣ ΣΟΦΙΑΣ", "οδος σοφιας")
    # Asian text.
    add("cjk_chars", "我爱北京天安门", "我爱北京的天安门")
    add("cjk_spaced", "我 爱 北京 天安门", "我 爱 北京 的 天安门")
    add("cjk_punct", "你好，世界！今天天气很好。", "你好世界。今天的天气很好！")
    add("japanese_mixed", "漢字とひらがなとカタカナ、そして「記号」。", "ひらがなと漢字とカタカナ。")
    add("kana_only", "ひらがな", "ひらがなです")
    add("katakana_only", "カタカナ テスト", "テスト カタカナ")
    add("cjk_compat", "㈱会社 ㍻ 豈", "会社㈱ ㍻豈")
    add("fullwidth_punct", "ｈｅｌｌｏ，ｗｏｒｌｄ．（ok）", "ｈｅｌｌｏ ｗｏｒｌｄ ok")
    add("cjk_shift", "天安门 我 爱 北京", "我 爱 北京 天安门")
    add("korean", "나는 학생 입니다", "나는 학생이 아닙니다")
    # Several references.
    add("two_refs", "the sun was a golden coin", "the sun was a coin of gold",
        "the sun looked like a golden coin")
    add("three_refs", "she sang like a nightingale", "she sang as a nightingale sings",
        "her voice was a nightingale", "she sang like a bird")
    add("refs_one_empty", "the stars were diamonds", "", "the stars were bright diamonds")
    add("refs_all_empty", "some words here", "", "")
    add("refs_identical_second", "his heart was stone", "his heart was made of stone",
        "his heart was stone")
    add("refs_different_lengths", "a b c", "a b c d e f g h i j", "x")
    # sacreBLEU preprocesses references twice (`_cache_references`, then TER's
    # `_extract_reference_info`) and hypotheses once; the normalising tokenizer is not idempotent.
    add("ref_twice_possessive", "it's, the cat's.", "it's, the cat's.")
    add("ref_twice_pretokenized_hyp", "it 's , the cat 's .", "it's, the cat's.")
    add("ref_twice_dot_digit", "a ,.1 and ..5 b", "a ,.1 and ..5 b")
    add("ref_twice_dash", "the -'s end's; x", "the -'s end's; x")
    add("ref_twice_two_refs", "bob's, ok", "bob's, ok", "bob 's , ok")
    # Edge cases.
    add("empty_hyp", "", "a b c")
    add("empty_ref", "a b c", "")
    add("both_empty", "", "")
    add("whitespace_hyp", "   \t ", "a b")
    add("whitespace_both", "  ", " \n ")
    add("single_word_same", "word", "word")
    add("single_word_diff", "word", "other")
    add("single_vs_many", "cat", "the cat sat down")
    add("nbsp_and_ideographic_space", "a\u00a0b\u3000c", "a b c")
    add("identical_simile", "as cold as ice", "as cold as ice")
    return c


def generated():
    """Deterministic pseudo-random long pairs: small vocabularies (many matching blocks, so the
    1,000-candidate limit is reached), distant moves (the 50-word shift distance) and lengths
    far apart (the beam)."""
    rng = random.Random(20240603)
    out = []
    for k in range(6):
        vocab = [f"v{i}" for i in range(3 + k)]
        ref = [rng.choice(vocab) for _ in range(40 + 15 * k)]
        hyp = list(ref)
        for _ in range(3 + k):
            i, j = sorted(rng.sample(range(len(hyp)), 2))
            hyp[i:j] = hyp[i:j][::-1] if rng.random() < 0.5 else hyp[j - 1:j] + hyp[i:j - 1]
        for _ in range(k):
            hyp[rng.randrange(len(hyp))] = rng.choice(vocab + ["oov"])
        out.append((f"random_small_vocab{k}", " ".join(hyp), [" ".join(ref)]))
    words = LONG_A.split() + LONG_B.split() + LONG_C.split()
    for k in range(4):
        ref = words[: 60 + 20 * k]
        hyp = list(ref)
        s = rng.randrange(0, 15)
        block = hyp[s:s + 1 + 3 * k]
        del hyp[s:s + 1 + 3 * k]
        t = min(len(hyp), s + 40 + 10 * k)
        hyp[t:t] = block
        refs = [" ".join(ref)]
        if k % 2:
            alt = list(ref)
            alt[5:9] = ["quite", "another", "way", "round"]
            refs.append(" ".join(alt))
        out.append((f"random_far_move{k}", " ".join(hyp), refs))
    return out


TOKENIZE = [
    "Hello, World! It's 3.5 o'clock; the 1,000th time... (really?)",
    "A long-\nawaited &amp;quot; day &lt;3 &gt; &quot;x&quot;",
    "He's here.The end,ok 5.6.7 a-b 1-2 -3 x.5 .5",
    "我爱北京天安门，你好！「引用」。〈括弧〉",
    "ひらがな カタカナ ㇰ ㈱ ㍻ 豈 ﹁x﹂ ｡｢｣･ ・",
    "ｈｅｌｌｏ，ｗｏｒｌｄ．（ok）：；？！＂",
    "Ünïcödé STRASSE ΣΟΦΙΑΣ İ",
    "tabs\tand\u00a0nbsp\u3000ideographic\u2028sep  ",
    "{curly} [square] <angle> a/b c|d e~f g^h _i_ `j` @k #l $m %n *o +p =q",
    "''s 's end's cats'",
    "",
    "   ",
]


def bits(x):
    """The IEEE-754 bits of a float as an integer: decimal floats do not always come back to the
    same double in every JSON reader (serde_json's default parser is not correctly rounded)."""
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def flags(mask):
    return {f: bool(mask >> i & 1) for i, f in enumerate(FLAGS)}


def run_config(mask):
    """Sentence and corpus scores of every item, and the tokenizer texts, under one setting."""
    cfg = flags(mask)
    items = hand_written() + generated()
    hyps = [h for _, h, _ in items]
    nref = max(len(r) for _, _, r in items)
    # sacreBLEU's reference streams: a missing reference is None (skipped).
    streams = [[r[i] if i < len(r) else None for _, _, r in items] for i in range(nref)]
    sentences = []
    signatures = {}
    for _, h, r in items:
        m = TER(**cfg)
        s = m.sentence_score(h, r)
        sentences.append([s.score, s.num_edits, s.ref_length, bits(s.score), bits(s.ref_length)])
        # One signature per number of references (the only field that varies).
        sig = str(m.get_signature())
        assert signatures.setdefault(str(len(r)), sig) == sig
    m = TER(**cfg)
    cs = m.corpus_score(hyps, streams)
    config = {"config": cfg, "sentences": sentences, "sentence_signatures": signatures,
              "corpus": [cs.score, cs.num_edits, cs.ref_length, bits(cs.score),
                         bits(cs.ref_length)],
              "signature": str(m.get_signature())}
    tokenize = {"config": cfg, "out": [TER(**cfg)._preprocess_segment(t) for t in TOKENIZE]}
    tests = [TER(**cfg).corpus_score(hs, [rs]).score for _, hs, rs in SACREBLEU_TESTS]
    return config, tokenize, tests


def main():
    items = hand_written() + generated()
    with multiprocessing.Pool() as pool:
        results = pool.map(run_config, range(16))
    configs = [c for c, _, _ in results]
    tokenize = [t for _, t, _ in results]
    tests = []
    for k, (expected, hs, rs) in enumerate(SACREBLEU_TESTS):
        scores = [r[2][k] for r in results]
        assert abs(scores[0] - 100 * expected) < 1e-3
        tests.append({"hyps": hs, "refs": rs, "expected": expected, "scores": scores})
    obj = {"reference": f"sacrebleu {version('sacrebleu')} TER", "tolerance": 1e-9,
           "flags": FLAGS, "items": [{"name": n, "hyp": h, "refs": r} for n, h, r in items],
           "configs": configs, "tokenize": {"texts": TOKENIZE, "configs": tokenize},
           "sacrebleu_tests": tests}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{os.path.relpath(OUT, ROOT)}: {len(items)} items, {os.path.getsize(OUT)} bytes")


# sacreBLEU 2.4.3 test/test_ter.py: (expected TER on the 0-1 scale, hypotheses, references).
SACREBLEU_TESTS = [
    (0, ["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"]),
    (1, ["dddd eeee ffff"], ["aaaa bbbb cccc"]),
    (1, [""], ["a"]),
    (1, ["a"], [""]),
    (0, [""], [""]),
    (1 / 8, ["d e f g h a b c"], ["a b c d e f g h"]),
    (0.136, [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen '
        'oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere '
        'Größe .',
        'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im '
        'Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert '
        '" und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
        'Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne '
        'enthält .',
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " '
        'Neu . "',
    ], [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen '
        'oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten '
        'wird .',
        'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im '
        'Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert '
        '" und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere '
        'Werte ein .',
        'Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich '
        'über die Bühne bewegt .',
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " '
        'Neu . "',
    ]),
]

if __name__ == "__main__":
    main()
