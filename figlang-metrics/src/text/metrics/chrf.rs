//! chrF and chrF++ compatible with sacreBLEU 2.4.3 (`CHRF`): character n-grams up to
//! `char_order` (6), word n-grams up to `word_order` (0 for chrF, 2 for chrF++), beta 2,
//! whitespace excluded unless asked, effective order (or `eps_smoothing`), best reference per
//! segment by F-score.
//!
//! sacreBLEU 2.x reports 0-100; sacreBLEU 1.x `sentence_chrf` reported the same value on the
//! 0-1 scale. [`Chrf::sentence`] gives the 0-100 value, [`MetricScore`]s from
//! [`Chrf::sentence_unit`] the 0-1 value.

use super::ngram::FxMap as HashMap;
use super::ngram_table::{KeyTable, PackedKey};
use std::cell::RefCell;

use hauser_core::Signature;

use crate::text::error::MetricError;
use crate::text::score::{cached_signature, corpus_nrefs, MetricScore, SignatureCache};
use crate::text::summed::SummedStats;
use crate::text::tokenizers::tokenize::{is_py_space, py_split};

/// chrF settings (sacreBLEU's defaults: chrF2 with 6 character and 0 word orders).
#[derive(Debug, Clone, PartialEq)]
pub struct Chrf {
    /// Character n-gram order (6).
    pub char_order: usize,
    /// Word n-gram order (0: chrF, 2: chrF++).
    pub word_order: usize,
    /// Recall importance (2).
    pub beta: f64,
    /// Lowercase first.
    pub lowercase: bool,
    /// Keep whitespace inside character n-grams.
    pub whitespace: bool,
    /// Average per-order F-scores with epsilon smoothing (chrF++.py, NLTK, Moses) instead of
    /// sacreBLEU's effective-order averaging of precision and recall.
    pub eps_smoothing: bool,
}

impl Default for Chrf {
    fn default() -> Self {
        Self {
            char_order: 6,
            word_order: 0,
            beta: 2.0,
            lowercase: false,
            whitespace: false,
            eps_smoothing: false,
        }
    }
}

/// Highest character order the fast path packs into a `u128` (21 bits per character).
const FAST_MAX_CHAR_ORDER: usize = 6;

/// Per-thread buffers of the fast character statistics, reused across segments.
#[derive(Debug, Default)]
struct ChrfScratch {
    /// Characters (code point + 1) of the hypothesis and of the current reference.
    hyp: Vec<u32>,
    refc: Vec<u32>,
    /// The current reference's character n-grams.
    table: KeyTable<u128>,
    small_table: KeyTable<u64>,
    /// Per distinct reference n-gram: its count not yet matched.
    counts: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<ChrfScratch> = RefCell::new(ChrfScratch::default());
    static SIGNATURE: SignatureCache<(Chrf, usize, &'static str)> = const { RefCell::new(None) };
}

const PUNCTS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// Prepared text of one segment: its characters for character n-grams, its words for word
/// n-grams. N-gram counters borrow from it.
#[derive(Debug)]
struct Prepared {
    chars: Vec<char>,
    text: String,
}

#[derive(Debug)]
struct Ngrams<'a> {
    chars: Vec<HashMap<&'a [char], usize>>,
    words: Vec<HashMap<Vec<&'a str>, usize>>,
}

fn count<K: std::hash::Hash + Eq>(it: impl Iterator<Item = K>) -> HashMap<K, usize> {
    let mut m = HashMap::default();
    for k in it {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

fn match_counts<K: std::hash::Hash + Eq>(
    h: &HashMap<K, usize>,
    r: &HashMap<K, usize>,
    out: &mut Vec<usize>,
) {
    let mut matches = 0;
    let mut hyp_count = 0;
    for (g, &c) in h {
        hyp_count += c;
        if let Some(&rc) = r.get(g) {
            matches += c.min(rc);
        }
    }
    out.push(if r.is_empty() { 0 } else { hyp_count });
    out.push(r.values().sum());
    out.push(matches);
}

/// Matched character n-grams per order (orders 1 to `max_n`) of `hyp` against `refc`, each
/// character a `bits`-bit code: `sum(min(hyp count, ref count))` over the distinct n-grams of
/// each order. The reference's n-grams are counted, then each hypothesis n-gram takes one from
/// its count while any is left; an n-gram the reference lacks matches nothing, nor does any
/// longer one that starts with it.
fn char_matches<K: PackedKey>(
    table: &mut KeyTable<K>,
    bits: u32,
    max_n: usize,
    hyp: &[u32],
    refc: &[u32],
    counts: &mut Vec<u32>,
) -> [usize; FAST_MAX_CHAR_ORDER] {
    for i in 0..refc.len() {
        let mut key = K::default();
        for &c in refc[i..].iter().take(max_n) {
            key = key.push_item(bits, c);
            let (id, new) = table.id(key);
            if new {
                counts.push(0);
            }
            counts[id] += 1;
        }
    }
    let mut matches = [0usize; FAST_MAX_CHAR_ORDER];
    for i in 0..hyp.len() {
        let mut key = K::default();
        for (n, &c) in hyp[i..].iter().take(max_n).enumerate() {
            key = key.push_item(bits, c);
            let Some(id) = table.get(key) else {
                break;
            };
            let left = &mut counts[id];
            if *left > 0 {
                *left -= 1;
                matches[n] += 1;
            }
        }
    }
    matches
}

impl Chrf {
    /// chrF++ (word order 2).
    pub fn plus_plus() -> Self {
        Self {
            word_order: 2,
            ..Self::default()
        }
    }

    /// The signature (sacreBLEU: `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no`).
    pub fn signature(&self, nrefs: usize, scale: &str) -> Signature {
        let name = format!("chrF{}{}", self.beta, "+".repeat(self.word_order));
        Signature::new(name, crate::VERSION)
            .with("compat", "sacrebleu-2.4.3")
            .with("nrefs", nrefs)
            .with("case", if self.lowercase { "lc" } else { "mixed" })
            .with("eff", if self.eps_smoothing { "no" } else { "yes" })
            .with("nc", self.char_order)
            .with("nw", self.word_order)
            .with("space", if self.whitespace { "yes" } else { "no" })
            .with("scale", scale)
    }

    fn prepare(&self, s: &str) -> String {
        if self.lowercase {
            s.to_lowercase()
        } else {
            s.to_string()
        }
    }

    fn char_line(&self, s: &str) -> String {
        if self.whitespace {
            s.to_string()
        } else {
            py_split(s).collect()
        }
    }

    /// sacreBLEU's `_remove_punctuation`: one leading or trailing ASCII punctuation mark of
    /// each word becomes a word of its own.
    fn words(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for w in py_split(s) {
            let mut cs = w.chars();
            let first = cs.next().unwrap_or(' ');
            let last = w.chars().next_back().unwrap_or(' ');
            if w.chars().count() == 1 {
                out.push(w);
            } else if PUNCTS.contains(last) {
                let cut = w.len() - last.len_utf8();
                out.push(&w[..cut]);
                out.push(&w[cut..]);
            } else if PUNCTS.contains(first) {
                let cut = first.len_utf8();
                out.push(&w[..cut]);
                out.push(&w[cut..]);
            } else {
                out.push(w);
            }
        }
        out
    }

    fn prepare_segment(&self, s: &str) -> Prepared {
        let text = self.prepare(s);
        Prepared {
            chars: self.char_line(&text).chars().collect(),
            text,
        }
    }

    fn ngrams<'a>(&self, p: &'a Prepared) -> Ngrams<'a> {
        let chars = (1..=self.char_order)
            .map(|n| count(p.chars.windows(n)))
            .collect();
        Ngrams {
            chars,
            words: self.word_ngrams(p),
        }
    }

    fn word_ngrams<'a>(&self, p: &'a Prepared) -> Vec<HashMap<Vec<&'a str>, usize>> {
        if self.word_order == 0 {
            return Vec::new();
        }
        let ws = Self::words(&p.text);
        (1..=self.word_order)
            .map(|n| count(ws.windows(n).map(<[&str]>::to_vec)))
            .collect()
    }

    fn match_stats(h: &Ngrams<'_>, r: &Ngrams<'_>) -> Vec<usize> {
        let mut stats = Vec::with_capacity(3 * (h.chars.len() + h.words.len()));
        for (a, b) in h.chars.iter().zip(&r.chars) {
            match_counts(a, b, &mut stats);
        }
        for (a, b) in h.words.iter().zip(&r.words) {
            match_counts(a, b, &mut stats);
        }
        stats
    }

    /// chrF (0-100) from summed `[hyp, ref, match]` statistics per order.
    pub fn score_from_stats(&self, stats: &[usize]) -> f64 {
        let eps = 1e-16;
        let factor = self.beta * self.beta;
        let order = self.char_order + self.word_order;
        let mut score = 0.0;
        let mut eff = 0usize;
        let (mut avg_p, mut avg_r) = (0.0, 0.0);
        for i in 0..order {
            let (n_hyp, n_ref, n_match) = (stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]);
            let prec = if n_hyp > 0 {
                n_match as f64 / n_hyp as f64
            } else {
                eps
            };
            let rec = if n_ref > 0 {
                n_match as f64 / n_ref as f64
            } else {
                eps
            };
            let denom = factor * prec + rec;
            score += if denom > 0.0 {
                (1.0 + factor) * prec * rec / denom
            } else {
                eps
            };
            if n_hyp > 0 && n_ref > 0 {
                avg_p += prec;
                avg_r += rec;
                eff += 1;
            }
        }
        if self.eps_smoothing {
            return 100.0 * score / order as f64;
        }
        if eff == 0 {
            avg_p = 0.0;
            avg_r = 0.0;
        } else {
            avg_p /= eff as f64;
            avg_r /= eff as f64;
        }
        if avg_p + avg_r != 0.0 {
            // sacreBLEU's operation order, so the last bit agrees too.
            let score = (1.0 + factor) * avg_p * avg_r;
            let score = score / (factor * avg_p + avg_r);
            100.0 * score
        } else {
            0.0
        }
    }

    /// Statistics of one hypothesis against its best reference (highest F-score, first on ties).
    pub fn segment_stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Vec<usize> {
        if !(1..=FAST_MAX_CHAR_ORDER).contains(&self.char_order) {
            return self.segment_stats_reference(hyp, refs);
        }
        SCRATCH.with_borrow_mut(|sc| self.segment_stats_fast(sc, hyp, refs))
    }

    /// The characters (code point + 1) that enter character n-grams.
    fn load_chars(&self, s: &str, out: &mut Vec<u32>) {
        out.clear();
        let lower;
        let s = if self.lowercase {
            lower = s.to_lowercase();
            lower.as_str()
        } else {
            s
        };
        let keep = |c: &char| self.whitespace || !is_py_space(*c);
        out.extend(s.chars().filter(keep).map(|c| u32::from(c) + 1));
    }

    /// [`Self::segment_stats_reference`] with character n-grams packed into `u128` keys of one
    /// reusable table (word n-grams of chrF++ still go through hash maps).
    fn segment_stats_fast<R: AsRef<str>>(
        &self,
        sc: &mut ChrfScratch,
        hyp: &str,
        refs: &[R],
    ) -> Vec<usize> {
        self.load_chars(hyp, &mut sc.hyp);
        let hyp_words = (self.word_order > 0).then(|| self.prepare_segment(hyp));
        let hyp_word_ngrams = hyp_words.as_ref().map(|p| self.word_ngrams(p));
        let mut best: Vec<usize> = Vec::new();
        let mut best_f = -1.0;
        for r in refs {
            let r = r.as_ref();
            self.load_chars(r, &mut sc.refc);
            let mut st = Vec::with_capacity(3 * (self.char_order + self.word_order));
            self.char_stats(sc, &mut st);
            if let Some(hw) = &hyp_word_ngrams {
                let rp = self.prepare_segment(r);
                for (a, b) in hw.iter().zip(&self.word_ngrams(&rp)) {
                    match_counts(a, b, &mut st);
                }
            }
            let f = self.score_from_stats(&st);
            if f > best_f {
                best_f = f;
                best = st;
            }
        }
        best
    }

    /// `[hyp, ref, match]` per character order for `sc.hyp` against `sc.refc`.
    fn char_stats(&self, sc: &mut ChrfScratch, out: &mut Vec<usize>) {
        let max_n = self.char_order;
        let ChrfScratch {
            hyp,
            refc,
            table,
            small_table,
            counts,
        } = sc;
        counts.clear();
        let bound = max_n * refc.len();
        // Mostly Latin text: 10 bits per character, six fit a u64.
        let matches = if hyp.iter().chain(refc.iter()).all(|&c| c < 1 << 10) {
            small_table.reset(bound);
            char_matches(small_table, 10, max_n, hyp, refc, counts)
        } else {
            table.reset(bound);
            char_matches(table, 21, max_n, hyp, refc, counts)
        };
        for (n, &m) in matches.iter().enumerate().take(max_n) {
            let hyp_count = hyp.len().saturating_sub(n);
            let ref_count = refc.len().saturating_sub(n);
            // sacreBLEU counts no hypothesis n-grams of an order the reference lacks.
            out.extend([if ref_count == 0 { 0 } else { hyp_count }, ref_count, m]);
        }
    }

    /// The straightforward statistics (hash maps of borrowed n-grams per order): used where the
    /// fast path's packing does not apply, and as its oracle in tests.
    fn segment_stats_reference<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Vec<usize> {
        let hp = self.prepare_segment(hyp);
        let h = self.ngrams(&hp);
        let mut best: Vec<usize> = Vec::new();
        let mut best_f = -1.0;
        for r in refs {
            let rp = self.prepare_segment(r.as_ref());
            let st = Self::match_stats(&h, &self.ngrams(&rp));
            let f = self.score_from_stats(&st);
            if f > best_f {
                best_f = f;
                best = st;
            }
        }
        best
    }

    /// Sentence chrF on sacreBLEU 2.x's 0-100 scale.
    ///
    /// ```
    /// use figlang_metrics::text::chrf::Chrf;
    /// let s = Chrf::default().sentence("It depends on when you are ready.", &["It all depends on when you are ready."])?;
    /// assert!((s.score / 100.0 - 0.853).abs() < 1e-4);   // the formality data's chrF column
    /// # Ok::<(), figlang_metrics::text::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] without references.
    pub fn sentence<R: AsRef<str>>(
        &self,
        hyp: &str,
        refs: &[R],
    ) -> Result<MetricScore, MetricError> {
        self.sentence_scaled(hyp, refs, 1.0, "0-100")
    }

    /// [`Chrf::signature`], built once per thread and setting ([`cached_signature`]).
    fn sentence_signature(&self, nrefs: usize, scale: &'static str) -> Signature {
        cached_signature(&SIGNATURE, (self.clone(), nrefs, scale), || {
            self.signature(nrefs, scale)
        })
    }

    /// Sentence chrF divided by `divisor` (1 for sacreBLEU 2.x's 0-100 scale, 100 for 1.x's
    /// 0-1), with the signature naming `scale`.
    fn sentence_scaled<R: AsRef<str>>(
        &self,
        hyp: &str,
        refs: &[R],
        divisor: f64,
        scale: &'static str,
    ) -> Result<MetricScore, MetricError> {
        if refs.is_empty() {
            return Err(MetricError::input("chrf", "no reference"));
        }
        let st = self.segment_stats(hyp, refs);
        Ok(MetricScore::new(
            self.score_from_stats(&st) / divisor,
            self.sentence_signature(refs.len(), scale),
        ))
    }

    /// Sentence chrF on the 0-1 scale of sacreBLEU 1.x `sentence_chrf`.
    ///
    /// # Errors
    /// As [`Chrf::sentence`].
    pub fn sentence_unit<R: AsRef<str>>(
        &self,
        hyp: &str,
        refs: &[R],
    ) -> Result<MetricScore, MetricError> {
        self.sentence_scaled(hyp, refs, 100.0, "0-1")
    }

    /// The statistics of a corpus: each segment's (see [`Chrf::segment_stats`]), summed.
    pub fn corpus_stats<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> Vec<usize> {
        let mut total = vec![0usize; 3 * (self.char_order + self.word_order)];
        for (h, r) in hyps.iter().zip(refs) {
            for (t, s) in total.iter_mut().zip(self.segment_stats(h.as_ref(), r)) {
                *t += s;
            }
        }
        total
    }

    /// Corpus chrF (0-100): statistics summed over segments.
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] on length mismatch or a hypothesis without reference.
    pub fn corpus<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> Result<MetricScore, MetricError> {
        let nrefs = corpus_nrefs("chrf", hyps.len(), refs)?;
        let total = self.corpus_stats(hyps, refs);
        Ok(MetricScore::new(
            self.score_from_stats(&total),
            self.signature(nrefs, "0-100"),
        ))
    }
}

/// chrF / chrF++ as a metric of summed statistics (the registry's `chrf`, `chrf++`): the corpus
/// signature names the 0-100 scale, the sentence one 0-1 (sacreBLEU 1.x's `sentence_chrf`);
/// the details are the orders, beta and sacreBLEU's statistics (per order, characters then
/// words: hypothesis n-grams, reference n-grams, matches).
impl SummedStats for Chrf {
    type Stats = Vec<usize>;

    fn segment_stats(&self, hyp: &str, refs: &[&str]) -> Vec<usize> {
        Chrf::segment_stats(self, hyp, refs)
    }
    fn corpus_stats(&self, hyps: &[String], refs: &[Vec<&str>]) -> Vec<usize> {
        Chrf::corpus_stats(self, hyps, refs)
    }
    fn score_from_stats(&self, stats: &Vec<usize>) -> f64 {
        Chrf::score_from_stats(self, stats)
    }
    fn corpus(&self, hyps: &[String], refs: &[Vec<&str>]) -> Result<MetricScore, MetricError> {
        Chrf::corpus(self, hyps, refs)
    }
    fn corpus_signature(&self, n_refs: usize) -> Signature {
        self.signature(n_refs, "0-100")
    }
    fn sentence_signature(&self, n_refs: usize) -> Signature {
        self.signature(n_refs, "0-1")
    }
    fn details(
        &self,
        stats: &Vec<usize>,
        score: f64,
    ) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("score".into(), serde_json::json!(score));
        m.insert("char_order".into(), serde_json::json!(self.char_order));
        m.insert("word_order".into(), serde_json::json!(self.word_order));
        m.insert("beta".into(), serde_json::json!(self.beta));
        m.insert("stats".into(), serde_json::json!(stats));
        m
    }
    fn stats_row(&self, stats: Vec<usize>) -> Vec<f64> {
        stats.into_iter().map(|v| v as f64).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TEXT: &str = "([a-c A-C.,!'\"0-9\\-é日😀\u{a0}\t]|ab|the |cat ){0,30}";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The packed-table statistics equal the hash-map ones on every setting.
        #[test]
        fn fast_stats_equal_reference(
            hyp in TEXT,
            refs in proptest::collection::vec(TEXT, 0..4),
            char_order in 1usize..=6,
            word_order in 0usize..=2,
            lowercase in any::<bool>(),
            whitespace in any::<bool>(),
        ) {
            let cfg = Chrf { char_order, word_order, lowercase, whitespace, ..Chrf::default() };
            prop_assert_eq!(cfg.segment_stats(&hyp, &refs), cfg.segment_stats_reference(&hyp, &refs));
        }
    }

    #[test]
    fn long_orders_fall_back() {
        let cfg = Chrf {
            char_order: 8,
            ..Chrf::default()
        };
        let st = cfg.segment_stats("abcdefghij", &["abcdefghxy"]);
        assert_eq!(st.len(), 24);
        assert_eq!(&st[21..], &[3, 3, 1]);
    }
}
