//! Golden test: `neural::comet_compare` against unbabel-comet 2.2.7's `comet-compare`
//! statistics (its NumPy and SciPy calls, NumPy 2.4.6 and SciPy 1.17.1;
//! `tools/gen/gen_comet_compare_fixture.py`): five cases of 2-4 systems, default and other
//! partition counts, sample ratios (one of them drawing a single line) and alternatives.
//! Bootstrap numbers (means of the float32 partition means, ties and wins) within 1e-12 (the
//! draws and float32 sums are NumPy's); the t-test within 1e-5 relative (SciPy keeps float32).

#![cfg(feature = "neural")]

use figlang_metrics::neural::{comet_compare, CometCompare};
use figlang_metrics::stats::Alternative;
use serde_json::Value;

#[test]
fn comet_compare_equals_unbabel_comet() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/significance_comet_compare.json"
    );
    let fx: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for (c, case) in fx["cases"].as_array().unwrap().iter().enumerate() {
        let systems: Vec<Vec<f64>> = case["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                s.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect()
            })
            .collect();
        let cfg = CometCompare {
            num_splits: case["num_splits"].as_u64().unwrap() as usize,
            sample_ratio: case["sample_ratio"].as_f64().unwrap(),
            alternative: Alternative::parse(case["alternative"].as_str().unwrap()).unwrap(),
            ..CometCompare::default()
        };
        let got = comet_compare(&systems, &cfg).unwrap();
        let want = case["pairs"].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "case {c}");
        for (g, w) in got.iter().zip(want) {
            let f = |k: &str| w[k].as_f64().unwrap();
            let label = format!("case {c} pair ({}, {})", g.x, g.y);
            assert_eq!(
                (g.x as u64, g.y as u64),
                (w["x"].as_u64().unwrap(), w["y"].as_u64().unwrap())
            );
            for (k, v) in [
                ("x_mean", g.x_mean),
                ("y_mean", g.y_mean),
                ("ties", g.ties),
                ("x_wins", g.x_wins),
                ("y_wins", g.y_wins),
            ] {
                assert!((v - f(k)).abs() <= 1e-12, "{label} {k}: {v} vs {}", f(k));
            }
            for (k, v) in [
                ("statistic", g.t_test.statistic),
                ("p_value", g.t_test.p_value),
            ] {
                let rel = (v - f(k)).abs() / f(k).abs().max(1e-12);
                assert!(rel <= 1e-5, "{label} {k}: {v} vs {}", f(k));
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 14);
}
