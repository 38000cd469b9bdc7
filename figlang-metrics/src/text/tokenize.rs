//! Tokenizers: NLTK's `word_tokenize` (Punkt sentences, then the Treebank word tokenizer of
//! `hauser_core::tokenize`) and sacreBLEU's `13a`, `intl` and `none` tokenizers.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;

use super::error::MetricError;
use super::punkt::PunktModel;

/// NLTK's `word_tokenize(text)` with the English Punkt model: sentence splitting first, then
/// the Treebank tokenizer on each sentence (so a period that ends an inner sentence becomes a
/// token of its own).
///
/// ```
/// use figlang_metrics::text::tokenize::word_tokenize;
/// assert_eq!(word_tokenize("Go home. It's late."), vec!["Go", "home", ".", "It", "'s", "late", "."]);
/// assert_eq!(hauser_core::tokenize::word_tokenize("Go home. It's late."),
///            vec!["Go", "home.", "It", "'s", "late", "."]);
/// ```
pub fn word_tokenize(text: &str) -> Vec<String> {
    word_tokenize_with(PunktModel::english(), text)
}

/// [`word_tokenize`] with another Punkt model.
pub fn word_tokenize_with(model: &PunktModel, text: &str) -> Vec<String> {
    model
        .sentences(text)
        .into_iter()
        .flat_map(hauser_core::tokenize::word_tokenize)
        .collect()
}

/// Which NLTK release's `word_tokenize` to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NltkTokenizer {
    /// NLTK 3.10.4 (`NLTKWordTokenizer`), the current release.
    #[default]
    Current,
    /// NLTK 3.4.5 (`_treebank_word_tokenizer`), which the formality paper's BLEU used.
    V345,
}

impl fmt::Display for NltkTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NltkTokenizer::Current => "nltk-3.10.4-word_tokenize",
            NltkTokenizer::V345 => "nltk-3.4.5-word_tokenize",
        })
    }
}

impl FromStr for NltkTokenizer {
    type Err = MetricError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "current" | "3.10" | "3.10.4" => Ok(NltkTokenizer::Current),
            "3.4" | "3.4.5" | "legacy" => Ok(NltkTokenizer::V345),
            other => Err(MetricError::option(
                "word_tokenize",
                format!("unknown NLTK tokenizer version {other:?} (current or 3.4.5)"),
            )),
        }
    }
}

impl NltkTokenizer {
    /// Tokenizes like `nltk.word_tokenize` of this release (English Punkt model, then the
    /// release's word tokenizer on each sentence).
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        let sentences = PunktModel::english().sentences(text);
        match self {
            NltkTokenizer::Current => sentences
                .into_iter()
                .flat_map(hauser_core::tokenize::word_tokenize)
                .collect(),
            NltkTokenizer::V345 => sentences
                .into_iter()
                .flat_map(super::treebank_legacy::word_tokenize_nltk345)
                .collect(),
        }
    }
}

/// Python's `str.split()`: splits on Unicode whitespace, dropping empty pieces.
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(hauser_core::tokenize::is_python_space)
        .filter(|t| !t.is_empty())
}

/// sacreBLEU's tokenizers for BLEU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SacreTokenizer {
    /// mteval-v13a (sacreBLEU's default).
    #[default]
    T13a,
    /// mteval-v14 international: splits Unicode punctuation and symbols.
    Intl,
    /// No tokenization (whitespace split only).
    None,
}

impl fmt::Display for SacreTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SacreTokenizer::T13a => "13a",
            SacreTokenizer::Intl => "intl",
            SacreTokenizer::None => "none",
        })
    }
}

impl FromStr for SacreTokenizer {
    type Err = MetricError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "13a" => Ok(SacreTokenizer::T13a),
            "intl" => Ok(SacreTokenizer::Intl),
            "none" => Ok(SacreTokenizer::None),
            other => Err(MetricError::option(
                "bleu",
                format!("unknown tokenizer {other:?} (expected 13a, intl or none)"),
            )),
        }
    }
}

struct Sub {
    re: Regex,
    rep: &'static str,
}

fn sub(p: &str, rep: &'static str) -> Sub {
    Sub {
        re: Regex::new(p).expect("static pattern"),
        rep,
    }
}

/// sacreBLEU's `TokenizerRegexp` rules, as hand-written scans (same non-overlapping
/// left-to-right semantics as the four `re.sub` calls, several times faster):
/// `([\{-~\[-` -&\(-\+:-@/])` -> ` \1 `, `([^0-9])([\.,])` -> `\1 \2 `,
/// `([\.,])([^0-9])` -> ` \1 \2`, `([0-9])(-)` -> `\1 \2 `.
fn rules_13a(line: &str) -> String {
    let mut a: Vec<char> = Vec::with_capacity(line.len() * 2);
    for c in line.chars() {
        let punct = matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/');
        if punct {
            a.extend([' ', c, ' ']);
        } else {
            a.push(c);
        }
    }
    let pair_pass = |v: &[char],
                     hit: &dyn Fn(char, char) -> bool,
                     emit: &dyn Fn(&mut Vec<char>, char, char)| {
        let mut out = Vec::with_capacity(v.len() + 16);
        let mut i = 0;
        while i < v.len() {
            if i + 1 < v.len() && hit(v[i], v[i + 1]) {
                emit(&mut out, v[i], v[i + 1]);
                i += 2;
            } else {
                out.push(v[i]);
                i += 1;
            }
        }
        out
    };
    let dot = |c: char| c == '.' || c == ',';
    let b = pair_pass(&a, &|x, y| !x.is_ascii_digit() && dot(y), &|o, x, y| {
        o.extend([x, ' ', y, ' '])
    });
    let c = pair_pass(&b, &|x, y| dot(x) && !y.is_ascii_digit(), &|o, x, y| {
        o.extend([' ', x, ' ', y])
    });
    let d = pair_pass(&c, &|x, y| x.is_ascii_digit() && y == '-', &|o, x, y| {
        o.extend([x, ' ', y, ' '])
    });
    d.into_iter().collect()
}

static RE_INTL: LazyLock<Vec<Sub>> = LazyLock::new(|| {
    vec![
        sub(r"(\P{N})(\p{P})", "$1 $2 "),
        sub(r"(\p{P})(\P{N})", " $1 $2"),
        sub(r"(\p{S})", " $1 "),
    ]
});

fn apply_all(mut s: String, subs: &[Sub]) -> String {
    for r in subs {
        if let std::borrow::Cow::Owned(o) = r.re.replace_all(&s, r.rep) {
            s = o;
        }
    }
    s
}

impl SacreTokenizer {
    /// Tokenizes one line; tokens are separated by single spaces.
    pub fn tokenize(&self, line: &str) -> String {
        match self {
            SacreTokenizer::None => line.to_string(),
            SacreTokenizer::T13a => {
                let mut l = line
                    .replace("<skipped>", "")
                    .replace("-\n", "")
                    .replace('\n', " ");
                if l.contains('&') {
                    l = l
                        .replace("&quot;", "\"")
                        .replace("&amp;", "&")
                        .replace("&lt;", "<")
                        .replace("&gt;", ">");
                }
                join_split(&rules_13a(&format!(" {l} ")))
            }
            SacreTokenizer::Intl => join_split(&apply_all(line.to_string(), &RE_INTL)),
        }
    }
}

fn join_split(s: &str) -> String {
    py_split(s).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizers_13a_intl() {
        assert_eq!(
            SacreTokenizer::T13a.tokenize("Hello, world! It's 3.5-4 (ok)."),
            "Hello , world ! It's 3.5 - 4 ( ok ) ."
        );
        assert_eq!(SacreTokenizer::Intl.tokenize("€10, 3.5!"), "€ 10 , 3.5!");
        assert_eq!(SacreTokenizer::None.tokenize("a,b"), "a,b");
        assert!("x".parse::<SacreTokenizer>().is_err());
    }
}
