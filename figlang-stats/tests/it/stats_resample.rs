//! Properties of the resampling procedures: reproducible from the seed, independent of the
//! thread count, and sensible coverage.

use figlang_stats::{
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

/// Counts work and cancels once `stop_after` units are done.
struct StopAfter {
    done: std::sync::atomic::AtomicU64,
    stop_after: u64,
}

impl hauser_core::limits::Monitor for StopAfter {
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }
    fn is_cancelled(&self) -> bool {
        self.done.load(std::sync::atomic::Ordering::Relaxed) >= self.stop_after
    }
}

#[test]
fn a_bootstrap_beyond_memory_is_an_error_not_an_abort() {
    use figlang_stats::StatsError;
    let config = BootstrapConfig {
        resamples: 1_000_000_000_000,
        seed: 0,
        level: 0.95,
    };
    let err = bootstrap_meta_eval(&table(), &config).unwrap_err();
    assert!(matches!(err, StatsError::Limit(_)), "{err}");
    assert!(
        err.to_string()
            .starts_with("a bootstrap of 1000000000000 resamples needs 29.1 TiB of memory"),
        "{err}"
    );
    let config = BootstrapConfig {
        resamples: usize::MAX,
        ..config
    };
    assert!(matches!(
        bootstrap_meta_eval(&table(), &config),
        Err(StatsError::Limit(_))
    ));
}

#[test]
fn a_monitored_bootstrap_reports_progress_cancels_and_keeps_its_numbers() {
    use figlang_stats::{bootstrap_meta_eval_monitored, StatsError};
    let data = table();
    let config = BootstrapConfig {
        resamples: 3000,
        seed: 11,
        level: 0.9,
    };
    let all = StopAfter {
        done: Default::default(),
        stop_after: u64::MAX,
    };
    let monitored = bootstrap_meta_eval_monitored(&data, &config, &all).unwrap();
    assert_eq!(all.done.into_inner(), 3000);
    assert_eq!(monitored, bootstrap_meta_eval(&data, &config).unwrap());
    let early = StopAfter {
        done: Default::default(),
        stop_after: 1000,
    };
    let err = bootstrap_meta_eval_monitored(&data, &config, &early).unwrap_err();
    assert!(matches!(err, StatsError::Cancelled { .. }), "{err}");
    assert!(early.done.into_inner() < 3000);
}

#[test]
fn a_dense_table_beyond_memory_is_an_error() {
    use figlang_stats::StatsError;
    // 300,000 rows that each add a system and a segment ask for 9 x 10^10 cells (2.6 TiB).
    let rows = (0..300_000u32).map(|i| (format!("s{i}"), format!("g{i}"), 1.0, 2.0));
    let err = MetaEvalData::from_rows(rows).unwrap_err();
    assert!(matches!(err, StatsError::Limit(_)), "{err}");
    assert!(
        err.to_string()
            .contains("a meta-evaluation table of 300000 systems x 300000 segments"),
        "{err}"
    );
}
