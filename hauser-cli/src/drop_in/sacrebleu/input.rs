//! The inputs of `hauser sacrebleu`, read as sacreBLEU 2.4.3 reads them: files line by line
//! as Python iterates a file opened with `newline="\n"` (standard input with universal
//! newlines), every line right-stripped of Python's white space, `-nr` references split on tabs,
//! several systems as tab-separated columns of standard input; and the test sets of sacreBLEU's
//! cache (`--echo`, `--download`, `-t`).

use std::path::Path;

use super::args::SacreArgs;
use super::score::Exit;
use super::testsets::{self as testsets, unavailable as no_test_sets, TestSet};
use crate::io::files;

/// `--download NAME`: nothing to do when sacreBLEU's cache has the set (the pair of `-l`, or
/// every pair); refused otherwise, as nothing can be downloaded.
pub fn download(name: &str, langpair: Option<&str>) -> Result<(), Exit> {
    let Some(set) = testsets::lookup(name) else {
        return Err(Exit::one(format!("Exception: No such test set {name}")));
    };
    let pairs: Vec<&str> = match langpair {
        Some(lp) => vec![lp],
        None => set.pairs.iter().map(|p| p.langpair).collect(),
    };
    for lp in pairs {
        if set.pair(lp).is_none() {
            return Err(Exit::one(format!(
                "Exception: No such language pair {name}/{lp}"
            )));
        }
        set.ready(lp)?;
    }
    Ok(())
}

/// `--echo FIELD...`: the fields of the test sets from the cache, tab-separated, line by line.
pub fn echo(sets: &[TestSet], lp: &str, fields: &[String], out: &mut Vec<u8>) -> Result<(), Exit> {
    for set in sets {
        set.ready(lp)?;
        let known: Vec<&str> = set.pair(lp).map(|p| p.fields.clone()).unwrap_or_default();
        let mut wanted: Vec<&str> = fields.iter().map(String::as_str).collect();
        if wanted.contains(&"all") {
            if wanted.len() != 1 {
                return Err(Exit::one("Cannot use --echo all with other fields"));
            }
            if known.is_empty() {
                // The WMT XML sets name their fields in the raw files, which are not read here.
                return Err(no_test_sets("--echo all (a WMT XML test set)"));
            }
            wanted.clone_from(&known);
        }
        let mut columns = Vec::new();
        for field in wanted {
            let mut f = field;
            // sacreBLEU's backwards compatibility: `ref` is the first reference field when the
            // set has no plain `ref` field.
            if f == "ref" && !known.contains(&"ref") && !set.path(lp, "ref").is_file() {
                let refs = if known.is_empty() {
                    set.refs(lp).unwrap_or_default().to_vec()
                } else {
                    known
                        .iter()
                        .copied()
                        .filter(|k| k.starts_with("ref"))
                        .collect()
                };
                f = refs.into_iter().min().unwrap_or("ref");
            }
            let path = set.path(lp, f);
            let exists = if known.is_empty() {
                path.is_file()
            } else {
                known.contains(&f)
            };
            if !exists {
                return Err(Exit::one(format!(
                    "No such field {field} in test set {} for language pair {lp}.",
                    set.name
                )));
            }
            columns.push(read_lines(&path.to_string_lossy(), Encoding::Utf8, false)?);
        }
        let n = columns.iter().map(Vec::len).min().unwrap_or(0);
        for i in 0..n {
            let row: Vec<&str> = columns.iter().map(|c| py_rstrip(&c[i])).collect();
            out.extend_from_slice(row.join("\t").as_bytes());
            out.push(b'\n');
        }
    }
    Ok(())
}

/// The reference streams of the test sets (concatenated, in order) from the cache.
pub fn testset_refs(
    sets: &[TestSet],
    lp: &str,
    encoding: Encoding,
) -> Result<Vec<Vec<String>>, Exit> {
    let width = sets
        .first()
        .and_then(|s| s.refs(lp))
        .map_or(1, |r| r.len().max(1));
    let mut streams: Vec<Vec<String>> = vec![Vec::new(); width];
    for set in sets {
        set.ready(lp)?;
        for (k, field) in set.refs(lp).unwrap_or_default().iter().enumerate() {
            let path = set.cached(lp, field)?;
            let lines = read_lines(&path.to_string_lossy(), encoding, false)?;
            let Some(stream) = streams.get_mut(k) else {
                return Err(Exit::one(format!(
                    "IndexError: {} has more references than the first test set",
                    set.name
                )));
            };
            stream.extend(lines.iter().map(|l| py_rstrip(l).to_string()));
        }
    }
    Ok(streams)
}

/// The text encodings of `-e` that this drop-in decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (a leading byte-order mark dropped, as by every hauser command).
    Utf8,
    /// ISO 8859-1: every byte one character.
    Latin1,
    /// ASCII: a byte above 127 is an error, as in Python.
    Ascii,
}

impl Encoding {
    /// Python's codec names for them (case, `-`, `_` and spaces as Python normalises them).
    pub fn named(name: &str) -> Result<Self, Exit> {
        let n: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c == '-' || c == ' ' { '_' } else { c })
            .collect();
        match n.as_str() {
            "utf_8" | "utf8" | "u8" | "utf" | "cp65001" | "utf_8_sig" => Ok(Self::Utf8),
            "latin_1" | "latin1" | "iso_8859_1" | "iso8859_1" | "l1" | "latin" | "8859"
            | "cp819" => Ok(Self::Latin1),
            "ascii" | "us_ascii" | "646" => Ok(Self::Ascii),
            _ => Err(Exit::unsupported(format!(
                "encoding {name:?} is not supported by hauser sacrebleu (utf-8, latin-1 and ascii are)"
            ))),
        }
    }

    fn decode(self, path: &str, bytes: Vec<u8>) -> Result<String, Exit> {
        let bad = || {
            Exit::one(format!(
                "UnicodeDecodeError: {path} is not valid {}",
                match self {
                    Self::Utf8 => "utf-8",
                    Self::Latin1 => "latin-1",
                    Self::Ascii => "ascii",
                }
            ))
        };
        match self {
            Self::Utf8 => String::from_utf8(bytes).map_err(|_| bad()),
            Self::Latin1 => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
            Self::Ascii if bytes.is_ascii() => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
            Self::Ascii => Err(bad()),
        }
    }
}

fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(hauser_core::tokenize::is_python_space)
}

/// The lines of a file as Python iterates a file opened with `newline="\n"` (standard input:
/// universal newlines, as sacreBLEU's `TextIOWrapper` reads it).
fn read_lines(path: &str, encoding: Encoding, universal: bool) -> Result<Vec<String>, Exit> {
    let p = Path::new(path);
    let not_found = |e: crate::CliError| match e {
        crate::CliError::Io { .. } => Exit::one(format!("FileNotFoundError: {e}")),
        other => Exit::one(other.to_string()),
    };
    // The bytes as they are: EF BB BF is a byte-order mark in UTF-8 only (in latin-1, three
    // characters), so it is dropped below for UTF-8 alone.
    let mut bytes = if files::is_stdin(p) {
        files::read_limited(p, std::io::stdin())
    } else {
        std::fs::File::open(p)
            .map_err(|e| crate::CliError::io(p, e))
            .and_then(|f| files::read_limited(p, f))
    }
    .map_err(not_found)?;
    if path.ends_with(".gz") && !files::is_stdin(p) {
        // sacreBLEU's smart_open reads *.gz through gzip, every member as Python's gzip does;
        // the limit applies to the decompressed text.
        let decoder = flate2::read::MultiGzDecoder::new(&bytes[..]);
        bytes =
            files::read_limited(p, decoder).map_err(|e| Exit::one(format!("BadGzipFile: {e}")))?;
    }
    if encoding == Encoding::Utf8 && bytes.starts_with(files::BOM) {
        bytes.drain(..files::BOM.len());
    }
    let text = encoding.decode(path, bytes)?;
    let text = if universal {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    };
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    // A final newline ends the last line rather than starting an empty one.
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    Ok(lines)
}

/// sacreBLEU's reference streams: one per file, or `-nr` tab-separated ones from one file.
pub fn read_refs(a: &SacreArgs, encoding: Encoding) -> Result<Vec<Vec<String>>, Exit> {
    let n = usize::try_from(a.num_refs).unwrap_or(0);
    // sacreBLEU starts with max(files, -nr) streams; they are made here as lines fill them, so
    // that a huge -nr costs nothing (a line has that many fields or is refused). An empty
    // reference file then leaves one empty stream, which fails the same checks as n of them.
    let mut streams: Vec<Vec<String>> = vec![Vec::new(); a.refs.len().max(1)];
    for (k, path) in a.refs.iter().enumerate() {
        let universal = files::is_stdin(Path::new(path));
        for (lineno, line) in read_lines(path, encoding, universal)?.iter().enumerate() {
            let line = py_rstrip(line);
            if a.num_refs == 1 {
                streams[k].push(line.to_string());
                continue;
            }
            // str.split('\t', maxsplit=n-1); a negative maxsplit splits everywhere.
            let fields: Vec<&str> = if a.num_refs >= 1 {
                line.splitn(n, '\t').collect()
            } else {
                line.split('\t').collect()
            };
            if fields.len() as i64 != a.num_refs {
                return Err(Exit {
                    code: 17,
                    message: format!(
                        "FATAL: line {}: expected {} fields, but found {}.",
                        lineno + 1,
                        a.num_refs,
                        fields.len()
                    ),
                });
            }
            if streams.len() < fields.len() {
                streams.resize(fields.len(), Vec::new());
            }
            for (r, f) in fields.iter().enumerate() {
                streams[r].push((*f).to_string());
            }
        }
    }
    Ok(streams)
}

/// The systems (hypothesis streams) and their names.
pub fn read_systems(
    a: &SacreArgs,
    encoding: Encoding,
    paired: bool,
    stdin_hyps: bool,
) -> Result<(Vec<Vec<String>>, Vec<String>), Exit> {
    let mut systems: Vec<Vec<String>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    if stdin_hyps {
        let lines = read_lines("-", encoding, true)?;
        let mut it = lines.iter();
        // An empty standard input is one system of one empty line, as in sacreBLEU.
        let first = it.next().map_or("", String::as_str);
        systems = py_rstrip(first)
            .split('\t')
            .map(|s| vec![s.to_string()])
            .collect();
        for line in it {
            let fields: Vec<&str> = py_rstrip(line).split('\t').collect();
            if fields.len() != systems.len() {
                return Err(Exit {
                    code: 17,
                    message: "FATAL: the number of tab-delimited fields in the input stream differ across lines.".into(),
                });
            }
            for (s, f) in systems.iter_mut().zip(fields) {
                s.push(py_rstrip(f).to_string());
            }
        }
        names = (1..=systems.len()).map(|i| format!("System {i}")).collect();
        if paired {
            names = std::iter::once("Baseline".to_string())
                .chain((1..systems.len()).map(|i| format!("System {i}")))
                .collect();
        }
        return Ok((systems, names));
    }
    for path in a.input.iter().flatten() {
        if names.contains(path) {
            if paired && names.first() == Some(path) {
                continue;
            }
            return Err(Exit::one(format!(
                "{path:?} already used to name a system.\nMake sure to have a different basename for each system."
            )));
        }
        let universal = files::is_stdin(Path::new(path));
        let lines = read_lines(path, encoding, universal)?;
        systems.push(lines.iter().map(|l| py_rstrip(l).to_string()).collect());
        names.push(path.clone());
    }
    if paired {
        if let Some(first) = names.first_mut() {
            *first = format!("Baseline: {first}");
        }
    }
    Ok((systems, names))
}
