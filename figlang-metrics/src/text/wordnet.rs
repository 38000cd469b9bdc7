//! A reader for the WordNet 3.0 database files (`index.*`, `data.*`, `*.exc`), enough for
//! NLTK's `wordnet.synsets(word)` (with `morphy`) and the lemma names of each synset, which is
//! what NLTK's METEOR uses.
//!
//! Debian's `wordnet-base` package installs the database at [`DEFAULT_WORDNET_DIR`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::error::MetricError;

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
    /// Loads the database from `dir` (a WordNet 3.0 `dict` directory).
    ///
    /// # Errors
    /// [`MetricError::WordNetMissing`] when the directory or one of its files is missing;
    /// [`MetricError::Data`] for a malformed index line.
    pub fn open(dir: impl AsRef<Path>) -> Result<Self, MetricError> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(MetricError::WordNetMissing {
                path: dir.to_path_buf(),
                reason: "no such directory".into(),
            });
        }
        let mut index: HashMap<String, [Vec<usize>; 4]> = HashMap::new();
        let mut exceptions: [HashMap<String, Vec<String>>; 4] = Default::default();
        let mut data: [Vec<u8>; 4] = Default::default();
        for (p, (_, suffix)) in POS.iter().enumerate() {
            let name = format!("index.{suffix}");
            let text = String::from_utf8_lossy(&read(dir, &name)?).into_owned();
            for (i, line) in text.lines().enumerate() {
                if line.starts_with(' ') {
                    continue;
                }
                let bad = |m: &str| MetricError::Data {
                    source_name: name.clone(),
                    line: i + 1,
                    message: m.to_string(),
                };
                let t: Vec<&str> = line.split_whitespace().collect();
                if t.len() < 4 {
                    return Err(bad("too few fields"));
                }
                let n_synsets: usize = t[2].parse().map_err(|_| bad("bad synset count"))?;
                let n_pointers: usize = t[3].parse().map_err(|_| bad("bad pointer count"))?;
                // The counts are the file's: a huge one must not overflow (it fails below).
                let start = n_pointers.saturating_add(6);
                let offsets: Vec<usize> = t
                    .get(start..start.saturating_add(n_synsets))
                    .ok_or_else(|| bad("missing synset offsets"))?
                    .iter()
                    .map(|o| o.parse().map_err(|_| bad("bad offset")))
                    .collect::<Result<_, _>>()?;
                index.entry(t[0].to_string()).or_default()[p] = offsets;
            }
            let exc = String::from_utf8_lossy(&read(dir, &format!("{suffix}.exc"))?).into_owned();
            for line in exc.lines() {
                let mut terms = line.split_whitespace();
                if let Some(head) = terms.next() {
                    exceptions[p].insert(head.to_string(), terms.map(str::to_string).collect());
                }
            }
            data[p] = read(dir, &format!("data.{suffix}"))?;
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

/// NLTK: `(.*?)(\([^()]*\))?$` keeps the name without a trailing `(a)`, `(p)`, `(ip)` marker.
pub(super) fn strip_syntactic_marker(name: &str) -> &str {
    if let Some(open) = name.rfind('(') {
        let tail = &name[open + 1..];
        if let Some(inner) = tail.strip_suffix(')') {
            if !inner.contains(['(', ')']) {
                return &name[..open];
            }
        }
    }
    name
}
