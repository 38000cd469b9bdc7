//! BERTScore baseline files (`rescale_with_baseline`): `bert_score`'s CSV of one row per layer,
//! `LAYER,P,R,F`, read whole and checked, so that a damaged file is refused with its line
//! instead of rescaling every score into NaN (a value of 1 divides by zero) or reading the
//! wrong layer's row.

use thiserror::Error;

use crate::neural::greedy::Prf;

/// Baseline values of one layer, for rescaling `(x - b) / (1 - b)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Baseline {
    /// Baseline precision.
    pub precision: f64,
    /// Baseline recall.
    pub recall: f64,
    /// Baseline F1.
    pub f1: f64,
}

/// A malformed baseline file, or one without the layer asked for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct BaselineError {
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn bad(line: usize, message: impl Into<String>) -> BaselineError {
    BaselineError {
        line,
        message: message.into(),
    }
}

impl Baseline {
    /// Reads every row of a baseline file in `bert_score`'s format: a header `LAYER,P,R,F`
    /// (case aside), then one row per layer from layer 0, blank lines skipped (pandas does).
    /// `bert_score` picks a layer's row by position, so each row's `LAYER` must be its
    /// position; the three values are mean cosine similarities, finite and strictly between
    /// -1 and 1 (at 1, rescaling divides by zero).
    ///
    /// # Errors
    /// [`BaselineError`] with the line of the first problem.
    pub fn parse_all(text: &str) -> Result<Vec<Self>, BaselineError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.trim().is_empty());
        let (n, header) = lines.next().ok_or_else(|| bad(1, "empty baseline file"))?;
        let cols: Vec<String> = header.split(',').map(|c| c.trim().to_uppercase()).collect();
        if cols != ["LAYER", "P", "R", "F"] {
            return Err(bad(
                n,
                format!("expected the header LAYER,P,R,F, got {header:?}"),
            ));
        }
        let mut rows = Vec::new();
        for (n, row) in lines {
            let fields: Vec<&str> = row.split(',').map(str::trim).collect();
            if fields.len() != 4 {
                return Err(bad(
                    n,
                    format!("{} columns where LAYER,P,R,F has 4: {row:?}", fields.len()),
                ));
            }
            let layer = rows.len();
            if fields[0].parse::<usize>() != Ok(layer) {
                return Err(bad(
                    n,
                    format!(
                        "LAYER {:?} where the row of layer {layer} is expected (rows are layers 0, 1, 2... in order)",
                        fields[0]
                    ),
                ));
            }
            let mut values = [0.0; 3];
            for (v, (name, text)) in values
                .iter_mut()
                .zip(["P", "R", "F"].iter().zip(&fields[1..]))
            {
                let x: f64 = text
                    .parse()
                    .map_err(|_| bad(n, format!("{name} {text:?} is not a number")))?;
                if !(x.is_finite() && x > -1.0 && x < 1.0) {
                    return Err(bad(
                        n,
                        format!("{name} {text:?} is not a mean cosine similarity strictly between -1 and 1"),
                    ));
                }
                *v = x;
            }
            rows.push(Self {
                precision: values[0],
                recall: values[1],
                f1: values[2],
            });
        }
        if rows.is_empty() {
            return Err(bad(n, "a header without rows"));
        }
        Ok(rows)
    }

    /// The row of `layer` of a baseline file, after checking the whole file
    /// ([`Baseline::parse_all`]).
    ///
    /// # Errors
    /// [`BaselineError`] when the file is malformed or has no row for `layer`.
    pub fn parse(text: &str, layer: usize) -> Result<Self, BaselineError> {
        let rows = Self::parse_all(text)?;
        rows.get(layer).copied().ok_or_else(|| {
            bad(
                text.lines().count(),
                format!(
                    "no row for layer {layer}: the file has layers 0 to {}",
                    rows.len() - 1
                ),
            )
        })
    }

    /// Rescales a score.
    pub fn rescale(&self, s: Prf) -> Prf {
        let r = |x: f64, b: f64| (x - b) / (1.0 - b);
        Prf {
            precision: r(s.precision, self.precision),
            recall: r(s.recall, self.recall),
            f1: r(s.f1, self.f1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_rows_and_rescaling() {
        let text = "LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.5,0.5,0.5\n";
        let b = Baseline::parse(text, 1).unwrap();
        let s = b.rescale(Prf {
            precision: 0.75,
            recall: 1.0,
            f1: 0.5,
        });
        assert_eq!((s.precision, s.recall, s.f1), (0.5, 1.0, 0.0));
        let e = Baseline::parse(text, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: no row for layer 2: the file has layers 0 to 1"
        );
        assert!(Baseline::parse("LAYER,P\n0,1\n", 0).is_err());
    }

    #[test]
    fn damaged_rows_are_refused_with_their_line() {
        let head = "LAYER,P,R,F\n0,0.1,0.2,0.3\n";
        let cases = [
            // A value of 1 made every rescaled score NaN (null in JSON).
            ("2,1,1,1", "line 3: LAYER \"2\" where the row of layer 1"),
            ("1,1,1,1", "line 3: P \"1\" is not a mean cosine similarity"),
            ("1,0.5,0.5", "line 3: 3 columns where LAYER,P,R,F has 4"),
            ("1,0.5,0.5,0.5,0.5", "line 3: 5 columns"),
            (
                "1,0.5,nan,0.5",
                "line 3: R \"nan\" is not a mean cosine similarity",
            ),
            ("1,0.5,0.5,inf", "line 3: F \"inf\""),
            ("1,0.5,x,0.5", "line 3: R \"x\" is not a number"),
            ("1,0.5,,0.5", "line 3: R \"\" is not a number"),
        ];
        for (row, want) in cases {
            let e = Baseline::parse(&format!("{head}{row}\n"), 0).unwrap_err();
            assert!(e.to_string().starts_with(want), "{row}: {e}");
        }
        // A file without its header would shift every layer by one row.
        let e = Baseline::parse("0,0.1,0.2,0.3\n1,0.5,0.5,0.5\n", 0).unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: expected the header"),
            "{e}"
        );
        assert_eq!(Baseline::parse("LAYER,P,R,F\n", 0).unwrap_err().line, 1);
        // Blank lines are skipped and do not shift line numbers.
        let e = Baseline::parse(&format!("{head}\n1,0.5,0.5\n"), 0).unwrap_err();
        assert_eq!(e.line, 4);
    }
}
