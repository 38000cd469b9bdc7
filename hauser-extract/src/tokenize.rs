//! Word tokenisation with byte offsets, so that extracted parts are exact slices of the input.

/// One token: its byte range in the input and its lowercased text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub start: usize,
    pub end: usize,
    pub lower: String,
}

/// Abbreviations that keep their final period.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "gen", "col", "capt", "lt", "sgt", "rev",
    "vs", "etc", "no", "mt", "ft", "co", "inc", "ltd",
];

/// Clitics split off the end of a word (the apostrophe may be straight or curly).
const CLITICS: &[&str] = &["n't", "'s", "'d", "'ll", "'re", "'ve", "'m"];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '\'' || c == '’' || c == '.'
}

/// Splits `text` into words and punctuation marks.
///
/// Words keep inner hyphens, apostrophes and periods ("e.g.", "coupé", "well-known"); clitics
/// ("'s", "n't") and surrounding quotes become their own tokens; every other symbol is a token.
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if !c.is_alphanumeric() {
            // Em and en dashes, quotes, brackets and the like: one token per character, except
            // runs of periods ("...") and double hyphens.
            let mut end = i + c.len_utf8();
            if c == '.' || c == '-' {
                while let Some(&(j, d)) = chars.peek() {
                    if d != c {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
            }
            push(&mut out, text, i, end);
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = chars.peek() {
            // "fellow...he": an ellipsis ends the word.
            if !is_word_char(d) || (d == '.' && text[j + 1..].starts_with('.')) {
                break;
            }
            end = j + d.len_utf8();
            chars.next();
        }
        split_word(&mut out, text, i, end);
    }
    out
}

fn push(out: &mut Vec<Token>, text: &str, start: usize, end: usize) {
    if start < end {
        out.push(Token {
            start,
            end,
            lower: text[start..end].to_lowercase().replace('’', "'"),
        });
    }
}

/// Splits trailing punctuation, sentence-final periods and clitics off a word.
fn split_word(out: &mut Vec<Token>, text: &str, start: usize, mut end: usize) {
    let mut tail = Vec::new();
    loop {
        let word = &text[start..end];
        let Some(last) = word.chars().last() else {
            break;
        };
        if last == '\'' || last == '’' || last == '-' {
            let n = last.len_utf8();
            tail.push((end - n, end));
            end -= n;
            continue;
        }
        if word.ends_with("..") {
            let run = word.len() - word.trim_end_matches('.').len();
            tail.push((end - run, end));
            end -= run;
            continue;
        }
        if last == '.' {
            let stem = word[..word.len() - 1].to_lowercase();
            // "e.g." and "U.S." keep their periods; so do known abbreviations.
            let inner_period = stem.contains('.');
            let initial = word.len() == 2 && word.starts_with(|c: char| c.is_ascii_uppercase());
            if !(inner_period || initial || ABBREVIATIONS.contains(&stem.as_str()))
                || stem.is_empty()
            {
                tail.push((end - 1, end));
                end -= 1;
                continue;
            }
        }
        break;
    }
    // A period glued between two words ("consistency.The") separates sentences.
    let word = &text[start..end];
    if let Some(p) = word.find('.') {
        let (a, b) = (&word[..p], &word[p + 1..]);
        if a.len() > 1
            && b.chars().next().is_some_and(char::is_uppercase)
            && !b.contains('.')
            && a.chars().all(char::is_alphabetic)
        {
            split_word(out, text, start, start + p);
            push(out, text, start + p, start + p + 1);
            split_word(out, text, start + p + 1, end);
            push_tail(out, text, tail);
            return;
        }
    }
    let lower = word.to_lowercase().replace('’', "'");
    let clitic = CLITICS
        .iter()
        .find(|c| lower.len() > c.len() && lower.ends_with(*c));
    match clitic {
        Some(c) => {
            // Byte length in the original text: a curly apostrophe is 3 bytes, not 1.
            let orig_len = c.len() + if word.contains('’') { 2 } else { 0 };
            let cut = end - orig_len.min(end - start - 1);
            if text.is_char_boundary(cut) {
                push(out, text, start, cut);
                push(out, text, cut, end);
            } else {
                push(out, text, start, end);
            }
        }
        None => push(out, text, start, end),
    }
    push_tail(out, text, tail);
}

fn push_tail(out: &mut Vec<Token>, text: &str, tail: Vec<(usize, usize)>) {
    for (s, e) in tail.into_iter().rev() {
        push(out, text, s, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        tokenize(text)
            .iter()
            .map(|t| text[t.start..t.end].to_string())
            .collect()
    }

    #[test]
    fn splits_punctuation_clitics_and_quotes() {
        assert_eq!(
            words("Jacob's hat, \"smutty nose\" don't (ring)."),
            [
                "Jacob", "'s", "hat", ",", "\"", "smutty", "nose", "\"", "do", "n't", "(", "ring",
                ")", "."
            ]
        );
        assert_eq!(
            words("'Hand forth your warrants,'he saith"),
            ["'", "Hand", "forth", "your", "warrants", ",", "'", "he", "saith"]
        );
        assert_eq!(
            words("Dr. Jekyll is well-known, e.g. here..."),
            [
                "Dr.",
                "Jekyll",
                "is",
                "well-known",
                ",",
                "e.g.",
                "here",
                "..."
            ]
        );
        assert_eq!(
            words("thick consistency.The tea"),
            ["thick", "consistency", ".", "The", "tea"]
        );
        assert_eq!(
            words("a huge, square coupé"),
            ["a", "huge", ",", "square", "coupé"]
        );
        assert_eq!(
            words("the mate’s shoulder"),
            ["the", "mate", "’s", "shoulder"]
        );
    }
}
