//! Key normalisation, mirroring the HAUSER reference implementation's `clean`.
//!
//! The reference (`code/scorers/utils.py` of Abbey4799/HAUSER) normalises the topic and the
//! vehicle of every query the same way (both scorers call it in its default "vehicle" mode):
//!
//! 1. lowercase (full Unicode lowercasing);
//! 2. collapse runs of ASCII spaces into one space (tabs and other whitespace are kept);
//! 3. remove "punctuation" (see below);
//! 4. trim leading and trailing whitespace (Python's definition, which also trims U+001C..U+001F);
//! 5. in vehicle mode, remove a leading `"like "`;
//! 6. remove **one** leading word from: like, your, my, her, his, its, their, our, the, that,
//!    this, these, thy, those, all, other, another, what, every, a, an, even, just, only, each,
//!    when it is followed by a space. Nothing is trimmed afterwards.
//!
//! Step 3 is where the released code and its evident intent differ. The pattern it uses,
//! `["'”“’‘[]_*-•…/><=]+`, closes its character class at the first `]`, so it does not remove
//! punctuation characters: it only removes the rare sequence *one of* `" ' ” “ ’ ‘ [`, then any
//! underscores, then the literal text `-•…/><=`, then one or more `]`. [`Normalizer::Reference`]
//! reproduces that behaviour exactly (the default: scores then match the reference tool);
//! [`Normalizer::StripPunctuation`] removes every character of the intended set
//! `" ' ” “ ’ ‘ [ ] _ * - • … /  > < =` instead. A knowledge base records which one built it and
//! applies the same one to queries.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// The words of which one is removed from the start of a key (step 6).
pub const LEADING_WORDS: [&str; 25] = [
    "like", "your", "my", "her", "his", "its", "their", "our", "the", "that", "this", "these",
    "thy", "those", "all", "other", "another", "what", "every", "a", "an", "even", "just", "only",
    "each",
];

/// The characters the reference intended to remove (used by [`Normalizer::StripPunctuation`]).
pub const PUNCTUATION: [char; 17] = [
    '"', '\'', '”', '“', '’', '‘', '[', ']', '_', '*', '-', '•', '…', '/', '>', '<', '=',
];

/// The pattern the reference actually applies in step 3 (see the module documentation).
static REFERENCE_PATTERN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"["'”“’‘\[]_*-•…/><=\]+"#).ok());

/// How keys are normalised; stored in the index so that queries use the builder's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Normalizer {
    /// Exactly the released reference code (its punctuation pattern is almost a no-op).
    #[default]
    Reference,
    /// The reference's steps, but removing every character of [`PUNCTUATION`].
    StripPunctuation,
}

/// Which component a key is: topics and vehicles get the reference's vehicle mode (that is
/// what both reference scorers call), properties its other mode (no `"like "` step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// Topic or vehicle.
    Entity,
    /// Property (an adjective).
    Property,
}

impl Normalizer {
    /// The code stored in the index header.
    pub fn code(self) -> u32 {
        match self {
            Normalizer::Reference => 0,
            Normalizer::StripPunctuation => 1,
        }
    }

    /// The normaliser for a header code.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(Normalizer::Reference),
            1 => Some(Normalizer::StripPunctuation),
            _ => None,
        }
    }

    /// Name used in signatures and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Normalizer::Reference => "reference",
            Normalizer::StripPunctuation => "strip-punctuation",
        }
    }

    /// Normalises one key.
    ///
    /// ```
    /// use hauser_kb::clean::{Normalizer, Role};
    /// let n = Normalizer::Reference;
    /// assert_eq!(n.clean("Like  The Wind", Role::Entity), "wind");
    /// assert_eq!(n.clean("the sun's eye", Role::Entity), "sun's eye");
    /// assert_eq!(Normalizer::StripPunctuation.clean("the sun's eye", Role::Entity), "suns eye");
    /// ```
    pub fn clean(self, word: &str, role: Role) -> String {
        let lower = word.to_lowercase();
        let collapsed = collapse_spaces(&lower);
        let stripped = match self {
            Normalizer::Reference => remove_reference_pattern(collapsed),
            Normalizer::StripPunctuation => collapsed
                .chars()
                .filter(|c| !PUNCTUATION.contains(c))
                .collect(),
        };
        let mut s: &str = stripped.trim_matches(is_python_space);
        if role == Role::Entity {
            s = s.strip_prefix("like ").unwrap_or(s);
        }
        if let Some((first, rest)) = s.split_once(' ') {
            if LEADING_WORDS.contains(&first) {
                s = rest;
            }
        }
        s.to_string()
    }
}

/// Python's `str.isspace` (Rust's `char::is_whitespace` plus the separators U+001C..U+001F).
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_space = false;
    for c in s.chars() {
        if c == ' ' {
            if !prev_space {
                out.push(' ');
            }
            prev_space = true;
        } else {
            out.push(c);
            prev_space = false;
        }
    }
    out
}

fn remove_reference_pattern(s: String) -> String {
    // Every match contains this literal; nearly no real key does, so skip the regex.
    if !s.contains("-•…/><=") {
        return s;
    }
    match REFERENCE_PATTERN.as_ref() {
        Some(re) => re.replace_all(&s, "").into_owned(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_leading_word_only() {
        let n = Normalizer::Reference;
        assert_eq!(n.clean("the the wind", Role::Entity), "the wind");
        assert_eq!(n.clean("like the wind", Role::Entity), "wind");
        assert_eq!(n.clean("like like wind", Role::Entity), "wind");
        assert_eq!(n.clean("like wind", Role::Property), "wind");
        assert_eq!(n.clean("an apple", Role::Entity), "apple");
        assert_eq!(n.clean("another", Role::Entity), "another");
        assert_eq!(n.clean("theatre", Role::Entity), "theatre");
    }

    #[test]
    fn reference_pattern_is_a_sequence_not_a_class() {
        let n = Normalizer::Reference;
        assert_eq!(n.clean("a \"wind\"", Role::Entity), "\"wind\"");
        assert_eq!(n.clean("x'__-•…/><=]]y", Role::Entity), "xy");
        assert_eq!(
            Normalizer::StripPunctuation.clean("a \"wind\"", Role::Entity),
            "wind"
        );
    }

    #[test]
    fn whitespace_follows_python() {
        let n = Normalizer::Reference;
        assert_eq!(n.clean("  the   wind\t", Role::Entity), "wind");
        assert_eq!(n.clean("\u{1f}wind\u{1c}", Role::Entity), "wind");
        // A tab is not a space: no leading-word removal across it.
        assert_eq!(n.clean("the\twind", Role::Entity), "the\twind");
    }

    #[test]
    fn codes_round_trip() {
        for n in [Normalizer::Reference, Normalizer::StripPunctuation] {
            assert_eq!(Normalizer::from_code(n.code()), Some(n));
        }
        assert_eq!(Normalizer::from_code(7), None);
    }
}
