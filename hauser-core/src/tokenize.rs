//! Word tokenisation: a port of NLTK's `NLTKWordTokenizer` (the improved Penn Treebank
//! tokenizer that `nltk.word_tokenize` applies to each sentence).
//!
//! The rules, a table of [`crate::treebank`]'s engine, run in NLTK's order (starting quotes,
//! punctuation, brackets, dashes, ending quotes, contractions) on the same text, so the output
//! is token for token NLTK's (checked by golden tests against NLTK 3.10.4,
//! `hauser-core/tests/fixtures/treebank_nltk.json`). NLTK's patterns
//! with look-around, which the `regex` crate does not support, are implemented as hand-written
//! scans with the same semantics.
//!
//! This tokenizer does not split sentences: `nltk.word_tokenize` first applies the Punkt
//! sentence splitter, which lives in `figlang-metrics` (it needs a trained model). For one
//! sentence without an inner sentence boundary both give the same tokens.

use std::sync::LazyLock;

use crate::treebank::{self, starts_with_word, Rule, Treebank};

/// Splits `text` into NLTK Treebank word tokens (no sentence splitting, see the module docs).
///
/// ```
/// use hauser_core::tokenize::word_tokenize;
/// assert_eq!(word_tokenize("a child's toy, isn't it?"),
///            vec!["a", "child", "'s", "toy", ",", "is", "n't", "it", "?"]);
/// assert_eq!(word_tokenize("\"Cannot\" he said."), vec!["``", "Can", "not", "''", "he", "said", "."]);
/// ```
pub fn word_tokenize(text: &str) -> Vec<String> {
    NLTK.tokenize(text)
}

/// Python's `str.isspace`, kept with the Treebank engine whose final `split()` reads it.
pub use crate::treebank::is_python_space;

/// NLTK 3.10.4's `NLTKWordTokenizer` table, in its order (the brackets and dashes follow the
/// punctuation; the contractions follow the ending quotes).
static NLTK: LazyLock<Treebank> = LazyLock::new(|| Treebank {
    starting: treebank::starting_quotes(),
    quotes: opening_single_quotes,
    punctuation: [
        Rule::new(r#"([^.])(\.)([\])}>"'»”’ ]*)\s*$"#, "$1 $2 $3 "),
        Rule::new(r"([:,])([^\d])", " $1 $2"),
        Rule::new(r"([:,])$", " $1 "),
        Rule::new(r"\.{2,}", " $0 "),
        Rule::new(r"[;@#$%&]", " $0 "),
        Rule::new(r"[\u2012-\u2015]", " $0 "),
        Rule::new(r#"([^.])(\.)([\])}>"']*)\s*$"#, "$1 $2$3 "),
        Rule::new(r"[?!]", " $0 "),
        Rule::new(r"([^'])' ", "$1 ' "),
        Rule::new(r"[*]", " $0 "),
    ]
    .into_iter()
    .chain(treebank::brackets_and_dashes())
    .collect(),
    ending: [
        Rule::new("([»”’])", " $1 "),
        Rule::new("''", " '' "),
        Rule::new("\"", " '' "),
        Rule::new(r"\s+", " "),
    ]
    .into_iter()
    .chain(treebank::clitics())
    .chain(treebank::contractions(
        Rule::new(r"(?i)\b(more)('n)\b", " $1 $2 "),
        // NLTK: `\b(wan)(na)(?=\s)`; the whitespace is consumed and put back.
        Rule::new(r"(?i)\b(wan)(na)(\s)", " $1 $2 $3"),
    ))
    .collect(),
});

/// NLTK's `(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)` -> `' `: an apostrophe opening a
/// word (not a clitic) is split from it.
fn opening_single_quotes(text: &str) -> String {
    let is_word = starts_with_word;
    if !text.contains('\'') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev_is_word = false;
    for (i, c) in text.char_indices() {
        out.push(c);
        if c == '\'' && !prev_is_word {
            let rest = &text[i + 1..];
            if is_word(rest) && !starts_with_clitic(rest, &is_word) {
                out.push(' ');
            }
        }
        prev_is_word = is_word(&text[i..]);
    }
    out
}

fn starts_with_clitic(rest: &str, is_word: &dyn Fn(&str) -> bool) -> bool {
    const CLITICS: [&str; 8] = ["re", "ve", "ll", "m", "t", "s", "d", "n"];
    CLITICS.iter().any(|cl| {
        let mut chars = rest.char_indices();
        for want in cl.chars() {
            match chars.next() {
                Some((_, got)) if caseless_eq(got, want) => {}
                _ => return false,
            }
        }
        match chars.next() {
            None => true,
            Some((j, _)) => !is_word(&rest[j..]),
        }
    })
}

/// Case-insensitive match of `got` against a lowercase ASCII letter, with the Unicode simple
/// case folds that Python's `regex` applies (`ſ` is an `s`, the Kelvin sign a `k`).
fn caseless_eq(got: char, want: char) -> bool {
    got.to_ascii_lowercase() == want || (want == 's' && got == 'ſ')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> Vec<String> {
        word_tokenize(s)
    }

    #[test]
    fn treebank_conventions() {
        assert_eq!(tok("a little boy"), vec!["a", "little", "boy"]);
        assert_eq!(tok("the wind."), vec!["the", "wind", "."]);
        assert_eq!(tok("don't"), vec!["do", "n't"]);
        assert_eq!(tok("John's dog"), vec!["John", "'s", "dog"]);
        assert_eq!(tok("a well-known 3.5"), vec!["a", "well-known", "3.5"]);
        assert_eq!(tok("wait..."), vec!["wait", "..."]);
        assert_eq!(tok(""), Vec::<String>::new());
        assert_eq!(
            tok("'hello' she said"),
            vec!["'", "hello", "'", "she", "said"]
        );
        assert_eq!(
            tok("'tis gonna rain"),
            vec!["'", "tis", "gon", "na", "rain"]
        );
        assert_eq!(tok("Mr. Smith paid $3.88 (roughly)."), {
            vec![
                "Mr.", "Smith", "paid", "$", "3.88", "(", "roughly", ")", ".",
            ]
        });
    }

    #[test]
    fn python_whitespace_includes_information_separators() {
        assert_eq!(tok("a\u{1f}b\u{a0}c"), vec!["a", "b", "c"]);
    }
}
