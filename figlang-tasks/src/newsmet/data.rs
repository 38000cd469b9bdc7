//! NewsMet's CSV files: `Text,label[,sample_type]` (the `*_goldplus.csv` splits) and the custom
//! test sets with a leading index column (`Unnamed: 0,Text,label`, `id,Text,label`); columns are
//! found by header name. Label 1 = metaphorical, 0 = literal.

use std::path::Path;

use crate::error::{TaskError, TaskResult};

/// Whether a row is an original headline or a generated variant of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SampleType {
    /// An annotated headline (`gold`, and every row of files without the column).
    Gold,
    /// A headline with its focus verb replaced by a candidate (`gold_plus`).
    GoldPlus,
}

/// One headline.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    /// 1-based line of the record's start in the file (header = line 1).
    pub line: usize,
    /// The headline.
    pub text: String,
    /// 1 = metaphorical, 0 = literal.
    pub label: u8,
    /// Gold or gold_plus.
    pub sample_type: SampleType,
}

/// Parses a NewsMet CSV text; `path` names it in errors. A BOM and CRLF are accepted.
///
/// # Errors
/// [`TaskError::Record`] naming the line of a malformed record (a label other than 0/1, an
/// unknown sample type); [`TaskError::Input`] without a `Text` or `label` column.
pub fn parse_csv(text: &str, path: &Path) -> TaskResult<Vec<Headline>> {
    let (headers, records) = csv_table(text, path)?;
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let (t, l) = match (col("Text"), col("label")) {
        (Some(t), Some(l)) => (t, l),
        _ => {
            return Err(TaskError::Input(format!(
                "{}: needs the columns Text and label, found {:?}",
                path.display(),
                headers.iter().collect::<Vec<_>>()
            )))
        }
    };
    let s = col("sample_type");
    let mut out = Vec::new();
    for (line, rec) in records {
        let bad = |message: String| TaskError::Record {
            path: path.to_path_buf(),
            line,
            message,
        };
        let label = match rec.get(l).map(str::trim) {
            Some("0") => 0,
            Some("1") => 1,
            Some(other) => return Err(bad(format!("label {other:?} is not 0 or 1"))),
            None => return Err(bad("no label (the row is short)".into())),
        };
        let sample_type = match s.and_then(|s| rec.get(s)).map(str::trim) {
            None | Some("gold") => SampleType::Gold,
            Some("gold_plus") => SampleType::GoldPlus,
            Some(other) => {
                return Err(bad(format!(
                    "sample_type {other:?} is not gold or gold_plus"
                )))
            }
        };
        out.push(Headline {
            line,
            text: rec.get(t).unwrap_or("").to_string(),
            label,
            sample_type,
        });
    }
    Ok(out)
}

/// A CSV text's header and records, each with its line (a BOM and CRLF accepted).
///
/// # Errors
/// [`TaskError::Record`] naming the line of a malformed record.
fn csv_table(
    text: &str,
    path: &Path,
) -> TaskResult<(csv::StringRecord, Vec<(usize, csv::StringRecord)>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // csv counts a CRLF record end as the start of a new line only after its LF; normalised,
    // the positions are the file's line numbers.
    let text = text.replace("\r\n", "\n");
    let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let bad_csv = |line: usize, e: &csv::Error| TaskError::Record {
        path: path.to_path_buf(),
        line,
        message: e.to_string(),
    };
    let headers = rdr.headers().map_err(|e| bad_csv(1, &e))?.clone();
    let mut records = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| bad_csv(e.position().map_or(0, |p| p.line() as usize), &e))?;
        records.push((rec.position().map_or(0, |p| p.line() as usize), rec));
    }
    Ok((headers, records))
}

/// One column of a CSV text (by header name), each value with its line: what a classifier is
/// run on (`hauser classify`).
///
/// # Errors
/// [`TaskError::Input`] without that column; [`TaskError::Record`] for a malformed record.
pub fn csv_column(text: &str, path: &Path, column: &str) -> TaskResult<Vec<(usize, String)>> {
    let (headers, records) = csv_table(text, path)?;
    let col = headers
        .iter()
        .position(|h| h.trim() == column)
        .ok_or_else(|| {
            TaskError::Input(format!(
                "{}: no column {column:?} in {:?}",
                path.display(),
                headers.iter().collect::<Vec<_>>()
            ))
        })?;
    Ok(records
        .into_iter()
        .map(|(line, rec)| (line, rec.get(col).unwrap_or("").to_string()))
        .collect())
}

/// Reads one label (0 or 1) per line of a prediction file, aligned with the data rows.
///
/// # Errors
/// [`TaskError::Record`] naming the first line that is not 0 or 1.
pub fn parse_labels(text: &str, path: &Path) -> TaskResult<Vec<u8>> {
    crate::narratives::data::parse_label_lines(
        text,
        path,
        |l| match l.trim() {
            "0" => Some(0),
            "1" => Some(1),
            _ => None,
        },
        "0 or 1",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_layouts_and_names_bad_lines() {
        let p = Path::new("x.csv");
        let a = parse_csv(
            "\u{feff}Text,label,sample_type\r\n\"A, b\",1,gold\r\nC d,0,gold_plus\r\n",
            p,
        )
        .unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!((a[0].text.as_str(), a[0].label, a[0].line), ("A, b", 1, 2));
        assert_eq!(a[1].line, 3);
        assert_eq!(a[1].sample_type, SampleType::GoldPlus);
        let b = parse_csv("id,Text,label\n7,Hi there,0\n", p).unwrap();
        assert_eq!(
            (b[0].text.as_str(), b[0].sample_type),
            ("Hi there", SampleType::Gold)
        );
        let e = parse_csv("Text,label\nok,0\nbad,2\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.csv:3:"), "{e}");
        // Issue 29: the value is printed plainly, not as `Some("abc")`.
        let e = parse_csv("Text,label\nbad,abc\n", p)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "x.csv:2: label \"abc\" is not 0 or 1");
        assert!(parse_csv("a,b\n1,2\n", p).is_err());
        assert_eq!(parse_labels("1\n0\r\n", p).unwrap(), vec![1, 0]);
        assert!(parse_labels("1\n\n0\n", p)
            .unwrap_err()
            .to_string()
            .starts_with("x.csv:2:"));
    }
}
