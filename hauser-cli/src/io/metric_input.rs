//! `hauser metric --input F`: hypotheses and references as JSON lines,
//! `{"hyp": "...", "refs": ["...", ...]}` (`"ref": "..."` for one), so that a segment may hold
//! newlines (ROUGE-Lsum's sentences) and files need not be kept line-aligned by hand.

use std::path::Path;

use serde_json::Value;

use crate::error::CliError;
use crate::io::files;

/// The hypotheses and reference lists (`refs[k][i]`, as `--ref` files give them) of a JSONL
/// file: every non-blank line one record, every record the same number of references.
///
/// # Errors
/// Unreadable file; a malformed record, or one whose number of references differs from the
/// first record's, named by file and line.
pub fn read_jsonl(path: &Path) -> Result<(Vec<String>, Vec<Vec<String>>), CliError> {
    let text = files::read_to_string(path)?;
    let bad = |line: usize, message: String| CliError::Input {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut hyps = Vec::new();
    let mut refs: Vec<Vec<String>> = Vec::new();
    let mut width: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| bad(i + 1, e.to_string()))?;
        let hyp = v
            .get("hyp")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(i + 1, "no \"hyp\" string".into()))?;
        let these: Vec<String> = match (v.get("refs"), v.get("ref")) {
            (Some(Value::Array(a)), None) => a
                .iter()
                .map(|r| r.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or_else(|| bad(i + 1, "\"refs\" must be a list of strings".into()))?,
            (None, Some(Value::String(r))) => vec![r.clone()],
            (None, None) => Vec::new(),
            _ => {
                return Err(bad(
                    i + 1,
                    "give \"refs\" (a list of strings) or \"ref\" (a string), not both".into(),
                ))
            }
        };
        match width {
            None => {
                width = Some(these.len());
                refs = vec![Vec::new(); these.len()];
            }
            Some(w) if w != these.len() => {
                return Err(bad(
                    i + 1,
                    format!(
                        "{} references, but the first record has {w} (every record needs the same number)",
                        these.len()
                    ),
                ))
            }
            Some(_) => {}
        }
        for (list, r) in refs.iter_mut().zip(these) {
            list.push(r);
        }
        hyps.push(hyp.to_string());
    }
    Ok((hyps, refs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<(Vec<String>, Vec<Vec<String>>), CliError> {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let p = dir.path().join("in.jsonl");
        std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
        read_jsonl(&p)
    }

    #[test]
    fn records_become_reference_lists() {
        let (h, r) = read(
            "\u{feff}{\"hyp\": \"a\\nb\", \"refs\": [\"x\", \"y\"]}\r\n\n{\"hyp\": \"\", \"refs\": [\"\", \"z\"]}\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(h, ["a\nb", ""]);
        assert_eq!(
            r,
            vec![
                vec!["x".to_string(), "".into()],
                vec!["y".into(), "z".into()]
            ]
        );
        let (_, r) = read("{\"hyp\": \"a\", \"ref\": \"b\"}\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r, vec![vec!["b".to_string()]]);
    }

    #[test]
    fn malformed_records_name_the_line() {
        for (text, want) in [
            (
                "{\"hyp\": \"a\", \"refs\": [\"x\"]}\n{\"hyp\": \"b\", \"refs\": []}\n",
                ":2: 0 references",
            ),
            ("{\"refs\": [\"x\"]}\n", ":1: no \"hyp\""),
            ("{\"hyp\": \"a\", \"refs\": [1]}\n", ":1: \"refs\" must be"),
            ("not json\n", ":1: "),
        ] {
            let e = read(text).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
