//! Corpus and sentence BLEU compatible with sacreBLEU 2.4.3 (`BLEU.corpus_score`,
//! `BLEU.sentence_score`): tokenizers 13a / intl / none, smoothing exp / floor / add-k / none,
//! lowercasing, effective order. Scores are on sacreBLEU's 0-100 scale.

use super::ngram::FxMap as HashMap;
use super::ngram_table::{Interner, KeyTable};
use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;

use hauser_core::Signature;
use rayon::prelude::*;

use crate::text::error::MetricError;
use crate::text::score::{cached_signature, corpus_nrefs, MetricScore, SignatureCache};
use crate::text::summed::SummedStats;
use crate::text::tokenizers::tokenize::{is_py_space, py_split, SacreTokenizer, Scratch13a};

/// sacreBLEU's smoothing methods.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum SacreSmoothing {
    /// No smoothing.
    None,
    /// Zero-match precisions become `value / total` (default value 0.1).
    Floor(f64),
    /// Add `k` to matches and totals of orders above one (default 1).
    AddK(f64),
    /// mteval-v13a's exponential decay (sacreBLEU's default).
    #[default]
    Exp,
}

impl fmt::Display for SacreSmoothing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SacreSmoothing::None => f.write_str("none"),
            SacreSmoothing::Exp => f.write_str("exp"),
            SacreSmoothing::Floor(v) => write!(f, "floor[{v:.2}]"),
            SacreSmoothing::AddK(v) => write!(f, "add-k[{v:.2}]"),
        }
    }
}

impl FromStr for SacreSmoothing {
    type Err = MetricError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => Ok(SacreSmoothing::None),
            "exp" => Ok(SacreSmoothing::Exp),
            "floor" => Ok(SacreSmoothing::Floor(0.1)),
            "add-k" => Ok(SacreSmoothing::AddK(1.0)),
            other => Err(MetricError::option(
                "bleu",
                format!("unknown smoothing {other:?} (exp, floor, add-k, none)"),
            )),
        }
    }
}

/// sacreBLEU-compatible BLEU settings.
#[derive(Debug, Clone, PartialEq)]
pub struct SacreBleu {
    /// Tokenizer (default 13a).
    pub tokenizer: SacreTokenizer,
    /// Lowercase hypotheses and references first.
    pub lowercase: bool,
    /// Smoothing (default exp).
    pub smoothing: SacreSmoothing,
    /// Stop at the highest order with matches (sacreBLEU's sentence-level recommendation).
    pub effective_order: bool,
    /// Maximum n-gram order (4).
    pub max_ngram_order: usize,
}

impl Default for SacreBleu {
    fn default() -> Self {
        Self {
            tokenizer: SacreTokenizer::T13a,
            lowercase: false,
            smoothing: SacreSmoothing::Exp,
            effective_order: false,
            max_ngram_order: 4,
        }
    }
}

/// Sufficient statistics of BLEU for one segment or a corpus.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BleuStats {
    /// Hypothesis length in tokens.
    pub sys_len: usize,
    /// Closest reference length in tokens.
    pub ref_len: usize,
    /// Matched n-grams per order.
    pub correct: Vec<usize>,
    /// Hypothesis n-grams per order.
    pub total: Vec<usize>,
}

impl BleuStats {
    /// The statistics in sacreBLEU's row layout: `[sys_len, ref_len, correct_1..N, total_1..N]`.
    pub fn row(&self) -> Vec<f64> {
        let mut row = vec![self.sys_len as f64, self.ref_len as f64];
        row.extend(self.correct.iter().map(|&c| c as f64));
        row.extend(self.total.iter().map(|&c| c as f64));
        row
    }

    fn zeros(max_n: usize) -> Self {
        Self {
            correct: vec![0; max_n],
            total: vec![0; max_n],
            ..Default::default()
        }
    }

    /// Adds one segment's statistics from the fast path.
    fn add_fast(&mut self, f: &FastStats) {
        self.sys_len += f.sys_len;
        self.ref_len += f.ref_len;
        for (a, b) in self.correct.iter_mut().zip(&f.correct) {
            *a += b;
        }
        for (n, t) in self.total.iter_mut().enumerate() {
            *t += f.sys_len.saturating_sub(n);
        }
    }

    fn add(&mut self, o: &BleuStats) {
        self.sys_len += o.sys_len;
        self.ref_len += o.ref_len;
        for (a, b) in self.correct.iter_mut().zip(&o.correct) {
            *a += b;
        }
        for (a, b) in self.total.iter_mut().zip(&o.total) {
            *a += b;
        }
    }
}

/// sacreBLEU's `BLEUScore` fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BleuDetails {
    /// BLEU, 0-100.
    pub score: f64,
    /// Matched n-grams per order (with add-k smoothing, plus k from order 2, as sacreBLEU
    /// reports them).
    pub counts: Vec<f64>,
    /// Hypothesis n-grams per order (likewise).
    pub totals: Vec<f64>,
    /// n-gram precisions, 0-100 (smoothed where smoothing applies; 0 past the last order used).
    pub precisions: Vec<f64>,
    /// Brevity penalty.
    pub bp: f64,
    /// `sys_len / ref_len` (0 without reference tokens).
    pub ratio: f64,
    /// Hypothesis tokens.
    pub sys_len: usize,
    /// Closest-reference tokens.
    pub ref_len: usize,
}

impl BleuDetails {
    /// sacreBLEU's `verbose_score`: `p1/p2/p3/p4 (BP = ... ratio = ... hyp_len = ... ref_len = ...)`.
    pub fn verbose(&self) -> String {
        let p: Vec<String> = self.precisions.iter().map(|p| format!("{p:.1}")).collect();
        format!(
            "{} (BP = {:.3} ratio = {:.3} hyp_len = {} ref_len = {})",
            p.join("/"),
            self.bp,
            self.ratio,
            self.sys_len,
            self.ref_len
        )
    }
}

type NgramCounts<'a, 'b> = HashMap<&'b [&'a str], usize>;

fn all_ngrams<'a, 'b>(tokens: &'b [&'a str], max_n: usize) -> NgramCounts<'a, 'b> {
    let mut m = HashMap::default();
    for n in 1..=max_n {
        for w in tokens.windows(n) {
            *m.entry(w).or_insert(0) += 1;
        }
    }
    m
}

/// Segments per parallel task of [`SacreBleu::corpus_stats`].
const CORPUS_CHUNK: usize = 1024;

/// Highest order the fast path packs into a `u64` (16 bits per token id).
const FAST_MAX_ORDER: usize = 4;

/// One segment's statistics as the fast path counts them, on the stack (orders up to
/// [`FAST_MAX_ORDER`]; a hypothesis of `sys_len` tokens has `sys_len - n` n-grams of order
/// `n + 1`).
#[derive(Debug, Default, Clone, Copy)]
struct FastStats {
    sys_len: usize,
    ref_len: usize,
    correct: [usize; FAST_MAX_ORDER],
}

/// Per-thread buffers of the fast segment statistics, reused across segments.
#[derive(Debug, Default)]
struct BleuScratch {
    tok: Scratch13a,
    /// The tokenized references, then the hypothesis, each followed by a space.
    text: String,
    spans: Vec<(u32, u32)>,
    /// Token index where each side (references, then hypothesis) ends.
    side_ends: Vec<usize>,
    interner: Interner,
    /// Per token: its interned id + 1; 0 for a hypothesis token that no reference has.
    ids: Vec<u32>,
    /// The references' n-grams of order 2 and above.
    table: KeyTable<u64>,
    /// Per distinct reference unigram (by token id), then per distinct longer n-gram (by table
    /// id): its count in the current reference, and its largest count over the references (one
    /// reference: the count, in the first place).
    counts: Vec<[u32; 2]>,
}

thread_local! {
    static SCRATCH: RefCell<BleuScratch> = RefCell::new(BleuScratch::default());
    static SIGNATURE: SignatureCache<(SacreBleu, usize)> = const { RefCell::new(None) };
}

/// Orders up to which [`SacreBleu::score_from_stats`] works on the stack.
const STACK_ORDERS: usize = 8;

/// sacreBLEU's brevity penalty of a hypothesis length against the closest reference length.
fn brevity_penalty(sys: f64, rl: f64) -> f64 {
    if sys < rl {
        if sys > 0.0 {
            (1.0 - rl / sys).exp()
        } else {
            0.0
        }
    } else {
        1.0
    }
}

fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9_999_999_999.0
    } else {
        x.ln()
    }
}

impl SacreBleu {
    /// Settings of sacreBLEU's `sentence_bleu` (effective order on).
    pub fn sentence_default() -> Self {
        Self {
            effective_order: true,
            ..Self::default()
        }
    }

    /// The signature, in the spirit of sacreBLEU's `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp`.
    pub fn signature(&self, nrefs: usize) -> Signature {
        Signature::new("bleu", crate::VERSION)
            .with("compat", "sacrebleu-2.4.3")
            .with("nrefs", nrefs)
            .with("case", if self.lowercase { "lc" } else { "mixed" })
            .with("eff", if self.effective_order { "yes" } else { "no" })
            .with("tok", self.tokenizer)
            .with("smooth", self.smoothing)
    }

    fn preprocess(&self, s: &str) -> String {
        let s = if self.lowercase {
            s.to_lowercase()
        } else {
            s.to_string()
        };
        self.tokenizer
            .tokenize(s.trim_end_matches(hauser_core::tokenize::is_python_space))
    }

    /// Statistics of one hypothesis against its references.
    pub fn segment_stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> BleuStats {
        let mut st = BleuStats::zeros(self.max_ngram_order);
        self.accumulate(hyp, refs, &mut st);
        st
    }

    /// Adds the statistics of one segment to `acc`.
    fn accumulate<R: AsRef<str>>(&self, hyp: &str, refs: &[R], acc: &mut BleuStats) {
        match self.fast_stats(hyp, refs) {
            Some(f) => acc.add_fast(&f),
            None => acc.add(&self.segment_stats_reference(hyp, refs)),
        }
    }

    /// The fast path's statistics, where it applies.
    fn fast_stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Option<FastStats> {
        if !(1..=FAST_MAX_ORDER).contains(&self.max_ngram_order) {
            return None;
        }
        SCRATCH.with_borrow_mut(|sc| self.accumulate_fast(sc, hyp, refs))
    }

    /// `score_from_stats(&segment_stats(hyp, refs))`, without building the statistics' lists
    /// where the fast path applies: a sentence score allocates nothing.
    pub fn segment_score<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> f64 {
        let n = self.max_ngram_order;
        match self.fast_stats(hyp, refs) {
            Some(f) => {
                let mut total = [0usize; FAST_MAX_ORDER];
                for (k, t) in total.iter_mut().enumerate() {
                    *t = f.sys_len.saturating_sub(k);
                }
                self.score_parts(f.sys_len, f.ref_len, &f.correct[..n], &total[..n])
            }
            None => self.score_from_stats(&self.segment_stats(hyp, refs)),
        }
    }

    fn push_side(&self, sc: &mut BleuScratch, s: &str) {
        let lower;
        let s = if self.lowercase {
            lower = s.to_lowercase();
            lower.as_str()
        } else {
            s
        };
        let s = s.trim_end_matches(is_py_space);
        self.tokenizer
            .tokens_into(s, &mut sc.tok, &mut sc.text, &mut sc.spans);
        sc.side_ends.push(sc.spans.len());
    }

    /// [`Self::segment_stats_reference`] without allocation: tokens interned to small ids,
    /// n-grams packed into `u64` keys of one reusable table. The references' n-grams are
    /// counted (their largest count over the references), then each hypothesis n-gram takes
    /// one from its count while any is left: the clipped matches, `min(hyp, ref)` summed. Only
    /// the references' tokens and n-grams are stored: a hypothesis n-gram that is not a
    /// reference n-gram matches nothing, nor does any longer one that starts with it. `None`
    /// when the references have too many distinct tokens for 16-bit ids.
    fn accumulate_fast<R: AsRef<str>>(
        &self,
        sc: &mut BleuScratch,
        hyp: &str,
        refs: &[R],
    ) -> Option<FastStats> {
        let max_n = self.max_ngram_order;
        sc.text.clear();
        sc.spans.clear();
        sc.side_ends.clear();
        for r in refs {
            self.push_side(sc, r.as_ref());
        }
        self.push_side(sc, hyp);
        // Room for the interner to read any token's first 8 bytes as one word.
        sc.text.push_str("        ");
        if u32::try_from(sc.text.len()).is_err() {
            return None;
        }
        let BleuScratch {
            text,
            spans,
            side_ends,
            interner,
            ids,
            table,
            counts,
            ..
        } = sc;
        let n_refs = side_ends.len() - 1;
        let ref_end = n_refs.checked_sub(1).map_or(0, |k| side_ends[k]);
        let bytes = text.as_bytes();
        interner.reset(ref_end);
        ids.clear();
        ids.extend(
            spans[..ref_end]
                .iter()
                .map(|&(a, b)| interner.intern(bytes, a, b) + 1),
        );
        if interner.len() >= 0xFFFF {
            return None;
        }
        ids.extend(
            spans[ref_end..]
                .iter()
                .map(|&(a, b)| interner.get(bytes, a, b).map_or(0, |v| v + 1)),
        );
        // Unigrams are counted by token id, the first `n_uni` places of `counts` (a token's id
        // is its place among the references' distinct tokens): no hashing for the most frequent
        // lookups. Longer n-grams go through the table, their counts after the unigrams'.
        let n_uni = interner.len();
        table.reset(ref_end * (max_n - 1));
        counts.clear();
        counts.resize(n_uni, [0, 0]);
        let hyp_len = ids.len() - ref_end;
        let single = n_refs == 1;
        let mut closest: Option<(usize, usize)> = None;
        let mut start = 0;
        for &end in &side_ends[..n_refs] {
            let toks = &ids[start..end];
            for (i, &t) in toks.iter().enumerate() {
                // Reference tokens are interned: ids from 1.
                counts[t as usize - 1][0] += 1;
                let mut key = u64::from(t);
                for &u in toks[i + 1..].iter().take(max_n - 1) {
                    key = (key << 16) | u64::from(u);
                    let (id, new) = table.id(key);
                    if new {
                        counts.push([0, 0]);
                    }
                    counts[n_uni + id][0] += 1;
                }
            }
            if !single {
                for c in counts.iter_mut() {
                    c[1] = c[1].max(c[0]);
                    c[0] = 0;
                }
            }
            let l = toks.len();
            let d = l.abs_diff(hyp_len);
            closest = match closest {
                Some((cd, cl)) if d > cd || (d == cd && l >= cl) => Some((cd, cl)),
                _ => Some((d, l)),
            };
            start = end;
        }
        let left = usize::from(!single);
        let mut correct = [0usize; FAST_MAX_ORDER];
        let toks = &ids[ref_end..];
        for (i, &t) in toks.iter().enumerate() {
            // 0: a token no reference has, so no n-gram from here matches.
            if t == 0 {
                continue;
            }
            let c = &mut counts[t as usize - 1][left];
            if *c > 0 {
                *c -= 1;
                correct[0] += 1;
            }
            let mut key = u64::from(t);
            for (n, &u) in toks[i + 1..].iter().take(max_n - 1).enumerate() {
                if u == 0 {
                    break;
                }
                key = (key << 16) | u64::from(u);
                let Some(id) = table.get(key) else {
                    break;
                };
                let c = &mut counts[n_uni + id][left];
                if *c > 0 {
                    *c -= 1;
                    correct[n + 1] += 1;
                }
            }
        }
        Some(FastStats {
            sys_len: hyp_len,
            ref_len: closest.map_or(0, |c| c.1),
            correct,
        })
    }

    /// The straightforward statistics (one hash map of borrowed token slices): used where the
    /// fast path's packing does not apply, and as its oracle in tests.
    fn segment_stats_reference<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> BleuStats {
        let max_n = self.max_ngram_order;
        let ref_strs: Vec<String> = refs.iter().map(|r| self.preprocess(r.as_ref())).collect();
        let ref_toks: Vec<Vec<&str>> = ref_strs.iter().map(|r| py_split(r).collect()).collect();
        let mut ref_ngrams: NgramCounts<'_, '_> = HashMap::default();
        let mut ref_lens = Vec::new();
        for toks in &ref_toks {
            ref_lens.push(toks.len());
            for (g, c) in all_ngrams(toks, max_n) {
                let e = ref_ngrams.entry(g).or_insert(0);
                *e = (*e).max(c);
            }
        }
        let h = self.preprocess(hyp);
        let htoks: Vec<&str> = py_split(&h).collect();
        let hyp_len = htoks.len();
        let mut closest: Option<(usize, usize)> = None;
        for &l in &ref_lens {
            let d = l.abs_diff(hyp_len);
            closest = match closest {
                Some((cd, cl)) if d > cd || (d == cd && l >= cl) => Some((cd, cl)),
                _ => Some((d, l)),
            };
        }
        let mut stats = BleuStats {
            sys_len: hyp_len,
            ref_len: closest.map_or(0, |c| c.1),
            correct: vec![0; max_n],
            total: vec![0; max_n],
        };
        for (g, c) in all_ngrams(&htoks, max_n) {
            let n = g.len() - 1;
            stats.total[n] += c;
            if let Some(&rc) = ref_ngrams.get(g) {
                stats.correct[n] += c.min(rc);
            }
        }
        stats
    }

    /// BLEU (0-100) from sufficient statistics (sacreBLEU's `compute_bleu`).
    pub fn score_from_stats(&self, stats: &BleuStats) -> f64 {
        self.score_parts(stats.sys_len, stats.ref_len, &stats.correct, &stats.total)
    }

    /// [`Self::score_from_stats`] of statistics given by their parts.
    fn score_parts(
        &self,
        sys_len: usize,
        ref_len: usize,
        correct: &[usize],
        total: &[usize],
    ) -> f64 {
        let max_n = self.max_ngram_order;
        if max_n > STACK_ORDERS {
            let (mut counts, mut totals, mut precisions) =
                (vec![0.0; max_n], vec![0.0; max_n], vec![0.0; max_n]);
            return self.compute(
                (sys_len, ref_len, correct, total),
                &mut counts,
                &mut totals,
                &mut precisions,
            );
        }
        // The per-order working lists on the stack: a sentence score allocates nothing here.
        let mut work = [[0.0; STACK_ORDERS]; 3];
        let [counts, totals, precisions] = &mut work;
        self.compute(
            (sys_len, ref_len, correct, total),
            &mut counts[..max_n],
            &mut totals[..max_n],
            &mut precisions[..max_n],
        )
    }

    /// sacreBLEU's `BLEUScore` of sufficient statistics: the score with its n-gram counts,
    /// totals, precisions (0-100), brevity penalty and length ratio.
    pub fn details(&self, stats: &BleuStats) -> BleuDetails {
        let max_n = self.max_ngram_order;
        let (mut counts, mut totals, mut precisions) =
            (vec![0.0; max_n], vec![0.0; max_n], vec![0.0; max_n]);
        let score = self.compute(
            (stats.sys_len, stats.ref_len, &stats.correct, &stats.total),
            &mut counts,
            &mut totals,
            &mut precisions,
        );
        let (sys, rl) = (stats.sys_len as f64, stats.ref_len as f64);
        BleuDetails {
            score,
            counts,
            totals,
            precisions,
            bp: brevity_penalty(sys, rl),
            ratio: if stats.ref_len > 0 { sys / rl } else { 0.0 },
            sys_len: stats.sys_len,
            ref_len: stats.ref_len,
        }
    }

    /// sacreBLEU's `compute_bleu` into caller-provided per-order lists (`max_ngram_order`
    /// long, zeroed): fills the counts and totals as sacreBLEU reports them and the
    /// precisions, and returns the score.
    /// The statistics come as their parts `(sys_len, ref_len, correct, total)`.
    fn compute(
        &self,
        (sys_len, ref_len, stats_correct, stats_total): (usize, usize, &[usize], &[usize]),
        correct: &mut [f64],
        total: &mut [f64],
        precisions: &mut [f64],
    ) -> f64 {
        let max_n = self.max_ngram_order;
        for (c, &s) in correct.iter_mut().zip(stats_correct) {
            *c = s as f64;
        }
        for (t, &s) in total.iter_mut().zip(stats_total) {
            *t = s as f64;
        }
        if stats_correct.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let bp = brevity_penalty(sys_len as f64, ref_len as f64);
        let mut smooth_mteval = 1.0;
        let mut eff_order = max_n;
        for n in 1..=max_n {
            // sacreBLEU adds k to the lists it returns, so the counts it reports include it.
            if let SacreSmoothing::AddK(k) = self.smoothing {
                if n > 1 {
                    correct[n - 1] += k;
                    total[n - 1] += k;
                }
            }
            if total[n - 1] == 0.0 {
                break;
            }
            if self.effective_order {
                eff_order = n;
            }
            if correct[n - 1] == 0.0 {
                match self.smoothing {
                    SacreSmoothing::Exp => {
                        smooth_mteval *= 2.0;
                        precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
                    }
                    SacreSmoothing::Floor(v) => precisions[n - 1] = 100.0 * v / total[n - 1],
                    _ => {}
                }
            } else {
                precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
            }
        }
        let s: f64 = precisions[..eff_order].iter().map(|&p| my_log(p)).sum();
        bp * (s / eff_order as f64).exp()
    }

    /// The statistics of a corpus: each segment's, summed. Segments are counted in parallel
    /// (rayon), a chunk of segments (1,024) at a time; the sums are integers, the same in any order.
    pub fn corpus_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> BleuStats {
        let n = hyps.len().min(refs.len());
        hyps[..n]
            .par_chunks(CORPUS_CHUNK)
            .zip(refs[..n].par_chunks(CORPUS_CHUNK))
            .map(|(hyps, refs)| {
                let mut total = BleuStats::zeros(self.max_ngram_order);
                for (h, r) in hyps.iter().zip(refs) {
                    self.accumulate(h.as_ref(), r, &mut total);
                }
                total
            })
            .reduce(
                || BleuStats::zeros(self.max_ngram_order),
                |mut a, b| {
                    a.add(&b);
                    a
                },
            )
    }

    /// sacreBLEU `sentence_score(hyp, refs)`.
    ///
    /// ```
    /// use figlang_metrics::text::bleu_sacre::SacreBleu;
    /// let s = SacreBleu::sentence_default().sentence("The cat sat.", &["The cat sat."])?;
    /// assert!((s.score - 100.0).abs() < 1e-9);
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
        if refs.is_empty() {
            return Err(MetricError::input("bleu", "no reference"));
        }
        let st = self.segment_stats(hyp, refs);
        Ok(MetricScore::new(
            self.score_from_stats(&st),
            self.sentence_signature(refs.len()),
        ))
    }

    /// [`SacreBleu::signature`], built once per thread and setting ([`cached_signature`]).
    fn sentence_signature(&self, nrefs: usize) -> Signature {
        cached_signature(&SIGNATURE, (self.clone(), nrefs), || self.signature(nrefs))
    }

    /// sacreBLEU `corpus_score(hyps, refs)`; `refs[i]` holds the references of `hyps[i]`
    /// (sacreBLEU's missing references, `None`, are simply left out).
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] on length mismatch or a hypothesis without reference.
    pub fn corpus<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> Result<MetricScore, MetricError> {
        let nrefs = corpus_nrefs("bleu", hyps.len(), refs)?;
        let total = self.corpus_stats(hyps, refs);
        Ok(MetricScore::new(
            self.score_from_stats(&total),
            self.signature(nrefs),
        ))
    }
}

/// BLEU as a metric of summed statistics (the registry's `bleu`): sentences are scored with
/// effective order, as sacreBLEU's `sentence_score` recommends; the details are its `BLEUScore`
/// fields and `verbose_score`.
impl SummedStats for SacreBleu {
    type Stats = BleuStats;

    fn segment_stats(&self, hyp: &str, refs: &[&str]) -> BleuStats {
        SacreBleu::segment_stats(self, hyp, refs)
    }
    fn corpus_stats(&self, hyps: &[String], refs: &[Vec<&str>]) -> BleuStats {
        SacreBleu::corpus_stats(self, hyps, refs)
    }
    fn score_from_stats(&self, stats: &BleuStats) -> f64 {
        SacreBleu::score_from_stats(self, stats)
    }
    fn segment_score(&self, hyp: &str, refs: &[&str]) -> f64 {
        SacreBleu::segment_score(self, hyp, refs)
    }
    fn corpus(&self, hyps: &[String], refs: &[Vec<&str>]) -> Result<MetricScore, MetricError> {
        SacreBleu::corpus(self, hyps, refs)
    }
    fn corpus_signature(&self, n_refs: usize) -> Signature {
        self.signature(n_refs)
    }
    fn for_sentences(&self) -> Self {
        SacreBleu {
            effective_order: true,
            ..self.clone()
        }
    }
    fn details(&self, stats: &BleuStats, score: f64) -> serde_json::Map<String, serde_json::Value> {
        let d = SacreBleu::details(self, stats);
        let verbose = d.verbose();
        let mut m = match serde_json::to_value(&d) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        m.insert("score".into(), serde_json::json!(score));
        m.insert("verbose_score".into(), serde_json::json!(verbose));
        m
    }
    fn stats_row(&self, stats: BleuStats) -> Vec<f64> {
        stats.row()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TEXT: &str =
        "([a-c A-C.,!'\"0-9\\-&<>é日😀\u{a0}\u{85}\u{3000}\u{1c}\t\n]|ab|the |cat |&amp;|<skipped>){0,30}";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The packed-table statistics equal the hash-map ones on every setting.
        #[test]
        fn fast_stats_equal_reference(
            hyp in TEXT,
            refs in proptest::collection::vec(TEXT, 0..4),
            tok in 0usize..3,
            lowercase in any::<bool>(),
            max_n in 1usize..=4,
        ) {
            let cfg = SacreBleu {
                tokenizer: [SacreTokenizer::T13a, SacreTokenizer::Intl, SacreTokenizer::None][tok],
                lowercase,
                max_ngram_order: max_n,
                ..SacreBleu::default()
            };
            prop_assert_eq!(cfg.segment_stats(&hyp, &refs), cfg.segment_stats_reference(&hyp, &refs));
        }
    }

    #[test]
    fn more_distinct_tokens_than_16_bit_ids_fall_back() {
        // Only the references' tokens are interned: 70,000 distinct ones there fall back.
        let reference: String = (0..70_000).map(|i| format!("w{i} ")).collect();
        let hyp: String = (0..70_000).map(|i| format!("w{} ", i / 2)).collect();
        let cfg = SacreBleu::default();
        let st = cfg.segment_stats(&hyp, &[&reference]);
        assert_eq!(st, cfg.segment_stats_reference(&hyp, &[&reference]));
        assert_eq!(st.correct[0], 35_000);
        // A short segment afterwards takes the fast path again, with the grown buffers.
        let short = cfg.segment_stats("a b c", &["a b d"]);
        assert_eq!(short.correct, vec![2, 1, 0, 0]);
    }

    #[test]
    fn fallback_orders_and_corpus_sum() {
        let hyps = ["the cat sat on the mat .", "a b c d e f", ""];
        let refs = [
            vec!["the cat is on the mat ."],
            vec!["a b c d e f g", "b c d"],
            vec!["x"],
        ];
        for max_n in [1, 4, 5, 7] {
            let cfg = SacreBleu {
                max_ngram_order: max_n,
                ..SacreBleu::default()
            };
            let mut sum = BleuStats::zeros(max_n);
            for (h, r) in hyps.iter().zip(&refs) {
                let st = cfg.segment_stats(h, r);
                assert_eq!(st, cfg.segment_stats_reference(h, r));
                sum.add(&st);
            }
            let want = cfg.score_from_stats(&sum);
            assert_eq!(cfg.corpus(&hyps, &refs).expect("corpus").score, want);
        }
    }
}
