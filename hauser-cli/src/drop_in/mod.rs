//! The drop-in commands: command lines that the users of other tools can call unchanged, with
//! the same arguments, printed lines and exit statuses. [`sacrebleu`] is sacreBLEU 2.4.3's
//! command line, [`comet`] unbabel-comet's `comet-score` and `comet-compare`, [`bert_score`]
//! bert_score's `bert-score`; `py_text` spells floats and JSON as Python does, for all of them.
//!
//! This module holds what comet's and bert_score's drop-ins share with the Python tools they
//! replace: reading a file as `[line.strip() for line in open(path)]` does.

pub mod bert_score;
pub mod comet;
pub(crate) mod py_text;
pub mod sacrebleu;

use std::path::Path;

use crate::error::CliError;
use crate::io::files;

/// The lines of a text file as Python's `[line.strip() for line in f]` reads them in text mode:
/// universal newlines (`\n`, `\r\n`, `\r`), each line stripped of Python's whitespace at both
/// ends; a final line without a line ending counts, an empty file has none. A UTF-8 byte-order
/// mark is dropped (the project's rule for every input).
///
/// # Errors
/// An unreadable file or invalid UTF-8.
pub fn python_lines(path: &Path) -> Result<Vec<String>, CliError> {
    let text = files::read_to_string(path)?;
    Ok(split_python_lines(&text))
}

/// [`python_lines`] on text already read.
pub fn split_python_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, next) = match rest.find(['\n', '\r']) {
            Some(i) if rest[i..].starts_with("\r\n") => (&rest[..i], &rest[i + 2..]),
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        };
        out.push(line.trim_matches(is_python_space).to_string());
        rest = next;
    }
    out
}

/// Python's `str.isspace()` (Unicode White_Space and the separators U+001C to U+001F).
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

pub use crate::drop_in::py_text::{fixed, Json};

/// A list of strings.
pub fn str_list(v: &[String]) -> Json {
    Json::Array(v.iter().map(|s| Json::Str(s.clone())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::drop_in::py_text::{dumps, py_float_repr};

    #[test]
    fn floats_as_python_writes_them() {
        assert_eq!(py_float_repr(0.5762255191802979), "0.5762255191802979");
        assert_eq!(py_float_repr(1.0), "1.0");
        assert_eq!(py_float_repr(-0.0), "-0.0");
        assert_eq!(py_float_repr(1e-5), "1e-05");
        assert_eq!(py_float_repr(0.0001), "0.0001");
        assert_eq!(py_float_repr(1.5e16), "1.5e+16");
        assert_eq!(py_float_repr(123456.0), "123456.0");
        assert_eq!(dumps(&Json::Float(f64::NAN), 4, false), "NaN");
        assert_eq!(fixed(f64::NAN, 4), "nan");
        assert_eq!(fixed(0.31283, 4), "0.3128");
    }

    #[test]
    fn lines_as_python_reads_them() {
        assert_eq!(split_python_lines(""), Vec::<String>::new());
        assert_eq!(split_python_lines("a \r\n\rb\n c"), vec!["a", "", "b", "c"]);
        assert_eq!(split_python_lines("x\n\n"), vec!["x", ""]);
    }

    #[test]
    fn json_layout() {
        let v = Json::Object(vec![
            (
                "a".into(),
                Json::Array(vec![Json::Float(0.5), Json::Int(2)]),
            ),
            ("b".into(), Json::Str("é\"\u{1}".into())),
            ("c".into(), Json::Array(vec![])),
        ]);
        assert_eq!(
            dumps(&v, 4, false),
            "{\n    \"a\": [\n        0.5,\n        2\n    ],\n    \"b\": \"é\\\"\\u0001\",\n    \"c\": []\n}"
        );
    }
}
