//! Property tests: the NLTK tokenizers, Punkt sentence splitting, sacreBLEU's tokenizers and the
//! sentence scores of BLEU, chrF and ROUGE never panic on arbitrary Unicode text, including the
//! characters that break byte-offset arithmetic (case mappings that change length, combining
//! marks, right-to-left text, emoji sequences, NUL, lone CR, BOM).

use figlang_metrics::text::bleu_nltk::{NltkBleu, Smoothing};
use figlang_metrics::text::bleu_sacre::SacreBleu;
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::punkt::PunktModel;
use figlang_metrics::text::rouge::{
    rouge_score_tokens, PltrdyRouge, PltrdyVersion, RougeScore, RougeType,
};
use figlang_metrics::text::tokenize::{word_tokenize, NltkTokenizer, SacreTokenizer};
use figlang_metrics::text::treebank_legacy::word_tokenize_nltk345;
use proptest::prelude::*;

/// Pieces that exercise the tokenizers' regular expressions and offset arithmetic.
const PIECES: &[&str] = &[
    "İ",
    "ẞ",
    "Σ",
    "ς",
    "ß",
    "ﬁ",
    "ŉ",
    "ΐ",
    "ǅ",
    "İstanbul",
    "STRASSE",
    "ΣΑΣ",
    "\u{0}",
    "\r",
    "\r\n",
    "\n",
    "\t",
    "\u{feff}",
    "\u{200b}",
    "\u{200f}",
    "\u{202e}",
    "\u{2028}",
    "\u{85}",
    "\u{a0}",
    "\u{3000}",
    "שלום",
    "مرحبا",
    "e\u{301}",
    "\u{301}",
    "\u{20dd}",
    "😀",
    "🇫🇷",
    "👩\u{200d}👩\u{200d}👧",
    "👍🏽",
    " ",
    "  ",
    ".",
    "..",
    "...",
    "…",
    "!",
    "?",
    "'",
    "\"",
    "``",
    "''",
    "’",
    "“",
    "”",
    "«",
    "»",
    "Mr.",
    "U.S.",
    "e.g.",
    "can't",
    "I'm",
    "gonna",
    "-",
    "--",
    "—",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "$",
    "%",
    "&",
    ",",
    ";",
    ":",
    "1.5",
    "1,000",
    "like",
    "as",
    "the",
    "a",
    "cat",
    "Cat",
    "sun",
    "Like",
];

/// Arbitrary printable Unicode or tricky text.
fn text() -> impl Strategy<Value = String> {
    hauser_testkit::text(PIECES, "")
}

/// A score is NaN or within `0..=max`.
fn bounded(score: f64, max: f64) -> bool {
    score.is_nan() || (0.0..=max + 1e-9).contains(&score)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn punkt_sentences_are_slices_of_the_text(s in text()) {
        let range = s.as_ptr() as usize..=s.as_ptr() as usize + s.len();
        for sent in PunktModel::english().sentences(&s) {
            let start = sent.as_ptr() as usize;
            prop_assert!(range.contains(&start) && range.contains(&(start + sent.len())));
        }
    }

    #[test]
    fn nltk_word_tokenizers_never_panic(s in text()) {
        for t in word_tokenize(&s)
            .into_iter()
            .chain(NltkTokenizer::Current.tokenize(&s))
            .chain(NltkTokenizer::V345.tokenize(&s))
            .chain(word_tokenize_nltk345(&s))
        {
            prop_assert!(!t.is_empty(), "empty token from {s:?}");
        }
    }

    #[test]
    fn sacre_and_rouge_tokenizers_never_panic(s in text()) {
        for t in [SacreTokenizer::T13a, SacreTokenizer::Intl] {
            let out = t.tokenize(&s);
            prop_assert!(!out.contains("  "), "{t}: {out:?}");
        }
        prop_assert_eq!(SacreTokenizer::None.tokenize(&s), s.clone());
        for t in rouge_score_tokens(&s) {
            prop_assert!(!t.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn bleu_sentence_scores_never_panic(hyp in text(), r1 in text(), r2 in text()) {
        let refs = [r1.as_str(), r2.as_str()];
        for smoothing in [Smoothing::Method0, Smoothing::Method1, Smoothing::Method4, Smoothing::Method7] {
            for tokenizer in [NltkTokenizer::Current, NltkTokenizer::V345] {
                let bleu = NltkBleu { smoothing, tokenizer, ..NltkBleu::default() };
                if let Ok(s) = bleu.sentence(&hyp, &refs) {
                    prop_assert!(bounded(s.score, 1.0), "{smoothing:?}: {}", s.score);
                }
            }
        }
        for tokenizer in [SacreTokenizer::T13a, SacreTokenizer::Intl, SacreTokenizer::None] {
            for lowercase in [false, true] {
                let bleu = SacreBleu { tokenizer, lowercase, ..SacreBleu::default() };
                let s = bleu.sentence(&hyp, &refs).unwrap();
                prop_assert!(bounded(s.score, 100.0), "{tokenizer}: {}", s.score);
            }
        }
    }

    #[test]
    fn chrf_sentence_scores_never_panic(hyp in text(), r in text()) {
        for (word_order, lowercase, whitespace, eps_smoothing) in
            [(0, false, false, false), (2, true, true, false), (2, false, false, true)]
        {
            let chrf = Chrf { word_order, lowercase, whitespace, eps_smoothing, ..Chrf::default() };
            let s = chrf.sentence(&hyp, &[&r]).unwrap();
            prop_assert!(bounded(s.score, 100.0), "{chrf:?}: {}", s.score);
            let u = chrf.sentence_unit(&hyp, &[&r]).unwrap();
            prop_assert!(bounded(u.score, 1.0), "{chrf:?}: {}", u.score);
        }
    }

    #[test]
    fn rouge_sentence_scores_never_panic(hyp in text(), r in text()) {
        let kinds = [RougeType::Rouge1, RougeType::Rouge2, RougeType::RougeL, RougeType::RougeLsum];
        for use_stemmer in [false, true] {
            for kind in kinds {
                if let Ok(s) = (RougeScore { use_stemmer, ..RougeScore::default() }).sentence(kind, &hyp, &[&r]) {
                    prop_assert!(bounded(s.score, 1.0), "{kind}: {}", s.score);
                }
            }
        }
        for version in [PltrdyVersion::V1_0_1, PltrdyVersion::V0_3_2] {
            for pretokenize in [None, Some(NltkTokenizer::V345)] {
                let rouge = PltrdyRouge { version, pretokenize };
                for kind in [RougeType::Rouge1, RougeType::Rouge2, RougeType::RougeL] {
                    if let Ok(s) = rouge.sentence(kind, &hyp, &[&r]) {
                        prop_assert!(bounded(s.score, 1.0), "{kind}: {}", s.score);
                    }
                }
            }
        }
    }
}
