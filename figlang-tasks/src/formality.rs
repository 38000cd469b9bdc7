//! The formality-transfer meta-evaluation (Lai et al., HumEval 2022): its released files, read
//! and checked, and the correlation of a metric with the human ratings that the authors' scripts
//! compute (`hauser formality reproduce` runs both, on the released and on recomputed metrics).
//!
//! The data directory is the authors' `data/outputs` layout (../shared/data/formality): per
//! system `NAME.KIND.txt` with KIND one of [`KINDS`]; 80 tab-separated lines each. The first
//! 16 items of a line (README.upstream.md) are survey, input, output, reference, content, style
//! and fluency of rater 1 and of rater 2, and their six z-scores; the `human` files as released
//! stop after the ratings (10 columns). Then the metric columns: one (style score, perplexity)
//! or eleven (content scores). Every line must have its kind's column count: one short row
//! would otherwise drop every content metric, and an extra column shift which value is read.
//! Lines 1-40 are informal->formal, 41-80 formal->informal.
//!
//! The folder is read strictly, so that nothing in it is used or skipped unnoticed: a `.txt`
//! file whose name is not `NAME.KIND.txt` is refused, naming it; a KIND that one system has
//! must be there for every system (a stray `FOO.human.txt` would otherwise add a system `FOO`
//! without scores, and empty the tables); other entries (README files, folders) are ignored and
//! named in a note.
//!
//! [`read_dir`] and [`read_file`] read the files themselves; [`scan_dir`] and [`parse_file`] are
//! the same checks for a caller that reads the files its own way (the CLI, with its input limits
//! and messages).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use figlang_metrics::stats::{pearson, wmt_kendall_tau};

use crate::narratives::data::read_text;
use crate::{TaskError, TaskResult};

/// Lines per file: 80 sources.
pub const SEGMENTS: usize = 80;
/// The informal->formal lines come first.
pub const FIRST_DIRECTION: usize = 40;
/// The released content metric columns, in file order (the last 11 columns).
pub const CONTENT_COLUMNS: [&str; 11] = [
    "COMET",
    "COMET-w",
    "BLEURT",
    "BERTScore",
    "METEOR",
    "chrF",
    "WMD",
    "BLEU",
    "ROUGE-1",
    "ROUGE-2",
    "ROUGE-L",
];

/// The kinds of released files and the column counts their lines may have.
pub const KINDS: [(&str, &[usize]); 7] = [
    ("human", &[10, 16]),
    ("reg.pt16", &[17]),
    ("cls.pt16", &[17]),
    ("cls.xformal", &[17]),
    ("content.ref", &[27]),
    ("content.src", &[27]),
    ("ppl", &[17]),
];

/// One parsed line.
#[derive(Debug, Clone)]
pub struct Line {
    /// The system output (column 3).
    pub output: String,
    /// The reference (column 4).
    pub reference: String,
    /// Ratings: content, style, fluency of rater 1, then of rater 2.
    pub ratings: [f64; 6],
    /// The numeric columns after the first 16.
    pub metrics: Vec<f64>,
}

impl Line {
    /// Mean of the two raters' scores of aspect `k` (0 content, 1 style, 2 fluency).
    pub fn human(&self, k: usize) -> f64 {
        (self.ratings[k] + self.ratings[k + 3]) / 2.0
    }
}

/// The released files of one system, by kind (`human`, `reg.pt16`...).
pub type SystemFiles = BTreeMap<String, Vec<Line>>;

/// The data folder, read: every system's files, and the entries that were not read.
#[derive(Debug, Clone, Default)]
pub struct Released {
    /// Systems by name, each with its files by kind.
    pub systems: BTreeMap<String, SystemFiles>,
    /// Entries of the folder that are not `NAME.KIND.txt` files and were left alone.
    pub ignored: Vec<String>,
}

/// The released files found in a data folder, before they are read ([`scan_dir`]).
#[derive(Debug, Clone, Default)]
pub struct Folder {
    /// Systems by name, each with its files by kind.
    pub systems: BTreeMap<String, BTreeMap<&'static str, PathBuf>>,
    /// Entries of the folder that are not `NAME.KIND.txt` files and were left alone.
    pub ignored: Vec<String>,
}

impl Folder {
    /// Reads every file with `read` (given its path and kind), system by system in name order
    /// and each system's kinds in name order, stopping at the first error.
    ///
    /// # Errors
    /// The first error of `read`.
    pub fn read<E>(
        self,
        mut read: impl FnMut(&Path, &str) -> Result<Vec<Line>, E>,
    ) -> Result<Released, E> {
        let mut systems = BTreeMap::new();
        for (name, kinds) in self.systems {
            let mut files = SystemFiles::new();
            for (kind, path) in kinds {
                files.insert(kind.to_string(), read(&path, kind)?);
            }
            systems.insert(name, files);
        }
        Ok(Released {
            systems,
            ignored: self.ignored,
        })
    }
}

/// Reads one released file of kind `kind` (one of [`KINDS`]); a UTF-8 byte-order mark is
/// dropped.
///
/// # Errors
/// [`TaskError::Io`] when unreadable; otherwise as [`parse_file`].
pub fn read_file(path: &Path, kind: &str) -> TaskResult<Vec<Line>> {
    parse_file(&read_text(path)?, path, kind)
}

/// [`read_file`] on a text already read; `path` names it in errors.
///
/// # Errors
/// [`TaskError::Record`] naming file and line: a line with another column count than its
/// kind's (or than the file's first line), or with a non-numeric or infinite score; a file
/// without exactly 80 lines.
pub fn parse_file(text: &str, path: &Path, kind: &str) -> TaskResult<Vec<Line>> {
    let allowed = KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(&[][..], |(_, c)| *c);
    let bad = |line: usize, message: String| TaskError::Record {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut out = Vec::new();
    let mut width = None;
    for (i, raw) in text.lines().enumerate() {
        let cols: Vec<&str> = raw.trim_end_matches('\r').split('\t').collect();
        let expected: Vec<usize> = match width {
            Some(w) => vec![w],
            None => allowed.to_vec(),
        };
        if !expected.contains(&cols.len()) {
            let expected: Vec<String> = expected.iter().map(usize::to_string).collect();
            return Err(bad(
                i + 1,
                format!(
                    "{} tab-separated columns, expected {} in a {kind} file{}",
                    cols.len(),
                    expected.join(" or "),
                    if width.is_some() {
                        " (as its first line)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        width = Some(cols.len());
        let num = |k: usize| -> TaskResult<f64> {
            let v: f64 = cols[k].trim().parse().map_err(|_| {
                bad(
                    i + 1,
                    format!("column {} is not a number: {:?}", k + 1, cols[k]),
                )
            })?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(bad(i + 1, format!("column {} is not finite", k + 1)))
            }
        };
        let mut ratings = [0.0; 6];
        for (k, r) in ratings.iter_mut().enumerate() {
            *r = num(4 + k)?;
        }
        for k in 10..cols.len().min(16) {
            num(k)?;
        }
        let metrics = (16..cols.len()).map(num).collect::<Result<Vec<_>, _>>()?;
        out.push(Line {
            output: cols[2].to_string(),
            reference: cols[3].to_string(),
            ratings,
            metrics,
        });
    }
    if out.len() != SEGMENTS {
        return Err(bad(
            out.len() + 1,
            format!("{} lines, expected {SEGMENTS}", out.len()),
        ));
    }
    Ok(out)
}

/// `NAME.KIND.txt` split into its system and kind, when KIND is one of [`KINDS`].
fn split_name(file: &str) -> Option<(&str, &'static str)> {
    let stem = file.strip_suffix(".txt")?;
    KINDS.iter().find_map(|(kind, _)| {
        let name = stem.strip_suffix(kind)?.strip_suffix('.')?;
        (!name.is_empty()).then_some((name, *kind))
    })
}

/// Reads every system's files in `dir` ([`Released`]): [`scan_dir`], then [`read_file`] for
/// each file.
///
/// # Errors
/// As [`scan_dir`] and [`read_file`].
pub fn read_dir(dir: &Path) -> TaskResult<Released> {
    scan_dir(dir)?.read(read_file)
}

/// The released files of `dir`, checked for the layout before any is read ([`Folder`]).
///
/// # Errors
/// [`TaskError::Io`] for a missing or unreadable directory; [`TaskError::Input`] for no
/// `NAME.human.txt`, a `.txt` file that is not `NAME.KIND.txt`, or a system without a kind of
/// file another system has.
pub fn scan_dir(dir: &Path) -> TaskResult<Folder> {
    let io = |source| TaskError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let entries = std::fs::read_dir(dir).map_err(io)?;
    let mut found: BTreeMap<String, BTreeMap<&'static str, PathBuf>> = BTreeMap::new();
    let (mut unknown, mut ignored) = (Vec::new(), Vec::new());
    for entry in entries {
        let entry = entry.map_err(io)?;
        let file = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry.path().is_file();
        match split_name(&file) {
            Some((name, kind)) if is_file => {
                found
                    .entry(name.to_string())
                    .or_default()
                    .insert(kind, entry.path());
            }
            _ if is_file && file.ends_with(".txt") => unknown.push(file),
            _ => ignored.push(file),
        }
    }
    unknown.sort();
    ignored.sort();
    let kinds: Vec<&str> = KINDS.iter().map(|(k, _)| *k).collect();
    if let Some(first) = unknown.first() {
        return Err(TaskError::Input(format!(
            "{}: {} is not a released file (NAME.KIND.txt with KIND one of {}){}; move it out of the folder",
            dir.display(),
            first,
            kinds.join(", "),
            if unknown.len() > 1 {
                format!(", nor {}", unknown[1..].join(", "))
            } else {
                String::new()
            }
        )));
    }
    if !found.values().any(|k| k.contains_key("human")) {
        return Err(TaskError::Input(format!(
            "{}: no NAME.human.txt files (the authors' data/outputs layout)",
            dir.display()
        )));
    }
    for kind in kinds {
        let have: Vec<&String> = found
            .iter()
            .filter(|(_, k)| k.contains_key(kind))
            .map(|(n, _)| n)
            .collect();
        if let Some((missing, _)) = found.iter().find(|(_, k)| !k.contains_key(kind)) {
            if !have.is_empty() {
                return Err(TaskError::Input(format!(
                    "{}: {missing}.{kind}.txt is missing, but {} {} {kind} scores; every system needs the same files (a stray NAME.KIND.txt adds a system NAME)",
                    dir.display(),
                    have.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(", "),
                    if have.len() == 1 { "has" } else { "have" },
                )));
            }
        }
    }
    Ok(Folder {
        systems: found,
        ignored,
    })
}

/// System Pearson and mean segment tau of per-system (human, metric) vectors, all the same
/// length (the segments), as the authors' `cal_corr_*.py`: the Pearson correlation of the
/// per-system means, and the WMT17 Kendall-like tau of each source's outputs averaged over the
/// sources where it is defined (with their count).
///
/// # Errors
/// [`TaskError::Stats`] when a correlation cannot be computed.
pub fn correlate(human: &[Vec<f64>], metric: &[Vec<f64>]) -> TaskResult<(f64, f64, usize)> {
    let stats = TaskError::Stats;
    let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let hm: Vec<f64> = human.iter().map(mean).collect();
    let mm: Vec<f64> = metric.iter().map(mean).collect();
    let r = pearson(&hm, &mm).map_err(stats)?.statistic;
    let n = human.first().map_or(0, Vec::len);
    let mut taus = Vec::with_capacity(n);
    for seg in 0..n {
        let h: Vec<f64> = human.iter().map(|v| v[seg]).collect();
        let m: Vec<f64> = metric.iter().map(|v| v[seg]).collect();
        let t = wmt_kendall_tau(&h, &m).map_err(stats)?.tau;
        // The authors' script skips a source whose outputs all tie on the human score.
        if t.is_finite() {
            taus.push(t);
        }
    }
    let tau = taus.iter().sum::<f64>() / taus.len().max(1) as f64;
    Ok((r, if taus.is_empty() { f64::NAN } else { tau }, taus.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` lines of a `human` file as released (10 columns).
    fn human(n: usize) -> String {
        "survey\tin\tout\tref\t1\t2\t3\t4\t5\t6\n".repeat(n)
    }

    #[test]
    fn a_file_has_its_kinds_columns_and_80_lines() {
        let path = Path::new("A.human.txt");
        let lines = parse_file(&human(SEGMENTS), path, "human").unwrap();
        assert_eq!(lines.len(), SEGMENTS);
        assert_eq!((lines[0].output.as_str(), lines[0].human(1)), ("out", 3.5));
        let mut text = human(2);
        text.push_str("survey\tin\tout\tref\t1\t2\t3\t4\t5\t6\t7\n");
        let e = parse_file(&text, path, "human").unwrap_err().to_string();
        assert_eq!(
            e,
            "A.human.txt:3: 11 tab-separated columns, expected 10 in a human file (as its first line)"
        );
        let e = parse_file(&human(79), path, "human")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "A.human.txt:80: 79 lines, expected 80");
    }

    #[test]
    fn the_folder_is_read_strictly() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str| std::fs::write(dir.path().join(name), human(SEGMENTS)).unwrap();
        write("A.human.txt");
        write("B.human.txt");
        write("README.md");
        let read = read_dir(dir.path()).unwrap();
        assert_eq!(read.systems.keys().collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(read.ignored, ["README.md"]);
        write("B.ppl.txt");
        let e = scan_dir(dir.path()).unwrap_err();
        assert!(
            matches!(&e, TaskError::Input(m) if m.contains("A.ppl.txt is missing, but B has ppl scores")),
            "{e}"
        );
        write("notes.txt");
        let e = scan_dir(dir.path()).unwrap_err();
        assert!(
            matches!(&e, TaskError::Input(m) if m.contains("notes.txt is not a released file")),
            "{e}"
        );
    }
}
