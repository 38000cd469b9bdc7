//! sacreBLEU's 13a rules as byte passes: the replacements before them (`pre_13a`), rule 1
//! into a buffer (`rule1_13a`), rules 2-4 as non-overlapping two-byte scans (`regexp_rest`).
//! [`super::tokenize`] runs them over whole lines (and `zh` over its spaced lines),
//! [`super::t13a_spans`] over the words that need them.

/// Reusable buffers of the 13a tokenizer.
#[derive(Debug, Default)]
pub(crate) struct Scratch13a {
    pub(super) a: Vec<u8>,
    b: Vec<u8>,
}

/// Byte classes of the 13a scan: the class of 13a's first rule, `[\{-~\[-` -&\(-\+:-@/]`
/// ([`PUNCT`]), and the bytes the later rules look for ([`PERIOD_COMMA`], [`HYPHEN`]).
static CLASS_13A: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/' => PUNCT,
            b'.' | b',' => PERIOD_COMMA,
            b'-' => HYPHEN,
            _ => 0,
        };
        c += 1;
    }
    t
};
const PUNCT: u8 = 1;
pub(super) const PERIOD_COMMA: u8 = 2;
pub(super) const HYPHEN: u8 = 4;

/// 13a's first rule on ` {line} ` (`pad`; `zh` runs the rules on the line as it is) into `a`.
/// With `bail`, gives up (`None`) at the first byte that 13a's replacements before the rules
/// could touch (`<`, `&`, line feed). Otherwise the classes of the bytes seen ([`PERIOD_COMMA`],
/// [`HYPHEN`]): where one is missing, the later rules that need it cannot match.
pub(super) fn rule1_13a(line: &str, a: &mut Vec<u8>, bail: bool, pad: bool) -> Option<u8> {
    let bytes = line.as_bytes();
    // Written byte by byte into room for the longest output: most runs between two
    // punctuation marks (the space is one) are a few bytes, too short for a copy to pay.
    a.clear();
    a.resize(3 * bytes.len() + 6, b' ');
    // The leading space is in the class itself: ` ` -> `   `.
    let mut o = if pad { 3 } else { 0 };
    let mut seen = 0u8;
    for &c in bytes {
        let class = CLASS_13A[usize::from(c)];
        seen |= class;
        if class == PUNCT {
            if bail && (c == b'<' || c == b'&') {
                return None;
            }
            // The spaces around it are there already.
            a[o + 1] = c;
            o += 3;
        } else {
            if bail && c == b'\n' {
                return None;
            }
            a[o] = c;
            o += 1;
        }
    }
    a.truncate(if pad { o + 3 } else { o });
    Some(seen)
}

#[inline]
fn is_period_comma(c: u8) -> bool {
    c == b'.' || c == b','
}

/// One left-to-right, non-overlapping pass of a two-character `re.sub`: where `hit(x, y)`,
/// `emit` writes the replacement and the scan resumes after `y`. Every hit has a byte with
/// `trigger` at offset `k` (0: `x`, 1: `y`), so the stretch before the next trigger, where no
/// hit can start, is copied in one piece.
#[inline]
fn pair_pass(
    src: &[u8],
    dst: &mut Vec<u8>,
    k: usize,
    trigger: impl Fn(u8) -> bool,
    hit: impl Fn(u8, u8) -> bool,
    emit: impl Fn(&mut Vec<u8>, u8, u8),
) {
    dst.clear();
    let mut i = 0;
    while i < src.len() {
        let Some(pos) = src
            .get(i + k..)
            .and_then(|t| t.iter().position(|&c| trigger(c)))
        else {
            dst.extend_from_slice(&src[i..]);
            return;
        };
        let p = i + pos;
        dst.extend_from_slice(&src[i..p]);
        i = p;
        if i + 1 < src.len() && hit(src[i], src[i + 1]) {
            emit(dst, src[i], src[i + 1]);
            i += 2;
        } else {
            dst.push(src[i]);
            i += 1;
        }
    }
}

/// sacreBLEU's `TokenizerRegexp` rules on ` {line} `, as byte scans with the same
/// non-overlapping left-to-right semantics as its four `re.sub` calls:
/// `([\{-~\[-` -&\(-\+:-@/])` -> ` \1 `, `([^0-9])([\.,])` -> `\1 \2 `,
/// `([\.,])([^0-9])` -> ` \1 \2`, `([0-9])(-)` -> `\1 \2 `.
///
/// Working on UTF-8 bytes is exact: every character a rule tests for is ASCII, ASCII bytes never
/// occur inside a multi-byte character, a class like `[^0-9]` is true both for a multi-byte
/// character and for its last (or first) byte, and a multi-byte character's inner bytes never
/// complete a match, so the passes match at the same places and write the same bytes.
/// Spaces are inserted only next to ASCII bytes, so the output stays valid UTF-8.
///
/// `line` is the raw line: 13a's replacements ([`pre_13a`]) are applied first where they could
/// change anything.
pub(super) fn rules_13a<'s>(line: &str, sc: &'s mut Scratch13a) -> &'s str {
    let seen = match rule1_13a(line, &mut sc.a, true, true) {
        Some(seen) => seen,
        None => rule1_13a(&pre_13a(line), &mut sc.a, false, true).unwrap_or(!0),
    };
    regexp_rest_str(sc, seen)
}

/// The three `TokenizerRegexp` rules after the first, from `sc.a` (rule 1's output, which has
/// the byte classes `seen`): rules 2 and 3 need a period or comma, rule 4 a hyphen; the rules
/// that cannot match are skipped.
pub(super) fn regexp_rest_str(sc: &mut Scratch13a, seen: u8) -> &str {
    std::str::from_utf8(regexp_rest(sc, seen))
        .expect("13a rules insert ASCII spaces at character boundaries only")
}

/// [`regexp_rest_str`]'s bytes.
pub(super) fn regexp_rest(sc: &mut Scratch13a, seen: u8) -> &[u8] {
    let (a, b) = (&mut sc.a, &mut sc.b);
    if seen & PERIOD_COMMA != 0 {
        pair_pass(
            a,
            b,
            1,
            is_period_comma,
            |x, y| !x.is_ascii_digit() && is_period_comma(y),
            |o, x, y| o.extend_from_slice(&[x, b' ', y, b' ']),
        );
        pair_pass(
            b,
            a,
            0,
            is_period_comma,
            |x, y| is_period_comma(x) && !y.is_ascii_digit(),
            |o, x, y| o.extend_from_slice(&[b' ', x, b' ', y]),
        );
    }
    if seen & HYPHEN != 0 {
        pair_pass(
            a,
            b,
            1,
            |c| c == b'-',
            |x, y| x.is_ascii_digit() && y == b'-',
            |o, x, y| o.extend_from_slice(&[x, b' ', y, b' ']),
        );
        b
    } else {
        a
    }
}

/// 13a's replacements before the rules (`<skipped>`, line breaks, four HTML entities).
pub(super) fn pre_13a(line: &str) -> String {
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
    l
}
