//! The input/output layer every subcommand goes through, so that the small rules are the same
//! everywhere:
//!
//! - `-` names standard input for every input flag, and at most one input of a run may be `-`;
//! - a leading UTF-8 byte-order mark is removed before any parser sees the bytes, and readers
//!   accept CRLF line endings (see [`lines`]);
//! - inputs read whole into memory are checked against a limit before allocating
//!   ([`max_input_bytes`]: `HAUSER_MAX_INPUT_BYTES`, default 4 GiB, never above the memory
//!   limit of [`hauser_core::limits`], `HAUSER_MAX_MEMORY`), and reserved through
//!   [`hauser_core::limits::try_reserve`] like every other allocation sized from a file;
//! - a command declares every file it reads and writes in a [`RunFiles`] and checks them
//!   before any work ([`crate::io::run_files`]): two standard-input inputs, an output whose
//!   directory is missing or not writable, and an output that is the same file as an input
//!   (same path, symbolic or hard link, a file of a model or WordNet directory, or standard
//!   input redirected from it) are refused;
//! - regular output files are written to a temporary file in the target directory and renamed
//!   over the target only when the command succeeds ([`OutputFile`]), so an interrupted,
//!   crashed or failed run (disk full...) never leaves a truncated file where the output
//!   belongs; devices, FIFOs and terminals are written directly, never replaced.

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::Path;

use hauser_core::limits;

use crate::error::CliError;
pub use crate::io::out_file::OutputFile;
pub use crate::io::run_files::{check_single_stdin, is_stdin, Checked, RunFiles};

/// The UTF-8 encoding of U+FEFF, written at the start of files by some Windows editors.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Default limit on an input read whole into memory (and on one line): 4 GiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 4 << 30;

/// Environment variable replacing [`DEFAULT_MAX_INPUT_BYTES`]: bytes, or a number with a `K`,
/// `M`, `G` or `T` suffix, as `HAUSER_MAX_MEMORY` ([`hauser_core::limits::parse_size`]).
pub const MAX_INPUT_ENV: &str = "HAUSER_MAX_INPUT_BYTES";

/// The limit on one input read whole into memory, and on one line of a streamed input:
/// `HAUSER_MAX_INPUT_BYTES` when set, else [`DEFAULT_MAX_INPUT_BYTES`], and never more than the
/// memory limit ([`hauser_core::limits::memory_limit`]). A setting that is not a size counts as
/// unset here; [`check_settings`] refuses it when the command starts.
pub fn max_input_bytes() -> u64 {
    let set = std::env::var(MAX_INPUT_ENV)
        .ok()
        .and_then(|v| limits::parse_size(&v));
    let memory = limits::memory_limit().ok().flatten().map(|(l, _)| l);
    set.unwrap_or(DEFAULT_MAX_INPUT_BYTES)
        .min(memory.unwrap_or(u64::MAX))
}

/// Checks the size settings of the environment (`HAUSER_MAX_INPUT_BYTES`,
/// `HAUSER_MAX_MEMORY`) before a command starts, so that a typo is an error rather than a
/// limit silently left at its default.
///
/// # Errors
/// [`CliError::Usage`] naming the variable and its value.
pub fn check_settings() -> Result<(), CliError> {
    if let Ok(v) = std::env::var(MAX_INPUT_ENV) {
        if limits::parse_size(&v).is_none() {
            return Err(CliError::Usage(format!(
                "{MAX_INPUT_ENV}={v:?} is not a size (use bytes or a number with K, M, G or T, e.g. 512M)"
            )));
        }
    }
    limits::memory_limit().map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(())
}

/// Why `--vectors` cannot be standard input, in the refusal: one reason for every command.
pub const VECTORS_FROM_A_FILE: &str =
    "word vectors are read from a file (their format is detected before they are loaded, and a stream cannot be read twice)";

/// Reads up to three bytes and drops them when they are a byte-order mark; the bytes read are
/// put back in front otherwise. A short read is retried, so a BOM split across pipe writes is
/// still recognised.
fn skip_bom<R: Read>(mut reader: R) -> std::io::Result<Cursor<Vec<u8>>> {
    let mut head = Vec::with_capacity(BOM.len());
    let mut buf = [0u8; 3];
    while head.len() < BOM.len() {
        match reader.read(&mut buf[..BOM.len() - head.len()]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        if !BOM.starts_with(&head) {
            break;
        }
    }
    if head == BOM {
        head.clear();
    }
    Ok(Cursor::new(head))
}

/// A buffered reader of an input; `Send` so that parsers may move it to another thread.
pub type InputReader = Box<dyn BufRead + Send>;

/// Opens an input for streaming (`-` for standard input), without its byte-order mark.
///
/// # Errors
/// [`CliError::Io`] naming the file.
pub fn open(path: &Path) -> Result<InputReader, CliError> {
    if is_stdin(path) {
        buffered(path, std::io::stdin())
    } else {
        buffered(path, File::open(path).map_err(|e| CliError::io(path, e))?)
    }
}

/// A buffered reader of `reader`'s bytes without their byte-order mark: what [`open`] returns
/// for a file, for a source that is already open (`path` names it in errors).
///
/// # Errors
/// [`CliError::Io`] when the first bytes cannot be read.
pub fn buffered<R: Read + Send + 'static>(
    path: &Path,
    mut reader: R,
) -> Result<InputReader, CliError> {
    let head = skip_bom(&mut reader).map_err(|e| CliError::io(path, e))?;
    Ok(Box::new(BufReader::with_capacity(
        1 << 16,
        head.chain(reader),
    )))
}

/// Reads a whole input into memory (`-` for standard input), without its byte-order mark.
///
/// The size is checked against [`max_input_bytes`] before allocating (for a file, from its
/// length; for a pipe, while reading), and the buffer is reserved fallibly, so a huge input is
/// a clear error instead of an aborted process.
///
/// # Errors
/// [`CliError::Io`] naming the file; [`CliError::TooLarge`] above the limit or when the memory
/// cannot be reserved.
pub fn read_all(path: &Path) -> Result<Vec<u8>, CliError> {
    let reader = open(path)?;
    read_limited(path, reader)
}

/// Reads the rest of an opened input into memory, with the checks of [`read_all`].
///
/// # Errors
/// As [`read_all`].
pub fn read_limited<R: Read>(path: &Path, mut reader: R) -> Result<Vec<u8>, CliError> {
    let limit = max_input_bytes();
    let known = if is_stdin(path) {
        None
    } else {
        std::fs::metadata(path).ok().map(|m| m.len())
    };
    let too_large = |size: Option<u64>, reason: &str| CliError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit,
        reason: reason.to_string(),
    };
    if let Some(len) = known.filter(|&len| len > limit) {
        return Err(too_large(Some(len), "above the limit"));
    }
    let mut bytes = Vec::new();
    let want = usize::try_from(known.unwrap_or(0)).unwrap_or(usize::MAX);
    limits::try_reserve(&mut bytes, &format!("reading {}", path.display()), want)?;
    // One byte past the limit tells "exactly at the limit" from "over it" without a second pass.
    reader
        .by_ref()
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None, "above the limit"));
    }
    Ok(bytes)
}

/// Reads a whole input as text (see [`read_all`]).
///
/// # Errors
/// As [`read_all`], and [`CliError::Input`] naming the line of the first invalid UTF-8 byte.
pub fn read_to_string(path: &Path) -> Result<String, CliError> {
    utf8(path, read_all(path)?)
}

/// Reads a whole input as text with its byte-order mark, if any, kept: for the parsers that
/// drop it themselves (figlang-tasks' readers, for library users), so that a BOM is dropped
/// once and a second U+FEFF stays content, as in every other command. Limits as [`read_all`].
///
/// # Errors
/// As [`read_to_string`].
pub fn read_to_string_keeping_bom(path: &Path) -> Result<String, CliError> {
    let bytes = if is_stdin(path) {
        read_limited(path, std::io::stdin())?
    } else {
        read_limited(path, File::open(path).map_err(|e| CliError::io(path, e))?)?
    };
    utf8(path, bytes)
}

/// The text of `bytes`, or the line of their first invalid UTF-8 byte.
fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String, CliError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        CliError::Input {
            path: path.to_path_buf(),
            line,
            message: format!("invalid UTF-8 at byte {column} of the line"),
        }
    })
}

/// One line of an input: its 1-based number and its text without the line ending (`\n` or
/// `\r\n`), or where its invalid UTF-8 starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The text, or the message for a line that is not UTF-8.
    pub text: Result<String, String>,
}

/// Longest line the line readers hold in memory: a longer one is answered with an error for
/// its line and skipped without being stored (a "line" that large is not a sentence or a
/// record, and holding it could exhaust memory).
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// Iterates over the lines of a reader, every line included (blank ones too), so that callers
/// can answer each with one record; a final line without a line ending counts, an empty file
/// has no lines. Lines longer than [`MAX_LINE_BYTES`] (or [`max_input_bytes`] when lower) are
/// skipped and reported as an error for that line.
pub fn lines<R: BufRead>(reader: R) -> Lines<R> {
    lines_with_limit(reader, max_input_bytes().min(MAX_LINE_BYTES))
}

fn lines_with_limit<R: BufRead>(reader: R, max_line: u64) -> Lines<R> {
    Lines {
        reader,
        number: 0,
        buf: Vec::new(),
        max_line,
    }
}

/// The iterator of [`lines`].
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    number: usize,
    buf: Vec<u8>,
    max_line: u64,
}

impl<R> Lines<R> {
    /// The number of the last line returned (0 before the first).
    pub fn line_number(&self) -> usize {
        self.number
    }
}

/// Consumes the rest of the current line (up to and including its `\n`) without storing it.
fn skip_line<R: BufRead>(reader: &mut R) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            reader.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        reader.consume(n);
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = std::io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        self.buf.clear();
        // One byte past the limit tells a line of exactly the limit from a longer one.
        let read = (&mut self.reader)
            .take(self.max_line.saturating_add(1))
            .read_until(b'\n', &mut self.buf);
        match read {
            Ok(0) => None,
            Err(e) => Some(Err(e)),
            Ok(_) => {
                self.number += 1;
                if self.buf.len() as u64 > self.max_line && self.buf.last() != Some(&b'\n') {
                    self.buf.clear();
                    if let Err(e) = skip_line(&mut self.reader) {
                        return Some(Err(e));
                    }
                    return Some(Ok(Line {
                        number: self.number,
                        text: Err(format!(
                            "line longer than {} bytes (skipped; set HAUSER_MAX_INPUT_BYTES to change the limit)",
                            self.max_line
                        )),
                    }));
                }
                let raw = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
                let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
                let text = std::str::from_utf8(raw)
                    .map(str::to_string)
                    .map_err(|e| format!("invalid UTF-8 at byte {}", e.valid_up_to()));
                Some(Ok(Line {
                    number: self.number,
                    text,
                }))
            }
        }
    }
}

/// Refuses an output that is the same file as one of the inputs: writing it would destroy the
/// input it is computed from. Commands declare their files with [`RunFiles`] instead, which
/// does this for every output; this is the same check for one output.
///
/// # Errors
/// [`CliError::SameFile`] naming both.
pub fn check_not_an_input(output: &Path, inputs: &[&Path]) -> Result<(), CliError> {
    if is_stdin(output) {
        return Ok(());
    }
    let files = inputs
        .iter()
        .fold(RunFiles::new(), |f, p| f.input("input", p));
    files.into_checked().refuse_input(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole stream after `skip_bom`, as `open` chains it.
    fn read(mut bytes: &[u8]) -> Vec<u8> {
        let head = skip_bom(&mut bytes).unwrap();
        let mut out = Vec::new();
        head.chain(bytes).read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn a_bom_is_dropped_once_whichever_reader_drops_it() {
        // The fuzzer's newsmet_jsonl found a second U+FEFF dropped too: `read_to_string` had
        // dropped the BOM and the parser dropped the next one.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two-boms.jsonl");
        std::fs::write(&path, "\u{feff}\u{feff}{}\n").unwrap();
        assert_eq!(read_to_string(&path).unwrap(), "\u{feff}{}\n");
        let kept = read_to_string_keeping_bom(&path).unwrap();
        assert_eq!(kept, "\u{feff}\u{feff}{}\n");
        assert_eq!(kept.strip_prefix('\u{feff}'), Some("\u{feff}{}\n"));
    }

    #[test]
    fn bom_is_dropped_only_at_the_start() {
        assert_eq!(read(b"\xEF\xBB\xBFab\xEF\xBB\xBF"), b"ab\xEF\xBB\xBF");
        assert_eq!(read(b"ab\xEF"), b"ab\xEF");
        assert_eq!(read(b"\xEF\xBBx"), b"\xEF\xBBx");
        assert_eq!(read(b""), b"");
        assert_eq!(read(b"\xEF"), b"\xEF");
    }

    #[test]
    fn lines_keep_blank_lines_and_strip_crlf() {
        let got: Vec<Line> = lines(&b"a\r\n\r\n\nb\xff\nlast"[..])
            .map(|l| l.unwrap())
            .collect();
        let texts: Vec<_> = got.iter().map(|l| l.text.clone()).collect();
        assert_eq!(
            texts,
            vec![
                Ok("a".to_string()),
                Ok(String::new()),
                Ok(String::new()),
                Err("invalid UTF-8 at byte 1".to_string()),
                Ok("last".to_string()),
            ]
        );
        assert_eq!(got[4].number, 5);
        assert_eq!(lines(&b""[..]).count(), 0);
    }

    #[test]
    fn an_overlong_line_is_an_error_for_its_line_only() {
        let got: Vec<Line> = lines_with_limit(&b"abcd\nabcdefgh\r\nxy\nabcde"[..], 4)
            .map(|l| l.unwrap())
            .collect();
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].text.as_deref(), Ok("abcd"));
        assert!(got[1]
            .text
            .as_ref()
            .unwrap_err()
            .contains("longer than 4 bytes"));
        assert_eq!((got[2].number, got[2].text.as_deref()), (3, Ok("xy")));
        assert!(got[3].text.is_err());
    }

    #[test]
    fn two_stdin_inputs_are_refused() {
        let err = check_single_stdin(&[("--hyp", Path::new("-")), ("--ref", Path::new("-"))])
            .unwrap_err();
        assert!(err.to_string().contains("--hyp and --ref"), "{err}");
        assert!(
            check_single_stdin(&[("--hyp", Path::new("-")), ("--ref", Path::new("r"))]).is_ok()
        );
    }

    #[test]
    fn same_file_through_a_hard_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, b"x").unwrap();
        let link = dir.path().join("link.txt");
        std::fs::hard_link(&input, &link).unwrap();
        let err = check_not_an_input(&link, &[&input]).unwrap_err();
        assert!(matches!(err, CliError::SameFile { .. }), "{err}");
        assert!(check_not_an_input(&dir.path().join("new.txt"), &[&input]).is_ok());
    }
}
