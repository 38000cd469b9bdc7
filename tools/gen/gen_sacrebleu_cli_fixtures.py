"""Golden fixtures for `hauser sacrebleu`, the drop-in for sacreBLEU 2.4.3's command line.

Writes small input files into hauser-cli/tests/fixtures/sacrebleu_cli/ and runs the real
`sacrebleu` command line on each case of CASES there (as `sacrebleu`, so that its help and usage
name the program as the installed entry point does), recording the arguments, standard input,
environment, standard output and exit status in cases.json, and writes sacreBLEU's `--help` text
to hauser-cli/src/drop_in/sacrebleu/help.txt (what `hauser sacrebleu --help` prints). The Rust test
hauser-cli/tests/it/sacrebleu_cli.rs replays every case through `hauser sacrebleu` in the same
folder and compares standard output byte for byte and the exit status (standard error is
sacreBLEU's log and tracebacks: not compared).

Cases where hauser deliberately differs are not recorded here (see docs/DROP-IN.md): test sets
missing from the cache (sacreBLEU downloads them; hauser cannot: exit 2; the cases here point
SACREBLEU at the small cache of wmt14 en-de written into the fixture folder), `--paired-bs -f json` with chrF (sacreBLEU crashes on NumPy's float32; hauser
prints valid JSON, checked by the Rust test itself).

Usage (sacreBLEU 2.4.3, tabulate 0.10.0, colorama; e.g. the venv .cache/sacre243):
    .cache/sacre243/bin/python tools/gen/gen_sacrebleu_cli_fixtures.py
"""

import gzip
import json
import os
import subprocess
import sys
from importlib.metadata import version

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "hauser-cli", "tests", "fixtures", "sacrebleu_cli")

REF = [
    "The cat sat on the mat.",
    "A quick brown fox jumps over the lazy dog.",
    "Hello world, this is a test.",
    "We went to the market yesterday.",
    "It's raining cats and dogs in London today!",
    "The committee approved the new budget on Monday.",
]
REF2 = [
    "The cat was sitting on the mat.",
    "A fast brown fox leaps over the lazy dog.",
    "Hello, world: this is one test.",
    "Yesterday we went to the market.",
    "It is raining heavily in London today!",
    "On Monday the committee approved the budget.",
]
SYS_A = [
    "The cat is on the mat.",
    "A fast brown fox jumped over a lazy dog.",
    "Hello world, this is the test.",
    "We go to market yesterday.",
    "It rains cats and dogs in London today.",
    "The committee approves the new budget Monday.",
]
SYS_B = [
    "The cat sat on a mat.",
    "The quick brown fox jumps over the dog.",
    "Hi world, it is a test.",
    "Yesterday we went to the market.",
    "It's raining in London!",
    "The board approved a new budget on Monday.",
]
SYS_C = [
    "the cat sat on the mat .",
    "a quick brown fox jumps over the lazy dog .",
    "hello world , this is a test .",
    "we went to the market yesterday .",
    "it 's raining cats and dogs in london today !",
    "the committee approved the new budget on monday .",
]
UNI_REF = ["Größe & Maß — „ja“ 100%", "東京は晴れです。", "naïve café <b>", "Ελληνικά κείμενα εδώ"]
UNI_HYP = ["Grösse & Mass — ja 100 %", "東京は雨です。", "naive cafe <b>", "Ελληνικά κείμενο εδώ"]

def corpus(n=120, seed=3):
    """A larger pseudo-corpus: references and systems that are noisier copies of them, so that
    the resampling tests see many segments and every metric a spread of scores."""
    import random

    rng = random.Random(seed)
    words = ("the a cat dog sat on mat quick brown fox jumps over lazy hello world this is test we "
             "went to market yesterday it rains in London today committee approved new budget Monday "
             ", . ! ? 's don't 3.5 $100 über café").split()
    refs = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 25))) for _ in range(n)]

    def noisy(r, p):
        return " ".join(w if rng.random() > p else rng.choice(words) for w in r.split())

    out = {"big_ref.txt": refs, "big_ref2.txt": [noisy(r, 0.3) for r in refs]}
    for name, p in [("big_a.txt", 0.3), ("big_b.txt", 0.35), ("big_c.txt", 0.6), ("big_d.txt", 0.31)]:
        out[name] = [noisy(r, p) for r in refs]
    return {k: "\n".join(v) + "\n" for k, v in out.items()}


FILES = {
    "ref.txt": "\n".join(REF) + "\n",
    "ref2.txt": "\n".join(REF2) + "\n",
    "a.txt": "\n".join(SYS_A) + "\n",
    "b.txt": "\n".join(SYS_B) + "\n",
    "c_sys.txt": "\n".join(SYS_C) + "\n",
    "a_crlf.txt": "\r\n".join(SYS_A) + "\r\n",
    "a_nofinal.txt": "\n".join(SYS_A),
    "a_trailing.txt": "\n".join(s + "  \t" for s in SYS_A) + "\n",
    "refs2.tsv": "\n".join(f"{r}\t{r2}" for r, r2 in zip(REF, REF2)) + "\n",
    "refs2_bad.tsv": "\n".join(f"{r}\t{r2}" for r, r2 in zip(REF, REF2)) + "\nonly one\n",
    "short.txt": "\n".join(SYS_A[:4]) + "\n",
    "empty.txt": "",
    "uni_ref.txt": "\n".join(UNI_REF) + "\n",
    "uni_hyp.txt": "\n".join(UNI_HYP) + "\n",
    "uni_hyp2.txt": "\n".join(reversed(UNI_HYP)) + "\n",
    "blank6.txt": "\n" * 6,
    "odd_ref.txt": "The cat sat\n\nsomething\nHello world\n",
    "odd_hyp.txt": "The cat\n\n  \nHello world\u00a0\n",
    "midcr.txt": "The cat\r sat on the mat.\nx\ny\nz\nw\nv\n",
}
FILES.update(corpus())

# A sacreBLEU cache holding wmt14 en-de as sacreBLEU leaves it after a download (its processed
# files: every field of the pair), with small stand-in texts; cases point SACREBLEU at it.
CACHE = {
    "sacrebleu_cache/wmt14/wmt14.en-de.src": "\n".join(SYS_B) + "\n",
    "sacrebleu_cache/wmt14/wmt14.en-de.ref": "\n".join(REF) + "\n",
    "sacrebleu_cache/wmt14/wmt14.en-de.docid": "d1\nd1\nd2\nd2\nd3\nd3\n",
    "sacrebleu_cache/wmt14/wmt14.en-de.genre": "news\n" * 6,
    "sacrebleu_cache/wmt14/wmt14.en-de.origlang": "en\nen\nde\nde\nen\nen\n",
}
FILES.update(CACHE)
WMT14 = {"SACREBLEU": "sacrebleu_cache"}

STDIN_ONE = "\n".join(SYS_A) + "\n"
STDIN_TWO = "\n".join(f"{a}\t{b}" for a, b in zip(SYS_A, SYS_B)) + "\n"
STDIN_THREE = "\n".join(f"{a}\t{b}\t{c}" for a, b, c in zip(SYS_A, SYS_B, SYS_C)) + "\n"
STDIN_CR = "\r".join(SYS_A) + "\r"
STDIN_BAD = "\n".join(f"{a}\t{b}" for a, b in zip(SYS_A, SYS_B)) + "\nonly one field\n"

ABC = ["-i", "a.txt", "b.txt", "c_sys.txt"]

# (name, argv, stdin, extra environment)
CASES = [
    ("default_json", ["ref.txt", "-i", "a.txt"], None, {}),
    ("text", ["ref.txt", "-i", "a.txt", "-f", "text"], None, {}),
    ("latex_single", ["ref.txt", "-i", "a.txt", "-f", "latex"], None, {}),
    ("score_only", ["ref.txt", "-i", "a.txt", "-b"], None, {}),
    ("score_only_text", ["ref.txt", "-i", "a.txt", "-b", "-f", "text"], None, {}),
    ("width3", ["ref.txt", "-i", "a.txt", "-w", "3"], None, {}),
    ("width0", ["ref.txt", "-i", "a.txt", "-w", "0", "-m", "bleu", "chrf", "ter"], None, {}),
    ("width_attached", ["ref.txt", "-i", "a.txt", "-w2", "-f", "text"], None, {}),
    ("short_text", ["ref.txt", "-i", "a.txt", "--short", "-f", "text"], None, {}),
    ("short_json", ["ref.txt", "-i", "a.txt", "-sh"], None, {}),
    ("quiet", ["ref.txt", "-i", "a.txt", "-q", "-f", "text"], None, {}),
    ("three_metrics_json", ["ref.txt", "-i", "a.txt", "-m", "bleu", "chrf", "ter"], None, {}),
    ("three_metrics_text", ["ref.txt", "-i", "a.txt", "-m", "ter", "chrf", "bleu", "-f", "text"], None, {}),
    ("metrics_b_json", ["ref.txt", "-i", "a.txt", "-m", "bleu", "chrf", "-b"], None, {}),
    ("metrics_b_text", ["ref.txt", "-i", "a.txt", "-m", "chrf", "ter", "-b", "-f", "text"], None, {}),
    ("duplicate_metric", ["ref.txt", "-i", "a.txt", "-m", "bleu", "bleu", "-f", "text"], None, {}),
    ("chrf", ["ref.txt", "-i", "a.txt", "-m", "chrf"], None, {}),
    ("chrfpp", ["ref.txt", "-i", "a.txt", "-m", "chrf", "--chrf-word-order", "2", "-f", "text"], None, {}),
    ("chrf_options", ["ref.txt", "-i", "a.txt", "-m", "chrf", "-cc", "4", "-cw", "1", "--chrf-beta", "3",
                      "--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing"], None, {}),
    ("ter_options", ["ref.txt", "-i", "a.txt", "-m", "ter", "--ter-case-sensitive", "--ter-no-punct",
                     "--ter-normalized", "--ter-asian-support", "-f", "text"], None, {}),
    ("lowercase_all", ["ref.txt", "-i", "c_sys.txt", "-lc", "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("tokenize_intl", ["ref.txt", "-i", "a.txt", "-tok", "intl"], None, {}),
    ("tokenize_none", ["ref.txt", "-i", "c_sys.txt", "--tokenize", "none", "-f", "text"], None, {}),
    ("tokenize_char", ["uni_ref.txt", "-i", "uni_hyp.txt", "-tok", "char", "-f", "text"], None, {}),
    ("tokenize_zh", ["uni_ref.txt", "-i", "uni_hyp.txt", "-tok", "zh"], None, {}),
    ("langpair_zh", ["uni_ref.txt", "-i", "uni_hyp.txt", "-l", "en-zh", "-f", "text"], None, {}),
    ("smooth_floor", ["ref.txt", "-i", "b.txt", "-s", "floor", "-f", "text"], None, {}),
    ("smooth_addk_value", ["ref.txt", "-i", "b.txt", "-s", "add-k", "-sv", "2", "-f", "text"], None, {}),
    ("smooth_none", ["ref.txt", "-i", "b.txt", "--smooth-method", "none"], None, {}),
    ("force", ["ref.txt", "-i", "c_sys.txt", "--force", "-f", "text"], None, {}),
    ("two_refs", ["ref.txt", "ref2.txt", "-i", "a.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("num_refs_tsv", ["refs2.tsv", "-nr", "2", "-i", "a.txt", "-m", "bleu", "chrf", "ter"], None, {}),
    ("num_refs_bad_line", ["refs2_bad.tsv", "-nr", "2", "-i", "a.txt"], None, {}),
    ("num_refs_two_files", ["ref.txt", "ref2.txt", "-nr", "2", "-i", "a.txt"], None, {}),
    ("stdin_one", ["ref.txt"], STDIN_ONE, {}),
    ("stdin_one_text", ["ref.txt", "-m", "bleu", "ter", "-f", "text"], STDIN_ONE, {}),
    ("stdin_two_systems", ["ref.txt", "-f", "text"], STDIN_TWO, {}),
    ("stdin_two_paired_bs", ["ref.txt", "--paired-bs", "-f", "text"], STDIN_TWO, {}),
    ("stdin_field_mismatch", ["ref.txt"], STDIN_BAD, {}),
    ("stdin_empty", ["ref.txt"], "", {}),
    ("crlf", ["ref.txt", "-i", "a_crlf.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("no_final_newline", ["ref.txt", "-i", "a_nofinal.txt"], None, {}),
    ("trailing_space", ["ref.txt", "-i", "a_trailing.txt", "-m", "chrf", "ter", "-f", "text"], None, {}),
    ("unicode_three", ["uni_ref.txt", "-i", "uni_hyp.txt", "-m", "bleu", "chrf", "ter"], None, {}),
    ("sl_bleu", ["ref.txt", "-i", "a.txt", "-sl"], None, {}),
    ("sl_chrf_short", ["ref.txt", "-i", "a.txt", "-sl", "-m", "chrf", "--short"], None, {}),
    ("sl_ter_b", ["ref.txt", "-i", "a.txt", "--sentence-level", "-m", "ter", "-b", "-w", "4"], None, {}),
    ("sl_two_refs", ["ref.txt", "ref2.txt", "-i", "b.txt", "-sl", "-f", "text"], None, {}),
    ("sl_two_metrics", ["ref.txt", "-i", "a.txt", "-sl", "-m", "bleu", "chrf"], None, {}),
    ("sl_two_systems", ["ref.txt", "-i", "a.txt", "b.txt", "-sl"], None, {}),
    ("sl_confidence", ["ref.txt", "-i", "a.txt", "-sl", "--confidence"], None, {}),
    ("multi_text", ["ref.txt", *ABC, "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("multi_json", ["ref.txt", *ABC, "-m", "ter", "bleu"], None, {}),
    ("multi_latex", ["ref.txt", *ABC, "-m", "bleu", "chrf", "-f", "latex", "-w", "2"], None, {}),
    ("multi_short", ["ref.txt", "-i", "a.txt", "b.txt", "--short", "-f", "text"], None, {}),
    ("multi_detail", ["ref.txt", "-i", "a.txt", "b.txt", "-d"], None, {}),
    ("multi_unicode", ["uni_ref.txt", "-i", "uni_hyp.txt", "uni_hyp2.txt", "-m", "chrf"], None, {}),
    ("paired_bs_text", ["ref.txt", *ABC, "-m", "bleu", "chrf", "ter", "--paired-bs", "-f", "text"], None, {}),
    ("paired_bs_latex", ["ref.txt", *ABC, "-m", "ter", "bleu", "--paired-bs", "-f", "latex"], None, {}),
    ("paired_bs_bleu_json", ["ref.txt", *ABC, "--paired-bs"], None, {}),
    ("paired_bs_n", ["ref.txt", "-i", "a.txt", "b.txt", "-pbs", "-pbsn", "200", "-f", "text"], None, {}),
    ("paired_bs_n_zero", ["ref.txt", "-i", "a.txt", "b.txt", "-pbs", "-pbsn", "0", "-f", "text"], None, {}),
    ("paired_ar_text", ["ref.txt", *ABC, "-m", "bleu", "chrf", "ter", "--paired-ar", "-f", "text"], None, {}),
    ("paired_ar_json", ["ref.txt", *ABC, "-m", "chrf", "ter", "--paired-ar"], None, {}),
    ("paired_ar_n_short", ["ref.txt", "-i", "a.txt", "b.txt", "-par", "-parn", "500", "--short", "-f", "text"], None, {}),
    ("paired_ar_w3_latex", ["ref.txt", "-i", "a.txt", "b.txt", "--paired-ar", "-w", "3", "-f", "latex"], None, {}),
    ("paired_seed_42", ["ref.txt", *ABC, "--paired-bs", "-f", "text"], None, {"SACREBLEU_SEED": "42"}),
    ("paired_ar_seed_7", ["ref.txt", *ABC, "--paired-ar", "-m", "ter", "-f", "text"], None, {"SACREBLEU_SEED": "7"}),
    # SACREBLEU_SEED=0 (or None) leaves the compared systems' generators unseeded in sacreBLEU:
    # its output changes from run to run, so no such case is recorded.
    ("paired_jobs", ["ref.txt", *ABC, "--paired-bs", "-j", "2", "-f", "text"], None, {}),
    ("paired_baseline_repeated", ["ref.txt", "-i", "a.txt", "b.txt", "a.txt", "--paired-ar", "-f", "text"], None, {}),
    ("paired_one_system", ["ref.txt", "-i", "a.txt", "--paired-bs"], None, {}),
    ("paired_both", ["ref.txt", "-i", "a.txt", "b.txt", "--paired-bs", "--paired-ar"], None, {}),
    ("duplicate_system", ["ref.txt", "-i", "a.txt", "b.txt", "a.txt"], None, {}),
    ("confidence_json", ["ref.txt", "-i", "a.txt", "--confidence", "-m", "bleu", "chrf", "ter"], None, {}),
    ("confidence_text_n", ["ref.txt", "-i", "a.txt", "-ci", "-cin", "300", "-f", "text"], None, {}),
    ("confidence_b", ["ref.txt", "-i", "a.txt", "--confidence", "-b", "-f", "text"], None, {}),
    ("confidence_seed", ["ref.txt", "-i", "b.txt", "--confidence", "-m", "chrf", "-f", "text"], None, {"SACREBLEU_SEED": "2024"}),
    ("confidence_n_one", ["ref.txt", "-i", "a.txt", "--confidence", "--confidence-n", "1"], None, {}),
    ("confidence_multi", ["ref.txt", "-i", "a.txt", "b.txt", "--confidence"], None, {}),
    ("detail_single", ["ref.txt", "-i", "a.txt", "--detail"], None, {}),
    ("detail_text_metrics", ["ref.txt", "-i", "a.txt", "-d", "-m", "bleu", "ter", "-f", "text"], None, {}),
    ("format_env", ["ref.txt", "-i", "a.txt", "b.txt"], None, {"SACREBLEU_FORMAT": "LaTeX"}),
    ("format_env_invalid", ["ref.txt", "-i", "a.txt"], None, {"SACREBLEU_FORMAT": "yaml"}),
    ("no_color", ["ref.txt", *ABC, "--paired-ar", "-nc", "-f", "text"], None, {}),
    ("abbreviated_options", ["ref.txt", "--inp", "a.txt", "--met", "chrf", "--form=text", "--wid=2"], None, {}),
    ("ambiguous_option", ["ref.txt", "-i", "a.txt", "--conf"], None, {}),
    ("combined_flags", ["ref.txt", "-i", "a.txt", "-bq"], None, {}),
    ("length_mismatch", ["ref.txt", "-i", "short.txt"], None, {}),
    ("empty_system", ["ref.txt", "-i", "empty.txt"], None, {}),
    ("no_refs", ["-i", "a.txt"], None, {}),
    ("refs_after_input", ["-i", "a.txt", "ref.txt"], None, {}),
    ("positional_after_option", ["ref.txt", "-b", "ref2.txt", "-i", "a.txt"], None, {}),
    ("missing_ref_file", ["nope.txt", "-i", "a.txt"], None, {}),
    ("missing_input_file", ["ref.txt", "-i", "nope.txt"], None, {}),
    ("bad_metric", ["ref.txt", "-i", "a.txt", "-m", "meteor"], None, {}),
    ("bad_format", ["ref.txt", "-i", "a.txt", "-f", "yaml"], None, {}),
    ("bad_width", ["ref.txt", "-i", "a.txt", "-w", "x"], None, {}),
    ("negative_width", ["ref.txt", "-i", "a.txt", "-w", "-1"], None, {}),
    ("unknown_option", ["ref.txt", "-i", "a.txt", "--bogus"], None, {}),
    ("echo_without_testset", ["ref.txt", "-i", "a.txt", "--echo", "src"], None, {}),
    ("citation_without_testset", ["--citation"], None, {}),
    ("origlang_without_testset", ["ref.txt", "-i", "a.txt", "--origlang", "en"], None, {}),
    ("latin1_encoding", ["uni_ref.txt", "-i", "uni_hyp.txt", "-e", "latin-1", "-m", "chrf"], None, {}),
    ("input_without_files", ["ref.txt", "-i"], None, {}),
    ("input_without_files_text", ["ref.txt", "-i", "-f", "text"], None, {}),
    ("sl_stdin_ter", ["ref.txt", "-sl", "-m", "ter"], STDIN_ONE, {}),
    ("sl_chrf_score_only", ["ref.txt", "-i", "b.txt", "-sl", "-m", "chrf", "-b", "-w", "2"], None, {}),
    ("smooth_value_with_exp", ["ref.txt", "-i", "b.txt", "-sv", "0.5", "-f", "text"], None, {}),
    ("langpair_without_dash", ["ref.txt", "-i", "a.txt", "-l", "en"], None, {}),
    ("num_refs_three_of_two", ["refs2.tsv", "-nr", "3", "-i", "a.txt"], None, {}),
    ("paired_and_confidence", ["ref.txt", "-i", "a.txt", "b.txt", "--paired-bs", "--confidence"], None, {}),
    ("paired_ar_one_system_confidence", ["ref.txt", "-i", "a.txt", "--paired-ar", "--confidence"], None, {}),
    ("stdin_three_latex", ["ref.txt", "-f", "latex", "-m", "bleu", "ter"], STDIN_THREE, {}),
    ("stdin_three_paired_ar_json", ["ref.txt", "--paired-ar", "-m", "bleu"], STDIN_THREE, {}),
    ("detail_score_only", ["ref.txt", "-i", "a.txt", "-d", "-b"], None, {}),
    ("paired_ter_latex_short", ["ref.txt", *ABC, "-m", "ter", "--paired-bs", "-pbsn", "100", "-f", "latex", "--short"], None, {}),
    ("help_abbreviated", ["--he"], None, {}),
    ("testset_json", ["-t", "wmt14", "-l", "en-de", "-i", "a.txt"], None, WMT14),
    ("testset_three_metrics_text", ["-t", "wmt14", "-l", "en-de", "-i", "a.txt", "b.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], None, WMT14),
    ("testset_stdin_sl", ["-t", "wmt14", "-l", "en-de", "-sl", "-m", "chrf"], STDIN_ONE, WMT14),
    ("testset_paired", ["-t", "wmt14", "-l", "en-de", *ABC, "--paired-bs", "-f", "text"], None, WMT14),
    ("testset_concatenated_mismatch", ["-t", "wmt14,wmt14", "-l", "en-de", "-i", "a.txt"], None, WMT14),
    ("testset_echo_src", ["-t", "wmt14", "-l", "en-de", "--echo", "src"], None, WMT14),
    ("testset_echo_fields", ["-t", "wmt14", "-l", "en-de", "--echo", "ref", "src", "origlang"], None, WMT14),
    ("testset_echo_all", ["-t", "wmt14", "-l", "en-de", "--echo", "all"], None, WMT14),
    ("testset_echo_all_and_more", ["-t", "wmt14", "-l", "en-de", "--echo", "all", "src"], None, WMT14),
    ("testset_echo_unknown_field", ["-t", "wmt14", "-l", "en-de", "--echo", "nope"], None, WMT14),
    ("testset_download_cached", ["--download", "wmt14", "-l", "en-de"], None, WMT14),
    ("testset_unknown", ["-t", "nope", "-i", "a.txt"], None, WMT14),
    ("testset_unknown_pair", ["-t", "wmt14", "-l", "en-xx", "-i", "a.txt"], None, WMT14),
    ("testset_without_langpair", ["-t", "wmt14", "-i", "a.txt"], None, WMT14),
    ("testset_and_refs", ["ref.txt", "-t", "wmt14", "-l", "en-de", "-i", "a.txt"], None, WMT14),
    ("testset_num_refs", ["-t", "wmt14", "-l", "en-de", "-nr", "2", "-i", "a.txt"], None, WMT14),
    ("citation_unknown_testset", ["--citation", "-t", "nope"], None, {}),
    ("seed_with_spaces_confidence", ["ref.txt", "-i", "a.txt", "--confidence", "-m", "bleu", "chrf", "-f", "text"], None, {"SACREBLEU_SEED": "42 "}),
    ("seed_plus_sign_paired_ar", ["ref.txt", "-i", "a.txt", "b.txt", "--paired-ar", "-m", "ter", "-parn", "300", "-f", "text"], None, {"SACREBLEU_SEED": "+7"}),
    ("seed_underscores_json", ["ref.txt", "-i", "a.txt", "--confidence"], None, {"SACREBLEU_SEED": "1_000"}),
    ("seed_invalid", ["ref.txt", "-i", "a.txt", "--confidence"], None, {"SACREBLEU_SEED": "abc"}),
    ("seed_negative_paired", ["ref.txt", "-i", "a.txt", "b.txt", "--paired-bs"], None, {"SACREBLEU_SEED": "-5"}),
    ("attached_metric", ["ref.txt", "-i", "a.txt", "-mchrf"], None, {}),
    ("attached_short_option_is_test_set", ["ref.txt", "-i", "a.txt", "-tokintl", "-f=text", "-w=2"], None, {}),
    ("flag_with_value", ["ref.txt", "-i", "a.txt", "--score-only=1"], None, {}),
    ("int_with_spaces", ["ref.txt", "-i", "a.txt", "-w", " 2 ", "-b"], None, {}),
    ("float_with_underscores", ["ref.txt", "-i", "a.txt", "-s", "add-k", "-sv", "1_0.5", "-f", "text"], None, {}),
    ("prefix_ambiguous_short", ["ref.txt", "-i", "a.txt", "-c"], None, {}),
    ("double_dash", ["-m", "bleu", "--", "ref.txt"], STDIN_ONE, {}),
    ("blank_hyps", ["ref.txt", "-i", "blank6.txt", "-m", "bleu", "chrf", "ter"], None, {}),
    ("blank_refs_sl_ter", ["blank6.txt", "-i", "a.txt", "-sl", "-m", "ter"], None, {}),
    ("blank_both_text", ["blank6.txt", "-i", "blank6.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("odd_lines_sl_bleu", ["odd_ref.txt", "-i", "odd_hyp.txt", "-sl"], None, {}),
    ("odd_lines_sl_chrf", ["odd_ref.txt", "-i", "odd_hyp.txt", "-sl", "-m", "chrf"], None, {}),
    ("carriage_return_inside_line", ["ref.txt", "-i", "midcr.txt", "-m", "bleu", "chrf", "ter"], None, {}),
    ("stdin_carriage_returns", ["ref.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], STDIN_CR, {}),
    ("addk_infinite_nan", ["ref.txt", "-i", "a.txt", "-s", "add-k", "-sv", "inf", "-f", "text"], None, {}),
    ("addk_infinite_nan_json", ["ref.txt", "-i", "a.txt", "-s", "add-k", "-sv", "inf"], None, {}),
    ("chrf_negative_beta", ["ref.txt", "-i", "a.txt", "-m", "chrf", "--chrf-beta", "-1"], None, {}),
    ("chrf_orders_zero", ["ref.txt", "-i", "a.txt", "-m", "chrf", "-cc", "0", "-cw", "0"], None, {}),
    ("ascii_encoding_error", ["uni_ref.txt", "-i", "uni_hyp.txt", "-e", "ascii"], None, {}),
    ("big_paired_bs_two_refs", ["big_ref.txt", "big_ref2.txt", "-i", "big_a.txt", "big_b.txt", "big_c.txt", "big_d.txt",
                                "--paired-bs", "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("big_paired_ar_latex", ["big_ref.txt", "-i", "big_a.txt", "big_b.txt", "big_c.txt", "--paired-ar", "-m", "bleu", "chrf", "ter",
                             "-f", "latex", "-w", "2"], None, {}),
    ("big_confidence_chrfpp", ["big_ref.txt", "-i", "big_a.txt", "-m", "chrf", "-cw", "2", "--confidence", "-w", "3"], None, {}),
    ("big_sl_ter_short", ["big_ref.txt", "-i", "big_c.txt", "-sl", "-m", "ter", "--short"], None, {}),
    ("gzip_inputs", ["ref.txt.gz", "-i", "a.txt.gz", "b.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], None, {}),
    ("gzip_sl", ["ref.txt.gz", "-i", "a.txt.gz", "-sl", "-m", "chrf"], None, {}),
    ("version", ["--version"], None, {}),
    ("version_short", ["-V"], None, {}),
    ("help", ["--help"], None, {}),
]


def run(argv, stdin, env_extra):
    env = {"PATH": os.environ.get("PATH", ""), "HOME": OUT, "SACREBLEU": os.path.join(OUT, "no-cache")}
    env.update(env_extra)
    code = "import sys; sys.argv[0] = 'sacrebleu'; from sacrebleu.sacrebleu import main; main()"
    p = subprocess.run(
        [sys.executable, "-c", code, *argv],
        input=(stdin or "").encode("utf-8"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=OUT,
        env=env,
        timeout=600,
    )
    return p.stdout.decode("utf-8"), p.returncode


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, text in FILES.items():
        os.makedirs(os.path.dirname(os.path.join(OUT, name)), exist_ok=True)
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    # Compressed copies (sacreBLEU reads *.gz through gzip); mtime 0 keeps the bytes stable.
    for name in ["ref.txt", "a.txt"]:
        with open(os.path.join(OUT, name), "rb") as f:
            data = f.read()
        with open(os.path.join(OUT, name + ".gz"), "wb") as f:
            f.write(gzip.compress(data, mtime=0))
    cases = []
    for name, argv, stdin, env in CASES:
        stdout, code = run(argv, stdin, env)
        # Colours are only written to terminals: a captured run has none.
        assert "\x1b" not in stdout, name
        cases.append({"name": name, "argv": argv, "stdin": stdin, "env": env, "stdout": stdout, "code": code})
    # `hauser sacrebleu --help` prints sacreBLEU's help as argparse lays it out here (80 columns,
    # standard output not a terminal): hauser-cli/src/drop_in/sacrebleu/help.txt is that text.
    help_text = next(c["stdout"] for c in cases if c["name"] == "help")
    with open(os.path.join(ROOT, "hauser-cli", "src", "drop_in", "sacrebleu", "help.txt"), "w", encoding="utf-8", newline="") as f:
        f.write(help_text)
    meta = {
        "sacrebleu": version("sacrebleu"),
        "tabulate": version("tabulate"),
        "generator": "tools/gen/gen_sacrebleu_cli_fixtures.py",
        "cases": cases,
    }
    with open(os.path.join(OUT, "cases.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(cases)} cases written to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
