//! Word tokenisation in the style of NLTK's `word_tokenize` (Penn Treebank conventions).
//!
//! HAUSER counts informativeness in NLTK word tokens. This tokenizer follows the Treebank
//! conventions that matter for short phrases: punctuation is split off, clitics (`'s`, `n't`,
//! `'ll`, ...) become tokens of their own, and numbers keep their decimal point and thousands
//! separators.

/// Splits `text` into Treebank-style word tokens.
///
/// ```
/// use hauser_core::tokenize::word_tokenize;
/// assert_eq!(word_tokenize("a child's toy, isn't it?"),
///            vec!["a", "child", "'s", "toy", ",", "is", "n't", "it", "?"]);
/// ```
pub fn word_tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for chunk in text.split_whitespace() {
        split_chunk(chunk, &mut tokens);
    }
    tokens
}

const CLITICS: [&str; 7] = ["n't", "'s", "'m", "'d", "'ll", "'re", "'ve"];

fn split_chunk(chunk: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = chunk.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() {
            let start = i;
            while i < chars.len() && word_char(&chars, i) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            push_word(word, out);
        } else if c == '.' && chars[i..].iter().all(|&d| d == '.') && chars.len() - i >= 3 {
            out.push(chars[i..].iter().collect());
            i = chars.len();
        } else if c == '-' && chars.get(i + 1) == Some(&'-') {
            out.push("--".into());
            i += 2;
        } else if c == '\'' && starts_clitic(&chars[i..]) {
            let len = clitic_len(&chars[i..]);
            out.push(chars[i..i + len].iter().collect());
            i += len;
        } else {
            out.push(quote_token(c, out.is_empty()));
            i += 1;
        }
    }
}

/// Letters, digits, and inner `' - . ,` joining two word characters (e.g. "o'clock", "well-known",
/// "3.14", "1,000") stay in one token, except a clitic apostrophe.
fn word_char(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    if c.is_alphanumeric() {
        return true;
    }
    let prev = i.checked_sub(1).map(|p| chars[p]);
    let next = chars.get(i + 1).copied();
    match c {
        '-' => prev.is_some_and(char::is_alphanumeric) && next.is_some_and(char::is_alphanumeric),
        '.' | ',' => {
            prev.is_some_and(|p| p.is_ascii_digit()) && next.is_some_and(|n| n.is_ascii_digit())
        }
        '\'' => {
            !starts_clitic(&chars[i..])
                && prev.is_some_and(char::is_alphabetic)
                && next.is_some_and(char::is_alphabetic)
        }
        _ => false,
    }
}

fn starts_clitic(rest: &[char]) -> bool {
    clitic_len(rest) > 0
}

fn clitic_len(rest: &[char]) -> usize {
    for clitic in CLITICS.iter().filter(|c| c.starts_with('\'')) {
        let n = clitic.chars().count();
        if rest.len() >= n
            && rest[..n]
                .iter()
                .zip(clitic.chars())
                .all(|(a, b)| a.eq_ignore_ascii_case(&b))
            && rest.get(n).is_none_or(|c| !c.is_alphanumeric())
        {
            return n;
        }
    }
    0
}

fn push_word(word: String, out: &mut Vec<String>) {
    let lower = word.to_lowercase();
    if lower.len() > 3 && lower.ends_with("n't") {
        let cut = word.len() - 3;
        out.push(word[..cut].to_string());
        out.push(word[cut..].to_string());
    } else {
        out.push(word);
    }
}

fn quote_token(c: char, at_start: bool) -> String {
    match c {
        '"' if at_start => "``".into(),
        '"' => "''".into(),
        _ => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_punctuation_and_clitics() {
        assert_eq!(word_tokenize("a little boy"), vec!["a", "little", "boy"]);
        assert_eq!(word_tokenize("the wind."), vec!["the", "wind", "."]);
        assert_eq!(word_tokenize("don't"), vec!["do", "n't"]);
        assert_eq!(word_tokenize("John's dog"), vec!["John", "'s", "dog"]);
        assert_eq!(
            word_tokenize("a well-known 3.5"),
            vec!["a", "well-known", "3.5"]
        );
        assert_eq!(word_tokenize("wait..."), vec!["wait", "..."]);
        assert_eq!(word_tokenize(""), Vec::<String>::new());
    }
}
