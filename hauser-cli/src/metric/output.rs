//! The output of the `hauser metric` paths that are not registry text metrics (WMD and the
//! neural metrics), in the same `--format`s as the text metrics: `plain`/`text` (one number per
//! line with `--sentence`, else the corpus JSON line), `json`/`jsonl` (with `--sentence`: one
//! object per hypothesis with `score`, the metric's per-line fields and the signature; without:
//! the corpus line, which already carries every statistic these metrics have).
//!
//! JSON has no infinity or NaN: a non-finite value is written as `null` in every JSON output
//! (serde_json's rule, used by every JSON writer of the CLI); the plain output spells it as
//! Python does (`inf`, `-inf`, `nan`), so that `float()` reads it back.

use std::io::Write;

use serde_json::{json, Map, Value};

use crate::error::CliError;

/// What a metric computed: one score per line, optional per-line fields, the corpus line.
#[derive(Debug, Clone)]
pub struct Scored {
    /// One score per hypothesis.
    pub scores: Vec<f64>,
    /// Per-line fields printed next to `score` by `--sentence --format jsonl` (empty: none).
    pub details: Vec<Map<String, Value>>,
    /// The corpus JSON line, signature included.
    pub corpus: Value,
    /// The signature of the per-line scores.
    pub signature: String,
}

/// A float as `--sentence` prints it: `inf`, `-inf` and `nan` as Python spells them, otherwise
/// Rust's shortest round-trip digits (`1`, not Python's `1.0`; see [`crate::drop_in::py_text`] for
/// Python's `repr`).
pub fn python_float(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        x.to_string()
    }
}

/// Whether `format` asks for the JSON records (`json` or `jsonl`) rather than the plain output.
pub fn detailed(format: &str) -> bool {
    matches!(format, "json" | "jsonl")
}

/// Writes `scored` as `--sentence` and `--format` ask.
///
/// # Errors
/// An unwritable output.
pub fn write(
    scored: &Scored,
    sentence: bool,
    format: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let io = |e| CliError::io("<stdout>", e);
    if !sentence {
        return writeln!(out, "{}", scored.corpus).map_err(io);
    }
    if !detailed(format) {
        for s in &scored.scores {
            writeln!(out, "{}", python_float(*s)).map_err(io)?;
        }
        return Ok(());
    }
    for (i, s) in scored.scores.iter().enumerate() {
        let mut line = Map::new();
        // json! turns a non-finite float into null.
        line.insert("score".into(), json!(s));
        if let Some(more) = scored.details.get(i) {
            line.extend(more.clone());
        }
        line.insert("signature".into(), json!(scored.signature));
        writeln!(out, "{}", Value::Object(line)).map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_are_null_in_json_and_pythonic_in_text() {
        let scored = Scored {
            scores: vec![0.5, f64::INFINITY, f64::NAN],
            details: Vec::new(),
            corpus: json!({"score": f64::NAN}),
            signature: "sig".into(),
        };
        let mut plain = Vec::new();
        write(&scored, true, "plain", &mut plain).unwrap();
        assert_eq!(String::from_utf8(plain).unwrap(), "0.5\ninf\nnan\n");
        let mut jsonl = Vec::new();
        write(&scored, true, "jsonl", &mut jsonl).unwrap();
        let text = String::from_utf8(jsonl).unwrap();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["signature"], "sig");
        }
        assert!(text.contains("\"score\":null"), "{text}");
        let mut corpus = Vec::new();
        write(&scored, false, "json", &mut corpus).unwrap();
        assert_eq!(String::from_utf8(corpus).unwrap(), "{\"score\":null}\n");
    }
}
