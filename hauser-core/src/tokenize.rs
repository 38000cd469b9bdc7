//! Word tokenisation: a port of NLTK's `NLTKWordTokenizer` (the improved Penn Treebank
//! tokenizer that `nltk.word_tokenize` applies to each sentence).
//!
//! The rules run in NLTK's order (starting quotes, punctuation, brackets, dashes, ending quotes,
//! contractions) on the same text, so the output is token for token NLTK's (checked by golden
//! tests against NLTK 3.10.4, `hauser-core/tests/fixtures/treebank_nltk.json`). NLTK's patterns
//! with look-around, which the `regex` crate does not support, are implemented as hand-written
//! scans with the same semantics.
//!
//! This tokenizer does not split sentences: `nltk.word_tokenize` first applies the Punkt
//! sentence splitter, which lives in `figlang-metrics` (it needs a trained model). For one
//! sentence without an inner sentence boundary both give the same tokens.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// Splits `text` into NLTK Treebank word tokens (no sentence splitting, see the module docs).
///
/// ```
/// use hauser_core::tokenize::word_tokenize;
/// assert_eq!(word_tokenize("a child's toy, isn't it?"),
///            vec!["a", "child", "'s", "toy", ",", "is", "n't", "it", "?"]);
/// assert_eq!(word_tokenize("\"Cannot\" he said."), vec!["``", "Can", "not", "''", "he", "said", "."]);
/// ```
pub fn word_tokenize(text: &str) -> Vec<String> {
    treebank_string(text)
        .split(is_python_space)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Python's `str.isspace` (what `str.split()` splits on): Unicode White_Space plus the ASCII
/// information separators U+001C..U+001F.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

struct Rule {
    re: Regex,
    rep: &'static str,
}

fn rule(pattern: &str, rep: &'static str) -> Rule {
    Rule {
        re: Regex::new(pattern).expect("static tokenizer pattern compiles"),
        rep,
    }
}

struct Rules {
    starting: Vec<Rule>,
    punctuation: Vec<Rule>,
    parens: Rule,
    dashes: Rule,
    ending: Vec<Rule>,
    contractions: Vec<Rule>,
    word_char: Regex,
}

static RULES: LazyLock<Rules> = LazyLock::new(|| Rules {
    starting: vec![
        rule("([«“‘„]|[`]+)", " $1 "),
        rule("^\"", "``"),
        rule("(``)", " $1 "),
        rule(r#"([ (\[{<])("|'{2})"#, "$1 `` "),
    ],
    punctuation: vec![
        rule(r#"([^.])(\.)([\])}>"'»”’ ]*)\s*$"#, "$1 $2 $3 "),
        rule(r"([:,])([^\d])", " $1 $2"),
        rule(r"([:,])$", " $1 "),
        rule(r"\.{2,}", " $0 "),
        rule(r"[;@#$%&]", " $0 "),
        rule(r"[\u2012-\u2015]", " $0 "),
        rule(r#"([^.])(\.)([\])}>"']*)\s*$"#, "$1 $2$3 "),
        rule(r"[?!]", " $0 "),
        rule(r"([^'])' ", "$1 ' "),
        rule(r"[*]", " $0 "),
    ],
    parens: rule(r"[\]\[(){}<>]", " $0 "),
    dashes: rule("--", " -- "),
    ending: vec![
        rule("([»”’])", " $1 "),
        rule("''", " '' "),
        rule("\"", " '' "),
        rule(r"\s+", " "),
        rule(r"([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
        rule(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "),
    ],
    contractions: vec![
        rule(r"(?i)\b(can)(not)\b", " $1 $2 "),
        rule(r"(?i)\b(d)('ye)\b", " $1 $2 "),
        rule(r"(?i)\b(gim)(me)\b", " $1 $2 "),
        rule(r"(?i)\b(gon)(na)\b", " $1 $2 "),
        rule(r"(?i)\b(got)(ta)\b", " $1 $2 "),
        rule(r"(?i)\b(lem)(me)\b", " $1 $2 "),
        rule(r"(?i)\b(more)('n)\b", " $1 $2 "),
        // NLTK: `\b(wan)(na)(?=\s)`; the whitespace is consumed and put back.
        rule(r"(?i)\b(wan)(na)(\s)", " $1 $2 $3"),
        rule(r"(?i) ('t)(is)\b", " $1 $2 "),
        rule(r"(?i) ('t)(was)\b", " $1 $2 "),
    ],
    word_char: Regex::new(r"^\w").expect("static pattern compiles"),
});

fn apply(text: String, r: &Rule) -> String {
    match r.re.replace_all(&text, r.rep) {
        Cow::Borrowed(_) => text,
        Cow::Owned(s) => s,
    }
}

/// The tokenized text as NLTK builds it before its final `split()`.
fn treebank_string(text: &str) -> String {
    let rules = &*RULES;
    let mut t = text.to_string();
    for r in &rules.starting {
        t = apply(t, r);
    }
    t = opening_single_quotes(&t, &rules.word_char);
    for r in &rules.punctuation {
        t = apply(t, r);
    }
    t = apply(t, &rules.parens);
    t = apply(t, &rules.dashes);
    t = format!(" {t} ");
    for r in &rules.ending {
        t = apply(t, r);
    }
    for r in &rules.contractions {
        t = apply(t, r);
    }
    t
}

/// NLTK's `(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)` -> `' `: an apostrophe opening a
/// word (not a clitic) is split from it.
fn opening_single_quotes(text: &str, word_char: &Regex) -> String {
    if !text.contains('\'') {
        return text.to_string();
    }
    let is_word = |s: &str| word_char.is_match(s);
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
