//! A reader for the WordNet 3.0 database files (`index.*`, `data.*`, `*.exc`), enough for
//! NLTK's `wordnet.synsets(word)` (with `morphy`) and the lemma names of each synset, which is
//! what NLTK's METEOR uses.
//!
//! Debian's `wordnet-base` package installs the database at [`DEFAULT_WORDNET_DIR`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::wordnet_check;
use super::wordnet_lemma::strip_syntactic_marker;
use crate::text::error::MetricError;

/// Where Debian's `wordnet-base` installs the database.
pub const DEFAULT_WORDNET_DIR: &str = "/usr/share/wordnet";

/// NLTK's `POS_LIST` order and file names.
const POS: [(char, &str); 4] = [('n', "noun"), ('v', "verb"), ('a', "adj"), ('r', "adv")];

/// NLTK's `MORPHOLOGICAL_SUBSTITUTIONS`, in NLTK's order, per part of speech.
const SUBSTITUTIONS: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// A loaded WordNet database.
#[derive(Debug)]
pub struct WordNet {
    dir: PathBuf,
    /// lemma -> synset offsets per part of speech (n, v, a, r).
    index: HashMap<String, [Vec<usize>; 4]>,
    exceptions: [HashMap<String, Vec<String>>; 4],
    data: [Vec<u8>; 4],
    /// Longest hypernym path of each part of speech, computed on first use (LCH).
    pub(super) max_depth: [std::sync::OnceLock<usize>; 4],
}

fn read(dir: &Path, name: &str) -> Result<Vec<u8>, MetricError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|e| MetricError::WordNetMissing {
        path: dir.to_path_buf(),
        reason: format!("cannot read {}: {e}", path.display()),
    })
}

impl WordNet {
    /// Loads the database from `dir` (a WordNet 3.0 `dict` directory) and checks it whole:
    /// every synset line of the data files, every pointer, every index entry and exception
    /// line (see `wordnet_check`), so that a truncated or damaged database is refused rather
    /// than read as words without senses.
    ///
    /// # Errors
    /// [`MetricError::WordNetMissing`] when the directory or one of its files (`index.*`,
    /// `data.*`, `*.exc`) is missing; [`MetricError::Data`] with the file and line for a
    /// malformed line, an offset past the end of a data file or not at a synset line, a file
    /// that ends inside a line or holds no entry, a word missing from the index, or a damaged
    /// `lexnames` (optional: Debian's `wordnet-base` has none).
    pub fn open(dir: impl AsRef<Path>) -> Result<Self, MetricError> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(MetricError::WordNetMissing {
                path: dir.to_path_buf(),
                reason: "no such directory".into(),
            });
        }
        let lexnames = wordnet_check::lexname_count(dir)?;
        let names = |prefix: &str| POS.map(|(_, suffix)| format!("{prefix}.{suffix}"));
        let (data_names, index_names) = (names("data"), names("index"));
        let data_refs = data_names.each_ref().map(String::as_str);
        let mut checked = wordnet_check::Checked::default();
        let mut data: [Vec<u8>; 4] = Default::default();
        for (p, (bytes, name)) in data.iter_mut().zip(&data_names).enumerate() {
            *bytes = read(dir, name)?;
            checked.data_file(&dir.join(name), bytes, p, lexnames)?;
        }
        checked.check_pointers(dir, data_refs)?;
        let mut index: HashMap<String, [Vec<usize>; 4]> = HashMap::new();
        let mut exceptions: [HashMap<String, Vec<String>>; 4] = Default::default();
        for (p, (letter, suffix)) in POS.iter().enumerate() {
            let name = &index_names[p];
            let path = dir.join(name);
            let bytes = read(dir, name)?;
            let bad = |line: usize, m: &str| MetricError::Data {
                source_name: path.display().to_string(),
                line,
                message: m.to_string(),
            };
            let text = std::str::from_utf8(&bytes).map_err(|e| {
                let line = bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
                    + 1;
                bad(line, "not UTF-8")
            })?;
            if !text.is_empty() && !text.ends_with('\n') {
                return Err(bad(
                    text.lines().count(),
                    "the file ends inside a line (no final newline): truncated?",
                ));
            }
            let mut entries = 0;
            for (i, line) in text.lines().enumerate() {
                if line.starts_with(' ') {
                    continue;
                }
                let bad = |m: &str| bad(i + 1, m);
                // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets...
                let t: Vec<&str> = line.split_whitespace().collect();
                if t.len() < 4 {
                    return Err(bad("too few fields"));
                }
                if t[1].len() != 1 || !t[1].starts_with(*letter) {
                    return Err(bad(&format!("part of speech {:?} in {name}", t[1])));
                }
                let n_synsets: usize = t[2].parse().map_err(|_| bad("bad synset count"))?;
                let n_pointers: usize = t[3].parse().map_err(|_| bad("bad pointer count"))?;
                // The counts are the file's: a huge one must not overflow (it fails below).
                let start = n_pointers.saturating_add(6);
                // NLTK asserts that sense_cnt repeats synset_cnt.
                if t.get(n_pointers.saturating_add(4))
                    .and_then(|c| c.parse::<usize>().ok())
                    != Some(n_synsets)
                {
                    return Err(bad("the sense count differs from the synset count"));
                }
                if t.len() != start.saturating_add(n_synsets) {
                    return Err(bad(&format!(
                        "{} synset offsets where the line announces {n_synsets}",
                        t.len().saturating_sub(start)
                    )));
                }
                let offsets: Vec<usize> = t[start..]
                    .iter()
                    .map(|o| o.parse().map_err(|_| bad(&format!("bad offset {o:?}"))))
                    .collect::<Result<_, _>>()?;
                checked.check_index_entry(&path, i + 1, p, &data_names[p], t[0], &offsets)?;
                index.entry(t[0].to_string()).or_default()[p] = offsets;
                entries += 1;
            }
            if entries == 0 {
                return Err(bad(1, "no entry in the file (empty or truncated)"));
            }
            let exc_name = format!("{suffix}.exc");
            let exc = String::from_utf8_lossy(&read(dir, &exc_name)?).into_owned();
            for (i, line) in exc.lines().enumerate() {
                let mut terms = line.split_whitespace();
                let head = terms.next();
                let bases: Vec<String> = terms.map(str::to_string).collect();
                match head {
                    Some(head) if !bases.is_empty() => {
                        exceptions[p].insert(head.to_string(), bases);
                    }
                    _ => {
                        return Err(MetricError::Data {
                            source_name: dir.join(&exc_name).display().to_string(),
                            line: i + 1,
                            message: format!("expected `inflected base...`, got {line:?}"),
                        })
                    }
                }
            }
            checked.check_words(dir, p, &data_names[p], name, &index)?;
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            index,
            exceptions,
            data,
            max_depth: Default::default(),
        })
    }

    /// The directory it was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The synset offsets of an index lemma for part of speech `p` (NLTK's sense order).
    pub(super) fn offsets(&self, lemma: &str, p: usize) -> &[usize] {
        self.index.get(lemma).map_or(&[], |v| v[p].as_slice())
    }

    /// NLTK's `_morphy` base forms of `form` for part of speech `p`.
    pub(super) fn base_forms(&self, form: &str, p: usize) -> Vec<String> {
        self.morphy_forms(form, p)
    }

    /// The data line of a synset (without the newline), if `offset` starts one.
    pub(super) fn data_line(&self, p: usize, offset: usize) -> Option<&str> {
        let rest = self.data[p].get(offset..)?;
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let line = std::str::from_utf8(&rest[..end]).ok()?;
        (line.get(..8) == Some(format!("{offset:08}").as_str())).then_some(line)
    }

    /// The raw data file of part of speech `p`.
    pub(super) fn data_file(&self, p: usize) -> &[u8] {
        &self.data[p]
    }

    fn has(&self, form: &str, p: usize) -> bool {
        self.index.get(form).is_some_and(|v| !v[p].is_empty())
    }

    fn apply_rules(&self, forms: &[String], p: usize) -> Vec<String> {
        forms
            .iter()
            .flat_map(|f| {
                SUBSTITUTIONS[p]
                    .iter()
                    .filter(|(old, _)| f.ends_with(old))
                    .map(|(old, new)| format!("{}{new}", &f[..f.len() - old.len()]))
            })
            .collect()
    }

    fn filter_forms(&self, forms: impl IntoIterator<Item = String>, p: usize) -> Vec<String> {
        let mut seen = HashSet::new();
        forms
            .into_iter()
            .filter(|f| self.has(f, p) && seen.insert(f.clone()))
            .collect()
    }

    /// NLTK 3.4.5's `_morphy`: like today's, but when neither the form nor one rule
    /// application is in the index, the rules are applied again and again.
    fn morphy_legacy(&self, form: &str, p: usize) -> Vec<String> {
        if let Some(exc) = self.exceptions[p].get(form) {
            return self.filter_forms(
                std::iter::once(form.to_string()).chain(exc.iter().cloned()),
                p,
            );
        }
        let mut forms = self.apply_rules(&[form.to_string()], p);
        let found = self.filter_forms(
            std::iter::once(form.to_string()).chain(forms.iter().cloned()),
            p,
        );
        if !found.is_empty() {
            return found;
        }
        while !forms.is_empty() {
            forms = self.apply_rules(&forms, p);
            let found = self.filter_forms(forms.iter().cloned(), p);
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    /// NLTK's `_morphy(form, pos, check_exceptions=True)`: base forms in the index.
    fn morphy_forms(&self, form: &str, p: usize) -> Vec<String> {
        let forms: Vec<String> = match self.exceptions[p].get(form) {
            Some(exc) => exc.clone(),
            None => SUBSTITUTIONS[p]
                .iter()
                .filter(|(old, _)| form.ends_with(old))
                .map(|(old, new)| format!("{}{new}", &form[..form.len() - old.len()]))
                .collect(),
        };
        let mut seen = HashSet::new();
        std::iter::once(form.to_string())
            .chain(forms)
            .filter(|f| self.has(f, p) && seen.insert(f.clone()))
            .collect()
    }

    fn lemma_names_at(&self, p: usize, offset: usize) -> Vec<String> {
        let data = &self.data[p];
        let Some(rest) = data.get(offset..) else {
            return Vec::new();
        };
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let line = String::from_utf8_lossy(&rest[..end]);
        if line.get(..8) != Some(format!("{offset:08}").as_str()) {
            return Vec::new();
        }
        // synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt ... | gloss:
        // only the words are needed, so the (often long) pointer list is never split.
        let mut cols = line.split('|').next().unwrap_or("").split_whitespace();
        let n = cols
            .nth(3)
            .and_then(|h| usize::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        cols.step_by(2)
            .take(n)
            .map(|name| strip_syntactic_marker(name).to_string())
            .collect()
    }

    /// Lemma names of every synset of `word` over nouns, verbs, adjectives and adverbs (NLTK's
    /// `wordnet.synsets(word)`, then `lemma.name()` of each lemma), in NLTK's order.
    pub fn synset_lemma_names(&self, word: &str) -> Vec<String> {
        self.lemma_names_impl(word, false)
    }

    /// [`WordNet::synset_lemma_names`] with NLTK 3.4.5's `morphy`.
    pub fn synset_lemma_names_nltk345(&self, word: &str) -> Vec<String> {
        self.lemma_names_impl(word, true)
    }

    fn lemma_names_impl(&self, word: &str, legacy: bool) -> Vec<String> {
        let lemma = word.to_lowercase();
        let mut out = Vec::new();
        for p in 0..POS.len() {
            let forms = if legacy {
                self.morphy_legacy(&lemma, p)
            } else {
                self.morphy_forms(&lemma, p)
            };
            for form in forms {
                if let Some(offsets) = self.index.get(&form) {
                    for &o in &offsets[p] {
                        out.extend(self.lemma_names_at(p, o));
                    }
                }
            }
        }
        out
    }
}
