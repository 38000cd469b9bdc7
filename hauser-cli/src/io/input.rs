//! Reading candidate groups: JSONL (one group per line) or the original HAUSER JSON array of
//! `{"origin_sentence", "cands"}` objects, detected from the first non-blank character.
//!
//! Per-record problems (bad JSON on one line, invalid UTF-8, wrong component counts) become
//! error records carrying the line number, so the caller can report them and go on; only an
//! unreadable file or a JSON array that does not parse as a whole stops the run.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;

use hauser_core::{CandidateGroup, Components};

use crate::error::CliError;
use crate::io::files;

/// One record of the input: a parsed group, or why it could not be parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRecord {
    /// 0-based position of the record among the input's records.
    pub index: usize,
    /// 1-based line where the record starts.
    pub line: usize,
    /// The group, or the parse error message.
    pub group: Result<CandidateGroup, String>,
}

/// The two accepted input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// One JSON object per line.
    Jsonl,
    /// The original tool's JSON array of `{"origin_sentence", "cands"}`.
    HauserJson,
}

#[derive(Deserialize)]
struct JsonlGroup {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(alias = "origin_sentence")]
    literal: String,
    #[serde(alias = "cands")]
    candidates: Vec<String>,
    #[serde(default)]
    components: Option<Vec<Vec<[Option<String>; 3]>>>,
}

/// Parses one JSONL line into a group.
///
/// # Errors
/// A message describing the JSON or consistency problem.
pub fn parse_jsonl_line(line: &str) -> Result<CandidateGroup, String> {
    let raw: JsonlGroup = serde_json::from_str(line).map_err(|e| format!("invalid record: {e}"))?;
    into_group(raw)
}

fn into_group(raw: JsonlGroup) -> Result<CandidateGroup, String> {
    let id = match raw.id {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) => Some(s),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(other) => return Err(format!("\"id\" must be a string or a number, got {other}")),
    };
    let mut group = CandidateGroup::new(raw.literal, raw.candidates);
    group.id = id;
    if let Some(components) = raw.components {
        let comps = components
            .into_iter()
            .map(|list| list.into_iter().map(Components::from_triple).collect())
            .collect();
        group = group.with_components(comps).map_err(|e| e.to_string())?;
    }
    Ok(group)
}

/// Detects the format of a file from its first non-blank byte (`[` means the HAUSER array).
pub fn detect_format(head: &[u8]) -> InputFormat {
    match head.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'[') => InputFormat::HauserJson,
        _ => InputFormat::Jsonl,
    }
}

/// An opened input: its format and an iterator over its records.
pub struct Input {
    /// The detected format.
    pub format: InputFormat,
    /// Number of records when known in advance (for progress bars): JSON arrays are parsed
    /// whole, JSONL is streamed.
    pub total: Option<usize>,
    /// The records, in input order.
    pub records: Box<dyn Iterator<Item = InputRecord> + Send>,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input")
            .field("format", &self.format)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

/// The message of the error record answering a blank JSONL line.
pub const BLANK_LINE: &str = "blank line (no group)";

/// Leading whitespace looked at to tell a JSON array from JSONL; past it, the input is JSONL.
const MAX_LEADING_WHITESPACE: usize = 1 << 20;

/// Opens `path` (`-` for standard input) and detects its format. A byte-order mark is ignored;
/// JSONL is streamed line by line (CRLF accepted), a JSON array is read whole within
/// [`files::max_input_bytes`].
///
/// # Errors
/// [`CliError::Io`] when the file cannot be read; [`CliError::Input`] when a JSON array input is
/// not valid JSON or not UTF-8 as a whole; [`CliError::TooLarge`] for a JSON array above the
/// limit.
pub fn open_input(path: &Path) -> Result<Input, CliError> {
    let mut reader = files::open(path)?;
    let mut head = Vec::new();
    let format = loop {
        let buf = reader.fill_buf().map_err(|e| CliError::io(path, e))?;
        if buf.is_empty() {
            break InputFormat::Jsonl;
        }
        if let Some(i) = buf.iter().position(|b| !b.is_ascii_whitespace()) {
            let first = buf[i];
            head.extend_from_slice(&buf[..i]);
            reader.consume(i);
            break detect_format(&[first]);
        }
        let n = buf.len();
        head.extend_from_slice(buf);
        reader.consume(n);
        if head.len() > MAX_LEADING_WHITESPACE {
            break InputFormat::Jsonl;
        }
    };
    let reader = std::io::Cursor::new(head).chain(reader);
    match format {
        InputFormat::HauserJson => {
            let bytes = files::read_limited(path, reader)?;
            read_hauser_json(path, bytes)
        }
        InputFormat::Jsonl => Ok(jsonl(path, Box::new(reader))),
    }
}

/// Reads records from bytes already in memory (`path` is used in messages only); a leading
/// byte-order mark is ignored, as [`open_input`] does.
///
/// # Errors
/// As [`open_input`].
pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Input, CliError> {
    let bytes = match bytes.strip_prefix(files::BOM) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match detect_format(&bytes) {
        InputFormat::HauserJson => read_hauser_json(path, bytes),
        InputFormat::Jsonl => Ok(jsonl(path, Box::new(std::io::Cursor::new(bytes)))),
    }
}

fn jsonl(path: &Path, reader: files::InputReader) -> Input {
    Input {
        format: InputFormat::Jsonl,
        total: None,
        records: Box::new(JsonlRecords {
            path: path.to_path_buf(),
            lines: files::lines(reader),
            index: 0,
            done: false,
        }),
    }
}

struct JsonlRecords {
    path: PathBuf,
    lines: files::Lines<files::InputReader>,
    index: usize,
    done: bool,
}

impl Iterator for JsonlRecords {
    type Item = InputRecord;

    fn next(&mut self) -> Option<InputRecord> {
        if self.done {
            return None;
        }
        let (line, group) = match self.lines.next()? {
            // A read error ends the input (retrying could fail forever); it is reported as a
            // record on the line that could not be read, so that nothing is lost silently.
            Err(e) => {
                self.done = true;
                (
                    self.lines.line_number() + 1,
                    Err(format!("read error: {}: {e}", self.path.display())),
                )
            }
            Ok(files::Line { number, text }) => {
                let group = match text {
                    Ok(t) if t.trim().is_empty() => Err(BLANK_LINE.to_string()),
                    Ok(t) => parse_jsonl_line(&t),
                    Err(message) => Err(message),
                };
                (number, group)
            }
        };
        let record = InputRecord {
            index: self.index,
            line,
            group,
        };
        self.index += 1;
        Some(record)
    }
}

#[derive(Deserialize)]
struct HauserItem {
    origin_sentence: String,
    cands: Vec<String>,
}

fn read_hauser_json(path: &Path, bytes: Vec<u8>) -> Result<Input, CliError> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        CliError::Input {
            path: path.to_path_buf(),
            line: 1 + valid.iter().filter(|&&b| b == b'\n').count(),
            message: "invalid UTF-8".into(),
        }
    })?;
    let items: Vec<&RawValue> = serde_json::from_str(&text).map_err(|e| CliError::Input {
        path: path.to_path_buf(),
        line: e.line(),
        message: format!("not a valid JSON array of groups: {e}"),
    })?;
    let base = text.as_ptr() as usize;
    // Elements come in file order, so lines are counted incrementally (linear in the file size).
    let (mut counted_to, mut line) = (0usize, 1usize);
    let records: Vec<InputRecord> = items
        .iter()
        .enumerate()
        .map(|(index, raw)| {
            let offset = raw.get().as_ptr() as usize - base;
            line += text.as_bytes()[counted_to..offset]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            counted_to = offset;
            let group = serde_json::from_str::<HauserItem>(raw.get())
                .map_err(|e| {
                    format!("invalid group (expected {{\"origin_sentence\", \"cands\"}}): {e}")
                })
                .map(|item| CandidateGroup::new(item.origin_sentence, item.cands));
            InputRecord { index, line, group }
        })
        .collect();
    Ok(Input {
        format: InputFormat::HauserJson,
        total: Some(records.len()),
        records: Box::new(records.into_iter()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Vec<InputRecord> {
        from_bytes(Path::new("t"), text.as_bytes().to_vec())
            .unwrap()
            .records
            .collect()
    }

    #[test]
    fn jsonl_with_components_ids_and_blank_lines() {
        let recs = records(concat!(
            "{\"id\": \"a\", \"literal\": \"He ran.\", \"candidates\": [\"He ran like the wind.\"],",
            " \"components\": [[[\"he\", \"the wind\", \"ran\"]]]}\n",
            "\n",
            "{\"id\": 7, \"literal\": \"x\", \"candidates\": [\"y\", \"z\"]}\n",
        ));
        // One record per line: the blank line is an error record of its own.
        assert_eq!(recs.len(), 3);
        assert_eq!((recs[1].index, recs[1].line), (1, 2));
        assert_eq!(recs[1].group.as_ref().unwrap_err(), BLANK_LINE);
        let g = recs[0].group.as_ref().unwrap();
        assert_eq!(g.id.as_deref(), Some("a"));
        assert_eq!(
            g.candidates[0].components.as_ref().unwrap()[0]
                .vehicle
                .as_deref(),
            Some("the wind")
        );
        assert_eq!((recs[2].index, recs[2].line), (2, 3));
        assert_eq!(recs[2].group.as_ref().unwrap().id.as_deref(), Some("7"));
    }

    #[test]
    fn bom_and_crlf_are_accepted_in_both_formats() {
        let recs = records("\u{feff}{\"literal\": \"x\", \"candidates\": [\"y\"]}\r\n\r\n");
        assert_eq!(recs.len(), 2);
        assert!(recs[0].group.is_ok(), "{:?}", recs[0].group);
        assert_eq!(recs[1].group.as_ref().unwrap_err(), BLANK_LINE);
        let recs =
            records("\u{feff}[\r\n{\"origin_sentence\": \"a\", \"cands\": [\"b\"]}\r\n]\r\n");
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].line, 2);
        assert!(recs[0].group.is_ok());
    }

    #[test]
    fn jsonl_errors_are_records_with_lines() {
        let mut bytes = b"{\"literal\": \"x\", \"candidates\": [\"y\"]}\nnot json\n".to_vec();
        bytes.extend_from_slice(b"{\"literal\": \"\xff\", \"candidates\": []}\n");
        bytes.extend_from_slice(
            b"{\"literal\": \"x\", \"candidates\": [\"a\", \"b\"], \"components\": [[]]}\n",
        );
        bytes.extend_from_slice(b"{\"literal\": \"x\", \"candidates\": [\"a\"], \"id\": [1]}\n");
        bytes.extend_from_slice(b"{\"candidates\": [\"a\"]}\n");
        let recs: Vec<_> = from_bytes(Path::new("t"), bytes).unwrap().records.collect();
        assert_eq!(recs.len(), 6);
        assert!(recs[0].group.is_ok());
        for (rec, needle) in recs[1..].iter().zip([
            "invalid record",
            "UTF-8",
            "1 component lists for 2",
            "\"id\"",
            "literal",
        ]) {
            let err = rec.group.as_ref().unwrap_err();
            assert!(err.contains(needle), "line {}: {err}", rec.line);
        }
        assert_eq!(recs[2].line, 3);
    }

    #[test]
    fn hauser_json_array_detected_with_element_lines() {
        let text = "\n[\n {\"origin_sentence\": \"a\", \"cands\": [\"b\", \"c\"]},\n {\"origin_sentence\": 3}\n]\n";
        let input = from_bytes(Path::new("t"), text.as_bytes().to_vec()).unwrap();
        assert_eq!(input.format, InputFormat::HauserJson);
        let recs: Vec<_> = input.records.collect();
        assert_eq!(recs[0].line, 3);
        assert_eq!(recs[0].group.as_ref().unwrap().len(), 2);
        assert_eq!(recs[1].line, 4);
        assert!(recs[1].group.is_err());
    }

    #[test]
    fn broken_json_array_is_a_whole_file_error_with_line() {
        let err = from_bytes(
            Path::new("f.json"),
            b"[\n{\"origin_sentence\": \"a\",\n".to_vec(),
        )
        .unwrap_err();
        assert!(matches!(err, CliError::Input { line: 3, .. }), "{err}");
        assert!(err.to_string().starts_with("f.json:3:"));
    }
}
