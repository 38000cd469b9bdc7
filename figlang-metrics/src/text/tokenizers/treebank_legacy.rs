//! The word tokenizer of NLTK 3.4.5 (`nltk.tokenize._treebank_word_tokenizer`: the Treebank
//! tokenizer with the "improved" quote and period rules that `word_tokenize` added then).
//!
//! The formality-transfer paper's BLEU column was computed with this older tokenizer: it keeps
//! `..` inside a word (`nose..`), which NLTK >= 3.5 splits off. Golden tests against NLTK 3.4.5:
//! `tests/fixtures/treebank_nltk345.json`.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

struct Rule {
    re: Regex,
    rep: &'static str,
}

fn rule(p: &str, rep: &'static str) -> Rule {
    Rule {
        re: Regex::new(p).expect("static pattern"),
        rep,
    }
}

struct Rules {
    starting: Vec<Rule>,
    punctuation: Vec<Rule>,
    tail: Vec<Rule>,
    ending: Vec<Rule>,
    word: Regex,
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
        rule(r"\.\.\.", " ... "),
        rule(r"[;@#$%&]", " $0 "),
        rule(r#"([^.])(\.)([\])}>"']*)\s*$"#, "$1 $2$3 "),
        rule(r"[?!]", " $0 "),
        rule(r"([^'])' ", "$1 ' "),
    ],
    tail: vec![rule(r"[\]\[(){}<>]", " $0 "), rule("--", " -- ")],
    ending: vec![
        rule("([»”’])", " $1 "),
        rule("\"", " '' "),
        rule(r"(\S)('')", "$1 $2 "),
        rule(r"([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
        rule(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "),
        rule(r"(?i)\b(can)(not)\b", " $1 $2 "),
        rule(r"(?i)\b(d)('ye)\b", " $1 $2 "),
        rule(r"(?i)\b(gim)(me)\b", " $1 $2 "),
        rule(r"(?i)\b(gon)(na)\b", " $1 $2 "),
        rule(r"(?i)\b(got)(ta)\b", " $1 $2 "),
        rule(r"(?i)\b(lem)(me)\b", " $1 $2 "),
        rule(r"(?i)\b(mor)('n)\b", " $1 $2 "),
        rule(r"(?i)\b(wan)(na)\s", " $1 $2 "),
        rule(r"(?i) ('t)(is)\b", " $1 $2 "),
        rule(r"(?i) ('t)(was)\b", " $1 $2 "),
    ],
    word: Regex::new(r"^\w").expect("static pattern"),
});

fn apply(text: String, r: &Rule) -> String {
    match r.re.replace_all(&text, r.rep) {
        Cow::Borrowed(_) => text,
        Cow::Owned(s) => s,
    }
}

/// NLTK 3.4.5's `(?i)(\')(?!re|ve|ll|m|t|s|d)(\w)\b` -> `\1 \2`: an apostrophe before a
/// one-character word is split from it, unless that character starts a clitic.
fn single_quote_rule(text: &str, word: &Regex) -> String {
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
        let is_word = word.is_match(rest);
        let boundary = after.is_empty() || !word.is_match(after);
        let clitic = matches!(w.to_ascii_lowercase(), 'm' | 't' | 's' | 'd') || w == 'ſ';
        if is_word && boundary && !clitic {
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
    let r = &*RULES;
    let mut t = text.to_string();
    for x in &r.starting {
        t = apply(t, x);
    }
    t = single_quote_rule(&t, &r.word);
    for x in &r.punctuation {
        t = apply(t, x);
    }
    for x in &r.tail {
        t = apply(t, x);
    }
    t = format!(" {t} ");
    for x in &r.ending {
        t = apply(t, x);
    }
    t.split(hauser_core::tokenize::is_python_space)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}
