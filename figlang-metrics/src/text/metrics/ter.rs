//! Translation Edit Rate (Snover et al., 2006) compatible with sacreBLEU 2.4.3 (`TER`):
//! Tercom's normalisation options, the edit distance restricted to a beam around the
//! (length-ratio) diagonal, and Tercom's greedy search for word-block shifts.
//!
//! The number of edits of a hypothesis against one reference is the number of shifts applied
//! plus the edit distance (insertions, deletions, substitutions, each costing 1) of the shifted
//! hypothesis. Shifts are applied greedily, best first, while one lowers the edit distance; a
//! shift moves a block of 1 to 10 words that matches the reference at a start position at most
//! 50 words away. Once 1,000 candidate shifts have been evaluated for a hypothesis-reference
//! pair the search stops, and (as in sacreBLEU) the best shift of that last round is not
//! applied. With several references the segment keeps the fewest edits and the mean reference
//! length, empty references included (so `TER("a", ["b", ""])` is 1 / 0.5 = 200).
//! Scores are sacreBLEU's 0-100 scale: `100 * edits / reference length`, 100 when the
//! references are empty and the hypothesis is not, 0 when both are empty.
//!
//! ```
//! use figlang_metrics::text::ter::Ter;
//! // One shift moves "a b c" to the front: 1 edit over 8 reference words.
//! let s = Ter::default().sentence("d e f g h a b c", &["a b c d e f g h"])?;
//! assert_eq!(s.score, 12.5);
//! assert_eq!(s.signature.get("tok"), Some("tercom"));
//! # Ok::<(), figlang_metrics::text::MetricError>(())
//! ```

use std::cell::RefCell;

use hauser_core::Signature;
use rayon::prelude::*;

use super::ngram::FxMap;
use super::ngram_table::Interner;
use crate::text::error::MetricError;
use crate::text::score::{cached_signature, corpus_nrefs, MetricScore, SignatureCache};
use crate::text::summed::SummedStats;
use crate::text::tokenizers::ter_tokenize::{tercom_tokenize, TercomOptions};
use crate::text::tokenizers::tokenize::py_split;

/// TER settings; the default is sacreBLEU's (every flag off: lowercased, no normalisation,
/// punctuation kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ter {
    /// Keep case (sacreBLEU `case_sensitive`); off lowercases hypotheses and references.
    pub case_sensitive: bool,
    /// Tercom's normalisation (`normalized`): joins lines, unescapes `&quot;` `&amp;` `&lt;`
    /// `&gt;`, splits off punctuation and possessive `'s`, and, with `asian_support`, splits
    /// CJK ideographs and punctuation into words of their own.
    pub normalized: bool,
    /// Remove the punctuation `.,?:;!"()` (`no_punct`), and with `asian_support` the CJK and
    /// full-width punctuation too.
    pub no_punct: bool,
    /// Asian-language support (`asian_support`); only has an effect with `normalized` or
    /// `no_punct`.
    pub asian_support: bool,
}

/// Sufficient statistics of TER for one segment or (summed) a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TerStats {
    /// Fewest edits (shifts plus edit distance) over the references.
    pub num_edits: f64,
    /// Reference length in words, averaged over the segment's references.
    pub ref_length: f64,
}

/// Cost of an insertion, a deletion, a substitution (Tercom's).
const COST_INS: u32 = 1;
const COST_DEL: u32 = 1;
const COST_SUB: u32 = 1;
/// Longest block a shift moves.
const MAX_SHIFT_SIZE: usize = 10;
/// Largest distance between the block's start in the hypothesis and in the reference.
const MAX_SHIFT_DIST: usize = 50;
/// Half-width of the edit distance's beam around the diagonal.
const BEAM_WIDTH: usize = 25;
/// Candidate shifts evaluated per hypothesis-reference pair before the search stops.
const MAX_SHIFT_CANDIDATES: usize = 1000;
/// Cost of a cell outside the beam (sacreBLEU: `int(1e16)`; any value above every real cost
/// that leaves room for a few additions compares the same).
const INF: u32 = u32::MAX / 4;

/// Segments whose statistics [`Ter::corpus_stats`] holds at a time.
const CORPUS_CHUNK: usize = 4096;

/// Edit operations of the trace, rewriting the hypothesis into the reference.
const OP_NOP: u8 = 0;
const OP_SUB: u8 = 1;
/// A reference word inserted.
const OP_INS: u8 = 2;
/// A hypothesis word deleted.
const OP_DEL: u8 = 3;
/// A cell outside the beam.
const OP_UNDEF: u8 = 4;

/// Marks a reference position the alignment left out (cannot happen on a complete trace).
const UNALIGNED: isize = isize::MIN;

/// The beam: row `i` of the edit-distance matrix holds columns `lo[i]..hi[i]`, stored from
/// `off[i]` in the flat buffers.
#[derive(Debug, Default)]
struct Band {
    lo: Vec<usize>,
    hi: Vec<usize>,
    off: Vec<usize>,
}

impl Band {
    /// sacreBLEU's beam for `n_h` hypothesis and `n_r` reference words: around
    /// `floor(i * n_r / n_h)`, half-width 25 (more when the lengths differ by over 50x), the
    /// last row complete. Returns the number of cells.
    fn set(&mut self, n_h: usize, n_r: usize) -> usize {
        self.lo.clear();
        self.hi.clear();
        self.off.clear();
        let ratio = if n_h > 0 {
            n_r as f64 / n_h as f64
        } else {
            1.0
        };
        let width = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as usize
        } else {
            BEAM_WIDTH
        };
        let mut total = n_r + 1;
        self.lo.push(0);
        self.hi.push(n_r + 1);
        self.off.push(0);
        for i in 1..=n_h {
            let diag = (i as f64 * ratio).floor() as usize;
            let lo = diag.saturating_sub(width).min(n_r + 1);
            let hi = if i == n_h {
                n_r + 1
            } else {
                (diag + width).min(n_r + 1)
            };
            let hi = hi.max(lo);
            self.lo.push(lo);
            self.hi.push(hi);
            self.off.push(total);
            total += hi - lo;
        }
        total
    }
}

/// Per-thread buffers of the edit distance and shift search, reused across segments.
#[derive(Debug, Default)]
struct TerScratch {
    band: Band,
    /// Costs and operations of the current hypothesis' full (beamed) matrix.
    cost: Vec<u32>,
    ops: Vec<u8>,
    /// Rolling rows of a candidate's matrix.
    prev: Vec<u32>,
    cur: Vec<u32>,
    /// Current hypothesis, a candidate shift of it, word ids.
    words: Vec<u32>,
    shifted: Vec<u32>,
    /// Operations from the last cell back to the first.
    trace: Vec<u8>,
    /// Per reference position, its hypothesis position (-1: before the first word).
    align: Vec<isize>,
    hyp_err: Vec<u8>,
    ref_err: Vec<u8>,
}

/// The words of one segment (hypothesis, then each reference) as interned ids, in buffers
/// reused across segments.
#[derive(Debug, Default)]
struct Words {
    /// Every side's words, a space after each side.
    text: String,
    spans: Vec<(u32, u32)>,
    /// Word index where each side ends.
    ends: Vec<usize>,
    interner: Interner,
    ids: Vec<u32>,
}

thread_local! {
    static WORDS: RefCell<Words> = RefCell::new(Words::default());
    static SCRATCH: RefCell<TerScratch> = RefCell::new(TerScratch::default());
    static SIGNATURE: SignatureCache<(Ter, usize)> = const { RefCell::new(None) };
}

/// Fills columns `lo..hi` of one matrix row for hypothesis word `hw`, from the previous row
/// (`prev`, columns `plo..plo + prev.len()`); cells outside either band cost [`INF`]. Ties
/// prefer match/substitution, then deletion, then insertion, as sacreBLEU does.
#[inline]
#[allow(clippy::too_many_arguments)]
fn fill_row<const OPS: bool>(
    hw: u32,
    refw: &[u32],
    prev: &[u32],
    plo: usize,
    cur: &mut [u32],
    ops: &mut [u8],
    lo: usize,
) {
    let pget = |j: usize| {
        j.checked_sub(plo)
            .and_then(|k| prev.get(k))
            .copied()
            .unwrap_or(INF)
    };
    let mut left = INF;
    for (k, cell) in cur.iter_mut().enumerate() {
        let j = lo + k;
        let (c, op) = if j == 0 {
            (pget(0).saturating_add(COST_DEL), OP_DEL)
        } else {
            let (sub, sub_op) = if refw.get(j - 1) == Some(&hw) {
                (0, OP_NOP)
            } else {
                (COST_SUB, OP_SUB)
            };
            let mut best = INF;
            let mut op = OP_UNDEF;
            let diag = pget(j - 1).saturating_add(sub);
            if best > diag {
                best = diag;
                op = sub_op;
            }
            let up = pget(j).saturating_add(COST_DEL);
            if best > up {
                best = up;
                op = OP_DEL;
            }
            let ins = left.saturating_add(COST_INS);
            if best > ins {
                best = ins;
                op = OP_INS;
            }
            (best, op)
        };
        *cell = c;
        if OPS {
            if let Some(o) = ops.get_mut(k) {
                *o = op;
            }
        }
        left = c;
    }
}

impl TerScratch {
    /// Row `i` of the stored matrix.
    fn row(&self, i: usize) -> &[u32] {
        let b = &self.band;
        let start = b.off[i];
        &self.cost[start..start + (b.hi[i] - b.lo[i])]
    }

    /// The full beamed matrix of `self.words` against `refw`, with its operations; returns the
    /// edit distance.
    fn full_matrix(&mut self, refw: &[u32]) -> u32 {
        let n_h = self.words.len();
        let n_r = refw.len();
        for j in 0..=n_r {
            self.cost[j] = j as u32 * COST_INS;
            self.ops[j] = OP_INS;
        }
        for i in 1..=n_h {
            let b = &self.band;
            let (plo, pstart, pend) = (b.lo[i - 1], b.off[i - 1], b.off[i]);
            let (lo, start, end) = (b.lo[i], b.off[i], b.off[i] + b.hi[i] - b.lo[i]);
            let (done, rest) = self.cost.split_at_mut(start);
            fill_row::<true>(
                self.words[i - 1],
                refw,
                &done[pstart..pend],
                plo,
                &mut rest[..end - start],
                &mut self.ops[start..end],
                lo,
            );
        }
        self.cell(n_h, n_r).0
    }

    /// Cost and operation of cell `(i, j)` of the stored matrix.
    fn cell(&self, i: usize, j: usize) -> (u32, u8) {
        let b = &self.band;
        if i < b.lo.len() && b.lo[i] <= j && j < b.hi[i] {
            let k = b.off[i] + j - b.lo[i];
            (self.cost[k], self.ops[k])
        } else {
            (INF, OP_UNDEF)
        }
    }

    /// Walks the stored matrix back from the last cell and derives sacreBLEU's alignment
    /// (reference position to hypothesis position) and error flags of both sides.
    fn alignment(&mut self, n_r: usize) {
        let (mut i, mut j) = (self.words.len(), n_r);
        self.trace.clear();
        while i > 0 || j > 0 {
            let op = self.cell(i, j).1;
            self.trace.push(op);
            let next = match op {
                OP_NOP | OP_SUB => i.checked_sub(1).zip(j.checked_sub(1)),
                OP_INS => j.checked_sub(1).map(|j| (i, j)),
                OP_DEL => i.checked_sub(1).map(|i| (i, j)),
                // sacreBLEU raises here; unreachable, as every cell in the beam is reachable.
                _ => None,
            };
            match next {
                Some((a, b)) => (i, j) = (a, b),
                None => break,
            }
        }
        self.align.clear();
        self.align.resize(n_r, UNALIGNED);
        self.hyp_err.clear();
        self.ref_err.clear();
        let (mut ph, mut pr) = (-1isize, -1isize);
        for &op in self.trace.iter().rev() {
            match op {
                OP_NOP | OP_SUB => {
                    ph += 1;
                    pr += 1;
                    if let Some(a) = self.align.get_mut(pr as usize) {
                        *a = ph;
                    }
                    let e = u8::from(op == OP_SUB);
                    self.hyp_err.push(e);
                    self.ref_err.push(e);
                }
                OP_DEL => {
                    ph += 1;
                    self.hyp_err.push(1);
                }
                OP_INS => {
                    pr += 1;
                    if let Some(a) = self.align.get_mut(pr as usize) {
                        *a = ph;
                    }
                    self.ref_err.push(1);
                }
                _ => {}
            }
        }
    }

    /// Edit distance of `self.shifted` (a shift of `self.words`, whose matrix is stored and
    /// costs `base`): rows before the first changed word are the stored ones, and once a row
    /// after the last changed word equals the stored row, so does everything below it.
    fn shifted_distance(&mut self, refw: &[u32], base: u32) -> u32 {
        let n = self.words.len();
        let Some(first) = (0..n).find(|&k| self.words[k] != self.shifted[k]) else {
            return base;
        };
        let last = (0..n)
            .rev()
            .find(|&k| self.words[k] != self.shifted[k])
            .unwrap_or(first);
        let mut prev = std::mem::take(&mut self.prev);
        let mut cur = std::mem::take(&mut self.cur);
        prev.clear();
        prev.extend_from_slice(self.row(first));
        let mut plo = self.band.lo[first];
        let mut result = None;
        for i in first + 1..=n {
            let (lo, hi) = (self.band.lo[i], self.band.hi[i]);
            cur.clear();
            cur.resize(hi - lo, 0);
            fill_row::<false>(self.shifted[i - 1], refw, &prev, plo, &mut cur, &mut [], lo);
            if i > last && cur[..] == *self.row(i) {
                result = Some(base);
                break;
            }
            std::mem::swap(&mut prev, &mut cur);
            plo = lo;
        }
        let d = result.unwrap_or_else(|| {
            refw.len()
                .checked_sub(plo)
                .and_then(|k| prev.get(k))
                .copied()
                .unwrap_or(INF)
        });
        self.prev = prev;
        self.cur = cur;
        d
    }

    /// One step of sacreBLEU's `_shift`: the best shift of `self.words` (highest gain, then
    /// longest block, earliest start, earliest target) as `(gain, start, length, target)`.
    /// Needs the stored matrix and alignment of `self.words`; counts candidates in `checked`.
    fn best_shift(
        &mut self,
        refw: &[u32],
        base: u32,
        checked: &mut usize,
    ) -> Option<(i64, usize, usize, usize)> {
        let (n_h, n_r) = (self.words.len(), refw.len());
        // (gain, length, -start, -target): tuples compared as sacreBLEU's candidates.
        let mut best: Option<(i64, usize, isize, isize)> = None;
        'pairs: for start_h in 0..n_h {
            // sacreBLEU scans every reference position and skips those too far away.
            let near = start_h.saturating_sub(MAX_SHIFT_DIST)..(start_h + MAX_SHIFT_DIST + 1);
            for start_r in near.start..near.end.min(n_r) {
                let mut length = 0;
                while length < MAX_SHIFT_SIZE
                    && start_h + length < n_h
                    && start_r + length < n_r
                    && self.words[start_h + length] == refw[start_r + length]
                {
                    length += 1;
                    if self.try_block(refw, base, (start_h, start_r, length), checked, &mut best)
                        && *checked >= MAX_SHIFT_CANDIDATES
                    {
                        break 'pairs;
                    }
                    if start_h + length == n_h || start_r + length == n_r {
                        break;
                    }
                }
            }
        }
        best.map(|(gain, length, s, t)| (gain, s.unsigned_abs(), length, t.unsigned_abs()))
    }

    /// The candidate shifts of one matching block; `false` when the block was skipped
    /// (already correct on either side, or aligned inside itself).
    fn try_block(
        &mut self,
        refw: &[u32],
        base: u32,
        (start_h, start_r, length): (usize, usize, usize),
        checked: &mut usize,
        best: &mut Option<(i64, usize, isize, isize)>,
    ) -> bool {
        let errors = |v: &[u8], a: usize| {
            v.get(a.min(v.len())..(a + length).min(v.len()))
                .is_some_and(|s| s.iter().any(|&e| e != 0))
        };
        if !errors(&self.hyp_err, start_h) || !errors(&self.ref_err, start_r) {
            return false;
        }
        let aligned = self.align.get(start_r).copied().unwrap_or(UNALIGNED);
        if aligned == UNALIGNED
            || (start_h as isize <= aligned && aligned < (start_h + length) as isize)
        {
            return false;
        }
        let mut prev_idx = -1isize;
        for offset in -1..length as isize {
            let pos = start_r as isize + offset;
            let idx = if pos == -1 {
                0
            } else {
                match self.align.get(pos as usize) {
                    Some(&a) if a != UNALIGNED => a + 1,
                    _ => break,
                }
            };
            if idx == prev_idx {
                continue;
            }
            prev_idx = idx;
            perform_shift(
                &self.words,
                start_h,
                length,
                idx.unsigned_abs(),
                &mut self.shifted,
            );
            let d = self.shifted_distance(refw, base);
            let cand = (
                i64::from(base) - i64::from(d),
                length,
                -(start_h as isize),
                -idx,
            );
            *checked += 1;
            if best.is_none_or(|b| cand > b) {
                *best = Some(cand);
            }
        }
        true
    }

    /// sacreBLEU's `translation_edit_rate` on word ids: (edits, reference length).
    fn edits(&mut self, hyp: &[u32], refw: &[u32]) -> usize {
        let (n_h, n_r) = (hyp.len(), refw.len());
        if n_r == 0 {
            return n_h;
        }
        let cells = self.band.set(n_h, n_r);
        self.cost.clear();
        self.cost.resize(cells, INF);
        self.ops.clear();
        self.ops.resize(cells, OP_UNDEF);
        self.words.clear();
        self.words.extend_from_slice(hyp);
        let mut shifts = 0usize;
        let mut checked = 0usize;
        loop {
            let base = self.full_matrix(refw);
            self.alignment(n_r);
            let best = self.best_shift(refw, base, &mut checked);
            let apply = match best {
                Some((gain, start, length, target))
                    if checked < MAX_SHIFT_CANDIDATES && gain > 0 =>
                {
                    Some((start, length, target))
                }
                _ => None,
            };
            let Some((start, length, target)) = apply else {
                return shifts + base as usize;
            };
            let mut shifted = std::mem::take(&mut self.shifted);
            perform_shift(&self.words, start, length, target, &mut shifted);
            std::mem::swap(&mut self.words, &mut shifted);
            self.shifted = shifted;
            shifts += 1;
        }
    }
}

/// sacreBLEU's `_perform_shift`: moves `words[start..start + length]` towards `target`, with
/// its three cases and Python's clamped slices.
fn perform_shift(words: &[u32], start: usize, length: usize, target: usize, out: &mut Vec<u32>) {
    let n = words.len();
    let sl = |a: usize, b: usize| {
        let a = a.min(n);
        &words[a..b.clamp(a, n)]
    };
    let end = start + length;
    out.clear();
    if target < start {
        out.extend_from_slice(sl(0, target));
        out.extend_from_slice(sl(start, end));
        out.extend_from_slice(sl(target, start));
        out.extend_from_slice(sl(end, n));
    } else if target > end {
        out.extend_from_slice(sl(0, start));
        out.extend_from_slice(sl(end, target));
        out.extend_from_slice(sl(start, end));
        out.extend_from_slice(sl(target, n));
    } else {
        out.extend_from_slice(sl(0, start));
        out.extend_from_slice(sl(end, length + target));
        out.extend_from_slice(sl(start, end));
        out.extend_from_slice(sl(length + target, n));
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

impl Ter {
    fn options(&self) -> TercomOptions {
        TercomOptions {
            case_sensitive: self.case_sensitive,
            normalized: self.normalized,
            no_punct: self.no_punct,
            asian_support: self.asian_support,
        }
    }

    /// The signature, with sacreBLEU's fields (`nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|
    /// asian:no`).
    pub fn signature(&self, nrefs: usize) -> Signature {
        Signature::new("ter", crate::VERSION)
            .with("compat", "sacrebleu-2.4.3")
            .with("nrefs", nrefs)
            .with("case", if self.case_sensitive { "mixed" } else { "lc" })
            .with("tok", "tercom")
            .with("norm", yes_no(self.normalized))
            .with("punct", yes_no(!self.no_punct))
            .with("asian", yes_no(self.asian_support))
    }

    /// The words TER compares, joined by single spaces (sacreBLEU's `_preprocess_segment`:
    /// trailing whitespace stripped, then the Tercom tokenizer).
    ///
    /// ```
    /// use figlang_metrics::text::ter::Ter;
    /// let ter = Ter { normalized: true, ..Ter::default() };
    /// assert_eq!(ter.tokenize("The cat's toy, 3.5 &amp; more."), "the cat 's toy , 3.5 & more .");
    /// ```
    pub fn tokenize(&self, line: &str) -> String {
        tercom_tokenize(self.options(), line)
    }

    /// The words of a reference: [`Self::tokenize`] applied twice, as sacreBLEU 2.4.3 does.
    /// Its `_cache_references` preprocesses every reference and TER's `_extract_reference_info`
    /// preprocesses the result again, while a hypothesis goes through once. The Tercom
    /// tokenizer is not idempotent when `normalized`: `it's,` becomes `it's ,` and then
    /// `it 's ,`, and `&amp;quot;` becomes `&quot;` and then `"`.
    ///
    /// ```
    /// use figlang_metrics::text::ter::Ter;
    /// let ter = Ter { normalized: true, ..Ter::default() };
    /// assert_eq!(ter.tokenize("it's,"), "it's ,");
    /// assert_eq!(ter.tokenize_reference("it's,"), "it 's ,");
    /// // So an identical pair scores 2 edits over 3 reference words, as in sacreBLEU.
    /// assert_eq!(ter.sentence("it's,", &["it's,"])?.score, 100.0 * (2.0 / 3.0));
    /// # Ok::<(), figlang_metrics::text::MetricError>(())
    /// ```
    pub fn tokenize_reference(&self, line: &str) -> String {
        self.tokenize(&self.tokenize(line))
    }

    /// Statistics of one hypothesis against its references: the fewest edits over the
    /// references and their mean length. Without references (sacreBLEU raises) both are 0.
    pub fn segment_stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> TerStats {
        if refs.is_empty() {
            return TerStats::default();
        }
        // Word spans are `u32` offsets; tokenizing at most triples a line.
        let input = hyp.len() + refs.iter().map(|r| r.as_ref().len() + 1).sum::<usize>();
        if input > (u32::MAX / 4) as usize {
            return self.segment_stats_owned(hyp, refs);
        }
        let (best, total_len) = WORDS.with_borrow_mut(|w| {
            w.text.clear();
            w.spans.clear();
            w.ends.clear();
            self.push_words(w, hyp, false);
            for r in refs {
                self.push_words(w, r.as_ref(), true);
            }
            let Words {
                text,
                spans,
                ends,
                interner,
                ids,
            } = w;
            let bytes = text.as_bytes();
            interner.reset(spans.len());
            ids.clear();
            ids.extend(spans.iter().map(|&(a, b)| interner.intern(bytes, a, b)));
            let hyp_ids = &ids[..ends[0]];
            let mut best = usize::MAX;
            let mut total_len = 0usize;
            SCRATCH.with_borrow_mut(|sc| {
                for k in 1..ends.len() {
                    let ref_ids = &ids[ends[k - 1]..ends[k]];
                    best = best.min(sc.edits(hyp_ids, ref_ids));
                    total_len += ref_ids.len();
                }
            });
            (best, total_len)
        });
        TerStats {
            num_edits: best as f64,
            ref_length: total_len as f64 / refs.len() as f64,
        }
    }

    /// [`Self::segment_stats`] with owned tokenized strings and a hash map of word ids (no
    /// limit on the segment's size).
    fn segment_stats_owned<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> TerStats {
        let hyp = self.tokenize(hyp);
        let refs: Vec<String> = refs
            .iter()
            .map(|r| self.tokenize_reference(r.as_ref()))
            .collect();
        let mut ids: FxMap<&str, u32> = FxMap::default();
        let mut id = |w| {
            let next = ids.len() as u32;
            *ids.entry(w).or_insert(next)
        };
        let hyp_ids: Vec<u32> = py_split(&hyp).map(&mut id).collect();
        let mut ref_ids = Vec::new();
        let mut best = usize::MAX;
        let mut total_len = 0usize;
        SCRATCH.with_borrow_mut(|sc| {
            for r in &refs {
                ref_ids.clear();
                ref_ids.extend(py_split(r).map(&mut id));
                best = best.min(sc.edits(&hyp_ids, &ref_ids));
                total_len += ref_ids.len();
            }
        });
        TerStats {
            num_edits: best as f64,
            ref_length: total_len as f64 / refs.len() as f64,
        }
    }

    /// Appends the words TER compares of one side (a reference's tokenized twice, see
    /// [`Self::tokenize_reference`]) to `w`: an ASCII line without normalisation or punctuation
    /// removal is only lowercased and split (tokenizing it again changes nothing), any other
    /// goes through the Tercom tokenizer.
    fn push_words(&self, w: &mut Words, line: &str, reference: bool) {
        let start = w.text.len();
        if !self.normalized && !self.no_punct && line.is_ascii() {
            w.text.push_str(line);
            if !self.case_sensitive {
                w.text[start..].make_ascii_lowercase();
            }
        } else if reference {
            w.text.push_str(&self.tokenize_reference(line));
        } else {
            w.text.push_str(&self.tokenize(line));
        }
        // Keeps the last word of this side apart from the next side's first.
        w.text.push(' ');
        let base = w.text.as_ptr() as usize;
        for word in py_split(&w.text[start..]) {
            let a = word.as_ptr() as usize - base;
            w.spans.push((a as u32, (a + word.len()) as u32));
        }
        w.ends.push(w.spans.len());
    }

    /// TER (0-100) from (summed) statistics: `100 * (edits / length)`; with length 0, 100 when
    /// there are edits and 0 otherwise.
    pub fn score_from_stats(&self, stats: &TerStats) -> f64 {
        let rate = if stats.ref_length > 0.0 {
            stats.num_edits / stats.ref_length
        } else if stats.num_edits > 0.0 {
            1.0
        } else {
            0.0
        };
        100.0 * rate
    }

    /// sacreBLEU `sentence_score(hyp, refs)`.
    ///
    /// ```
    /// use figlang_metrics::text::ter::Ter;
    /// // "sat" substituted, "down" deleted: 2 edits over 5 reference words.
    /// let s = Ter::default().sentence("The cat sat down here", &["the cat is here", "the cat was here ."])?;
    /// assert_eq!(s.score, 100.0 * (2.0 / 4.5));
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
            return Err(MetricError::input("ter", "no reference"));
        }
        let st = self.segment_stats(hyp, refs);
        Ok(MetricScore::new(
            self.score_from_stats(&st),
            cached_signature(&SIGNATURE, (*self, refs.len()), || {
                self.signature(refs.len())
            }),
        ))
    }

    /// The statistics of a corpus: each segment's, computed in parallel (rayon) and summed in
    /// input order, so that the sums do not depend on the number of threads. Segments go
    /// a chunk (4,096) at a time, so the memory does not grow with the corpus.
    pub fn corpus_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> TerStats {
        let mut total = TerStats::default();
        let mut stats: Vec<TerStats> = Vec::new();
        for (h, r) in hyps.chunks(CORPUS_CHUNK).zip(refs.chunks(CORPUS_CHUNK)) {
            h.par_iter()
                .zip(r.par_iter())
                .map(|(h, r)| self.segment_stats(h.as_ref(), r))
                .collect_into_vec(&mut stats);
            for s in &stats {
                total.num_edits += s.num_edits;
                total.ref_length += s.ref_length;
            }
        }
        total
    }

    /// sacreBLEU `corpus_score(hyps, refs)`; `refs[i]` holds the references of `hyps[i]`.
    /// Segments are scored in parallel (rayon) and their statistics summed in input order, so
    /// the result does not depend on the number of threads.
    ///
    /// # Errors
    /// [`MetricError::InvalidInput`] on length mismatch or a hypothesis without reference.
    pub fn corpus<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
        &self,
        hyps: &[H],
        refs: &[Vec<R>],
    ) -> Result<MetricScore, MetricError> {
        let nrefs = corpus_nrefs("ter", hyps.len(), refs)?;
        let total = self.corpus_stats(hyps, refs);
        Ok(MetricScore::new(
            self.score_from_stats(&total),
            self.signature(nrefs),
        ))
    }
}

/// TER as a metric of summed statistics (the registry's `ter`): the details are the edits and
/// the reference length.
impl SummedStats for Ter {
    type Stats = TerStats;

    fn segment_stats(&self, hyp: &str, refs: &[&str]) -> TerStats {
        Ter::segment_stats(self, hyp, refs)
    }
    fn corpus_stats(&self, hyps: &[String], refs: &[Vec<&str>]) -> TerStats {
        Ter::corpus_stats(self, hyps, refs)
    }
    fn score_from_stats(&self, stats: &TerStats) -> f64 {
        Ter::score_from_stats(self, stats)
    }
    fn lower_is_better(&self) -> bool {
        true
    }
    fn corpus(&self, hyps: &[String], refs: &[Vec<&str>]) -> Result<MetricScore, MetricError> {
        Ter::corpus(self, hyps, refs)
    }
    fn corpus_signature(&self, n_refs: usize) -> Signature {
        self.signature(n_refs)
    }
    fn details(&self, stats: &TerStats, score: f64) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("score".into(), serde_json::json!(score));
        m.insert("num_edits".into(), serde_json::json!(stats.num_edits));
        m.insert("ref_length".into(), serde_json::json!(stats.ref_length));
        m
    }
    fn stats_row(&self, stats: TerStats) -> Vec<f64> {
        vec![stats.num_edits, stats.ref_length]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TEXT: &str =
        "([a-c A-C.,!'\"0-9\\-&<>é日😀ΣΑ\u{a0}\u{85}\u{3000}\u{1c}\t\n]|ab|the |cat |&amp;|it's ){0,30}";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// The interned words in reused buffers give the statistics of owned tokenized strings,
        /// on every setting.
        #[test]
        fn reused_buffers_equal_owned_strings(
            hyp in TEXT,
            refs in proptest::collection::vec(TEXT, 1..4),
            flags in 0u8..16,
        ) {
            let ter = Ter {
                case_sensitive: flags & 1 != 0,
                normalized: flags & 2 != 0,
                no_punct: flags & 4 != 0,
                asian_support: flags & 8 != 0,
            };
            prop_assert_eq!(ter.segment_stats(&hyp, &refs), ter.segment_stats_owned(&hyp, &refs));
        }
    }
}
