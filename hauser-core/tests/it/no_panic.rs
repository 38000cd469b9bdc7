//! Property tests: the Treebank word tokenizer and the components literal parser never panic
//! on arbitrary Unicode text (case mappings that change byte length, combining marks,
//! right-to-left text, emoji sequences, NUL, lone CR, BOM), and the parser's errors point into
//! the text.

use hauser_core::tokenize::{is_python_space, word_tokenize};
use hauser_core::{parse_components_literal, CoreError};
use proptest::prelude::*;

const PIECES: &[&str] = &[
    "İ",
    "ẞ",
    "Σ",
    "ς",
    "ß",
    "ﬁ",
    "ŉ",
    "ΐ",
    "İstanbul",
    "\u{0}",
    "\r",
    "\r\n",
    "\n",
    "\t",
    "\u{1c}",
    "\u{feff}",
    "\u{200b}",
    "\u{200f}",
    "\u{202e}",
    "\u{85}",
    "\u{a0}",
    "\u{3000}",
    "שלום",
    "مرحبا",
    "e\u{301}",
    "\u{301}",
    "😀",
    "👩\u{200d}👩\u{200d}👧",
    "🇫🇷",
    " ",
    ".",
    "..",
    "...",
    "'",
    "\"",
    "``",
    "''",
    "’",
    "“",
    "«",
    "-",
    "--",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    ",",
    ";",
    ":",
    "?",
    "!",
    "&",
    "$",
    "%",
    "can't",
    "cannot",
    "gonna",
    "I'm",
    "'s",
    "n't",
    "'ll",
    "d'ye",
    "Mr.",
    "the",
    "sun",
];

/// The shared generator ([`hauser_testkit::tricky`]) with this crate's pieces.
fn tricky() -> impl Strategy<Value = String> {
    hauser_testkit::tricky(PIECES, "")
}

/// Arbitrary printable Unicode or tricky text.
fn text() -> impl Strategy<Value = String> {
    hauser_testkit::text(PIECES, "")
}

/// Pieces of the literal syntax, with tricky text inside and around strings.
fn literal_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(&[
            "[", "]", "(", ")", ",", " ", "'", "\"", "\\", "\\'", "\\\"", "\\n", "\\x", "\\u00e9",
            "\\u", "\\U0001F600", "\\N{DASH}", "None", "Non", "'he'", "\"a child\"", "'wept'",
            "('he', 'a child', 'wept')", "[('it', \"the sun's eye\", None)]",
        ][..]).prop_map(String::from),
        1 => tricky(),
    ];
    prop::collection::vec(piece, 0..20).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn treebank_tokens_are_non_empty_and_unspaced(s in text()) {
        for t in word_tokenize(&s) {
            prop_assert!(!t.is_empty() && !t.chars().any(is_python_space), "{t:?} from {s:?}");
        }
    }

    #[test]
    fn components_literal_parser_never_panics(s in prop_oneof![text(), literal_like()]) {
        match parse_components_literal(&s) {
            Ok(_) => {}
            Err(CoreError::ComponentsLiteral { offset, .. }) => {
                prop_assert!(offset <= s.len(), "offset {offset} past {s:?}");
            }
            Err(e) => prop_assert!(false, "unexpected error kind: {e}"),
        }
    }
}
