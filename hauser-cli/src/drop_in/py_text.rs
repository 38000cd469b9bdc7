//! Python's spellings, for the drop-in commands (`hauser sacrebleu`, `comet-score`,
//! `comet-compare`, `bert-score`) whose output must equal the Python tools' byte for byte:
//! `repr(float)`, `f"{x:.Nf}"`, and `json.dumps(value, indent=N, ensure_ascii=...)`.

use std::fmt::Write as _;

/// A JSON value as Python's `json` module writes it (dicts keep their insertion order).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `None`.
    Null,
    /// A float (`NaN` and `Infinity` as Python writes them).
    Float(f64),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A dict.
    Object(Vec<(String, Json)>),
    /// A list.
    Array(Vec<Json>),
}

/// Python's `repr(float)`: the shortest digits that read back, fixed notation for exponents
/// from -4 to 15, else `1e+16` / `1.5e-05`.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let body = if exp >= 0 {
            let int_len = exp as usize + 1;
            let mut d = digits.clone();
            while d.len() < int_len {
                d.push('0');
            }
            let (int, frac) = d.split_at(int_len);
            format!("{int}.{}", if frac.is_empty() { "0" } else { frac })
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{esign}{:02}", exp.abs())
    }
}

/// Python's `f"{x:.{width}f}"` (both round the exact binary value half to even).
pub fn fixed(x: f64, width: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    // A double's exact decimal expansion ends within 1074 places, and Rust's formatter takes
    // precisions up to 65535 only: beyond the expansion, Python's digits are zeros.
    const EXACT: usize = 1100;
    if width > EXACT {
        let mut s = format!("{x:.EXACT$}");
        s.push_str(&"0".repeat(width - EXACT));
        return s;
    }
    format!("{x:.width$}")
}

fn json_string(s: &str, ascii: bool, out: &mut String) {
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
            c if (c as u32) < 0x20 || (ascii && (c as u32) > 0x7e) => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `json.dumps(value, indent=indent, ensure_ascii=ascii)`.
pub fn dumps(value: &Json, indent: usize, ascii: bool) -> String {
    let mut out = String::new();
    write_json(value, indent, ascii, 0, &mut out);
    out
}

fn write_json(v: &Json, indent: usize, ascii: bool, level: usize, out: &mut String) {
    let pad = |n: usize| " ".repeat(indent * n);
    match v {
        Json::Null => out.push_str("null"),
        Json::Float(f) if f.is_nan() => out.push_str("NaN"),
        Json::Float(f) if f.is_infinite() => {
            out.push_str(if *f > 0.0 { "Infinity" } else { "-Infinity" })
        }
        Json::Float(f) => out.push_str(&py_float_repr(*f)),
        Json::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Json::Str(s) => json_string(s, ascii, out),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&pad(level + 1));
                write_json(item, indent, ascii, level + 1, out);
            }
            out.push('\n');
            out.push_str(&pad(level));
            out.push(']');
        }
        Json::Object(items) if items.is_empty() => out.push_str("{}"),
        Json::Object(items) => {
            out.push('{');
            for (i, (k, item)) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&pad(level + 1));
                json_string(k, ascii, out);
                out.push_str(": ");
                write_json(item, indent, ascii, level + 1, out);
            }
            out.push('\n');
            out.push_str(&pad(level));
            out.push('}');
        }
    }
}
