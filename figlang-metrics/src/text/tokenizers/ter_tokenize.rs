//! The Tercom normalisation of sacreBLEU 2.4.3 (`TercomTokenizer`, after Tercom's
//! `Normalizer.java`), hand-written instead of a chain of regular-expression passes.
//!
//! Each step below reproduces one `re.sub` of the reference with its scanning order: Python
//! substitutes leftmost, non-overlapping matches, so a two-character pattern consumes both
//! characters and the next match is searched after them. The unit tests compare every step with
//! the reference's patterns run through the `regex` crate.

use super::tokenize::{is_py_space, py_split};

/// Settings of the normalisation (the four flags of [`crate::text::metrics::ter::Ter`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TercomOptions {
    pub(crate) case_sensitive: bool,
    pub(crate) normalized: bool,
    pub(crate) no_punct: bool,
    pub(crate) asian_support: bool,
}

/// ASCII characters the western step surrounds with spaces: the class
/// `[{-~[-` -&(-+:-@/]`, which includes the space itself and leaves out `'`, `,`, `-`, `.`,
/// digits and letters.
fn is_western_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// `TercomTokenizer.ASIAN_PUNCT`.
fn is_asian_punct(c: char) -> bool {
    matches!(c, '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
        | '\u{ff61}'..='\u{ff65}' | '\u{30fb}')
}

/// `TercomTokenizer.FULL_WIDTH_PUNCT`.
fn is_full_width_punct(c: char) -> bool {
    matches!(
        c,
        '\u{ff0e}'
            | '\u{ff0c}'
            | '\u{ff1f}'
            | '\u{ff1a}'
            | '\u{ff1b}'
            | '\u{ff01}'
            | '\u{ff02}'
            | '\u{ff08}'
            | '\u{ff09}'
    )
}

/// Characters `_normalize_asian` surrounds with spaces: CJK ideographs (unified, extension A,
/// compatibility), strokes, radicals, compatibility forms, the block 3200-3F22 and the Asian and
/// full-width punctuation.
fn is_asian_split(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{31c0}'..='\u{31ef}'
        | '\u{2e80}'..='\u{2eff}' | '\u{3300}'..='\u{33ff}' | '\u{f900}'..='\u{faff}'
        | '\u{fe30}'..='\u{fe4f}' | '\u{3200}'..='\u{3f22}')
        || is_asian_punct(c)
        || is_full_width_punct(c)
}

/// `_remove_punct`'s class `[\.,\?:;!\"\(\)]`.
fn is_removed_punct(c: char) -> bool {
    matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
}

/// One `re.sub` of a two-character pattern `(A)(B)`: wherever `matches(a, b)` holds at the
/// scanning position, both characters are replaced by `emit(a, b)` and scanning resumes after
/// them; otherwise the character is copied and scanning moves on by one.
fn sub_pairs(
    src: &[char],
    out: &mut Vec<char>,
    matches: impl Fn(char, char) -> bool,
    emit: impl Fn(char, char, &mut Vec<char>),
) {
    out.clear();
    let mut i = 0;
    while i < src.len() {
        match src.get(i + 1) {
            Some(&b) if matches(src[i], b) => {
                emit(src[i], b, out);
                i += 2;
            }
            _ => {
                out.push(src[i]);
                i += 1;
            }
        }
    }
}

/// `_normalize_general_and_western`.
fn normalize_western(s: &str) -> String {
    // Line joining and XML unescaping, in the reference's order (`&amp;lt;` becomes `<`).
    let s = s
        .replace("\n-", "")
        .replace('\n', " ")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    // Pad with spaces, then surround each punctuation character (the padding included) with
    // spaces.
    let mut padded = String::with_capacity(3 * s.len() + 6);
    for c in std::iter::once(' ')
        .chain(s.chars())
        .chain(std::iter::once(' '))
    {
        if is_western_punct(c) {
            padded.push(' ');
            padded.push(c);
            padded.push(' ');
        } else {
            padded.push(c);
        }
    }
    // Possessives. The reference's second rule, `'s$` -> ` 's`, cannot match: the padding
    // leaves a space at the end and no newline is left.
    let padded = padded.replace("'s ", " 's ");
    let mut a: Vec<char> = padded.chars().collect();
    let mut b = Vec::with_capacity(a.len() * 2);
    let is_digit = |c: char| c.is_ascii_digit();
    let is_dot_comma = |c: char| c == '.' || c == ',';
    // Period and comma unless preceded by a digit: `([^0-9])([\.,])` -> `\1 \2 `.
    sub_pairs(
        &a,
        &mut b,
        |x, y| !is_digit(x) && is_dot_comma(y),
        |x, y, o| o.extend([x, ' ', y, ' ']),
    );
    // Period and comma unless followed by a digit: `([\.,])([^0-9])` -> ` \1 \2`.
    sub_pairs(
        &b,
        &mut a,
        |x, y| is_dot_comma(x) && !is_digit(y),
        |x, y, o| o.extend([' ', x, ' ', y]),
    );
    // Dash after a digit: `([0-9])(-)` -> `\1 \2 `.
    sub_pairs(
        &a,
        &mut b,
        |x, y| is_digit(x) && y == '-',
        |x, y, o| o.extend([x, ' ', y, ' ']),
    );
    b.into_iter().collect()
}

/// `_normalize_asian`. Its three Hiragana / Katakana rules, anchored with `^` in Python's
/// non-multiline mode, can only match at the start of the text, which the western step always
/// pads with a space: they never apply, and are left out.
fn normalize_asian(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_asian_split(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// sacreBLEU's `TER._preprocess_segment`: trailing whitespace stripped, then
/// `TercomTokenizer` (lowercasing unless case-sensitive, normalisation, punctuation removal),
/// words joined by single spaces.
pub(crate) fn tercom_tokenize(opts: TercomOptions, line: &str) -> String {
    let line = line.trim_end_matches(is_py_space);
    if line.is_empty() {
        return String::new();
    }
    let mut s = if opts.case_sensitive {
        line.to_string()
    } else {
        line.to_lowercase()
    };
    if opts.normalized {
        s = normalize_western(&s);
        if opts.asian_support {
            s = normalize_asian(&s);
        }
    }
    if opts.no_punct {
        s.retain(|c| {
            !(is_removed_punct(c)
                || (opts.asian_support && (is_asian_punct(c) || is_full_width_punct(c))))
        });
    }
    let mut out = String::with_capacity(s.len());
    for w in py_split(&s) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use regex::Regex;

    /// The reference's western patterns, run with the `regex` crate (same leftmost,
    /// non-overlapping substitution as Python's `re.sub` for these patterns).
    fn western_by_regex(s: &str) -> String {
        let rules: [(&str, &str); 12] = [
            (r"\n-", ""),
            (r"\n", " "),
            (r"&quot;", "\""),
            (r"&amp;", "&"),
            (r"&lt;", "<"),
            (r"&gt;", ">"),
            (r"([{-~\[-` -&(-+:-@/])", " ${1} "),
            (r"'s ", " 's "),
            (r"'s\z", " 's"),
            (r"([^0-9])([\.,])", "${1} ${2} "),
            (r"([\.,])([^0-9])", " ${1} ${2}"),
            (r"([0-9])(-)", "${1} ${2} "),
        ];
        let mut s = s.to_string();
        for (k, (pat, rep)) in rules.iter().enumerate() {
            if k == 6 {
                s = format!(" {s} ");
            }
            let re = Regex::new(pat).expect("pattern");
            s = re.replace_all(&s, *rep).into_owned();
        }
        s
    }

    fn asian_by_regex(s: &str) -> String {
        let pats = [
            r"([\x{4e00}-\x{9fff}\x{3400}-\x{4dbf}])",
            r"([\x{31c0}-\x{31ef}\x{2e80}-\x{2eff}])",
            r"([\x{3300}-\x{33ff}\x{f900}-\x{faff}\x{fe30}-\x{fe4f}])",
            r"([\x{3200}-\x{3f22}])",
            r"([\x{3001}\x{3002}\x{3008}-\x{3011}\x{3014}-\x{301f}\x{ff61}-\x{ff65}\x{30fb}])",
            r"([\x{ff0e}\x{ff0c}\x{ff1f}\x{ff1a}\x{ff1b}\x{ff01}\x{ff02}\x{ff08}\x{ff09}])",
        ];
        let mut s = s.to_string();
        for p in pats {
            s = Regex::new(p)
                .expect("pattern")
                .replace_all(&s, " ${1} ")
                .into_owned();
        }
        s
    }

    const TEXT: &str = "([a-cA-C0-9 .,'\\-&;:!?\"()/{}\\[\\]\n\t]|'s|&amp;|&lt;|&quot;|\n-|3.5|,0|日本|。|、|（|）|ア|あ|\u{3200}|\u{3f22}|\u{ff0e}|\u{a0}){0,30}";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn western_equals_the_reference_patterns(s in TEXT) {
            prop_assert_eq!(normalize_western(&s), western_by_regex(&s));
        }

        /// Equal up to runs of spaces (characters of two overlapping classes get two).
        #[test]
        fn asian_equals_the_reference_patterns(s in TEXT) {
            let ours = normalize_asian(&s);
            let theirs = asian_by_regex(&s);
            prop_assert_eq!(py_split(&ours).collect::<Vec<_>>(), py_split(&theirs).collect::<Vec<_>>());
        }
    }

    #[test]
    fn examples() {
        let all = TercomOptions {
            case_sensitive: false,
            normalized: true,
            no_punct: false,
            asian_support: true,
        };
        assert_eq!(
            tercom_tokenize(all, "He's 3.5, (ok)... &amp;lt; 1-2 漢字です。"),
            "he 's 3.5 , ( ok ) . . . < 1 - 2 漢 字 です 。"
        );
        let plain = TercomOptions {
            normalized: false,
            no_punct: true,
            ..all
        };
        assert_eq!(tercom_tokenize(plain, "A (b), c.  \n"), "a b c");
        assert_eq!(tercom_tokenize(plain, " \t\u{3000}"), "");
    }
}
