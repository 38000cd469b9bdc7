//! Properties of the resampling procedures: reproducible from the seed, independent of the
//! thread count, and sensible coverage.

use figlang_metrics::stats::{
    bootstrap_meta_eval, meta_evaluate, permutation_test, permutation_test_paired, BootstrapConfig,
    CorrelationKind, MetaEvalData,
};

/// A synthetic 8 systems x 40 segments table where the metric tracks the human score.
fn table() -> MetaEvalData {
    let mut rows = Vec::new();
    for s in 0..8u32 {
        for g in 0..40u32 {
            let quality = f64::from(s) * 0.5 + f64::from((g * 7 + s * 3) % 11) / 4.0;
            let noise = f64::from((g * 13 + s * 5) % 17) / 8.0 - 1.0;
            rows.push((
                format!("sys{s}"),
                format!("seg{g}"),
                quality,
                quality + noise,
            ));
        }
    }
    MetaEvalData::from_rows(rows).expect("table")
}

#[test]
fn bootstrap_is_seeded_and_thread_independent() {
    let data = table();
    let config = BootstrapConfig {
        resamples: 300,
        seed: 42,
        level: 0.95,
    };
    let parallel = bootstrap_meta_eval(&data, &config).unwrap();
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| bootstrap_meta_eval(&data, &config).unwrap());
    assert_eq!(parallel, single);
    let other = bootstrap_meta_eval(&data, &BootstrapConfig { seed: 43, ..config }).unwrap();
    assert_ne!(parallel.segment_pearson.low, other.segment_pearson.low);

    // The mean tau is a mean over resampled segments: its interval brackets the estimate.
    let tau = parallel.segment_kendall_wmt;
    assert!(
        tau.low <= tau.estimate && tau.estimate <= tau.high,
        "{tau:?}"
    );
    let report = meta_evaluate(&data).unwrap();
    for (ci, point) in [
        (parallel.system_pearson, report.system_pearson.statistic),
        (parallel.segment_kendall_wmt, report.segment_kendall_wmt),
        (parallel.segment_pearson, report.segment_pearson.statistic),
    ] {
        assert!((ci.estimate - point).abs() < 1e-12, "{ci:?} vs {point}");
        // A percentile interval of a correlation near 1 need not contain the estimate.
        assert!(ci.low < ci.high && ci.high <= 1.0, "{ci:?}");
        assert_eq!(ci.valid, 300);
    }
}

#[test]
fn bootstrap_rejects_bad_settings() {
    let data = table();
    let bad = BootstrapConfig {
        resamples: 0,
        ..BootstrapConfig::default()
    };
    assert!(bootstrap_meta_eval(&data, &bad).is_err());
    let bad = BootstrapConfig {
        level: 1.0,
        ..BootstrapConfig::default()
    };
    assert!(bootstrap_meta_eval(&data, &bad).is_err());
}

#[test]
fn permutation_tests_separate_signal_from_noise() {
    let h: Vec<f64> = (0..40).map(|i| f64::from(i % 9)).collect();
    let good: Vec<f64> = h
        .iter()
        .enumerate()
        .map(|(i, v)| v + f64::from(i as u32 % 3) * 0.1)
        .collect();
    let noise: Vec<f64> = (0..40u32).map(|i| f64::from((i * 17) % 13)).collect();
    let strong = permutation_test(&h, &good, CorrelationKind::Pearson, 999, 1).unwrap();
    assert!(strong.p_value <= 0.002, "{strong:?}");
    let weak = permutation_test(&h, &noise, CorrelationKind::KendallB, 999, 1).unwrap();
    assert!(weak.p_value > 0.05, "{weak:?}");
    let diff =
        permutation_test_paired(&h, &good, &noise, CorrelationKind::Pearson, 999, 2).unwrap();
    assert!(diff.statistic > 0.5 && diff.p_value < 0.01, "{diff:?}");
    let again =
        permutation_test_paired(&h, &good, &noise, CorrelationKind::Pearson, 999, 2).unwrap();
    assert_eq!(diff, again);
}
