//! The Penn Treebank tokenizer engine that NLTK's word tokenizers share: rule tables of
//! regular-expression substitutions applied in order, with the one quote rule the `regex`
//! crate cannot express (NLTK's look-around) as a hand-written scan. NLTK's current
//! `NLTKWordTokenizer` is [`crate::tokenize`]'s table; NLTK 3.4.5's, which the formality paper
//! used, is figlang-metrics' `treebank_legacy` table. One engine, so that both apply their rules
//! in the same phases.
//!
//! ```
//! use hauser_core::treebank::{Rule, Treebank};
//! // A toy table: split commas off, then pad the text.
//! let table = Treebank {
//!     starting: vec![],
//!     quotes: |text| text.to_string(),
//!     punctuation: vec![Rule::new(",", " , ")],
//!     ending: vec![],
//! };
//! assert_eq!(table.tokenize("a,b"), vec!["a", ",", "b"]);
//! ```

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// One substitution: every match of a pattern replaced (`$1`-style groups).
#[derive(Debug)]
pub struct Rule {
    re: Regex,
    rep: &'static str,
}

impl Rule {
    /// The rule replacing `pattern` with `rep`.
    ///
    /// # Panics
    /// If `pattern` does not compile: the tables are static, and their tests compile each.
    pub fn new(pattern: &str, rep: &'static str) -> Rule {
        Rule {
            re: Regex::new(pattern).expect("static tokenizer pattern compiles"),
            rep,
        }
    }

    fn apply(&self, text: String) -> String {
        match self.re.replace_all(&text, self.rep) {
            Cow::Borrowed(_) => text,
            Cow::Owned(s) => s,
        }
    }
}

/// Python's `str.isspace` (what `str.split()` splits on): Unicode White_Space plus the ASCII
/// information separators U+001C..U+001F.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A word-start test (`^\w`, Python's Unicode `\w`), which the quote scans read.
pub fn starts_with_word(text: &str) -> bool {
    static WORD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\w").expect("static pattern compiles"));
    WORD.is_match(text)
}

/// The starting-quote rules, the same in NLTK 3.4.5's table and 3.10.4's.
pub fn starting_quotes() -> Vec<Rule> {
    vec![
        Rule::new("([«“‘„]|[`]+)", " $1 "),
        Rule::new("^\"", "``"),
        Rule::new("(``)", " $1 "),
        Rule::new(r#"([ (\[{<])("|'{2})"#, "$1 `` "),
    ]
}

/// Brackets, then dashes: the end of the punctuation phase in both releases.
pub fn brackets_and_dashes() -> [Rule; 2] {
    [Rule::new(r"[\]\[(){}<>]", " $0 "), Rule::new("--", " -- ")]
}

/// The clitics split from the word before them (`'s`, `'m`, `'d`, `'`, then `'ll`, `'re`,
/// `'ve`, `n't`), the same in both releases.
pub fn clitics() -> [Rule; 2] {
    [
        Rule::new(r"([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
        Rule::new(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "),
    ]
}

/// NLTK's `MacIntyreContractions` (its `CONTRACTIONS2`, then `CONTRACTIONS3`) in order, with
/// the two rules the releases write differently given by the caller: `more'n` (3.4.5 has
/// `mor'n`) and `wanna` (3.10.4 keeps the whitespace after it).
pub fn contractions(more: Rule, wanna: Rule) -> Vec<Rule> {
    vec![
        Rule::new(r"(?i)\b(can)(not)\b", " $1 $2 "),
        Rule::new(r"(?i)\b(d)('ye)\b", " $1 $2 "),
        Rule::new(r"(?i)\b(gim)(me)\b", " $1 $2 "),
        Rule::new(r"(?i)\b(gon)(na)\b", " $1 $2 "),
        Rule::new(r"(?i)\b(got)(ta)\b", " $1 $2 "),
        Rule::new(r"(?i)\b(lem)(me)\b", " $1 $2 "),
        more,
        wanna,
        Rule::new(r"(?i) ('t)(is)\b", " $1 $2 "),
        Rule::new(r"(?i) ('t)(was)\b", " $1 $2 "),
    ]
}

/// A rule table, in the phases of NLTK's `tokenize`.
#[derive(Debug)]
pub struct Treebank {
    /// Starting quotes.
    pub starting: Vec<Rule>,
    /// The single-quote rule that needs look-around, as a scan of the text (with
    /// [`starts_with_word`] for `\w`).
    pub quotes: fn(&str) -> String,
    /// Punctuation, then brackets and dashes.
    pub punctuation: Vec<Rule>,
    /// After the text is padded with a space at each end: ending quotes, clitics and
    /// contractions.
    pub ending: Vec<Rule>,
}

impl Treebank {
    /// The tokenized text as NLTK builds it before its final `split()`.
    pub fn tokenized_string(&self, text: &str) -> String {
        let mut t = text.to_string();
        for r in &self.starting {
            t = r.apply(t);
        }
        t = (self.quotes)(&t);
        for r in &self.punctuation {
            t = r.apply(t);
        }
        t = format!(" {t} ");
        for r in &self.ending {
            t = r.apply(t);
        }
        t
    }

    /// The tokens: [`Self::tokenized_string`] split as Python's `str.split()` does.
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        self.tokenized_string(text)
            .split(is_python_space)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}
