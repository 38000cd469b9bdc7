//! Property tests of `figlang_stats`: invariances that must hold for any input, and
//! no panic on arbitrary finite input (degenerate input gives NaN or an error).

use figlang_stats::{
    cohen_kappa, kendall_tau, krippendorff_alpha, meta_evaluate, pearson, spearman,
    wmt_kendall_tau, KappaWeights, Level, MetaEvalData, TauVariant,
};
use proptest::prelude::*;

/// Paired vectors of equal length 2..40 with small integer-valued entries (many ties).
fn paired() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (2usize..40).prop_flat_map(|n| {
        (
            prop::collection::vec((-5i32..6).prop_map(f64::from), n),
            prop::collection::vec((-5i32..6).prop_map(f64::from), n),
        )
    })
}

fn in_unit(p: f64) -> bool {
    p.is_nan() || (0.0..=1.0).contains(&p)
}

proptest! {
    #[test]
    fn correlations_are_bounded_symmetric_and_never_panic((x, y) in paired()) {
        for c in [
            pearson(&x, &y).unwrap(),
            spearman(&x, &y).unwrap(),
            kendall_tau(&x, &y, TauVariant::B).unwrap(),
            kendall_tau(&x, &y, TauVariant::C).unwrap(),
        ] {
            prop_assert!(c.statistic.is_nan() || (-1.0..=1.0).contains(&c.statistic));
            prop_assert!(in_unit(c.p_value));
            // With n = 2 Spearman's t test has 0 degrees of freedom: p is NaN, as in SciPy.
            if x.len() > 2 {
                prop_assert_eq!(c.statistic.is_nan(), c.p_value.is_nan());
            }
        }
        let (a, b) = (pearson(&x, &y).unwrap(), pearson(&y, &x).unwrap());
        prop_assert!(a.statistic.is_nan() && b.statistic.is_nan() || (a.statistic - b.statistic).abs() < 1e-12);
        let (a, b) = (
            kendall_tau(&x, &y, TauVariant::B).unwrap(),
            kendall_tau(&y, &x, TauVariant::B).unwrap(),
        );
        prop_assert!(a.statistic.is_nan() && b.statistic.is_nan() || (a.statistic - b.statistic).abs() < 1e-12);
        let w = wmt_kendall_tau(&x, &y).unwrap();
        prop_assert!(w.tau.is_nan() || (-1.0..=1.0).contains(&w.tau));
    }

    #[test]
    fn rank_correlations_ignore_monotone_transforms((x, y) in paired()) {
        let squashed: Vec<f64> = y.iter().map(|v| (v / 3.0).tanh() * 7.0 + 2.0).collect();
        let s1 = spearman(&x, &y).unwrap().statistic;
        let s2 = spearman(&x, &squashed).unwrap().statistic;
        prop_assert!(s1.is_nan() && s2.is_nan() || (s1 - s2).abs() < 1e-12);
        let k1 = kendall_tau(&x, &y, TauVariant::B).unwrap();
        let k2 = kendall_tau(&x, &squashed, TauVariant::B).unwrap();
        prop_assert!(k1.statistic.is_nan() && k2.statistic.is_nan() || (k1.statistic - k2.statistic).abs() < 1e-12);
        let w1 = wmt_kendall_tau(&x, &y).unwrap();
        let w2 = wmt_kendall_tau(&x, &squashed).unwrap();
        prop_assert_eq!((w1.concordant, w1.discordant), (w2.concordant, w2.discordant));
    }

    #[test]
    fn pearson_ignores_positive_affine_maps((x, y) in paired(), scale in 0.1f64..50.0, shift in -100.0f64..100.0) {
        let mapped: Vec<f64> = y.iter().map(|v| v * scale + shift).collect();
        let a = pearson(&x, &y).unwrap().statistic;
        let b = pearson(&x, &mapped).unwrap().statistic;
        prop_assert!(a.is_nan() && b.is_nan() || (a - b).abs() < 1e-9);
    }

    #[test]
    fn kappa_and_alpha_never_panic((x, y) in paired()) {
        let a: Vec<i64> = x.iter().map(|v| *v as i64).collect();
        let b: Vec<i64> = y.iter().map(|v| *v as i64).collect();
        for w in [KappaWeights::Unweighted, KappaWeights::Linear, KappaWeights::Quadratic] {
            let k = cohen_kappa(&a, &b, w).unwrap();
            prop_assert!(k.is_nan() || k <= 1.0 + 1e-12);
        }
        let data = vec![x.clone(), y.clone()];
        for level in [Level::Nominal, Level::Ordinal, Level::Interval, Level::Ratio] {
            // Errors (a single distinct value) are allowed; panics are not.
            let _ = krippendorff_alpha(&data, level);
        }
    }

    #[test]
    fn meta_eval_never_panics(cells in prop::collection::vec((0u8..4, 0u8..6, -3i32..4, -3i32..4), 2..40)) {
        let mut seen = std::collections::HashSet::new();
        let rows: Vec<(String, String, f64, f64)> = cells
            .into_iter()
            .filter(|(s, g, _, _)| seen.insert((*s, *g)))
            .map(|(s, g, h, m)| (format!("s{s}"), format!("g{g}"), f64::from(h), f64::from(m)))
            .collect();
        if let Ok(data) = MetaEvalData::from_rows(rows) {
            if let Ok(r) = meta_evaluate(&data) {
                prop_assert!(in_unit(r.system_pearson.p_value));
                prop_assert!(r.segment_kendall_wmt.is_nan() || (-1.0..=1.0).contains(&r.segment_kendall_wmt));
            }
        }
    }
}
