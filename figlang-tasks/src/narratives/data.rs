//! The figurative narratives data: one JSON object per line (`narrative`, `option1`,
//! `option2`, `correctanswer`, plus `idiom` or `simile`, `meaning`, and `inferences` in the
//! knowledge-enhanced files).
//!
//! Upstream hides the test labels for its leaderboard: a test file carries the constant
//! placeholder `"correctanswer": "option1"` on every line. A file whose every label is
//! `option1` is read as unlabelled ([`LabelStatus::Placeholder`]) and its labels are never
//! used; test accuracy comes only from labels a user supplies ([`read_labels`]).

use std::path::Path;

use serde::Deserialize;

use crate::error::{TaskError, TaskResult};

/// Which continuation: the first or the second option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Choice {
    /// `option1`.
    Option1,
    /// `option2`.
    Option2,
}

impl Choice {
    /// `option1` / `option2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Choice::Option1 => "option1",
            Choice::Option2 => "option2",
        }
    }

    /// 0 for `option1`, 1 for `option2`.
    pub fn index(self) -> usize {
        match self {
            Choice::Option1 => 0,
            Choice::Option2 => 1,
        }
    }

    /// Reads `option1`/`option2`, `1`/`2` (as the leaderboard files write them) or `0`/`1`
    /// when `zero_based`.
    pub fn parse(s: &str, zero_based: bool) -> Option<Self> {
        match (s.trim().trim_matches('"'), zero_based) {
            ("option1", _) | ("1", false) | ("0", true) => Some(Choice::Option1),
            ("option2", _) | ("2", false) | ("1", true) => Some(Choice::Option2),
            _ => None,
        }
    }
}

/// One narrative with its two candidate continuations.
#[derive(Debug, Clone, PartialEq)]
pub struct NarrativeItem {
    /// The story, ending in the idiom or simile (upstream marks it with `<b>...</b>`).
    pub narrative: String,
    /// The two continuations.
    pub options: [String; 2],
    /// The label as written in the file (see [`Split::labels`] for whether it is real).
    pub answer: Choice,
    /// The figurative expression (`idiom` or `simile` field), when given.
    pub expression: Option<String>,
    /// Its meaning, when given.
    pub meaning: Option<String>,
    /// Knowledge inferences (the `*_inferences_*` files), empty otherwise.
    pub inferences: Vec<String>,
}

/// Whether a split's labels are real.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum LabelStatus {
    /// The file's `correctanswer` values are labels.
    Labelled,
    /// Every line says `option1`: upstream's placeholder for hidden test labels.
    Placeholder,
}

/// A loaded file.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// The items, in file order.
    pub items: Vec<NarrativeItem>,
    /// Whether the labels are real.
    pub labels: LabelStatus,
}

impl Split {
    /// The gold choices, `None` when the file only has the placeholder.
    pub fn gold(&self) -> Option<Vec<Choice>> {
        (self.labels == LabelStatus::Labelled)
            .then(|| self.items.iter().map(|i| i.answer).collect())
    }
}

#[derive(Deserialize)]
struct Raw {
    narrative: String,
    option1: String,
    option2: String,
    correctanswer: String,
    #[serde(default)]
    idiom: Option<String>,
    #[serde(default)]
    simile: Option<String>,
    #[serde(default)]
    meaning: Option<String>,
    #[serde(default)]
    inferences: Vec<String>,
}

pub(crate) fn read_text(path: &Path) -> TaskResult<String> {
    let bytes = std::fs::read(path).map_err(|source| TaskError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let line = 1 + bytes[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        TaskError::Record {
            path: path.to_path_buf(),
            line,
            message: "invalid UTF-8".into(),
        }
    })
}

/// Non-blank lines with their 1-based numbers (a BOM is dropped, CRLF accepted).
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    every_line(text).filter(|(_, l)| !l.trim().is_empty())
}

fn parse_item(text: &str) -> Result<NarrativeItem, String> {
    let raw: Raw = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let answer = Choice::parse(&raw.correctanswer, false)
        .filter(|_| raw.correctanswer.starts_with("option"))
        .ok_or_else(|| {
            format!(
                "correctanswer {:?} is not option1 or option2",
                raw.correctanswer
            )
        })?;
    Ok(NarrativeItem {
        narrative: raw.narrative,
        options: [raw.option1, raw.option2],
        answer,
        expression: raw.idiom.or(raw.simile),
        meaning: raw.meaning,
        inferences: raw.inferences,
    })
}

/// The message of the error record answering a blank line of a per-line input.
pub const BLANK_LINE: &str = "blank line (no record)";

/// Every line of a narratives JSONL text with its number, each parsed or the error naming
/// `path` and the line: a scorer answers every line, a bad one with its error and a blank one
/// with [`BLANK_LINE`] (as `hauser score` does), so that nothing is skipped silently. A final
/// line ending does not start another line.
pub fn parse_records(text: &str, path: &Path) -> Vec<(usize, TaskResult<NarrativeItem>)> {
    every_line(text)
        .map(|(line, l)| {
            let item = if l.trim().is_empty() {
                Err(BLANK_LINE.to_string())
            } else {
                parse_item(l)
            };
            let item = item.map_err(|message| TaskError::Record {
                path: path.to_path_buf(),
                line,
                message,
            });
            (line, item)
        })
        .collect()
}

/// The records of a narratives JSONL text, one per line ([`parse_records`]), with which lines
/// are blank: a scorer answers every line, but a blank one takes no label of a labels file,
/// which has one label per record.
#[derive(Debug)]
pub struct Records {
    /// The 1-based number of each line.
    pub lines: Vec<usize>,
    /// Each line's item, or the error naming the file and line.
    pub parsed: Vec<TaskResult<NarrativeItem>>,
    /// Whether each line is blank (its error is [`BLANK_LINE`]).
    pub blank: Vec<bool>,
}

impl Records {
    /// Every line of `text` parsed ([`parse_records`]); `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Self {
        let mut records = Records {
            lines: Vec::new(),
            parsed: Vec::new(),
            blank: Vec::new(),
        };
        for (line, r) in parse_records(text, path) {
            records.blank.push(matches!(
                &r,
                Err(TaskError::Record { message, .. }) if message == BLANK_LINE
            ));
            records.lines.push(line);
            records.parsed.push(r);
        }
        records
    }

    /// The numbers of the blank lines.
    pub fn blank_lines(&self) -> Vec<usize> {
        self.lines
            .iter()
            .zip(&self.blank)
            .filter(|(_, &blank)| blank)
            .map(|(&line, _)| line)
            .collect()
    }
}

/// Every line with its 1-based number, blank ones included (a BOM is dropped, CRLF accepted).
pub(crate) fn every_line(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
}

/// Every non-blank line of `text` with its number, parsed by `parse` or the error naming
/// `path` and the line (the JSONL readers of the harnesses).
pub(crate) fn parse_lines<T>(
    text: &str,
    path: &Path,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Vec<(usize, TaskResult<T>)> {
    numbered_lines(text)
        .map(|(line, l)| {
            let item = parse(l).map_err(|message| TaskError::Record {
                path: path.to_path_buf(),
                line,
                message,
            });
            (line, item)
        })
        .collect()
}

/// Parses a whole narratives JSONL text (see [`read_split`]); `path` names it in errors.
///
/// # Errors
/// The first malformed record ([`TaskError::Record`]); a text without records.
pub fn parse_split(text: &str, path: &Path) -> TaskResult<Split> {
    // A whole-file reader: blank lines are no records (a per-line scorer answers them).
    let items = parse_lines(text, path, parse_item)
        .into_iter()
        .map(|(_, r)| r)
        .collect::<TaskResult<Vec<_>>>()?;
    split_of(items, path)
}

/// A split from parsed items: the placeholder check and the no-records error.
///
/// # Errors
/// [`TaskError::Input`] without items.
pub fn split_of(items: Vec<NarrativeItem>, path: &Path) -> TaskResult<Split> {
    if items.is_empty() {
        return Err(TaskError::Input(format!("{}: no records", path.display())));
    }
    let labels = if items.iter().all(|i| i.answer == Choice::Option1) {
        LabelStatus::Placeholder
    } else {
        LabelStatus::Labelled
    };
    Ok(Split { items, labels })
}

/// Reads a narratives JSONL file.
///
/// # Errors
/// [`TaskError::Io`] when unreadable; [`TaskError::Record`] naming the line of a record that is
/// not such an object or has a label other than `option1`/`option2`; an empty file.
pub fn read_split(path: &Path) -> TaskResult<Split> {
    parse_split(&read_text(path)?, path)
}

/// Reads one label per line: `option1`/`option2` or `1`/`2` (or `0`/`1` when `zero_based`).
/// Labels are aligned with the data by position, so a blank line inside the file is an error.
///
/// # Errors
/// [`TaskError::Record`] naming the first line that is not a label.
pub fn read_labels(path: &Path, zero_based: bool) -> TaskResult<Vec<Choice>> {
    parse_labels(&read_text(path)?, path, zero_based)
}

/// [`read_labels`] on a text already read; `path` names it in errors.
///
/// # Errors
/// As [`read_labels`].
pub fn parse_labels(text: &str, path: &Path, zero_based: bool) -> TaskResult<Vec<Choice>> {
    parse_label_lines(
        text,
        path,
        |l| Choice::parse(l, zero_based),
        "option1/option2, or 1/2",
    )
}

/// One label per line, aligned by position (so a blank line inside is an error, trailing line
/// ends are not); a BOM and CRLF are accepted. `expected` names the accepted forms in errors.
///
/// # Errors
/// [`TaskError::Record`] naming the first line `parse` refuses.
pub(crate) fn parse_label_lines<T>(
    text: &str,
    path: &Path,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
) -> TaskResult<Vec<T>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.trim_end_matches(['\n', '\r'])
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = l.trim_end_matches('\r');
            parse(l).ok_or_else(|| TaskError::Record {
                path: path.to_path_buf(),
                line: i + 1,
                message: format!("{l:?} is not a label ({expected})"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_a_record_blank_ones_included() {
        let ok =
            r#"{"narrative": "n", "option1": "a", "option2": "b", "correctanswer": "option2"}"#;
        let text = format!("\u{feff}{ok}\r\n\n   \n{ok}\n");
        let got = parse_records(&text, Path::new("d.jsonl"));
        let lines: Vec<usize> = got.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![1, 2, 3, 4]);
        assert!(got[0].1.is_ok() && got[3].1.is_ok());
        let e = got[1].1.as_ref().unwrap_err().to_string();
        assert_eq!(e, format!("d.jsonl:2: {BLANK_LINE}"));
        assert!(got[2].1.is_err());
        // The whole-file reader still skips them.
        assert_eq!(
            parse_split(&text, Path::new("d.jsonl"))
                .unwrap()
                .items
                .len(),
            2
        );
    }

    #[test]
    fn records_say_which_lines_are_blank() {
        let ok =
            r#"{"narrative": "n", "option1": "a", "option2": "b", "correctanswer": "option2"}"#;
        let records = Records::parse(&format!("{ok}\n\n{{bad\n{ok}\n"), Path::new("d.jsonl"));
        assert_eq!(records.lines, vec![1, 2, 3, 4]);
        assert_eq!(records.blank, vec![false, true, false, false]);
        assert_eq!(records.blank_lines(), vec![2]);
        assert!(records.parsed[2].is_err() && records.parsed[3].is_ok());
    }
}
