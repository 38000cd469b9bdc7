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
