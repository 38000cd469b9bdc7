//! sacreBLEU's arithmetic as NumPy 2 and Python carry it out, so that resampled scores, means
//! and intervals agree to the last bit:
//!
//! - bootstrap resamples are scored from `float32` sums, and under NumPy 2's promotion rules
//!   (NEP 50) a Python number meeting a `float32` scalar stays `float32`: BLEU's precisions and
//!   all of chrF's arithmetic are single precision there ([`Np`]);
//! - `ndarray.mean()` sums pairwise ([`pairwise_sum_f64`], [`pairwise_sum_f32`]);
//!   `statistics.mean` is the correctly rounded mean of the exact sum ([`exact_mean`]);
//! - `np.percentile` interpolates linearly as NumPy's `_lerp` does ([`percentile_linear`]).
//!
//! It also holds the arrays of resampled scores ([`Scores`]) and what sacreBLEU computes from
//! them: `estimate_ci` (both versions), the paired bootstrap statistic and the p-value.

use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Sub};

use super::{ResampleScore, StatsScorer};
use crate::text::metrics::bleu_sacre::{SacreBleu, SacreSmoothing};
use crate::text::metrics::chrf::Chrf;
use crate::text::metrics::ter::{Ter, TerStats};

/// A number as a sacreBLEU score function sees it: a Python `int`/`float` (or a NumPy `int64`
/// / `float64` scalar, which computes the same) or a NumPy `float32` scalar.
#[derive(Debug, Clone, Copy)]
pub(super) enum Np {
    /// Double precision.
    Py(f64),
    /// A `float32` scalar: every operation with it is rounded to single precision.
    F32(f32),
}

impl Np {
    fn value(self) -> f64 {
        match self {
            Np::Py(v) => v,
            Np::F32(v) => f64::from(v),
        }
    }

    fn is_zero(self) -> bool {
        self.value() == 0.0
    }

    fn positive(self) -> bool {
        self.value() > 0.0
    }

    fn apply(self, o: Np, f64op: fn(f64, f64) -> f64, f32op: fn(f32, f32) -> f32) -> Np {
        match (self, o) {
            (Np::Py(a), Np::Py(b)) => Np::Py(f64op(a, b)),
            (Np::F32(a), Np::Py(b)) => Np::F32(f32op(a, b as f32)),
            (Np::Py(a), Np::F32(b)) => Np::F32(f32op(a as f32, b)),
            (Np::F32(a), Np::F32(b)) => Np::F32(f32op(a, b)),
        }
    }

    fn into_sample(self) -> ResampleScore {
        match self {
            Np::Py(v) => ResampleScore::F64(v),
            Np::F32(v) => ResampleScore::F32(v),
        }
    }
}

macro_rules! np_op {
    ($tr:ident, $m:ident, $op:tt) => {
        impl $tr for Np {
            type Output = Np;
            fn $m(self, o: Np) -> Np {
                self.apply(o, |a, b| a $op b, |a, b| a $op b)
            }
        }
    };
}
np_op!(Add, add, +);
np_op!(Sub, sub, -);
np_op!(Mul, mul, *);
np_op!(Div, div, /);

/// How the summed statistics reach the score function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// A Python list of ints (the actual corpus score).
    List,
    /// A NumPy `int64` row (approximate-randomization trials): in-place updates truncate.
    Int64,
    /// A NumPy `float32` row (bootstrap resamples).
    Float32,
}

fn py_log(p: Np) -> f64 {
    if p.is_zero() {
        -9_999_999_999.0
    } else {
        p.value().ln()
    }
}

/// sacreBLEU's `BLEU.compute_bleu` on `[sys_len, ref_len, correct.., total..]`.
fn bleu_from(cfg: &SacreBleu, stats: &[Np], holder: Holder) -> Np {
    let max_n = cfg.max_ngram_order;
    if stats.len() < 2 + 2 * max_n || max_n == 0 {
        return Np::Py(f64::NAN);
    }
    let sys_len = stats[0].value().trunc();
    let ref_len = stats[1].value().trunc();
    let bp = if sys_len < ref_len {
        if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        }
    } else {
        1.0
    };
    let mut correct = stats[2..2 + max_n].to_vec();
    let mut total = stats[2 + max_n..2 + 2 * max_n].to_vec();
    if correct.iter().all(|c| c.is_zero()) {
        return Np::Py(0.0);
    }
    let mut precisions = vec![Np::Py(0.0); max_n];
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = max_n;
    for n in 0..max_n {
        if let SacreSmoothing::AddK(k) = cfg.smoothing {
            if n > 0 {
                let bump = |v: Np| match (holder, v + Np::Py(k)) {
                    (Holder::Int64, Np::Py(s)) => Np::Py(s.trunc()),
                    (_, s) => s,
                };
                correct[n] = bump(correct[n]);
                total[n] = bump(total[n]);
            }
        }
        if total[n].is_zero() {
            break;
        }
        if cfg.effective_order {
            eff_order = n + 1;
        }
        if correct[n].is_zero() {
            match cfg.smoothing {
                SacreSmoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n] = Np::Py(100.0) / (Np::Py(smooth_mteval) * total[n]);
                }
                SacreSmoothing::Floor(v) => {
                    precisions[n] = Np::Py(100.0 * v) / total[n];
                }
                _ => {}
            }
        } else {
            precisions[n] = Np::Py(100.0) * correct[n] / total[n];
        }
    }
    let log_sum = precisions[..eff_order]
        .iter()
        .fold(0.0f64, |acc, &p| acc + py_log(p));
    Np::Py(bp * (log_sum / eff_order as f64).exp())
}

/// sacreBLEU's `CHRF._compute_f_score` on `[hyp, ref, match]` per order.
fn chrf_from(cfg: &Chrf, stats: &[Np]) -> Np {
    let order = cfg.char_order + cfg.word_order;
    if stats.len() < 3 * order || order == 0 {
        return Np::Py(f64::NAN);
    }
    let eps = Np::Py(1e-16);
    let factor = Np::Py(cfg.beta * cfg.beta);
    let one = Np::Py(1.0);
    let mut score = Np::Py(0.0);
    let mut effective = 0usize;
    let (mut avg_prec, mut avg_rec) = (Np::Py(0.0), Np::Py(0.0));
    for i in 0..order {
        let (n_hyp, n_ref, n_match) = (stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]);
        let prec = if n_hyp.positive() {
            n_match / n_hyp
        } else {
            eps
        };
        let rec = if n_ref.positive() {
            n_match / n_ref
        } else {
            eps
        };
        let denom = factor * prec + rec;
        score = score
            + if denom.positive() {
                (one + factor) * prec * rec / denom
            } else {
                eps
            };
        if n_hyp.positive() && n_ref.positive() {
            avg_prec = avg_prec + prec;
            avg_rec = avg_rec + rec;
            effective += 1;
        }
    }
    if cfg.eps_smoothing {
        return Np::Py(100.0) * score / Np::Py(order as f64);
    }
    if effective == 0 {
        avg_prec = Np::Py(0.0);
        avg_rec = Np::Py(0.0);
    } else {
        avg_prec = avg_prec / Np::Py(effective as f64);
        avg_rec = avg_rec / Np::Py(effective as f64);
    }
    if (avg_prec + avg_rec).is_zero() {
        return Np::Py(0.0);
    }
    let score = (one + factor) * avg_prec * avg_rec;
    let score = score / (factor * avg_prec + avg_rec);
    Np::Py(100.0) * score
}

fn as_py(sums: &[f64]) -> Vec<Np> {
    sums.iter().map(|&v| Np::Py(v)).collect()
}

fn as_f32(sums: &[f32]) -> Vec<Np> {
    sums.iter().map(|&v| Np::F32(v)).collect()
}

/// sacreBLEU's BLEU on statistics rows `[sys_len, ref_len, correct_1..N, total_1..N]`
/// ([`BleuStats::row`](crate::text::metrics::bleu_sacre::BleuStats::row)); resamples are scored as sacreBLEU scores its
/// `float32` rows (single-precision n-gram precisions).
impl StatsScorer for SacreBleu {
    fn score(&self, sums: &[f64]) -> f64 {
        bleu_from(self, &as_py(sums), Holder::List).value()
    }

    fn score_trial(&self, sums: &[f64]) -> f64 {
        bleu_from(self, &as_py(sums), Holder::Int64).value()
    }

    fn score_resample(&self, sums: &[f32]) -> ResampleScore {
        bleu_from(self, &as_f32(sums), Holder::Float32).into_sample()
    }

    fn stats_len(&self) -> Option<usize> {
        Some(2 + 2 * self.max_ngram_order)
    }
}

/// sacreBLEU's chrF / chrF++ on statistics rows `[hyp, ref, match]` per character order then
/// per word order ([`Chrf::segment_stats`]); resamples are scored in single precision, as
/// sacreBLEU does on its `float32` rows (the score itself is then a `float32`).
impl StatsScorer for Chrf {
    fn score(&self, sums: &[f64]) -> f64 {
        chrf_from(self, &as_py(sums)).value()
    }

    fn score_resample(&self, sums: &[f32]) -> ResampleScore {
        chrf_from(self, &as_f32(sums)).into_sample()
    }

    fn stats_len(&self) -> Option<usize> {
        Some(3 * (self.char_order + self.word_order))
    }
}

/// sacreBLEU's TER on statistics rows `[num_edits, ref_length]` ([`Ter::segment_stats`]).
impl StatsScorer for Ter {
    fn score(&self, sums: &[f64]) -> f64 {
        self.score_from_stats(&TerStats {
            num_edits: sums.first().copied().unwrap_or(0.0),
            ref_length: sums.get(1).copied().unwrap_or(0.0),
        })
    }

    /// sacreBLEU divides the `float32` sums and multiplies by the Python int 100, which NumPy
    /// keeps in `float32`; the two constant branches are Python floats.
    fn score_resample(&self, sums: &[f32]) -> ResampleScore {
        let (ne, rl) = (
            sums.first().copied().unwrap_or(0.0),
            sums.get(1).copied().unwrap_or(0.0),
        );
        if rl > 0.0 {
            ResampleScore::F32(100.0 * (ne / rl))
        } else if ne > 0.0 {
            ResampleScore::F64(100.0)
        } else {
            ResampleScore::F64(0.0)
        }
    }

    fn stats_len(&self) -> Option<usize> {
        Some(2)
    }
}

/// NumPy's pairwise summation (`@TYPE@_pairwise_sum`: blocks of 128 summed with eight
/// accumulators, halves split at multiples of eight), generic over the float type.
fn pairwise<T: Copy + Add<Output = T>>(a: &[T], zero: T) -> T {
    let n = a.len();
    if n < 8 {
        a.iter().fold(zero, |acc, &x| acc + x)
    } else if n <= 128 {
        let mut r = [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]];
        let body = n - n % 8;
        for chunk in a[8..body].chunks_exact(8) {
            for (acc, &x) in r.iter_mut().zip(chunk) {
                *acc = *acc + x;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[body..] {
            res = res + x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise(&a[..n2], zero) + pairwise(&a[n2..], zero)
    }
}

/// `np.sum` of a contiguous `float64` array.
pub(super) fn pairwise_sum_f64(a: &[f64]) -> f64 {
    0.0 + pairwise(a, 0.0)
}

/// `np.sum` of a contiguous `float32` array (single-precision accumulation).
pub(crate) fn pairwise_sum_f32(a: &[f32]) -> f32 {
    0.0 + pairwise(a, 0.0f32)
}

/// Ascending, NaN last (NumPy's sort order).
pub(super) fn sort_np<T: PartialOrd + Copy>(v: &mut [T]) {
    v.sort_unstable_by(|a, b| {
        a.partial_cmp(b).unwrap_or_else(|| {
            #[allow(clippy::eq_op)]
            let (a_nan, b_nan) = (a != a, b != b);
            a_nan.cmp(&b_nan)
        })
    });
}

/// Python's `statistics.mean` of floats: the exact sum divided by the count, rounded once
/// (ties to even). Non-finite input falls back to the plain mean.
pub(super) fn exact_mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    if values.iter().any(|v| !v.is_finite()) {
        return values.iter().sum::<f64>() / values.len() as f64;
    }
    // Each value is mant * 2^exp with an integer mantissa.
    let parts: Vec<(bool, u64, i32)> = values
        .iter()
        .filter(|v| **v != 0.0)
        .map(|&v| {
            let bits = v.to_bits();
            let neg = bits >> 63 == 1;
            let e = ((bits >> 52) & 0x7ff) as i32;
            let frac = bits & ((1u64 << 52) - 1);
            if e == 0 {
                (neg, frac, -1074)
            } else {
                (neg, frac | (1u64 << 52), e - 1075)
            }
        })
        .collect();
    let Some(emin) = parts.iter().map(|p| p.2).min() else {
        return 0.0;
    };
    let (mut pos, mut neg) = (Big::default(), Big::default());
    for &(is_neg, mant, e) in &parts {
        let target = if is_neg { &mut neg } else { &mut pos };
        target.add_shifted(mant, (e - emin) as usize);
    }
    let (negative, mag) = match pos.cmp(&neg) {
        Ordering::Equal => return 0.0,
        Ordering::Greater => (false, pos.sub(&neg)),
        Ordering::Less => (true, neg.sub(&pos)),
    };
    // mag / n * 2^emin, with 128 extra bits below the binary point before rounding.
    let mut q = Big { limbs: vec![0, 0] };
    q.limbs.extend_from_slice(&mag.limbs);
    let rem = q.div_small(values.len() as u64);
    let bits = q.bit_len();
    let drop = bits.saturating_sub(53);
    let mut mant = q.bits_from(drop);
    let round_up =
        drop > 0 && q.bit(drop - 1) && (rem != 0 || q.any_below(drop - 1) || mant & 1 == 1);
    let mut exp = emin - 128 + drop as i32;
    if round_up {
        mant += 1;
        if mant == 1u64 << 53 {
            mant >>= 1;
            exp += 1;
        }
    }
    let value = scale_pow2(mant as f64, exp);
    if negative {
        -value
    } else {
        value
    }
}

fn scale_pow2(mut x: f64, mut exp: i32) -> f64 {
    while exp > 0 {
        let s = exp.min(1000);
        x *= f64::from_bits(((1023 + s) as u64) << 52);
        exp -= s;
    }
    while exp < 0 {
        let s = (-exp).min(1000);
        x /= f64::from_bits(((1023 + s) as u64) << 52);
        exp += s;
    }
    x
}

/// A non-negative big integer, little-endian 64-bit limbs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Big {
    limbs: Vec<u64>,
}

impl Big {
    fn add_shifted(&mut self, v: u64, shift: usize) {
        let (word, bit) = (shift / 64, shift % 64);
        let wide = u128::from(v) << bit;
        let need = word + 3;
        if self.limbs.len() < need {
            self.limbs.resize(need, 0);
        }
        let mut carry = 0u128;
        let addends = [wide as u64, (wide >> 64) as u64];
        let mut i = word;
        let mut k = 0;
        while k < 2 || carry != 0 {
            let add = if k < 2 { addends[k] } else { 0 };
            let s = u128::from(self.limbs[i]) + u128::from(add) + carry;
            self.limbs[i] = s as u64;
            carry = s >> 64;
            i += 1;
            k += 1;
            if i == self.limbs.len() && carry != 0 {
                self.limbs.push(0);
            }
        }
    }

    fn trimmed(&self) -> &[u64] {
        let n = self
            .limbs
            .iter()
            .rposition(|&l| l != 0)
            .map_or(0, |p| p + 1);
        &self.limbs[..n]
    }

    fn cmp(&self, o: &Big) -> Ordering {
        let (a, b) = (self.trimmed(), o.trimmed());
        a.len()
            .cmp(&b.len())
            .then_with(|| a.iter().rev().cmp(b.iter().rev()))
    }

    /// `self - o`, with `self >= o`.
    fn sub(&self, o: &Big) -> Big {
        let mut out = self.limbs.clone();
        let mut borrow = 0u64;
        for (i, slot) in out.iter_mut().enumerate() {
            let b = o.limbs.get(i).copied().unwrap_or(0);
            let (d1, o1) = slot.overflowing_sub(b);
            let (d2, o2) = d1.overflowing_sub(borrow);
            *slot = d2;
            borrow = u64::from(o1 || o2);
        }
        Big { limbs: out }
    }

    /// Divides in place, returning the remainder.
    fn div_small(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for limb in self.limbs.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*limb);
            *limb = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        rem as u64
    }

    fn bit_len(&self) -> usize {
        let t = self.trimmed();
        t.last().map_or(0, |&top| {
            64 * (t.len() - 1) + (64 - top.leading_zeros() as usize)
        })
    }

    fn bit(&self, i: usize) -> bool {
        self.limbs
            .get(i / 64)
            .is_some_and(|&l| (l >> (i % 64)) & 1 == 1)
    }

    fn any_below(&self, i: usize) -> bool {
        let (word, bit) = (i / 64, i % 64);
        self.limbs[..word.min(self.limbs.len())]
            .iter()
            .any(|&l| l != 0)
            || (bit > 0
                && self
                    .limbs
                    .get(word)
                    .is_some_and(|&l| l & ((1u64 << bit) - 1) != 0))
    }

    /// Bits `from..from + 64` as an integer.
    fn bits_from(&self, from: usize) -> u64 {
        (0..64).fold(0u64, |acc, k| acc | (u64::from(self.bit(from + k)) << k))
    }
}

/// NumPy's `percentile(..., method="linear")` of ascending `sorted` at `q` (0-100), as
/// `_quantile` computes it: virtual index `(n - 1) * (q / 100)`, `_lerp` between neighbours.
pub(super) fn percentile_linear(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    if sorted[n - 1].is_nan() {
        return f64::NAN;
    }
    let vi = (n - 1) as f64 * (q / 100.0);
    if vi >= (n - 1) as f64 {
        return sorted[n - 1];
    }
    let prev = vi.floor().max(0.0);
    let gamma = vi - prev;
    let (a, b) = (sorted[prev as usize], sorted[prev as usize + 1]);
    let diff = b - a;
    if gamma >= 0.5 {
        b - diff * (1.0 - gamma)
    } else {
        a + diff * gamma
    }
}

/// Resampled scores of one system, as the NumPy array sacreBLEU builds from them.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Scores {
    /// A `float64` array.
    F64(Vec<f64>),
    /// A `float32` array.
    F32(Vec<f32>),
}

impl Scores {
    pub(super) fn from_samples(samples: Vec<ResampleScore>) -> Self {
        if samples.iter().all(|s| matches!(s, ResampleScore::F32(_))) {
            Scores::F32(
                samples
                    .into_iter()
                    .map(|s| match s {
                        ResampleScore::F32(v) => v,
                        ResampleScore::F64(v) => v as f32,
                    })
                    .collect(),
            )
        } else {
            Scores::F64(samples.into_iter().map(widen).collect())
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Scores::F64(v) => v.len(),
            Scores::F32(v) => v.len(),
        }
    }
}

fn widen(s: ResampleScore) -> f64 {
    match s {
        ResampleScore::F64(v) => v,
        ResampleScore::F32(v) => f64::from(v),
    }
}

fn ci_bounds(n: usize) -> (usize, usize) {
    let lower = n / 40;
    (lower, n - lower - 1)
}

/// `significance.estimate_ci`: sorted scores, `ndarray.mean()` and the 95% half-width.
pub(super) fn estimate_ci_numpy(scores: &Scores) -> (f64, f64) {
    let (lo, hi) = ci_bounds(scores.len());
    match scores {
        Scores::F64(v) => {
            let mut s = v.clone();
            sort_np(&mut s);
            let mean = pairwise_sum_f64(&s) / s.len() as f64;
            (mean, 0.5 * (s[hi] - s[lo]))
        }
        Scores::F32(v) => {
            let mut s = v.clone();
            sort_np(&mut s);
            let mean = (f64::from(pairwise_sum_f32(&s)) / s.len() as f64) as f32;
            (f64::from(mean), f64::from(0.5f32 * (s[hi] - s[lo])))
        }
    }
}

/// `Score.estimate_ci`: sorted scores, `statistics.mean` and the 95% half-width.
pub(super) fn estimate_ci_statistics(scores: &Scores) -> (f64, f64) {
    let (lo, hi) = ci_bounds(scores.len());
    match scores {
        Scores::F64(v) => {
            let mut s = v.clone();
            sort_np(&mut s);
            (exact_mean(&s), 0.5 * (s[hi] - s[lo]))
        }
        Scores::F32(v) => {
            let mut s = v.clone();
            sort_np(&mut s);
            let wide: Vec<f64> = s.iter().map(|&x| f64::from(x)).collect();
            let mean = exact_mean(&wide) as f32;
            (f64::from(mean), f64::from(0.5f32 * (s[hi] - s[lo])))
        }
    }
}

/// `(c + 1) / (n + 1)` with `c` the statistics above `observed` (compared in the statistics'
/// precision, as NumPy compares an array with a Python float).
pub(super) fn p_value(stats: &Scores, observed: f64) -> f64 {
    let (c, n) = match stats {
        Scores::F64(v) => (v.iter().filter(|&&x| x > observed).count(), v.len()),
        Scores::F32(v) => {
            let o = observed as f32;
            (v.iter().filter(|&&x| x > o).count(), v.len())
        }
    };
    (c + 1) as f64 / (n + 1) as f64
}

/// The paired bootstrap statistic: `|sys - base|` minus its mean.
pub(super) fn centred_abs_diff(sys: &Scores, base: &Scores) -> Scores {
    match (sys, base) {
        (Scores::F32(a), Scores::F32(b)) => {
            let d: Vec<f32> = a.iter().zip(b).map(|(x, y)| (x - y).abs()).collect();
            let mean = (f64::from(pairwise_sum_f32(&d)) / d.len() as f64) as f32;
            Scores::F32(d.into_iter().map(|x| x - mean).collect())
        }
        _ => {
            let (a, b) = (as_f64(sys), as_f64(base));
            let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).collect();
            let mean = pairwise_sum_f64(&d) / d.len() as f64;
            Scores::F64(d.into_iter().map(|x| x - mean).collect())
        }
    }
}

pub(super) fn as_f64(s: &Scores) -> Vec<f64> {
    match s {
        Scores::F64(v) => v.clone(),
        Scores::F32(v) => v.iter().map(|&x| f64::from(x)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 50 resampled scores of sacreBLEU's `_bootstrap_resample` (seed 12345) in
    /// `tests/fixtures/sacrebleu_significance.json`, bit for bit.
    #[test]
    fn resampled_scores_match_sacrebleu() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/sacrebleu_significance.json"
        );
        let text = std::fs::read_to_string(path).expect("fixture");
        let fx: serde_json::Value = serde_json::from_str(&text).expect("json");
        for case in fx["bootstrap_samples"].as_array().expect("samples") {
            let config = case["config"].as_str().expect("config");
            let rows: Vec<Vec<f64>> = fx["stats"][config][0]
                .as_array()
                .expect("stats")
                .iter()
                .map(|r| {
                    r.as_array()
                        .expect("row")
                        .iter()
                        .map(|v| v.as_f64().expect("stat"))
                        .collect()
                })
                .collect();
            let table = super::super::Table::new("baseline", &rows, None).expect("table");
            let n = case["n"].as_u64().expect("n") as usize;
            let mut rng = figlang_stats::numpy_rng::Pcg64::default_rng(case["seed"].as_u64());
            let idx = super::super::bootstrap_indices(&mut rng, n, table.n_seg).expect("idx");
            let got = match config {
                "bleu" => table.resample(&idx, &SacreBleu::default()),
                _ => table.resample(&idx, &Chrf::default()),
            };
            // The batched draws and packed integer sums give the same scores.
            let mut rng = figlang_stats::numpy_rng::Pcg64::default_rng(case["seed"].as_u64());
            let batched = match config {
                "bleu" => super::super::resample_one(&table, &mut rng, n, &SacreBleu::default()),
                _ => super::super::resample_one(&table, &mut rng, n, &Chrf::default()),
            }
            .expect("resample");
            assert!(super::super::packed::Packed::new(&[&table]).is_some());
            assert_eq!(
                matches!(batched, Scores::F32(_)),
                matches!(got, Scores::F32(_))
            );
            assert_eq!(as_f64(&batched), as_f64(&got), "{config}");
            let want: Vec<f64> = case["scores"]
                .as_array()
                .expect("scores")
                .iter()
                .map(|v| v.as_str().expect("repr").parse().expect("float"))
                .collect();
            assert_eq!(matches!(got, Scores::F32(_)), config == "chrf", "{config}");
            let got = as_f64(&got);
            if cfg!(all(target_os = "linux", target_env = "gnu")) {
                assert_eq!(got, want, "{config}");
            } else {
                assert!(
                    got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-9),
                    "{config}"
                );
            }
        }
    }

    #[test]
    fn exact_mean_rounds_once() {
        assert_eq!(exact_mean(&[0.1, 0.2, 0.3]), 0.2);
        assert_eq!(exact_mean(&[1.0, 2.0]), 1.5);
        assert_eq!(exact_mean(&[1e300, -1e300, 3.0]), 1.0);
        assert_eq!(exact_mean(&[-2.5, -3.5]), -3.0);
        assert_eq!(exact_mean(&[0.0, 0.0]), 0.0);
        // 1/3 correctly rounded, and a sum that naive addition loses.
        assert_eq!(exact_mean(&[1.0, 0.0, 0.0]), 1.0 / 3.0);
        assert_eq!(exact_mean(&[1e16, 1.0, -1e16, 1.0]), 0.5);
        assert_eq!(exact_mean(&[5e-324, 5e-324]), 5e-324);
    }

    #[test]
    fn pairwise_matches_plain_sum_on_integers() {
        let v: Vec<f64> = (0..1000).map(f64::from).collect();
        assert_eq!(pairwise_sum_f64(&v), 499_500.0);
        let w: Vec<f32> = (0..300).map(|i| i as f32).collect();
        assert_eq!(pairwise_sum_f32(&w), 44_850.0);
    }

    #[test]
    fn percentile_interpolates() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile_linear(&v, 50.0), 2.5);
        assert_eq!(percentile_linear(&v, 100.0), 4.0);
        assert_eq!(percentile_linear(&v, 0.0), 1.0);
        assert_eq!(percentile_linear(&[7.0], 2.5), 7.0);
    }

    #[test]
    fn sacre_scorers_agree_with_the_metrics() {
        let bleu = SacreBleu::default();
        let hyps = ["the cat sat on the mat", "a dog ran like the wind"];
        let refs = [
            vec!["the cat sat on a mat"],
            vec!["the dog ran as fast as the wind"],
        ];
        let mut sums = vec![0.0; 10];
        for (h, r) in hyps.iter().zip(&refs) {
            let row = bleu.segment_stats(h, r).row();
            sums.iter_mut().zip(&row).for_each(|(s, v)| *s += v);
        }
        let want = bleu.corpus(&hyps, &[refs[0].clone(), refs[1].clone()]);
        assert_eq!(StatsScorer::score(&bleu, &sums), want.expect("bleu").score);
        let f32_sums: Vec<f32> = sums.iter().map(|&v| v as f32).collect();
        let ResampleScore::F64(r) = bleu.score_resample(&f32_sums) else {
            panic!("BLEU resamples are float64");
        };
        assert!((r - StatsScorer::score(&bleu, &sums)).abs() < 1e-4);
        let chrf = Chrf::default();
        let stats = chrf.segment_stats(hyps[0], &refs[0]);
        let row: Vec<f64> = stats.iter().map(|&v| v as f64).collect();
        assert_eq!(
            StatsScorer::score(&chrf, &row),
            chrf.score_from_stats(&stats)
        );
        let f32_row: Vec<f32> = row.iter().map(|&v| v as f32).collect();
        assert!(matches!(
            chrf.score_resample(&f32_row),
            ResampleScore::F32(_)
        ));
        assert!(StatsScorer::score(&chrf, &[1.0]).is_nan());
        let ter = Ter::default();
        let st = ter.segment_stats(hyps[1], &refs[1]);
        let row = [st.num_edits, st.ref_length];
        assert_eq!(StatsScorer::score(&ter, &row), ter.score_from_stats(&st));
        // 3 edits over 7 reference words, divided and scaled in float32 as NumPy does.
        let ResampleScore::F32(r) = ter.score_resample(&[3.0, 7.0]) else {
            panic!("TER resamples over a non-empty reference are float32");
        };
        assert_eq!(r, 100.0f32 * (3.0f32 / 7.0f32));
        assert_ne!(f64::from(r), 100.0 * 3.0 / 7.0);
        assert!(matches!(
            ter.score_resample(&[2.0, 0.0]),
            ResampleScore::F64(v) if v == 100.0
        ));
        assert!(matches!(
            ter.score_resample(&[0.0, 0.0]),
            ResampleScore::F64(v) if v == 0.0
        ));
    }
}
