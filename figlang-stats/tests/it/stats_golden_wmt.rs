//! Golden tests of the WMT meta-evaluation statistics against Google's mt-metrics-eval at commit
//! 68a481aea1a787392d55af8f76ac8ef40c5f4664 (`tools/gen/gen_wmt_meta_fixtures.py` writes
//! `stats_wmt_meta.json`): every value within the fixture's tolerance (1e-9 absolute), counts,
//! thresholds and significance outcomes exactly.

use figlang_stats::numpy_rng::{legacy_random_sample, random_f32, Mt19937, Pcg64};
use figlang_stats::{
    average_correlation, kendall_tau, kendall_variant, kendall_with_ties_opt, pairwise_accuracy,
    pairwise_permutation_sig_diff, pearson, permutation_sig_diff, significance_clusters,
    soft_pairwise_accuracy, spearman, AverageOptions, Grouping, KendallVariant, PackedScores,
    PairSampling, PairwiseAccuracy, PermSigDiff, PermSigDiffConfig, StatsResult, TauVariant,
};
use serde_json::Value;

use crate::stats_common::{expected, floats, load};

fn fixture() -> Value {
    load("stats_wmt_meta.json")
}

fn tol(f: &Value) -> f64 {
    f["tolerance"]["abs"].as_f64().expect("tolerance")
}

fn close(what: &str, got: f64, want: f64, tol: f64) {
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: expected NaN (None), got {got}");
    } else {
        assert!(
            (got - want).abs() <= tol,
            "{what}: got {got}, want {want} (diff {:e})",
            (got - want).abs()
        );
    }
}

fn variant(name: &str) -> KendallVariant {
    match name {
        "b" => KendallVariant::B,
        "c" => KendallVariant::C,
        "23" => KendallVariant::Tau23,
        "acc23" => KendallVariant::Acc23,
        other => panic!("unknown variant {other}"),
    }
}

fn grouping(name: &str) -> Grouping {
    match name {
        "none" => Grouping::None,
        "item" => Grouping::Item,
        "sys" => Grouping::Sys,
        other => panic!("unknown average_by {other}"),
    }
}

fn usize_of(v: &Value) -> usize {
    usize::try_from(v.as_u64().expect("integer")).expect("fits")
}

/// The correlation function of an `average_correlation` / `perm_sig_diff` case.
fn corr_fn(name: &str, args: &Value) -> impl FnMut(&[f64], &[f64]) -> StatsResult<f64> {
    let name = name.to_string();
    let var = args["variant"].as_str().unwrap_or("b").to_string();
    let eps = args["epsilon"].as_f64().unwrap_or(0.0);
    move |h: &[f64], m: &[f64]| match name.as_str() {
        "kendall_variants" => kendall_variant(h, m, variant(&var), eps),
        "pearson" => Ok(pearson(h, m)?.statistic),
        "spearman" => Ok(spearman(h, m)?.statistic),
        "kendall" => {
            let v = if var == "c" {
                TauVariant::C
            } else {
                TauVariant::B
            };
            Ok(kendall_tau(h, m, v)?.statistic)
        }
        other => panic!("unknown correlation {other}"),
    }
}

#[test]
fn kendall_variants_match_mt_metrics_eval() {
    let f = fixture();
    let mut n = 0;
    for case in f["kendall_variants"].as_array().expect("cases") {
        let (h, m) = (floats(&case["human"]), floats(&case["metric"]));
        for r in case["results"].as_array().expect("results") {
            let v = r["variant"].as_str().expect("variant");
            let eps = r["epsilon"].as_f64().expect("epsilon");
            let got = kendall_variant(&h, &m, variant(v), eps).unwrap();
            let what = format!("{} {v} eps={eps}", case["name"]);
            close(&what, got, expected(&r["value"]), tol(&f));
            n += 1;
        }
    }
    assert!(n >= 80, "{n} cases");
}

#[test]
fn average_correlation_matches_mt_metrics_eval() {
    let f = fixture();
    let mut n = 0;
    for case in f["average_correlation"].as_array().expect("cases") {
        let (h, m) = (floats(&case["gold"]), floats(&case["metric"]));
        let scores = PackedScores::new(&h, &m, usize_of(&case["num_sys"])).unwrap();
        for r in case["results"].as_array().expect("results") {
            let options = AverageOptions {
                replace_nans_with_zeros: r["replace_nans_with_zeros"].as_bool().expect("bool"),
                weighted: !r["macro"].as_bool().expect("macro"),
            };
            let by = grouping(r["average_by"].as_str().expect("average_by"));
            let corr = corr_fn(r["fcn"].as_str().expect("fcn"), &r["args"]);
            let got = average_correlation(&scores, by, options, corr).unwrap();
            let what = format!("{} {}", case["name"], r);
            close(&what, got.value, expected(&r["value"]), tol(&f));
            assert_eq!(got.weight, usize_of(&r["n"]), "{what}");
            n += 1;
        }
    }
    assert!(n >= 400, "{n} cases");
}

#[test]
fn tie_calibration_matches_mt_metrics_eval() {
    let f = fixture();
    let mut n = 0;
    for case in f["ties_opt"].as_array().expect("cases") {
        let (h, m) = (floats(&case["gold"]), floats(&case["metric"]));
        let scores = PackedScores::new(&h, &m, usize_of(&case["num_sys"])).unwrap();
        for r in case["results"].as_array().expect("results") {
            let sampling = match r["seed"].as_u64() {
                None => PairSampling::All,
                Some(seed) => PairSampling::Sampled {
                    rate: r["sample_rate"].as_f64().expect("rate"),
                    seed: u32::try_from(seed).expect("seed"),
                },
            };
            let by = grouping(r["average_by"].as_str().expect("average_by"));
            let v = variant(r["variant"].as_str().expect("variant"));
            let got = kendall_with_ties_opt(&scores, by, v, sampling).unwrap();
            let what = format!("{} {by:?} {v:?} {sampling:?}", case["name"]);
            close(&what, got.tau, expected(&r["tau"]), tol(&f));
            // Same pairs in the same order: the chosen threshold is the same double.
            assert_eq!(got.epsilon, expected(&r["epsilon"]), "{what}");
            assert_eq!(
                got.thresholds.len(),
                usize_of(&r["num_thresholds"]),
                "{what}"
            );
            let head = floats(&r["thresholds_head"]);
            assert_eq!(&got.thresholds[..head.len()], &head[..], "{what}");
            for (k, want) in floats(&r["taus_head"]).into_iter().enumerate() {
                close(&format!("{what} taus[{k}]"), got.taus[k], want, tol(&f));
            }
            n += 1;
        }
    }
    assert!(n >= 60, "{n} cases");
}

#[test]
fn pairwise_accuracy_matches_agreement_and_global_accuracy() {
    let f = fixture();
    let pa = &f["pairwise_accuracy"];
    let mut pooled = Vec::new();
    for g in pa["groups"].as_array().expect("groups") {
        let got = pairwise_accuracy(&floats(&g["human"]), &floats(&g["metric"])).unwrap();
        assert_eq!(got.agree, g["agree"].as_u64().expect("agree"));
        assert_eq!(got.pairs, g["pairs"].as_u64().expect("pairs"));
        pooled.push(got);
    }
    let total: PairwiseAccuracy = pooled.into_iter().sum();
    close("pooled", total.accuracy(), expected(&pa["pooled"]), tol(&f));
}

#[test]
fn soft_pairwise_accuracy_matches_mt_metrics_eval() {
    let f = fixture();
    for case in f["spa"].as_array().expect("cases") {
        let (h, m) = (floats(&case["gold"]), floats(&case["metric"]));
        let scores = PackedScores::new(&h, &m, usize_of(&case["num_sys"])).unwrap();
        let got = soft_pairwise_accuracy(&scores, 1000, 4).unwrap();
        close(
            &case["name"].to_string(),
            got,
            expected(&case["spa"]),
            tol(&f),
        );
    }
}

/// On unrounded scores the reference's float32 sums round, in its BLAS's order: the same draws,
/// so SPA agrees within a p-value step where rounding decides a borderline permutation.
#[test]
fn soft_pairwise_accuracy_on_unrounded_scores_is_within_a_step() {
    let f = fixture();
    let step = f["spa_real_tolerance"]
        .as_f64()
        .expect("spa_real_tolerance");
    for case in f["spa_real"].as_array().expect("cases") {
        let (h, m) = (floats(&case["gold"]), floats(&case["metric"]));
        let scores = PackedScores::new(&h, &m, usize_of(&case["num_sys"])).unwrap();
        let got = soft_pairwise_accuracy(&scores, 1000, 4).unwrap();
        close(&case["name"].to_string(), got, expected(&case["spa"]), step);
    }
}

#[test]
fn significance_clusters_match_assign_ranks() {
    let f = fixture();
    for case in f["clusters"].as_array().expect("cases") {
        let matrix: Vec<Vec<f64>> = case["matrix"]
            .as_array()
            .expect("matrix")
            .iter()
            .map(floats)
            .collect();
        let alpha = case["pval"].as_f64().expect("pval");
        let want: Vec<usize> = case["ranks"]
            .as_array()
            .expect("ranks")
            .iter()
            .map(usize_of)
            .collect();
        assert_eq!(significance_clusters(&matrix, alpha).unwrap(), want);
    }
}

fn perm_config(r: &Value) -> PermSigDiffConfig {
    let seed = u32::try_from(r["seed"].as_u64().expect("seed")).expect("u32");
    PermSigDiffConfig {
        resamples: usize_of(&r["k"]),
        block_size: usize_of(&r["block_size"]),
        ..PermSigDiffConfig::new(seed)
    }
}

fn check_perm(what: &str, got: PermSigDiff, r: &Value, tol: f64) {
    assert_eq!(got.p_value, expected(&r["pval"]), "{what}");
    assert_eq!(got.resamples_used, usize_of(&r["k_used"]), "{what}");
    close(what, got.delta, expected(&r["delta"]), tol);
}

#[test]
fn permutation_sig_diff_matches_mt_metrics_eval_on_the_same_draws() {
    let f = fixture();
    let mut n = 0;
    for case in f["perm_sig_diff"].as_array().expect("cases") {
        let h = floats(&case["gold"]);
        let (m1, m2) = (floats(&case["metric1"]), floats(&case["metric2"]));
        let ns = usize_of(&case["num_sys"]);
        let first = PackedScores::new(&h, &m1, ns).unwrap();
        let second = PackedScores::new(&h, &m2, ns).unwrap();
        for r in case["scores"].as_array().expect("scores") {
            let by = grouping(r["average_by"].as_str().expect("average_by"));
            let corr = corr_fn(r["fcn"].as_str().expect("fcn"), &r["args"]);
            let got = permutation_sig_diff(&first, &second, by, &perm_config(r), corr).unwrap();
            check_perm(&format!("{} {r}", case["name"]), got, r, tol(&f));
            n += 1;
        }
    }
    assert!(n >= 40, "{n} cases");
}

#[test]
fn pairwise_permutation_sig_diff_matches_mt_metrics_eval_on_the_same_draws() {
    let f = fixture();
    let mut n = 0;
    for case in f["perm_sig_diff"].as_array().expect("cases") {
        let h = floats(&case["gold"]);
        let (m1, m2) = (floats(&case["metric1"]), floats(&case["metric2"]));
        let ns = usize_of(&case["num_sys"]);
        let first = PackedScores::new(&h, &m1, ns).unwrap();
        let second = PackedScores::new(&h, &m2, ns).unwrap();
        for r in case["pairs"].as_array().expect("pairs") {
            let by = grouping(r["average_by"].as_str().expect("average_by"));
            let v = variant(r["variant"].as_str().expect("variant"));
            let eps = match r["epsilons"].as_array() {
                Some(e) => (e[0].as_f64(), e[1].as_f64()),
                None => (None, None),
            };
            let got = pairwise_permutation_sig_diff(&first, &second, by, v, eps, &perm_config(r))
                .unwrap();
            check_perm(&format!("{} {r}", case["name"]), got, r, tol(&f));
            n += 1;
        }
    }
    assert!(n >= 60, "{n} cases");
}

#[test]
fn legacy_and_float32_draws_match_numpy() {
    let f = fixture();
    for case in f["rng_draws"]["legacy_random_sample"]
        .as_array()
        .expect("legacy")
    {
        let seed = u32::try_from(case["seed"].as_u64().expect("seed")).expect("u32");
        let mut g = Mt19937::seed(seed);
        for want in floats(&case["draws"]) {
            assert_eq!(legacy_random_sample(&mut g), want, "seed {seed}");
        }
    }
    for case in f["rng_draws"]["random_f32"].as_array().expect("f32") {
        let mut g = Pcg64::default_rng(case["seed"].as_u64());
        for want in floats(&case["draws"]) {
            assert_eq!(f64::from(random_f32(&mut g)), want, "seed {}", case["seed"]);
        }
    }
}
