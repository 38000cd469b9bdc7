//! What the drop-in commands (`hauser comet-score`, `comet-compare`, `bert-score`) share with
//! the Python tools they replace: reading a file as `[line.strip() for line in open(path)]`
//! does, Python's `repr` of a float and `{:.Nf}` of a NaN, and `json.dump(..., indent=4,
//! ensure_ascii=False)`'s layout.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::CliError;
use crate::files;

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

/// Python's `"{:.Nf}".format(x)`: Rust's fixed notation, with `nan`, `inf` and `-inf`.
pub fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:.decimals$}")
    }
}

/// Python's `repr(float)`: the shortest digits that read back as `x`, in fixed notation for
/// exponents from -4 to 15 and as `d.ddde-05` otherwise; `json.dump` writes the same, with
/// `NaN`, `Infinity` and `-Infinity` for the non-finite values.
pub fn python_float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    // `{:e}` gives the shortest round-trip digits: `-1.2345e-5`.
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let (int, frac) = if point <= 0 {
            (
                "0".to_string(),
                "0".repeat(point.unsigned_abs() as usize) + &digits,
            )
        } else if point as usize >= digits.len() {
            (
                digits.clone() + &"0".repeat(point as usize - digits.len()),
                String::new(),
            )
        } else {
            (
                digits[..point as usize].to_string(),
                digits[point as usize..].to_string(),
            )
        };
        let frac = if frac.is_empty() { "0".into() } else { frac };
        format!("{sign}{int}.{frac}")
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{rest}e{esign}{:02}", exp.abs())
    }
}

/// A JSON value as Python's `json` module writes it (objects keep their key order).
#[derive(Debug, Clone, PartialEq)]
pub enum PyJson {
    /// A string.
    Str(String),
    /// A float, written as [`python_float`].
    Float(f64),
    /// An integer.
    Int(i64),
    /// A list.
    List(Vec<PyJson>),
    /// An object, keys in order.
    Object(Vec<(String, PyJson)>),
}

impl PyJson {
    /// The text of `json.dump(self, f, ensure_ascii=False, indent=4)`.
    pub fn dump_indented(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, level: usize) {
        let pad = |n: usize| " ".repeat(4 * n);
        match self {
            PyJson::Str(s) => write_str(out, s),
            PyJson::Float(x) => out.push_str(&python_float(*x)),
            PyJson::Int(i) => {
                let _ = write!(out, "{i}");
            }
            PyJson::List(items) if items.is_empty() => out.push_str("[]"),
            PyJson::Object(items) if items.is_empty() => out.push_str("{}"),
            PyJson::List(items) => {
                out.push('[');
                for (k, v) in items.iter().enumerate() {
                    out.push_str(if k == 0 { "\n" } else { ",\n" });
                    out.push_str(&pad(level + 1));
                    v.write(out, level + 1);
                }
                out.push('\n');
                out.push_str(&pad(level));
                out.push(']');
            }
            PyJson::Object(items) => {
                out.push('{');
                for (k, (key, v)) in items.iter().enumerate() {
                    out.push_str(if k == 0 { "\n" } else { ",\n" });
                    out.push_str(&pad(level + 1));
                    write_str(out, key);
                    out.push_str(": ");
                    v.write(out, level + 1);
                }
                out.push('\n');
                out.push_str(&pad(level));
                out.push('}');
            }
        }
    }
}

/// A JSON string as Python's encoder writes it with `ensure_ascii=False`.
fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A list of strings.
pub fn str_list(v: &[String]) -> PyJson {
    PyJson::List(v.iter().map(|s| PyJson::Str(s.clone())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_python_writes_them() {
        assert_eq!(python_float(0.5762255191802979), "0.5762255191802979");
        assert_eq!(python_float(1.0), "1.0");
        assert_eq!(python_float(-0.0), "-0.0");
        assert_eq!(python_float(1e-5), "1e-05");
        assert_eq!(python_float(0.0001), "0.0001");
        assert_eq!(python_float(1.5e16), "1.5e+16");
        assert_eq!(python_float(123456.0), "123456.0");
        assert_eq!(python_float(f64::NAN), "NaN");
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
        let v = PyJson::Object(vec![
            (
                "a".into(),
                PyJson::List(vec![PyJson::Float(0.5), PyJson::Int(2)]),
            ),
            ("b".into(), PyJson::Str("é\"\u{1}".into())),
            ("c".into(), PyJson::List(vec![])),
        ]);
        assert_eq!(
            v.dump_indented(),
            "{\n    \"a\": [\n        0.5,\n        2\n    ],\n    \"b\": \"é\\\"\\u0001\",\n    \"c\": []\n}"
        );
    }
}
