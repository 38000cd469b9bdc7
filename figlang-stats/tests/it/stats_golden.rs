//! Golden tests of `figlang_stats` against SciPy / statsmodels / scikit-learn /
//! krippendorff values stored by `tools/gen/gen_stats_fixtures.py` (versions and tolerances are in
//! each fixture): statistics within 1e-12 absolute, p-values within 1e-9 relative.

use figlang_stats::{fisher_z_interval, kendall_tau, pearson, spearman, Correlation, TauVariant};
use serde_json::Value;

use crate::stats_common::{assert_p, assert_stat, expected, floats, load};

fn check(what: &str, got: Correlation, want: &Value) {
    assert_stat(
        &format!("{what} statistic"),
        got.statistic,
        expected(&want[0]),
    );
    assert_p(&format!("{what} p-value"), got.p_value, expected(&want[1]));
}

#[test]
fn fixture_records_versions_and_tolerances() {
    let f = load("stats_correlation.json");
    assert_eq!(f["versions"]["scipy"], "1.17.1");
    assert_eq!(f["tolerance"]["statistic_abs"], 1e-12);
    assert_eq!(f["tolerance"]["p_value_rel"], 1e-9);
}

#[test]
fn correlations_match_scipy() {
    let f = load("stats_correlation.json");
    let cases = f["cases"].as_array().expect("cases");
    assert!(cases.len() >= 15);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let (x, y) = (floats(&case["x"]), floats(&case["y"]));
        check(
            &format!("{name} pearson"),
            pearson(&x, &y).unwrap(),
            &case["pearson"],
        );
        check(
            &format!("{name} spearman"),
            spearman(&x, &y).unwrap(),
            &case["spearman"],
        );
        check(
            &format!("{name} kendall-b"),
            kendall_tau(&x, &y, TauVariant::B).unwrap(),
            &case["kendall_b"],
        );
        check(
            &format!("{name} kendall-c"),
            kendall_tau(&x, &y, TauVariant::C).unwrap(),
            &case["kendall_c"],
        );
        if let Some(ci) = case.get("pearson_ci95") {
            let r = pearson(&x, &y).unwrap().statistic;
            let got = fisher_z_interval(r, x.len(), 0.95).unwrap();
            assert_stat(&format!("{name} ci low"), got.low, expected(&ci[0]));
            assert_stat(&format!("{name} ci high"), got.high, expected(&ci[1]));
        }
    }
}

#[test]
fn williams_test_matches_formula_with_scipy_t() {
    let f = load("stats_correlation.json");
    for case in f["williams"].as_array().expect("williams") {
        let (h, a, b) = (
            floats(&case["human"]),
            floats(&case["a"]),
            floats(&case["b"]),
        );
        let got = figlang_stats::williams_test(&h, &a, &b).unwrap();
        assert_stat("williams t", got.t, expected(&case["t"]));
        assert_p("williams p", got.p_value, expected(&case["p_value"]));
    }
}

#[test]
fn exact_permutation_tests_match_scipy_permutation_test() {
    use figlang_stats::{permutation_test, permutation_test_paired, CorrelationKind};
    let f = load("stats_correlation.json");
    let cases = f["permutation"].as_array().expect("permutation");
    assert_eq!(cases.len(), 6);
    for case in cases {
        let kind = match case["kind"].as_str().expect("kind") {
            "pearson" => CorrelationKind::Pearson,
            "spearman" => CorrelationKind::Spearman,
            _ => CorrelationKind::KendallB,
        };
        let got = if case["type"] == "pairings" {
            permutation_test(&floats(&case["x"]), &floats(&case["y"]), kind, 9999, 0)
        } else {
            permutation_test_paired(
                &floats(&case["human"]),
                &floats(&case["a"]),
                &floats(&case["b"]),
                kind,
                9999,
                0,
            )
        }
        .unwrap();
        let what = format!("{} {}", case["type"], case["kind"]);
        assert!(got.exact, "{what}");
        assert_eq!(
            got.resamples as u64,
            case["n_null"].as_u64().expect("n"),
            "{what}"
        );
        assert_stat(&what, got.statistic, expected(&case["statistic"]));
        assert_p(&what, got.p_value, expected(&case["p_value"]));
    }
}

#[test]
fn bootstrap_on_given_draws_matches_numpy_scipy() {
    use figlang_stats::{bootstrap_meta_eval_with_segments, MetaEvalData};
    let f = load("stats_correlation.json");
    let case = &f["bootstrap"];
    let matrix =
        |v: &Value| -> Vec<Vec<f64>> { v.as_array().expect("rows").iter().map(floats).collect() };
    let data =
        MetaEvalData::from_matrices(&matrix(&case["human"]), &matrix(&case["metric"])).unwrap();
    let samples: Vec<Vec<usize>> = case["samples"]
        .as_array()
        .expect("samples")
        .iter()
        .map(|s| floats(s).into_iter().map(|g| g as usize).collect())
        .collect();
    let b = bootstrap_meta_eval_with_segments(&data, &samples, 0.95).unwrap();
    assert_eq!(b.resamples, 300);
    for (name, got) in [
        ("system_pearson", b.system_pearson),
        ("segment_kendall_wmt", b.segment_kendall_wmt),
        ("segment_pearson", b.segment_pearson),
    ] {
        let want = &case[name];
        assert_stat(&format!("{name} low"), got.low, expected(&want[0]));
        assert_stat(&format!("{name} high"), got.high, expected(&want[1]));
        assert_eq!(got.valid as u64, want[2].as_u64().expect("n"), "{name}");
    }
    assert!(bootstrap_meta_eval_with_segments(&data, &[vec![99]], 0.95).is_err());
}
