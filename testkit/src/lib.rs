//! Test helpers shared by the hauser-rs crates: the proptest text generators of their no-panic
//! tests. Each crate brings its own tricky pieces (tokenizer edge cases, simile markers...);
//! the way they are mixed with arbitrary characters is the same everywhere.
//!
//! ```
//! use hauser_testkit::text;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//! let strategy = text(&["like", "as", "'s"], " ");
//! let mut runner = TestRunner::deterministic();
//! let samples: Vec<String> = (0..64)
//!     .map(|_| strategy.new_tree(&mut runner).unwrap().current())
//!     .collect();
//! // Both branches are drawn: the pieces show up, and so does text without them.
//! assert!(samples.iter().any(|s| s.contains("like")));
//! assert!(samples.iter().any(|s| !s.contains("like") && !s.is_empty()));
//! ```

use proptest::prelude::*;

/// Text made of up to 24 pieces, each one of `pieces` (three times in five), an arbitrary
/// character, or up to four printable characters, joined with `sep`.
pub fn tricky(pieces: &'static [&'static str], sep: &'static str) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(pieces).prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
        1 => "\\PC{0,4}",
    ];
    prop::collection::vec(piece, 0..24).prop_map(move |v| v.join(sep))
}

/// Arbitrary printable Unicode, or [`tricky`] text.
pub fn text(pieces: &'static [&'static str], sep: &'static str) -> impl Strategy<Value = String> {
    prop_oneof!["\\PC*".boxed(), tricky(pieces, sep).boxed()]
}
