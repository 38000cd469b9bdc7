//! Tokenizers: NLTK's `word_tokenize` (Punkt sentences, then the Treebank word tokenizer of
//! `hauser_core::tokenize`) and sacreBLEU's `13a`, `intl` and `none` tokenizers.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;

use super::punkt::PunktModel;
pub(crate) use super::rules_13a::Scratch13a;
use super::rules_13a::{regexp_rest_str, rule1_13a, rules_13a};
use super::split_spans::push_tokens;
use crate::text::error::MetricError;

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
#[non_exhaustive]
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
    s.split(is_py_space).filter(|t| !t.is_empty())
}

/// [`hauser_core::tokenize::is_python_space`] with an inlined ASCII test (ASCII whitespace for
/// Python's `str.split` is `\t`-`\r`, `\x1c`-`\x1f` and the space).
#[inline]
pub(crate) fn is_py_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t'..='\r' | '\x1c'..='\x1f')
    } else {
        hauser_core::tokenize::is_python_space(c)
    }
}

/// sacreBLEU's tokenizers for BLEU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SacreTokenizer {
    /// mteval-v13a (sacreBLEU's default).
    #[default]
    T13a,
    /// mteval-v14 international: splits Unicode punctuation and symbols.
    Intl,
    /// No tokenization (whitespace split only).
    None,
    /// Every character a token (sacreBLEU's `char`, for languages without word boundaries).
    Char,
    /// Chinese: each Chinese character (sacreBLEU's ranges) a token, the rest by 13a's rules
    /// (sacreBLEU's `zh`).
    Zh,
}

impl fmt::Display for SacreTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SacreTokenizer::T13a => "13a",
            SacreTokenizer::Intl => "intl",
            SacreTokenizer::None => "none",
            SacreTokenizer::Char => "char",
            SacreTokenizer::Zh => "zh",
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
            "char" => Ok(SacreTokenizer::Char),
            "zh" => Ok(SacreTokenizer::Zh),
            "ja-mecab" | "ko-mecab" | "flores101" | "flores200" | "spm" => Err(MetricError::option(
                "bleu",
                format!("tokenizer {s:?} is not built in (it needs MeCab or a SentencePiece model); 13a, intl, char, zh and none are"),
            )),
            other => Err(MetricError::option(
                "bleu",
                format!("unknown tokenizer {other:?} (expected 13a, intl, char, zh or none)"),
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

/// sacreBLEU's `zh`: the line stripped (Python's `str.strip()`), a space on each side of every
/// Chinese character, then the `TokenizerRegexp` rules on exactly that (no 13a replacements, no
/// padding).
fn rules_zh<'s>(line: &str, sc: &'s mut Scratch13a) -> &'s str {
    let mut spaced = String::with_capacity(line.len() * 2);
    for c in line.trim_matches(is_py_space).chars() {
        if is_chinese_char(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let seen = rule1_13a(&spaced, &mut sc.a, false, false).unwrap_or(!0);
    regexp_rest_str(sc, seen)
}

/// sacreBLEU's `_UCODE_RANGES` test, `start <= c <= end` on Python strings. Two of its bounds
/// are written `u'\u20000'` and `u'\u2f800'` (meant as code points above U+FFFF, they are a
/// 4-digit escape and a digit), so as string comparisons those ranges cover U+2001..=U+2A6D
/// and U+2F81..=U+2FA1; sacreBLEU's scores follow that, and so does this.
fn is_chinese_char(c: char) -> bool {
    const RANGES: [(u32, u32); 22] = [
        (0x3400, 0x4db5),
        (0x4e00, 0x9fa5),
        (0x9fa6, 0x9fbb),
        (0xf900, 0xfa2d),
        (0xfa30, 0xfa6a),
        (0xfa70, 0xfad9),
        (0x2001, 0x2a6d),
        (0x2f81, 0x2fa1),
        (0xff00, 0xffef),
        (0x2e80, 0x2eff),
        (0x3000, 0x303f),
        (0x31c0, 0x31ef),
        (0x2f00, 0x2fdf),
        (0x2ff0, 0x2fff),
        (0x3100, 0x312f),
        (0x31a0, 0x31bf),
        (0xfe10, 0xfe1f),
        (0xfe30, 0xfe4f),
        (0x2600, 0x26ff),
        (0x2700, 0x27bf),
        (0x3200, 0x32ff),
        (0x3300, 0x33ff),
    ];
    let c = c as u32;
    RANGES.iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

/// The Unicode version of the `intl` tokenizer's classes (`\\p{N}`, `\\p{P}`, `\\p{S}`) and the
/// `regex` package release they follow: the one `pip install sacrebleu==2.4.3` brings.
pub use super::intl_tables::{
    REGEX_VERSION as INTL_REGEX_VERSION, UNICODE_VERSION as INTL_UNICODE_VERSION,
};

/// A character class of the inclusive code point ranges `[start, end, ...]` of
/// [`super::intl_tables`] (`[^...]` with `negate`).
fn intl_class(ranges: &[u32], negate: bool) -> String {
    let mut class = String::from(if negate { "[^" } else { "[" });
    for r in ranges.chunks_exact(2) {
        class.push_str(&format!("\\x{{{:X}}}-\\x{{{:X}}}", r[0], r[1]));
    }
    class.push(']');
    class
}

/// sacreBLEU's `TokenizerV14International` rules, `(\P{N})(\p{P})`, `(\p{P})(\P{N})` and
/// `(\p{S})`, with the classes of the `regex` package sacreBLEU runs with
/// ([`super::intl_tables`], Unicode 18.0.0) rather than the `regex` crate's own (Unicode 16.0.0),
/// so that characters assigned since tokenize as there.
static RE_INTL: LazyLock<Vec<Sub>> = LazyLock::new(|| {
    use super::intl_tables::{NUMBER, PUNCTUATION, SYMBOL};
    let not_n = intl_class(NUMBER, true);
    let p = intl_class(PUNCTUATION, false);
    vec![
        sub(&format!("({not_n})({p})"), "$1 $2 "),
        sub(&format!("({p})({not_n})"), " $1 $2"),
        sub(&format!("({})", intl_class(SYMBOL, false)), " $1 "),
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
                let mut sc = Scratch13a::default();
                join_split(rules_13a(line, &mut sc))
            }
            SacreTokenizer::Intl => join_split(&apply_all(line.to_string(), &RE_INTL)),
            SacreTokenizer::Char => {
                let mut out = String::with_capacity(line.len() * 2);
                for (i, c) in line.chars().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push(c);
                }
                out
            }
            SacreTokenizer::Zh => {
                let mut sc = Scratch13a::default();
                join_split(rules_zh(line, &mut sc))
            }
        }
    }
}

impl SacreTokenizer {
    /// Appends the tokenized `line` to `out` (then a space) and the byte spans of its tokens in
    /// `out` to `spans`: the same tokens as splitting [`SacreTokenizer::tokenize`]'s output.
    pub(crate) fn tokens_into(
        &self,
        line: &str,
        sc: &mut Scratch13a,
        out: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) {
        match self {
            SacreTokenizer::None => push_tokens(line, out, spans),
            SacreTokenizer::T13a => super::t13a_spans::push_13a(line, sc, out, spans),
            SacreTokenizer::Intl => {
                push_tokens(&apply_all(line.to_string(), &RE_INTL), out, spans);
            }
            SacreTokenizer::Char => {
                let mut buf = [0u8; 4];
                for c in line.chars().filter(|&c| !is_py_space(c)) {
                    push_tokens(c.encode_utf8(&mut buf), out, spans);
                }
            }
            SacreTokenizer::Zh => push_tokens(rules_zh(line, sc), out, spans),
        }
    }
}

fn join_split(s: &str) -> String {
    py_split(s).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokenizers::split_spans::ascii_token_spans;

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

    /// sacreBLEU 2.4.3's `Tokenizer13a`, transcribed with the `regex` crate (whose
    /// `replace_all` has `re.sub`'s leftmost, non-overlapping semantics): the oracle for the
    /// byte-scanning implementation.
    fn tokenize_13a_regex(line: &str) -> String {
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
        let mut s = format!(" {l} ");
        for (p, rep) in [
            (r"([\{-~\[-` -&\(-\+:-@/])", " $1 "),
            (r"([^0-9])([\.,])", "$1 $2 "),
            (r"([\.,])([^0-9])", " $1 $2"),
            (r"([0-9])(-)", "$1 $2 "),
        ] {
            s = Regex::new(p)
                .expect("pattern")
                .replace_all(&s, rep)
                .into_owned();
        }
        join_split(&s)
    }

    /// One bit per code point: whether it is in the inclusive `ranges`.
    fn range_set(ranges: &[u32]) -> Vec<bool> {
        let mut set = vec![false; 0x110000];
        for r in ranges.chunks_exact(2) {
            set[r[0] as usize..=r[1] as usize].fill(true);
        }
        set
    }

    fn intl_fixture() -> serde_json::Value {
        let p = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/sacrebleu_intl_unicode.json"
        );
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    }

    #[test]
    fn intl_matches_sacrebleu_on_every_code_point_whose_class_changed() {
        // Issue 37: `Price 100\u{20c1} today` tokenized as the regex crate's Unicode 16.0.0
        // tables say (U+20C1 unassigned) instead of as sacreBLEU 2.4.3 with regex 2026.12.2
        // (Unicode 18.0.0: a currency sign, split off).
        let fx = intl_fixture();
        assert_eq!(fx["versions"]["unicode"], INTL_UNICODE_VERSION);
        assert_eq!(fx["versions"]["regex"], INTL_REGEX_VERSION);
        let cases = fx["cases"].as_array().unwrap();
        assert!(cases.len() > 500, "{}", cases.len());
        let mut sc = Scratch13a::default();
        for case in cases {
            let text = case["text"].as_str().unwrap();
            let want = case["intl"].as_str().unwrap();
            assert_eq!(SacreTokenizer::Intl.tokenize(text), want, "{case}");
            let (mut out, mut spans) = (String::new(), Vec::new());
            SacreTokenizer::Intl.tokens_into(text, &mut sc, &mut out, &mut spans);
            let toks: Vec<&str> = spans
                .iter()
                .map(|&(a, b)| &out[a as usize..b as usize])
                .collect();
            assert_eq!(toks.join(" "), want, "{case}");
        }
    }

    #[test]
    fn intl_fixture_covers_every_code_point_the_regex_crate_classes_otherwise() {
        use crate::text::tokenizers::intl_tables::{NUMBER, PUNCTUATION, SYMBOL};
        let fx = intl_fixture();
        let names = ["N", "P", "S"];
        let tables = [NUMBER, PUNCTUATION, SYMBOL];
        let ours: [Vec<bool>; 3] = std::array::from_fn(|k| range_set(tables[k]));
        // The regex crate's own classes, found in one string of every scalar value.
        let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
        let crate_sets: [Vec<bool>; 3] = std::array::from_fn(|k| {
            let mut set = vec![false; 0x110000];
            let re = Regex::new(&format!(r"\p{{{}}}", names[k])).unwrap();
            for m in re.find_iter(&all) {
                for c in m.as_str().chars() {
                    set[c as usize] = true;
                }
            }
            set
        });
        let classes = |sets: &[Vec<bool>; 3], cp: usize| -> String {
            (0..3).filter(|&k| sets[k][cp]).map(|k| names[k]).collect()
        };
        let cases: std::collections::HashMap<usize, &serde_json::Value> = fx["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["cp"].as_u64().unwrap() as usize, c))
            .collect();
        for case in cases.values() {
            let cp = case["cp"].as_u64().unwrap() as usize;
            assert_eq!(classes(&ours, cp), case["new"].as_str().unwrap(), "{case}");
        }
        for cp in 0..=0x10FFFF {
            let (now, then) = (classes(&ours, cp), classes(&crate_sets, cp));
            if now != then {
                let case = cases
                    .get(&cp)
                    .unwrap_or_else(|| panic!("U+{cp:04X} not in the fixture"));
                assert_eq!(case["old"].as_str().unwrap(), then, "{case}");
            }
        }
    }

    #[test]
    fn py_space_equals_core_on_every_char() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(
                is_py_space(c),
                hauser_core::tokenize::is_python_space(c),
                "{c:?}"
            );
        }
    }

    #[test]
    fn t13a_regex_oracle_examples() {
        for s in [
            "Hello, world! It's 3.5-4 (ok).",
            "..,,.-1-2-.a,b.c 3,4 5.6 -7 8-",
            "Mr. Smith paid $3.88 (roughly 3,36 euros).",
            "é.ü,日.1😀,-9-\u{a0}.x",
            "a<skipped>b-\nc\nd &amp;&quot;&lt;&gt; &amp;lt;",
            "",
            " ",
        ] {
            let mut sc = Scratch13a::default();
            let mut out = String::new();
            let mut spans = Vec::new();
            SacreTokenizer::T13a.tokens_into(s, &mut sc, &mut out, &mut spans);
            let toks: Vec<&str> = spans
                .iter()
                .map(|&(a, b)| &out[a as usize..b as usize])
                .collect();
            let want = tokenize_13a_regex(s);
            assert_eq!(SacreTokenizer::T13a.tokenize(s), want, "{s:?}");
            assert_eq!(toks.join(" "), want, "{s:?}");
        }
    }

    /// Token spans from the whitespace bit masks equal `str.split()`, across 64-byte chunks.
    #[test]
    fn ascii_spans_equal_py_split() {
        let mut lines = vec![String::new(), " ".repeat(130), "x".repeat(200)];
        for n in [1usize, 7, 63, 64, 65, 127, 128, 129] {
            lines.push(format!("{} {}", "a".repeat(n), "b".repeat(n)));
            lines.push(format!(
                " \t{}\x1c\x1f{} ",
                "c".repeat(n),
                "d".repeat(129 - n)
            ));
        }
        for line in &lines {
            let mut got = Vec::new();
            ascii_token_spans(line.as_bytes(), |a, b| got.push(&line[a..b]));
            assert_eq!(got, py_split(line).collect::<Vec<_>>(), "{line:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(3000))]
        #[test]
        fn t13a_bytes_equal_regex_oracle(
            s in "([a-cA-Z0-9.,\\-&<>;:!?'\"$%()/\\[\\]{}~`@^_|+= \t\n\u{a0}\u{1c}\u{85}é日😀]|&amp;|&quot;|&lt;|<skipped>|-\n|\\.\\.\\.|[0-9][.,-][0-9]){0,40}"
        ) {
            let mut sc = Scratch13a::default();
            let mut out = String::new();
            let mut spans = Vec::new();
            SacreTokenizer::T13a.tokens_into(&s, &mut sc, &mut out, &mut spans);
            let toks: Vec<&str> = spans.iter().map(|&(a, b)| &out[a as usize..b as usize]).collect();
            let want = tokenize_13a_regex(&s);
            proptest::prop_assert_eq!(SacreTokenizer::T13a.tokenize(&s), want.clone());
            proptest::prop_assert_eq!(toks.join(" "), want);
        }

        /// Lines without whitespace outside ASCII and without 13a's replacements: the ones the
        /// single scan of `t13a_spans` tokenizes (the oracle above mostly draws the others).
        #[test]
        fn t13a_scan_equals_regex_oracle(
            s in "([a-cA-Z0-9.,\\-;:!?'\"$%()/\\[\\]{}~`@^_|+= \t\u{1c}é日😀]|\\.\\.\\.|[0-9][.,-][0-9]|[.,-]{2,3}){0,40}"
        ) {
            let mut sc = Scratch13a::default();
            let mut out = String::new();
            let mut spans = Vec::new();
            SacreTokenizer::T13a.tokens_into(&s, &mut sc, &mut out, &mut spans);
            let toks: Vec<&str> = spans.iter().map(|&(a, b)| &out[a as usize..b as usize]).collect();
            proptest::prop_assert_eq!(toks.join(" "), tokenize_13a_regex(&s));
        }
    }
}
