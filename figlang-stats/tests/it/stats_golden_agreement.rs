//! Golden tests of agreement, classification, ranking and Williams/McNemar statistics against
//! statsmodels 0.15.0, scikit-learn, krippendorff 0.9.0 and SciPy 1.17.1
//! (`tools/gen/gen_stats_fixtures.py`).

use figlang_stats::{
    classification_report, cohen_kappa, fleiss_kappa, krippendorff_alpha, leave_one_out, mcnemar,
    ndcg_at_k, pairwise_pearson, zscore, KappaWeights, Level, McNemarMethod,
};
use serde_json::Value;

use crate::stats_common::{assert_p, assert_stat, expected, floats, load};

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_i64().expect("int"))
        .collect()
}

#[test]
fn cohen_kappa_matches_statsmodels() {
    let f = load("stats_agreement.json");
    for case in f["cohen"].as_array().expect("cohen") {
        let (a, b) = (ints(&case["a"]), ints(&case["b"]));
        for (key, w) in [
            ("unweighted", KappaWeights::Unweighted),
            ("linear", KappaWeights::Linear),
            ("quadratic", KappaWeights::Quadratic),
        ] {
            let got = cohen_kappa(&a, &b, w).unwrap();
            assert_stat(
                &format!("{} {key}", case["name"]),
                got,
                expected(&case[key]),
            );
        }
    }
}

#[test]
fn fleiss_kappa_matches_statsmodels() {
    let f = load("stats_agreement.json");
    for case in f["fleiss"].as_array().expect("fleiss") {
        let table: Vec<Vec<u64>> = case["table"]
            .as_array()
            .expect("table")
            .iter()
            .map(|r| ints(r).into_iter().map(|v| v as u64).collect())
            .collect();
        let got = fleiss_kappa(&table).unwrap();
        assert_stat(&case["name"].to_string(), got, expected(&case["kappa"]));
    }
}

#[test]
fn krippendorff_alpha_matches_package_with_missing_values() {
    let f = load("stats_agreement.json");
    for case in f["krippendorff"].as_array().expect("krippendorff") {
        let data: Vec<Vec<f64>> = case["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(floats)
            .collect();
        for (key, level) in [
            ("nominal", Level::Nominal),
            ("ordinal", Level::Ordinal),
            ("interval", Level::Interval),
            ("ratio", Level::Ratio),
        ] {
            let got = krippendorff_alpha(&data, level).unwrap();
            assert_stat(
                &format!("{} {key}", case["name"]),
                got,
                expected(&case[key]),
            );
        }
    }
}

#[test]
fn zscore_and_leave_one_out_match_scipy() {
    let f = load("stats_agreement.json");
    let z = &f["zscore"][0];
    for (g, w) in zscore(&floats(&z["x"]))
        .unwrap()
        .iter()
        .zip(floats(&z["z"]))
    {
        assert_stat("zscore", *g, w);
    }
    let loo = &f["loo"][0];
    let ratings: Vec<Vec<f64>> = loo["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .map(floats)
        .collect();
    let got = leave_one_out(&ratings).unwrap();
    for (g, w) in got.pearson.iter().zip(floats(&loo["pearson"])) {
        assert_stat("loo pearson", *g, w);
    }
    for (g, w) in got.spearman.iter().zip(floats(&loo["spearman"])) {
        assert_stat("loo spearman", *g, w);
    }
    for (g, w) in pairwise_pearson(&ratings)
        .unwrap()
        .iter()
        .zip(floats(&loo["pairwise_pearson"]))
    {
        assert_stat("pairwise", *g, w);
    }
}

#[test]
fn mcnemar_matches_statsmodels() {
    let f = load("stats_classification.json");
    for case in f["mcnemar"].as_array().expect("mcnemar") {
        let t = &case["table"];
        let table = [
            [t[0][0].as_u64().expect("n"), t[0][1].as_u64().expect("n")],
            [t[1][0].as_u64().expect("n"), t[1][1].as_u64().expect("n")],
        ];
        for (key, method) in [
            ("exact", McNemarMethod::Exact),
            ("chi2_corrected", McNemarMethod::ChiSquareCorrected),
            ("chi2", McNemarMethod::ChiSquare),
        ] {
            match case.get(key) {
                Some(want) => {
                    let got = mcnemar(table, method);
                    assert_stat(&format!("{t} {key}"), got.statistic, expected(&want[0]));
                    assert_p(&format!("{t} {key}"), got.p_value, expected(&want[1]));
                }
                None => assert!(mcnemar(table, method).statistic.is_nan()),
            }
        }
    }
}

#[test]
fn classification_matches_sklearn() {
    let f = load("stats_classification.json");
    let case = &f["prf"][0];
    let r = classification_report(&ints(&case["y_true"]), &ints(&case["y_pred"])).unwrap();
    assert_eq!(r.labels, ints(&case["labels"]));
    let pc = &case["per_class"];
    for (i, prf) in r.per_class.iter().enumerate() {
        assert_stat("precision", prf.precision, expected(&pc["precision"][i]));
        assert_stat("recall", prf.recall, expected(&pc["recall"][i]));
        assert_stat("f1", prf.f1, expected(&pc["f1"][i]));
        assert_eq!(r.support[i] as i64, pc["support"][i].as_i64().expect("n"));
    }
    for (avg, got) in [("macro", r.macro_avg), ("micro", r.micro_avg)] {
        let want = floats(&case[avg]);
        assert_stat(avg, got.precision, want[0]);
        assert_stat(avg, got.recall, want[1]);
        assert_stat(avg, got.f1, want[2]);
    }
    assert_stat("accuracy", r.accuracy, expected(&case["accuracy"]));
}

#[test]
fn ndcg_matches_sklearn_without_metric_ties() {
    let f = load("stats_classification.json");
    for case in f["ndcg"].as_array().expect("ndcg") {
        let (h, m) = (floats(&case["human"]), floats(&case["metric"]));
        for k in [1, 3] {
            let got = ndcg_at_k(&h, &m, k).unwrap();
            assert_stat(
                &format!("ndcg@{k}"),
                got,
                expected(&case[format!("ndcg@{k}").as_str()]),
            );
        }
    }
}
