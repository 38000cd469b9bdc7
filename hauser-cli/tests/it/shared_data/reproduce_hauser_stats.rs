//! Reproduction of HAUSER's correlation and agreement numbers over
//! ../shared/data/hauser/human_annotated.csv (`#[ignore]`d: tools/test.sh runs it when present).
//!
//! - Quality = 3/6 relevance_KB + 2/6 consistency_mnli + 1/6 consistency_emo (sub-scores already
//!   normalised per literal in the file) against the mean of label{1,2,3}_q: paper Pearson 0.3198,
//!   Spearman 0.2919.
//! - Leave-one-out agreement of the quality ratings (each rater against the mean of the other
//!   two): paper Pearson mean 0.812, max 0.833.
//! - Ranking of each literal's candidates by Quality against the mean rating (groups with at
//!   least two candidates): NDCG@k equals scikit-learn's `ndcg_score` (no metric ties occur).
//!   HR@k and MRR take the first listed candidate when several share the best rating.
//!   Reference values computed with pandas/SciPy 1.17.1/scikit-learn.

use std::path::{Path, PathBuf};

use figlang_metrics::stats::{leave_one_out, pearson, ranking_report, spearman};

use crate::common::shared_data;

fn csv_path() -> PathBuf {
    shared_data("hauser/human_annotated.csv")
}

struct Annotated {
    literal: Vec<String>,
    quality: Vec<f64>,
    /// ratings[rater][item]
    ratings: Vec<Vec<f64>>,
}

fn load(path: &Path) -> Annotated {
    let mut reader = csv::Reader::from_path(path).expect("readable CSV");
    let headers = reader.headers().expect("header").clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("column {name}"))
    };
    let (lit, rel, mnli, emo) = (
        col("literal_sentences"),
        col("relevance_KB"),
        col("consistency_mnli"),
        col("consistency_emo"),
    );
    let raters = [col("label1_q"), col("label2_q"), col("label3_q")];
    let mut a = Annotated {
        literal: Vec::new(),
        quality: Vec::new(),
        ratings: vec![Vec::new(); 3],
    };
    for row in reader.records() {
        let row = row.expect("row");
        let num = |i: usize| -> f64 { row[i].trim().parse().expect("number") };
        a.literal.push(row[lit].to_string());
        a.quality
            .push(3.0 / 6.0 * num(rel) + 2.0 / 6.0 * num(mnli) + 1.0 / 6.0 * num(emo));
        for (r, &c) in raters.iter().enumerate() {
            a.ratings[r].push(num(c));
        }
    }
    a
}

fn mean_rating(a: &Annotated) -> Vec<f64> {
    (0..a.quality.len())
        .map(|i| a.ratings.iter().map(|r| r[i]).sum::<f64>() / 3.0)
        .collect()
}

#[test]
#[ignore = "needs ../shared/data"]
fn quality_correlates_with_mean_quality_rating() {
    let path = csv_path();
    let a = load(&path);
    assert_eq!(a.quality.len(), 150);
    let human = mean_rating(&a);
    let p = pearson(&a.quality, &human).expect("pearson");
    let s = spearman(&a.quality, &human).expect("spearman");
    println!(
        "HAUSER quality vs human: Pearson {:.4} (p {:.3e}), Spearman {:.4} (p {:.3e})",
        p.statistic, p.p_value, s.statistic, s.p_value
    );
    assert!((p.statistic - 0.3198).abs() < 5e-5, "{}", p.statistic);
    assert!((s.statistic - 0.2919).abs() < 5e-5, "{}", s.statistic);
    // SciPy 1.17.1 on the same columns.
    assert!((p.statistic - 0.31982058499849325).abs() < 1e-12);
    assert!((p.p_value - 6.620787262083384e-05).abs() < 1e-9 * 6.62e-5);
    assert!((s.statistic - 0.2919044794066143).abs() < 1e-12);
    assert!((s.p_value - 0.00028958595245399775).abs() < 1e-9 * 2.9e-4);
}

#[test]
#[ignore = "needs ../shared/data"]
fn leave_one_out_agreement_of_quality_ratings() {
    let path = csv_path();
    let a = load(&path);
    let loo = leave_one_out(&a.ratings).expect("loo");
    println!(
        "HAUSER quality LOO: Pearson mean {:.4} max {:.4}; Spearman mean {:.4} max {:.4}",
        loo.pearson_mean, loo.pearson_max, loo.spearman_mean, loo.spearman_max
    );
    assert!(
        (loo.pearson_mean - 0.812).abs() < 5e-4,
        "{}",
        loo.pearson_mean
    );
    assert!(
        (loo.pearson_max - 0.833).abs() < 5e-4,
        "{}",
        loo.pearson_max
    );
    assert!((loo.pearson_mean - 0.8116930917306426).abs() < 1e-12);
    assert!((loo.pearson_max - 0.8328278041083357).abs() < 1e-12);
    assert!((loo.spearman_mean - 0.7354373343541817).abs() < 1e-12);
    assert!((loo.spearman_max - 0.7594057255308214).abs() < 1e-12);
}

#[test]
#[ignore = "needs ../shared/data"]
fn ranking_of_candidates_by_quality() {
    let path = csv_path();
    let a = load(&path);
    let human = mean_rating(&a);
    let mut order: Vec<String> = Vec::new();
    for l in &a.literal {
        if !order.contains(l) {
            order.push(l.clone());
        }
    }
    let groups: Vec<(Vec<f64>, Vec<f64>)> = order
        .iter()
        .map(|l| {
            let idx: Vec<usize> = (0..a.literal.len())
                .filter(|&i| &a.literal[i] == l)
                .collect();
            (
                idx.iter().map(|&i| human[i]).collect(),
                idx.iter().map(|&i| a.quality[i]).collect(),
            )
        })
        .filter(|(h, _): &(Vec<f64>, Vec<f64>)| h.len() > 1)
        .collect();
    assert_eq!(groups.len(), 42);
    let r = ranking_report(&groups, &[1, 3]).expect("ranking");
    println!(
        "HAUSER quality ranking: HR@1 {:.4} HR@3 {:.4} NDCG@1 {:.4} NDCG@3 {:.4} MRR {:.4}",
        r.hit_rate[0].1, r.hit_rate[1].1, r.ndcg[0].1, r.ndcg[1].1, r.mrr
    );
    assert!((r.ndcg[0].1 - 0.8961871461871463).abs() < 1e-12);
    assert!((r.ndcg[1].1 - 0.9491339708959297).abs() < 1e-12);
    assert!((r.hit_rate[0].1 - 12.0 / 42.0).abs() < 1e-12);
    assert!((r.hit_rate[1].1 - 35.0 / 42.0).abs() < 1e-12);
    assert!((r.mrr - 0.5761904761904761).abs() < 1e-12);
}
