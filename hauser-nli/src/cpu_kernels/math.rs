//! Element-wise kernels on f32 slices: layer normalisation, activations, softmax.
//!
//! libm's scalar `erff` and `expf` took a quarter of the encoder's time in candle's CPU path
//! (the exact GELU alone evaluates `erf` once per intermediate activation). These versions are
//! branch-free polynomials that the compiler vectorises; each public entry point picks the
//! widest instruction set the CPU has at run time (AVX-512, AVX2+FMA, else the portable code).
//! Accuracy (tested below against f64 references): `exp` relative error < 2e-7, `erf` absolute
//! error < 6e-7 (the 1.5e-7 of the approximation plus f32 rounding), far inside the 1e-4
//! parity tolerance against transformers.

/// Defines `$name($args)`, which runs `$generic` compiled for the widest x86 instruction set
/// the CPU reports (AVX-512, else AVX2+FMA), else the portable build.
macro_rules! multiversion {
    ($(#[$m:meta])* $vis:vis fn $name:ident => $generic:ident ( $($arg:ident : $ty:ty),* )) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
                fn wide($($arg: $ty),*) {
                    $generic($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2($($arg: $ty),*) {
                    $generic($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                {
                    // SAFETY: the features `wide` is compiled for were detected just above.
                    #[allow(unsafe_code)]
                    return unsafe { wide($($arg),*) };
                }
                if std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                {
                    // SAFETY: the features `avx2` is compiled for were detected just above.
                    #[allow(unsafe_code)]
                    return unsafe { avx2($($arg),*) };
                }
            }
            $generic($($arg),*)
        }
    };
}

const LOG2E: f32 = std::f32::consts::LOG2_E;
// ln 2 split so that `n * LN2_HI` is exact for the |n| < 2^8 that occur.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
// 1.5 * 2^23: adding it rounds a float of magnitude < 2^22 to the nearest integer.
const ROUND_MAGIC: f32 = 12_582_912.0;

/// e^x for x in f32 range; 0 below -87.3, saturates at 88.7.
#[inline(always)]
fn exp(x: f32) -> f32 {
    let x = x.clamp(-87.3, 88.7);
    let t = x.mul_add(LOG2E, ROUND_MAGIC);
    let n = t - ROUND_MAGIC;
    let r = n.mul_add(-LN2_LO, n.mul_add(-LN2_HI, x));
    // Taylor series of e^r on |r| <= ln2/2, Horner form; the degree-7 remainder is < 5e-9.
    let mut p: f32 = 1.0 / 5040.0;
    p = p.mul_add(r, 1.0 / 720.0);
    p = p.mul_add(r, 1.0 / 120.0);
    p = p.mul_add(r, 1.0 / 24.0);
    p = p.mul_add(r, 1.0 / 6.0);
    p = p.mul_add(r, 0.5);
    p = p.mul_add(r, 1.0);
    p = p.mul_add(r, 1.0);
    // 2^n from the integer that the rounding left in the low mantissa bits of `t`.
    let n_int = (t.to_bits() as i32).wrapping_sub(ROUND_MAGIC.to_bits() as i32);
    let scale = f32::from_bits((n_int.wrapping_add(127) << 23) as u32);
    p * scale
}

/// erf(x) by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7 before f32 rounding).
#[inline(always)]
fn erf(x: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / 0.327_591_1f32.mul_add(a, 1.0);
    let mut p = 1.061_405_4f32;
    p = p.mul_add(t, -1.453_152_1);
    p = p.mul_add(t, 1.421_413_8);
    p = p.mul_add(t, -0.284_496_74);
    p = p.mul_add(t, 0.254_829_6);
    let y = 1.0 - p * t * exp(-a * a);
    y.copysign(x)
}

/// Activation functions of the supported encoders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Act {
    /// Exact GELU, `x * Phi(x)` (transformers' `gelu`).
    Gelu,
    /// The tanh approximation (`gelu_new`, `gelu_pytorch_tanh`).
    GeluTanh,
    Relu,
    Silu,
}

#[inline(always)]
fn act_generic(xs: &mut [f32], act: Act) {
    match act {
        Act::Gelu => {
            for x in xs.iter_mut() {
                *x = 0.5 * *x * (1.0 + erf(*x * std::f32::consts::FRAC_1_SQRT_2));
            }
        }
        Act::GeluTanh => {
            const C: f32 = 0.797_884_6; // sqrt(2 / pi)
            for x in xs.iter_mut() {
                let u = C * (0.044_715 * *x * *x).mul_add(*x, *x);
                // tanh(u) = 1 - 2 / (e^{2u} + 1), exact at both saturations.
                let th = 1.0 - 2.0 / (exp(2.0 * u) + 1.0);
                *x = 0.5 * *x * (1.0 + th);
            }
        }
        Act::Relu => xs.iter_mut().for_each(|x| *x = x.max(0.0)),
        Act::Silu => xs.iter_mut().for_each(|x| *x /= 1.0 + exp(-*x)),
    }
}

#[inline(always)]
fn bias_act_generic(rows: &mut [f32], bias: &[f32], act: Act) {
    for row in rows.chunks_exact_mut(bias.len()) {
        row.iter_mut().zip(bias).for_each(|(x, b)| *x += b);
        act_generic(row, act);
    }
}

multiversion! {
    /// Adds `bias` to each `bias.len()`-long row, then applies `act`, in place.
    pub(crate) fn bias_activate => bias_act_generic(rows: &mut [f32], bias: &[f32], act: Act)
}

const LANES: usize = 16;

/// Sum with 16 independent accumulators, so that the compiler can keep them in one vector.
#[inline(always)]
fn sum(xs: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let chunks = xs.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, x) in acc.iter_mut().zip(c) {
            *a += x;
        }
    }
    acc.iter().sum::<f32>() + rest.iter().sum::<f32>()
}

#[inline(always)]
fn max(xs: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; LANES];
    let chunks = xs.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, x) in acc.iter_mut().zip(c) {
            *a = a.max(*x);
        }
    }
    acc.iter()
        .chain(rest)
        .fold(f32::NEG_INFINITY, |m, x| m.max(*x))
}

#[inline(always)]
fn layer_norm_generic(rows: &mut [f32], width: usize, gamma: &[f32], beta: &[f32], eps: f32) {
    for row in rows.chunks_exact_mut(width) {
        norm_row(row, gamma, beta, eps);
    }
}

#[inline(always)]
fn add_layer_norm_generic(
    rows: &mut [f32],
    residual: &[f32],
    bias: &[f32],
    gamma: &[f32],
    beta: &[f32],
    eps: f32,
) {
    let width = gamma.len();
    for (row, res) in rows
        .chunks_exact_mut(width)
        .zip(residual.chunks_exact(width))
    {
        for ((x, r), b) in row.iter_mut().zip(res).zip(bias) {
            *x += r + b;
        }
        norm_row(row, gamma, beta, eps);
    }
}

#[inline(always)]
fn norm_row(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let width = row.len();
    {
        let mean = sum(row) / width as f32;
        row.iter_mut().for_each(|x| *x -= mean);
        let mut sq = [0f32; LANES];
        let chunks = row.chunks_exact(LANES);
        let rest: f32 = chunks.remainder().iter().map(|x| x * x).sum();
        for c in chunks {
            for (a, x) in sq.iter_mut().zip(c) {
                *a = x.mul_add(*x, *a);
            }
        }
        let var = (sq.iter().sum::<f32>() + rest) / width as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((x, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *x = (*x * inv).mul_add(*g, *b);
        }
    }
}

multiversion! {
    /// `row = LayerNorm(row + residual + bias)` for each `gamma.len()`-long row: the sub-layer
    /// output, its bias and the skip connection in one pass.
    pub(crate) fn add_layer_norm => add_layer_norm_generic(
        rows: &mut [f32],
        residual: &[f32],
        bias: &[f32],
        gamma: &[f32],
        beta: &[f32],
        eps: f32
    )
}

multiversion! {
    /// Layer normalisation of each `width`-long row of `rows`, in place (biased variance, as
    /// PyTorch's `LayerNorm`).
    pub(crate) fn layer_norm =>
        layer_norm_generic(rows: &mut [f32], width: usize, gamma: &[f32], beta: &[f32], eps: f32)
}

#[inline(always)]
fn softmax_generic(rows: &mut [f32], width: usize) {
    for row in rows.chunks_exact_mut(width) {
        let m = max(row);
        row.iter_mut().for_each(|x| *x = exp(*x - m));
        let inv = 1.0 / sum(row);
        row.iter_mut().for_each(|x| *x *= inv);
    }
}

multiversion! {
    /// Softmax of each `width`-long row, in place.
    pub(crate) fn softmax_rows => softmax_generic(rows: &mut [f32], width: usize)
}

#[inline(always)]
fn log_sum_exp_generic(rows: &mut [f32], width: usize, out: &mut [f32]) {
    for (row, o) in rows.chunks_exact_mut(width).zip(out.iter_mut()) {
        let m = max(row);
        row.iter_mut().for_each(|x| *x = exp(*x - m));
        *o = m + sum(row).ln();
    }
}

multiversion! {
    /// `out[i] = ln(sum(exp(row_i)))` for each `width`-long row (the log-softmax normaliser);
    /// the rows are overwritten.
    pub(crate) fn log_sum_exp_rows => log_sum_exp_generic(rows: &mut [f32], width: usize, out: &mut [f32])
}

#[inline(always)]
fn add_rows_generic(rows: &mut [f32], bias: &[f32]) {
    for row in rows.chunks_exact_mut(bias.len()) {
        row.iter_mut().zip(bias).for_each(|(x, b)| *x += b);
    }
}

multiversion! {
    /// Adds `bias` to each `bias.len()`-long row, in place.
    pub(crate) fn add_rows => add_rows_generic(rows: &mut [f32], bias: &[f32])
}

#[inline(always)]
fn rms_norm_generic(src: &[f32], dst: &mut [f32], gamma: &[f32], eps: f32) {
    let width = gamma.len();
    for (x, y) in src.chunks_exact(width).zip(dst.chunks_exact_mut(width)) {
        let mut sq = [0f32; LANES];
        let chunks = x.chunks_exact(LANES);
        let rest: f32 = chunks.remainder().iter().map(|v| v * v).sum();
        for c in chunks {
            for (a, v) in sq.iter_mut().zip(c) {
                *a = v.mul_add(*v, *a);
            }
        }
        let inv = 1.0 / ((sq.iter().sum::<f32>() + rest) / width as f32 + eps).sqrt();
        for ((o, v), g) in y.iter_mut().zip(x).zip(gamma) {
            *o = *v * inv * g;
        }
    }
}

multiversion! {
    /// T5's RMS norm (`T5LayerNorm`: no mean, no shift) of each `gamma.len()`-long row of
    /// `src` into `dst`: `gamma * x / sqrt(mean(x^2) + eps)`.
    pub(crate) fn rms_norm_into => rms_norm_generic(src: &[f32], dst: &mut [f32], gamma: &[f32], eps: f32)
}

#[inline(always)]
fn gated_gelu_generic(rows: &mut [f32], width: usize) {
    for row in rows.chunks_exact_mut(2 * width) {
        let (gate, lin) = row.split_at_mut(width);
        act_generic(gate, Act::GeluTanh);
        gate.iter_mut().zip(lin.iter()).for_each(|(g, l)| *g *= l);
    }
}

multiversion! {
    /// T5 v1.1's gated GELU on rows of `2 * width` values (`wi_0 x` then `wi_1 x`): the first
    /// half becomes `gelu_new(wi_0 x) * wi_1 x`; the second is left as it was.
    pub(crate) fn gated_gelu => gated_gelu_generic(rows: &mut [f32], width: usize)
}

#[inline(always)]
fn act_only_generic(xs: &mut [f32], act: Act) {
    act_generic(xs, act);
}

multiversion! {
    /// `act` on every value, in place.
    pub(crate) fn activate => act_only_generic(xs: &mut [f32], act: Act)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn activate(xs: &mut [f32], act: Act) {
        bias_activate(xs, &[0.0], act);
    }

    fn grid(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f32> {
        (0..=n).map(move |i| (lo + (hi - lo) * i as f64 / n as f64) as f32)
    }

    #[test]
    fn exp_is_within_2e_7_relative() {
        let mut worst = 0f64;
        for x in grid(-87.0, 88.0, 400_000) {
            let want = (x as f64).exp();
            let rel = ((exp(x) as f64 - want) / want).abs();
            worst = worst.max(rel);
        }
        assert!(worst < 2e-7, "worst relative error {worst:e}");
        assert_eq!(exp(-200.0), exp(-87.3));
        assert!(exp(-200.0) < 1e-37);
    }

    #[test]
    fn erf_and_gelu_are_within_6e_7_absolute() {
        let mut worst = 0f64;
        for x in grid(-8.0, 8.0, 400_000) {
            let want = libm_erf(x as f64);
            worst = worst.max((erf(x) as f64 - want).abs());
        }
        assert!(worst < 6e-7, "worst erf error {worst:e}");
        let mut xs: Vec<f32> = grid(-6.0, 6.0, 10_000).collect();
        let want: Vec<f64> = xs
            .iter()
            .map(|&x| 0.5 * x as f64 * (1.0 + libm_erf(x as f64 / 2f64.sqrt())))
            .collect();
        activate(&mut xs, Act::Gelu);
        for (g, w) in xs.iter().zip(&want) {
            assert!((*g as f64 - w).abs() < 1e-6, "{g} vs {w}");
        }
    }

    #[test]
    fn tanh_gelu_and_silu_match_their_definitions() {
        let xs: Vec<f32> = grid(-10.0, 10.0, 5_000).collect();
        let mut g = xs.clone();
        activate(&mut g, Act::GeluTanh);
        let mut s = xs.clone();
        activate(&mut s, Act::Silu);
        let mut r = xs.clone();
        activate(&mut r, Act::Relu);
        for (i, &x) in xs.iter().enumerate() {
            let x = x as f64;
            let th = (0.797_884_560_802_865_4 * (x + 0.044715 * x * x * x)).tanh();
            assert!((g[i] as f64 - 0.5 * x * (1.0 + th)).abs() < 2e-6);
            assert!((s[i] as f64 - x / (1.0 + (-x).exp())).abs() < 2e-6);
            assert_eq!(r[i] as f64, x.max(0.0));
        }
    }

    #[test]
    fn softmax_and_layer_norm_match_f64_references() {
        let width = 37;
        let rows: Vec<f32> = (0..width * 3)
            .map(|i| ((i * 7919) % 101) as f32 / 9.0 - 5.0)
            .collect();
        let mut sm = rows.clone();
        softmax_rows(&mut sm, width);
        let gamma: Vec<f32> = (0..width).map(|i| 1.0 + i as f32 / 50.0).collect();
        let beta: Vec<f32> = (0..width).map(|i| i as f32 / 100.0 - 0.1).collect();
        let mut ln = rows.clone();
        layer_norm(&mut ln, width, &gamma, &beta, 1e-12);
        // The fused residual form on a split of the same rows gives the same values.
        let half: Vec<f32> = rows.iter().map(|x| x * 0.25).collect();
        let mut fused: Vec<f32> = rows.iter().zip(&half).map(|(x, r)| x - r - 0.5).collect();
        add_layer_norm(&mut fused, &half, &vec![0.5; width], &gamma, &beta, 1e-12);
        for (a, b) in fused.iter().zip(&ln) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        let mut biased = rows.clone();
        bias_activate(&mut biased, &beta, Act::Relu);
        for (i, (a, x)) in biased.iter().zip(&rows).enumerate() {
            assert_eq!(*a, (x + beta[i % width]).max(0.0));
        }
        for r in 0..3 {
            let row: Vec<f64> = rows[r * width..(r + 1) * width]
                .iter()
                .map(|&x| x as f64)
                .collect();
            let m = row.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = row.iter().map(|x| (x - m).exp()).sum();
            let mean = row.iter().sum::<f64>() / width as f64;
            let var = row.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / width as f64;
            for (j, x) in row.iter().enumerate() {
                let want_sm = (x - m).exp() / z;
                assert!((sm[r * width + j] as f64 - want_sm).abs() < 1e-7);
                let want_ln = (x - mean) / (var + 1e-12).sqrt() * gamma[j] as f64 + beta[j] as f64;
                assert!((ln[r * width + j] as f64 - want_ln).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn log_sum_exp_and_add_rows_match_f64_references() {
        // Wide rows like a vocabulary's logits, with a large offset the max must absorb.
        let width = 5003;
        let rows: Vec<f32> = (0..width * 2)
            .map(|i| ((i * 7919) % 1009) as f32 / 37.0 - 12.0 + 40.0 * (i / width) as f32)
            .collect();
        let mut work = rows.clone();
        let mut out = [0f32; 2];
        log_sum_exp_rows(&mut work, width, &mut out);
        for (r, &got) in out.iter().enumerate() {
            let row = &rows[r * width..(r + 1) * width];
            let m = row.iter().map(|&x| x as f64).fold(f64::MIN, f64::max);
            let want = m + row.iter().map(|&x| (x as f64 - m).exp()).sum::<f64>().ln();
            assert!((got as f64 - want).abs() < 2e-5, "row {r}: {got} vs {want}");
        }
        let mut added = rows[..20].to_vec();
        let bias: Vec<f32> = (0..10).map(|i| i as f32 * 0.5).collect();
        add_rows(&mut added, &bias);
        for (i, (a, x)) in added.iter().zip(&rows).enumerate() {
            assert_eq!(*a, x + bias[i % 10]);
        }
    }

    #[test]
    fn rms_norm_and_gated_gelu_match_f64_references() {
        let width = 21;
        let rows: Vec<f32> = (0..width * 3)
            .map(|i| ((i * 7919) % 101) as f32 / 9.0 - 5.0)
            .collect();
        let gamma: Vec<f32> = (0..width).map(|i| 1.0 + i as f32 / 50.0).collect();
        let mut out = vec![0f32; rows.len()];
        rms_norm_into(&rows, &mut out, &gamma, 1e-6);
        for (r, row) in rows.chunks(width).enumerate() {
            let ms = row.iter().map(|&x| (x as f64).powi(2)).sum::<f64>() / width as f64;
            for (j, &x) in row.iter().enumerate() {
                let want = x as f64 / (ms + 1e-6).sqrt() * gamma[j] as f64;
                assert!((out[r * width + j] as f64 - want).abs() < 1e-5);
            }
        }
        let mut gated = rows.clone();
        gated_gelu(&mut gated, 7);
        for (r, row) in rows.chunks_exact(14).enumerate() {
            for j in 0..7 {
                let (g, l) = (row[j] as f64, row[7 + j] as f64);
                let th = (0.797_884_560_802_865_4 * (g + 0.044715 * g * g * g)).tanh();
                let want = 0.5 * g * (1.0 + th) * l;
                assert!((gated[r * 14 + j] as f64 - want).abs() < 2e-5, "{r},{j}");
                assert_eq!(gated[r * 14 + 7 + j], row[7 + j]);
            }
        }
        let mut relu = rows.clone();
        activate(&mut relu, Act::Relu);
        assert!(relu.iter().zip(&rows).all(|(a, x)| *a == x.max(0.0)));
    }

    /// erf in f64 from its Maclaurin series (|x| < 3) or the continued fraction of erfc, as an
    /// independent reference (std has no erf).
    fn libm_erf(x: f64) -> f64 {
        let a = x.abs();
        let v = if a < 3.0 {
            let mut term = a;
            let mut total = a;
            let mut k = 0f64;
            while term.abs() > 1e-17 * total.abs() {
                k += 1.0;
                term *= -a * a / k;
                total += term / (2.0 * k + 1.0);
            }
            total * 2.0 / std::f64::consts::PI.sqrt()
        } else {
            // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + 1/2/(a + 1/(a + 3/2/(a + 2/(a + ...)))))
            let mut f = a;
            for k in (1..60).rev() {
                f = a + (k as f64 / 2.0) / f;
            }
            1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / f
        };
        v.copysign(x)
    }
}
