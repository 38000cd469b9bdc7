//! Python's `str.split()` as token spans: whitespace-separated tokens of a line recorded as
//! byte ranges of one text, for the BLEU statistics that intern them.

/// Python's `str.split()` of `s`, appended as described at [`SacreTokenizer::tokens_into`](super::tokenize::SacreTokenizer::tokens_into):
/// `s` is copied whole, then a space, and the spans of its tokens recorded.
pub(super) fn push_tokens(s: &str, out: &mut String, spans: &mut Vec<(u32, u32)>) {
    let base = out.len();
    out.push_str(s);
    out.push(' ');
    let span = |a: usize, b: usize| ((base + a) as u32, (base + b) as u32);
    let bytes = s.as_bytes();
    if bytes.is_ascii() {
        ascii_token_spans(bytes, |a, b| spans.push(span(a, b)));
        return;
    }
    let mut start = None;
    let mut i = 0;
    while i < bytes.len() {
        let (space, width) = if bytes[i].is_ascii() {
            (
                hauser_core::tokenize::is_python_space(char::from(bytes[i])),
                1,
            )
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            (hauser_core::tokenize::is_python_space(c), c.len_utf8())
        };
        match (space, start) {
            (true, Some(st)) => {
                spans.push(span(st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
        i += width;
    }
    if let Some(st) = start {
        spans.push(span(st, bytes.len()));
    }
}

/// Calls `f(start, end)` for each whitespace-separated token of the ASCII `bytes`, in order:
/// one whitespace bit per byte, 64 bytes at a time, and the tokens' ends found by counting
/// trailing zeros instead of a branch per byte.
pub(super) fn ascii_token_spans(bytes: &[u8], mut f: impl FnMut(usize, usize)) {
    let mut start: Option<usize> = None;
    for (k, chunk) in bytes.chunks(64).enumerate() {
        let off = 64 * k;
        let mut space = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            // Python's ASCII whitespace: `\t`-`\r`, `\x1c`-`\x1f` and the space.
            let white = b == b' ' || b.wrapping_sub(b'\t') < 5 || b.wrapping_sub(0x1c) < 4;
            space |= u64::from(white) << i;
        }
        // Past the end of a short last chunk: whitespace, which ends a token there.
        if chunk.len() < 64 {
            space |= !0u64 << chunk.len();
        }
        let mut pos = 0u32;
        while pos < 64 {
            match start {
                Some(st) => {
                    let rest = space >> pos;
                    if rest == 0 {
                        break;
                    }
                    let end = pos + rest.trailing_zeros();
                    f(st, off + end as usize);
                    start = None;
                    pos = end;
                }
                None => {
                    let rest = !space >> pos;
                    if rest == 0 {
                        break;
                    }
                    let at = pos + rest.trailing_zeros();
                    start = Some(off + at as usize);
                    pos = at;
                }
            }
        }
    }
    if let Some(st) = start {
        f(st, bytes.len());
    }
}
