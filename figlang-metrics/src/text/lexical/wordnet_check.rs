//! Validation of a WordNet database as it is loaded: every synset line of the data files is
//! parsed (offset, lexicographer file, part of speech, words, pointers, gloss), every pointer and
//! every index entry must land on a synset line, and every word of a synset must be listed in
//! the index under that synset. A truncated or damaged database is refused with the file and
//! line instead of giving "no sense" answers that change the scores (the reader looks synsets up
//! lazily, and a lookup that misses is otherwise indistinguishable from a word without senses).

use std::collections::HashMap;
use std::path::Path;

use crate::text::error::MetricError;

/// WordNet 3.0 has 45 lexicographer files (`lexnames`): numbers 0 to 44.
const LEXNAMES_3_0: usize = 45;

/// One synset line of a data file: where it starts, its 1-based line, its words (lower-cased,
/// without adjective markers).
pub(super) struct Synset {
    offset: usize,
    line: usize,
    words: Vec<String>,
}

/// A pointer found in a data file, checked once every data file is read.
pub(super) struct Pointer {
    from_file: usize,
    line: usize,
    target_file: usize,
    target: usize,
}

/// Synsets of each data file (sorted by offset, as the file is) and the pointers between them.
#[derive(Default)]
pub(super) struct Checked {
    synsets: [Vec<Synset>; 4],
    pointers: Vec<Pointer>,
}

fn file_of(pos: &str) -> Option<usize> {
    match pos {
        "n" => Some(0),
        "v" => Some(1),
        "a" | "s" => Some(2),
        "r" => Some(3),
        _ => None,
    }
}

fn data_error(path: &Path, line: usize, message: impl Into<String>) -> MetricError {
    MetricError::Data {
        source_name: path.display().to_string(),
        line,
        message: message.into(),
    }
}

/// The number of lexicographer files: from `lexnames` when the directory has one (each line
/// `NN name N`, numbered from 0, as NLTK asserts), else WordNet 3.0's 45. Debian's
/// `wordnet-base` ships no `lexnames`, and no score here depends on it, so its absence is
/// not an error; a damaged one is.
pub(super) fn lexname_count(dir: &Path) -> Result<usize, MetricError> {
    let path = dir.join("lexnames");
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LEXNAMES_3_0),
        Err(e) => return Err(MetricError::io(&path, e)),
    };
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| data_error(&path, 1, format!("not UTF-8 (byte {})", e.valid_up_to())))?;
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let t: Vec<&str> = line.split_whitespace().collect();
        let ok = t.len() == 3
            && t[0].parse::<usize>() == Ok(i)
            && t[2].parse::<u8>().is_ok_and(|c| (1..=4).contains(&c));
        if !ok {
            return Err(data_error(
                &path,
                i + 1,
                format!(
                    "expected `{i:02} lexname.category N` (N a part of speech 1-4), got {line:?}"
                ),
            ));
        }
        n = i + 1;
    }
    if n == 0 {
        return Err(data_error(&path, 1, "empty file"));
    }
    Ok(n)
}

/// Parses the synset line at byte `at` of data file `p`; returns its words and pushes its
/// pointers.
fn parse_synset(
    line: &str,
    at: usize,
    p: usize,
    lexnames: usize,
    pointers: &mut Vec<(usize, usize)>,
) -> Result<Vec<String>, String> {
    let (cols, _gloss) = line
        .split_once('|')
        .ok_or("no `|` before the gloss (truncated line?)")?;
    let mut t = cols.split_whitespace();
    let mut next = |what: &str| t.next().ok_or(format!("the line ends before its {what}"));
    let offset = next("offset")?;
    if offset.len() != 8 || offset.parse::<usize>() != Ok(at) {
        return Err(format!(
            "the line starts at byte {at} but says it is synset {offset:?}: the file is damaged (or edited without updating the offsets)"
        ));
    }
    let lex = next("lexicographer file")?;
    if !lex.parse::<usize>().is_ok_and(|l| l < lexnames) {
        return Err(format!(
            "lexicographer file {lex:?} is not a number below {lexnames}, the count of \
             lexicographer files (the lines of lexnames, or WordNet 3.0's 45 without one)"
        ));
    }
    let pos = next("part of speech")?;
    if file_of(pos) != Some(p) {
        return Err(format!("part of speech {pos:?} in the wrong data file"));
    }
    let w_cnt = next("word count")?;
    let w_cnt = usize::from_str_radix(w_cnt, 16)
        .ok()
        .filter(|&n| n > 0)
        .ok_or(format!(
            "word count {w_cnt:?} is not a positive hexadecimal number"
        ))?;
    // The count is the file's: nothing is reserved for it (a corrupt one fails on the line's
    // missing words below, not on an allocation).
    let mut words = Vec::new();
    for _ in 0..w_cnt {
        let word = next("words")?;
        let lex_id = next("words")?;
        if u8::from_str_radix(lex_id, 16).is_err() {
            return Err(format!("lex_id {lex_id:?} of {word:?} is not hexadecimal"));
        }
        words.push(super::wordnet_lemma::strip_syntactic_marker(word).to_lowercase());
    }
    let p_cnt = next("pointer count")?;
    let p_cnt: usize = p_cnt
        .parse()
        .map_err(|_| format!("pointer count {p_cnt:?} is not a number"))?;
    for k in 0..p_cnt {
        let what = format!("pointer {} of {p_cnt}", k + 1);
        let _symbol = next(&what)?;
        let target = next(&what)?;
        let tpos = next(&what)?;
        let source_target = next(&what)?;
        let target = target
            .parse::<usize>()
            .ok()
            .filter(|_| target.len() == 8)
            .ok_or(format!(
                "{what}: target {target:?} is not an 8-digit offset"
            ))?;
        let tfile = file_of(tpos).ok_or(format!("{what}: part of speech {tpos:?}"))?;
        if source_target.len() != 4 || u16::from_str_radix(source_target, 16).is_err() {
            return Err(format!(
                "{what}: source/target {source_target:?} is not 4 hexadecimal digits"
            ));
        }
        pointers.push((tfile, target));
    }
    Ok(words)
}

impl Checked {
    /// Walks data file `p` (`bytes`, read from `path`): every line that does not start with a
    /// space (the licence header does) must be a well-formed synset starting at its offset.
    pub(super) fn data_file(
        &mut self,
        path: &Path,
        bytes: &[u8],
        p: usize,
        lexnames: usize,
    ) -> Result<(), MetricError> {
        if !bytes.is_empty() && bytes.last() != Some(&b'\n') {
            let line = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(data_error(
                path,
                line,
                format!(
                    "the file ends inside a line ({} bytes, no final newline): truncated?",
                    bytes.len()
                ),
            ));
        }
        let mut at = 0;
        let mut targets = Vec::new();
        for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            if at >= bytes.len() {
                break;
            }
            let start = at;
            at += raw.len() + 1;
            if raw.first() == Some(&b' ') {
                continue;
            }
            let bad = |m: String| data_error(path, i + 1, format!("byte {start}: {m}"));
            let line = std::str::from_utf8(raw).map_err(|_| bad("not UTF-8".into()))?;
            targets.clear();
            let words = parse_synset(line, start, p, lexnames, &mut targets).map_err(bad)?;
            self.pointers
                .extend(targets.iter().map(|&(target_file, target)| Pointer {
                    from_file: p,
                    line: i + 1,
                    target_file,
                    target,
                }));
            self.synsets[p].push(Synset {
                offset: start,
                line: i + 1,
                words,
            });
        }
        if self.synsets[p].is_empty() {
            return Err(data_error(
                path,
                1,
                "no synset in the file (empty or truncated)",
            ));
        }
        Ok(())
    }

    fn synset(&self, p: usize, offset: usize) -> Option<&Synset> {
        let s = &self.synsets[p];
        s.binary_search_by_key(&offset, |x| x.offset)
            .ok()
            .map(|i| &s[i])
    }

    /// Every pointer lands on a synset line (once every data file is read).
    pub(super) fn check_pointers(
        &self,
        dir: &Path,
        data_names: [&str; 4],
    ) -> Result<(), MetricError> {
        for ptr in &self.pointers {
            if self.synset(ptr.target_file, ptr.target).is_none() {
                return Err(data_error(
                    &dir.join(data_names[ptr.from_file]),
                    ptr.line,
                    format!(
                        "a pointer to {:08}, which is not a synset of {} (its last synset is at {:08}): truncated or damaged?",
                        ptr.target,
                        data_names[ptr.target_file],
                        self.last_offset(ptr.target_file)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn last_offset(&self, p: usize) -> usize {
        self.synsets[p].last().map_or(0, |s| s.offset)
    }

    /// Each offset of an index entry (line `line` of `path`) is a synset of data file `p`
    /// that has the lemma.
    pub(super) fn check_index_entry(
        &self,
        path: &Path,
        line: usize,
        p: usize,
        data_name: &str,
        lemma: &str,
        offsets: &[usize],
    ) -> Result<(), MetricError> {
        for &o in offsets {
            match self.synset(p, o) {
                None => {
                    return Err(data_error(
                        path,
                        line,
                        format!(
                            "{lemma:?}: offset {o:08} is not a synset of {data_name} (its last synset is at {:08}): truncated or damaged?",
                            self.last_offset(p)
                        ),
                    ))
                }
                Some(s) if !s.words.iter().any(|w| w == lemma) => {
                    return Err(data_error(
                        path,
                        line,
                        format!(
                            "{lemma:?}: synset {o:08} ({data_name} line {}) does not have this word",
                            s.line
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Every word of a synset of data file `p` is listed in the index under that synset (a
    /// truncated index loses words without breaking a line).
    pub(super) fn check_words(
        &self,
        dir: &Path,
        p: usize,
        data_name: &str,
        index_name: &str,
        index: &HashMap<String, [Vec<usize>; 4]>,
    ) -> Result<(), MetricError> {
        for s in &self.synsets[p] {
            for w in &s.words {
                if !index.get(w).is_some_and(|v| v[p].contains(&s.offset)) {
                    return Err(data_error(
                        &dir.join(data_name),
                        s.line,
                        format!(
                            "synset {:08} has the word {w:?}, which {index_name} does not list under it: truncated or damaged index?",
                            s.offset
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
