//! Property test: the rule-based extractor never panics on arbitrary Unicode text, with or
//! without a literal sentence, and what it returns points into the simile it was given.

use hauser_core::ComponentExtractor;
use hauser_extract::{Comparator, RuleExtractor};
use proptest::prelude::*;

/// Pieces that exercise tokenisation, tagging and the literal diff: comparators, case mappings
/// that change byte length ("İ" lowercases to three bytes), combining marks, right-to-left text,
/// emoji sequences, NUL, lone CR and BOM.
const PIECES: &[&str] = &[
    "like",
    "Like",
    "LIKE",
    "as",
    "As",
    "than",
    "resembles",
    "similar to",
    "the way",
    "as if",
    "as though",
    "the",
    "a",
    "an",
    "his",
    "her",
    "sun",
    "cat",
    "is",
    "was",
    "ran",
    "brighter",
    "İ",
    "ẞ",
    "Σ",
    "ς",
    "ß",
    "ﬁ",
    "ŉ",
    "ΐ",
    "İstanbul",
    "STRASSE",
    "\u{0}",
    "\r",
    "\r\n",
    "\n",
    "\t",
    "\u{feff}",
    "\u{200b}",
    "\u{200f}",
    "\u{202e}",
    "\u{a0}",
    "שלום",
    "مرحبا",
    "e\u{301}",
    "\u{301}",
    "😀",
    "👩\u{200d}👩\u{200d}👧",
    "🇫🇷",
    " ",
    "  ",
    ".",
    ",",
    "!",
    "?",
    "'",
    "\"",
    "’",
    "-",
    "—",
    "(",
    ")",
    ";",
    ":",
    "'s",
    "n't",
    "1.5",
];

/// Arbitrary printable Unicode or tricky text.
fn text() -> impl Strategy<Value = String> {
    hauser_testkit::text(PIECES, " ")
}

/// A simile and a literal: arbitrary text, or the simile with a char range cut out (what the
/// literal diff is built for).
fn simile_and_literal() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        (text(), text()),
        (text(), any::<(usize, usize)>()).prop_map(|(s, (a, b))| {
            let n = s.chars().count() + 1;
            let (a, b) = (a % n, b % n);
            let (a, b) = (a.min(b), a.max(b));
            let literal = s.chars().take(a).chain(s.chars().skip(b)).collect();
            (s, literal)
        }),
    ]
}

fn check(x: &RuleExtractor, simile: &str, literal: Option<&str>) -> Result<(), TestCaseError> {
    for c in x.comparisons(simile, literal) {
        prop_assert!(simile.get(c.vehicle_span.clone()).is_some(), "{c:?}");
        for part in [
            &c.components.topic,
            &c.components.vehicle,
            &c.components.event,
        ]
        .into_iter()
        .flatten()
        {
            prop_assert!(simile.contains(part.as_str()), "{part:?} not in {simile:?}");
        }
    }
    prop_assert!(x.extract(simile, literal).is_ok());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn extract_never_panics((simile, literal) in simile_and_literal()) {
        for x in [RuleExtractor::new(), RuleExtractor::new().with_comparators(&[Comparator::Like])] {
            check(&x, &simile, None)?;
            check(&x, &simile, Some(&literal))?;
            check(&x, &literal, Some(&simile))?;
        }
    }
}
