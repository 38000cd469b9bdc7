//! sacreBLEU's 13a tokens as spans of the line itself, in one scan.
//!
//! The four `TokenizerRegexp` rules only ever insert ASCII spaces, so every token of their output
//! is a run of the line's own bytes and the line needs no rewriting: only where the spaces go.
//! Rule 1 isolates each of its punctuation marks, so between whitespace and those marks lie
//! *words*; rules 2-4 act only inside a word that holds a period, comma or hyphen, and what they
//! do there depends on the word alone. Their patterns test the character before a period or comma
//! (`[^0-9]`), after one (`[^0-9]`) or before a hyphen (`[0-9]`), and a word is bounded on each
//! side by whitespace or by one of rule 1's spaces: never a digit, period, comma or hyphen, never
//! the second character of an earlier match that a word's first character could need. So each
//! such word is run through the rules on its own, between two spaces, exactly as
//! [`super::tokenize`]'s passes run them on the whole line; every other word is one token.
//! `t13a_bytes_equal_regex_oracle` checks the result against a transcription of the regular
//! expressions.

use super::rules_13a::{pre_13a, regexp_rest, rules_13a, Scratch13a, HYPHEN, PERIOD_COMMA};
use super::split_spans::{ascii_token_spans, push_tokens};
use hauser_core::tokenize::is_python_space as is_py_space;

/// Whitespace of Python's `str.split()` among ASCII bytes.
const SPACE: u8 = 8;
/// One of rule 1's marks other than the space: a token of its own.
const MARK: u8 = 16;

/// Byte classes of the scan: [`SPACE`], [`MARK`], [`PERIOD_COMMA`], [`HYPHEN`], 0 for the rest
/// (letters, digits, the apostrophe, other control bytes, every byte of a multi-byte character).
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = if b == b' ' || (b >= b'\t' && b <= b'\r') || (b >= 0x1c && b <= 0x1f) {
            SPACE
        } else {
            match b {
                b'{'..=b'~' | b'['..=b'`' | b'!'..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/' => MARK,
                b'.' | b',' => PERIOD_COMMA,
                b'-' => HYPHEN,
                _ => 0,
            }
        };
        c += 1;
    }
    t
};

/// Appends `line` to `out` (then a space) and the spans in `out` of its 13a tokens to `spans`:
/// the tokens of [`SacreTokenizer::T13a`](super::tokenize::SacreTokenizer::T13a).
pub(super) fn push_13a(
    line: &str,
    sc: &mut Scratch13a,
    out: &mut String,
    spans: &mut Vec<(u32, u32)>,
) {
    match Plan::of(line) {
        Plan::Passes => push_tokens(rules_13a(line, sc), out, spans),
        Plan::Rewrite(pre) => push_13a(&pre, sc, out, spans),
        Plan::Scan => {
            let base = out.len();
            out.push_str(line);
            out.push(' ');
            scan_13a(line.as_bytes(), sc, |a, b| {
                spans.push(((base + a) as u32, (base + b) as u32));
            });
        }
    }
}

/// What a line needs before its tokens can be read.
enum Plan {
    /// The single scan applies to the line as it is.
    Scan,
    /// 13a's replacements change it; the scan applies to the result.
    Rewrite(String),
    /// The passes over the whole line (whitespace outside ASCII, which splits too, or
    /// replacements that leave a `<`, `&` or line feed behind).
    Passes,
}

impl Plan {
    fn of(line: &str) -> Plan {
        let bytes = line.as_bytes();
        // 13a's replacements before the rules (`<skipped>`, line breaks, HTML entities): where
        // one could apply, the line is rewritten first (rare in practice).
        let special = |c: u8| c == b'<' || c == b'&' || c == b'\n';
        if bytes.iter().any(|&c| special(c)) {
            let pre = pre_13a(line);
            return if pre.bytes().any(special) {
                Plan::Passes
            } else {
                match Plan::of(&pre) {
                    Plan::Scan => Plan::Rewrite(pre),
                    other => other,
                }
            };
        }
        if !bytes.is_ascii() && line.chars().any(|c| !c.is_ascii() && is_py_space(c)) {
            return Plan::Passes;
        }
        Plan::Scan
    }
}

/// The single scan (see the module's documentation) of a line the [`Plan`] allows: calls
/// `emit(start, end)` for each token's span in `bytes`, in order.
fn scan_13a(bytes: &[u8], sc: &mut Scratch13a, mut emit: impl FnMut(usize, usize)) {
    let mut i = 0;
    while i < bytes.len() {
        let class = CLASS[usize::from(bytes[i])];
        if class == SPACE {
            i += 1;
        } else if class == MARK {
            emit(i, i + 1);
            i += 1;
        } else {
            let start = i;
            let mut seen = 0u8;
            while i < bytes.len() {
                let c = CLASS[usize::from(bytes[i])];
                if c & (SPACE | MARK) != 0 {
                    break;
                }
                seen |= c;
                i += 1;
            }
            if seen == 0 {
                emit(start, i);
            } else {
                word_13a(&bytes[start..i], seen, sc, |a, b| {
                    emit(start + a, start + b)
                });
            }
        }
    }
}

/// Rules 2-4 on one word that holds a period, comma or hyphen (`seen`: which), between two
/// spaces; calls `f` with the span in the word of each token of the result.
fn word_13a(word: &[u8], seen: u8, sc: &mut Scratch13a, mut f: impl FnMut(usize, usize)) {
    // The common case, a word that ends a clause (`late,`, `1984.`): one period or comma, last.
    // Before a space it matches rule 3 (or rule 2 first, after a non-digit) either way, so it
    // is a token of its own and the rest of the word, without any mark, is one token.
    if let [rest @ .., last] = word {
        if seen == PERIOD_COMMA
            && !rest.is_empty()
            && (*last == b'.' || *last == b',')
            && rest.iter().all(|&c| CLASS[usize::from(c)] == 0)
        {
            f(0, rest.len());
            f(rest.len(), word.len());
            return;
        }
    }
    let a = &mut sc.a;
    a.clear();
    a.push(b' ');
    a.extend_from_slice(word);
    a.push(b' ');
    // The rules only insert spaces into a word without any, so the k-th token of the result is
    // the next `len` bytes of the word.
    let mut at = 0;
    ascii_token_spans(regexp_rest(sc, seen), |s, e| {
        f(at, at + (e - s));
        at += e - s;
    });
}
