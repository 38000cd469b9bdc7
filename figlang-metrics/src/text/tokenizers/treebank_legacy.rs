//! The word tokenizer of NLTK 3.4.5 (`nltk.tokenize._treebank_word_tokenizer`: the Treebank
//! tokenizer with the "improved" quote and period rules that `word_tokenize` added then).
//!
//! The formality-transfer paper's BLEU column was computed with this older tokenizer: it keeps
//! `..` inside a word (`nose..`), which NLTK >= 3.5 splits off. It is one of the two tables of
//! [`hauser_core::treebank`], the engine NLTK's current tokenizer runs on too. Golden tests
//! against NLTK 3.4.5: `tests/fixtures/treebank_nltk345.json`.

use std::sync::LazyLock;

use hauser_core::treebank::{self, starts_with_word, Rule, Treebank};

/// NLTK 3.4.5's table, in its order, on hauser-core's Treebank engine.
static NLTK345: LazyLock<Treebank> = LazyLock::new(|| Treebank {
    starting: treebank::starting_quotes(),
    quotes: single_quote_rule,
    punctuation: [
        Rule::new(r#"([^.])(\.)([\])}>"'»”’ ]*)\s*$"#, "$1 $2 $3 "),
        Rule::new(r"([:,])([^\d])", " $1 $2"),
        Rule::new(r"([:,])$", " $1 "),
        Rule::new(r"\.\.\.", " ... "),
        Rule::new(r"[;@#$%&]", " $0 "),
        Rule::new(r#"([^.])(\.)([\])}>"']*)\s*$"#, "$1 $2$3 "),
        Rule::new(r"[?!]", " $0 "),
        Rule::new(r"([^'])' ", "$1 ' "),
    ]
    .into_iter()
    .chain(treebank::brackets_and_dashes())
    .collect(),
    ending: [
        Rule::new("([»”’])", " $1 "),
        Rule::new("\"", " '' "),
        Rule::new(r"(\S)('')", "$1 $2 "),
    ]
    .into_iter()
    .chain(treebank::clitics())
    .chain(treebank::contractions(
        Rule::new(r"(?i)\b(mor)('n)\b", " $1 $2 "),
        Rule::new(r"(?i)\b(wan)(na)\s", " $1 $2 "),
    ))
    .collect(),
});

/// NLTK 3.4.5's `(?i)(\')(?!re|ve|ll|m|t|s|d)(\w)\b` -> `\1 \2`: an apostrophe before a
/// one-character word is split from it, unless that character starts a clitic.
fn single_quote_rule(text: &str) -> String {
    let is_word = starts_with_word;
    let mut out = String::with_capacity(text.len() + 4);
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        out.push(c);
        if c != '\'' {
            continue;
        }
        let rest = &text[i + 1..];
        let mut cs = rest.chars();
        let Some(w) = cs.next() else { continue };
        let after = &rest[w.len_utf8()..];
        let starts_word = is_word(rest);
        let boundary = after.is_empty() || !is_word(after);
        let clitic = matches!(w.to_ascii_lowercase(), 'm' | 't' | 's' | 'd') || w == 'ſ';
        if starts_word && boundary && !clitic {
            out.push(' ');
            out.push(w);
            it.next();
        }
    }
    out
}

/// Tokenizes one sentence as NLTK 3.4.5's `word_tokenize` did after sentence splitting.
///
/// ```
/// use figlang_metrics::text::treebank_legacy::word_tokenize_nltk345;
/// assert_eq!(word_tokenize_nltk345("his nose.."), vec!["his", "nose.."]);
/// assert_eq!(hauser_core::tokenize::word_tokenize("his nose.."), vec!["his", "nose", ".."]);
/// ```
pub fn word_tokenize_nltk345(text: &str) -> Vec<String> {
    NLTK345.tokenize(text)
}
