//! Word senses and their similarity on the WordNet 3.0 database, as NLTK 3.10 computes them:
//! `wordnet.synsets`, `Synset.definition()`, `nltk.wsd.lesk` (simplified Lesk) and
//! `Synset.lch_similarity` (Leacock-Chodorow, with NLTK's simulated root for verbs).
//! NewsMet's diversity of verb candidates is built on these.
//!
//! ```no_run
//! use figlang_metrics::text::wordnet::WordNet;
//! let wn = WordNet::open("/usr/share/wordnet")?;
//! let ctx = ["Markets", "tumble", "as", "rates", "rise"];
//! let a = wn.lesk(&ctx, "tumble", Some('v')).expect("a verb sense");
//! let b = wn.lesk(&ctx, "fall", Some('v')).expect("a verb sense");
//! println!("{} {} {:?}", wn.synset_name(a).unwrap(), wn.synset_name(b).unwrap(), wn.lch_similarity(a, b));
//! # Ok::<(), figlang_metrics::text::MetricError>(())
//! ```

use std::collections::{HashMap, VecDeque};

use super::wordnet::WordNet;
use super::wordnet_lemma::strip_syntactic_marker;

/// NLTK's part-of-speech letters in `POS_LIST` order (satellite adjectives `s` live in the
/// adjective files).
const POS_LETTERS: [char; 4] = ['n', 'v', 'a', 'r'];

/// A synset: its part of speech (`n`, `v`, `a`, `s`, `r`) and its offset in that data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SynsetId {
    /// Part of speech as NLTK's `Synset.pos()` gives it (`s` for satellite adjectives).
    pub pos: char,
    /// Byte offset of the synset in its data file.
    pub offset: usize,
}

/// How [`WordNet::lesk_with`] breaks ties between senses with the same overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LeskTies {
    /// The first in `synsets` order: `max(synsets, key=...)`, NLTK 3.9.2 and later.
    #[default]
    First,
    /// The largest synset name: NLTK up to 3.9.1 took `max((overlap, synset) ...)`, and synsets
    /// compare by name. NewsMet's diversity numbers follow it.
    LargestName,
}

fn file_index(pos: char) -> Option<usize> {
    match pos {
        'n' => Some(0),
        'v' => Some(1),
        'a' | 's' => Some(2),
        'r' => Some(3),
        _ => None,
    }
}

/// A data line's parts: lemma names, pointers `(symbol, target)`, gloss.
struct Parsed<'a> {
    pos: char,
    lemmas: Vec<&'a str>,
    pointers: Vec<(&'a str, SynsetId)>,
    gloss: &'a str,
}

fn parse(line: &str) -> Option<Parsed<'_>> {
    let (cols, gloss) = line.split_once('|')?;
    let mut t = cols.split_whitespace();
    let _offset = t.next()?;
    let _lex = t.next()?;
    let pos = t.next()?.chars().next()?;
    let n = usize::from_str_radix(t.next()?, 16).ok()?;
    // The counts are the file's: nothing is reserved for them, a corrupt one ends the parse
    // at the last field.
    let mut lemmas = Vec::new();
    for _ in 0..n {
        lemmas.push(strip_syntactic_marker(t.next()?));
        t.next()?;
    }
    let p: usize = t.next()?.parse().ok()?;
    let mut pointers = Vec::new();
    for _ in 0..p {
        let sym = t.next()?;
        let offset = t.next()?.parse().ok()?;
        let tpos = t.next()?.chars().next()?;
        t.next()?;
        pointers.push((sym, SynsetId { pos: tpos, offset }));
    }
    Some(Parsed {
        pos,
        lemmas,
        pointers,
        gloss,
    })
}

/// NLTK's definition: the gloss without its quoted examples, stripped of spaces and `;`.
fn definition_of(gloss: &str) -> String {
    let mut out = String::with_capacity(gloss.len());
    let mut rest = gloss.trim();
    // `re.sub(r'["].*?["]', '', gloss)`: each quote up to the next one goes; a lone quote stays.
    while let Some(open) = rest.find('"') {
        match rest[open + 1..].find('"') {
            Some(close) => {
                out.push_str(&rest[..open]);
                rest = &rest[open + 1 + close + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out.trim().trim_matches([';', ' ']).to_string()
}

impl WordNet {
    fn parsed(&self, s: SynsetId) -> Option<Parsed<'_>> {
        let p = file_index(s.pos)?;
        parse(self.data_line(p, s.offset)?)
    }

    /// NLTK's `wordnet.synsets(word, pos)`: the word lower-cased (spaces as `_`), its base forms
    /// by `morphy` per part of speech, their synsets in sense order; every part of speech when
    /// `pos` is `None`. (`pos` `'a'` also returns satellites, `'s'` only them, as NLTK does.)
    pub fn synsets(&self, word: &str, pos: Option<char>) -> Vec<SynsetId> {
        let lemma = word.to_lowercase().replace(' ', "_");
        let mut out = Vec::new();
        for (p, &letter) in POS_LETTERS.iter().enumerate() {
            if pos.is_some_and(|want| file_index(want) != Some(p)) {
                continue;
            }
            for form in self.base_forms(&lemma, p) {
                for &offset in self.offsets(&form, p) {
                    // The data line says whether an adjective is a satellite.
                    let actual = self
                        .data_line(p, offset)
                        .and_then(parse)
                        .map_or(letter, |x| x.pos);
                    // `pos` `'s'` asks for satellites only (NLTK's ADJ_SAT index).
                    if pos == Some('s') && actual != 's' {
                        continue;
                    }
                    out.push(SynsetId {
                        pos: actual,
                        offset,
                    });
                }
            }
        }
        out
    }

    /// NLTK's `wordnet.morphy(form, pos)`: the first base form of `form` (as given, not
    /// lower-cased) in part of speech `pos` (`'n'`, `'v'`, `'a'`, `'r'`) that WordNet's index
    /// has, exceptions first; `None` when there is none or `pos` is unknown.
    pub fn morphy(&self, form: &str, pos: char) -> Option<String> {
        self.base_forms(form, file_index(pos)?).into_iter().next()
    }

    /// NLTK's `Synset.name()`: first lemma (lower-cased), part of speech, and the synset's
    /// 1-based rank among that lemma's senses, e.g. `run.v.01`.
    pub fn synset_name(&self, s: SynsetId) -> Option<String> {
        let parsed = self.parsed(s)?;
        let lemma = parsed.lemmas.first()?.to_lowercase();
        let p = file_index(s.pos)?;
        // NLTK 3.10 ranks a satellite among the lemma's satellites only.
        let rank = self
            .offsets(&lemma, p)
            .iter()
            .filter(|&&o| {
                s.pos != 's'
                    || self
                        .data_line(p, o)
                        .and_then(parse)
                        .is_some_and(|x| x.pos == 's')
            })
            .position(|&o| o == s.offset)?;
        Some(format!("{lemma}.{}.{:02}", s.pos, rank + 1))
    }

    /// NLTK's `Synset.definition()`.
    pub fn definition(&self, s: SynsetId) -> Option<String> {
        self.parsed(s).map(|x| definition_of(x.gloss))
    }

    /// Hypernyms and instance hypernyms (`@`, `@i`), in the data file's pointer order.
    pub fn hypernyms(&self, s: SynsetId) -> Vec<SynsetId> {
        let Some(x) = self.parsed(s) else {
            return Vec::new();
        };
        // NLTK lists `hypernyms()` then `instance_hypernyms()`.
        let of = |sym: &'static str| {
            x.pointers
                .iter()
                .filter(move |(p, _)| *p == sym)
                .map(|(_, t)| *t)
        };
        of("@").chain(of("@i")).collect()
    }

    /// NLTK's simplified Lesk (`nltk.wsd.lesk(context, word, pos)`): among the word's synsets
    /// (of part of speech `pos` when given), the one whose definition, split on whitespace,
    /// shares the most tokens with the context (case-sensitive), ties going to the first (NLTK
    /// 3.9.2 and later); `None` when the word has no synset.
    pub fn lesk(&self, context: &[&str], word: &str, pos: Option<char>) -> Option<SynsetId> {
        self.lesk_with(context, word, pos, LeskTies::First)
    }

    /// [`WordNet::lesk`] with a choice of tie-breaking.
    pub fn lesk_with(
        &self,
        context: &[&str],
        word: &str,
        pos: Option<char>,
        ties: LeskTies,
    ) -> Option<SynsetId> {
        let ctx: std::collections::HashSet<&str> = context.iter().copied().collect();
        let mut best: Option<(usize, SynsetId, Option<String>)> = None;
        for s in self.synsets(word, None) {
            if pos.is_some_and(|p| p != s.pos) {
                continue;
            }
            let def = self.definition(s).unwrap_or_default();
            let overlap: std::collections::HashSet<&str> =
                def.split_whitespace().filter(|w| ctx.contains(w)).collect();
            let n = overlap.len();
            let better = match (&best, ties) {
                (None, _) => true,
                (Some((b, _, _)), LeskTies::First) => n > *b,
                (Some((b, _, name)), LeskTies::LargestName) => {
                    n > *b || (n == *b && self.synset_name(s) > *name)
                }
            };
            if better {
                let name = match ties {
                    LeskTies::LargestName => self.synset_name(s),
                    LeskTies::First => None,
                };
                best = Some((n, s, name));
            }
        }
        best.map(|(_, s, _)| s)
    }

    /// Shortest distance from `s` to each ancestor (itself at 0), hypernyms and instance
    /// hypernyms breadth first (NLTK's `_shortest_hypernym_paths` without the root).
    fn ancestor_distances(&self, s: SynsetId) -> HashMap<SynsetId, usize> {
        let mut out = HashMap::new();
        let mut queue = VecDeque::from([(s, 0usize)]);
        while let Some((x, d)) = queue.pop_front() {
            if out.contains_key(&x) {
                continue;
            }
            out.insert(x, d);
            queue.extend(self.hypernyms(x).into_iter().map(|h| (h, d + 1)));
        }
        out
    }

    /// NLTK's `shortest_path_distance(other, simulate_root)`.
    pub fn shortest_path_distance(
        &self,
        a: SynsetId,
        b: SynsetId,
        simulate_root: bool,
    ) -> Option<usize> {
        if a == b {
            return Some(0);
        }
        path_distance(&self.ancestors(a), &self.ancestors(b), simulate_root)
    }

    /// `s`'s ancestors with their shortest distances, for callers that compare the same
    /// synsets many times ([`WordNet::lch_similarity_of`]).
    pub fn ancestors(&self, s: SynsetId) -> Ancestors {
        let mut dist: Vec<(SynsetId, usize)> = self.ancestor_distances(s).into_iter().collect();
        dist.sort_unstable();
        Ancestors { synset: s, dist }
    }

    /// [`WordNet::lch_similarity`] from the two synsets' [`Ancestors`]: the same value, without
    /// walking the hypernym graph again.
    pub fn lch_similarity_of(&self, a: &Ancestors, b: &Ancestors) -> Option<f64> {
        if a.synset.pos != b.synset.pos {
            return None;
        }
        let need_root = a.synset.pos != 'n';
        let depth = self.max_depth(a.synset.pos) + usize::from(need_root);
        let distance = if a.synset == b.synset {
            0
        } else {
            path_distance(a, b, need_root)?
        };
        if depth == 0 {
            return None;
        }
        Some(-((distance as f64 + 1.0) / (2.0 * depth as f64)).ln())
    }

    /// The longest hypernym path of any synset of the file of `pos` (NLTK's
    /// `_compute_max_depth` without the root), computed once.
    pub fn max_depth(&self, pos: char) -> usize {
        let Some(p) = file_index(pos) else { return 0 };
        *self.max_depth[p].get_or_init(|| {
            let mut memo: HashMap<usize, usize> = HashMap::new();
            let data = self.data_file(p);
            let mut best = 0;
            let mut at = 0;
            while at < data.len() {
                let end = data[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(data.len(), |e| at + e);
                if data[at] != b' ' {
                    let s = SynsetId {
                        pos: POS_LETTERS[p],
                        offset: at,
                    };
                    best = best.max(self.depth_of(s, &mut memo, 0));
                }
                at = end + 1;
            }
            best
        })
    }

    fn depth_of(&self, s: SynsetId, memo: &mut HashMap<usize, usize>, guard: usize) -> usize {
        if let Some(&d) = memo.get(&s.offset) {
            return d;
        }
        // WordNet's hypernym graph is acyclic; the guard only bounds a corrupt file.
        if guard > 100 {
            return 0;
        }
        let d = self
            .hypernyms(s)
            .into_iter()
            .map(|h| 1 + self.depth_of(h, memo, guard + 1))
            .max()
            .unwrap_or(0);
        memo.insert(s.offset, d);
        d
    }

    /// NLTK's `lch_similarity(other)` (`simulate_root=True`): `-ln((distance + 1) / (2 *
    /// depth))`, with the simulated root where NLTK needs one (every part of speech but nouns
    /// in WordNet 3.0), whose depth is then the longest path plus one (13 for verbs). `None` for
    /// synsets of different parts of speech (NLTK raises) or without a connecting path.
    pub fn lch_similarity(&self, a: SynsetId, b: SynsetId) -> Option<f64> {
        if a.pos != b.pos {
            return None;
        }
        self.lch_similarity_of(&self.ancestors(a), &self.ancestors(b))
    }
}

/// A synset's ancestors (itself at distance 0) with their shortest hypernym distances, sorted
/// by synset: [`WordNet::ancestors`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ancestors {
    synset: SynsetId,
    dist: Vec<(SynsetId, usize)>,
}

impl Ancestors {
    /// The synset whose ancestors these are.
    pub fn synset(&self) -> SynsetId {
        self.synset
    }
}

/// The shortest path through a common ancestor (a merge of the two sorted lists), with NLTK's
/// simulated root when asked.
fn path_distance(a: &Ancestors, b: &Ancestors, simulate_root: bool) -> Option<usize> {
    let (x, y) = (&a.dist, &b.dist);
    let (mut i, mut j, mut best) = (0, 0, None::<usize>);
    while i < x.len() && j < y.len() {
        match x[i].0.cmp(&y[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let d = x[i].1 + y[j].1;
                best = Some(best.map_or(d, |b| b.min(d)));
                i += 1;
                j += 1;
            }
        }
    }
    if simulate_root {
        // Each side reaches the fake root one step beyond its farthest ancestor.
        let far = |v: &[(SynsetId, usize)]| v.iter().map(|&(_, d)| d).max().unwrap_or(0);
        let root = far(x) + 1 + far(y) + 1;
        best = Some(best.map_or(root, |b| b.min(root)));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_drop_quoted_examples_like_nltk() {
        assert_eq!(
            definition_of(" move fast by using one's feet; \"Don't run--you'll be out of breath\"; \"The children ran to the store\"  "),
            "move fast by using one's feet"
        );
        assert_eq!(definition_of(" a \"b\" c; "), "a  c");
    }
}
