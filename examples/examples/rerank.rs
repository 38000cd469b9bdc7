//! Rerank simile candidates with your own scorer plugged into the HAUSER pipeline.
//!
//! Run with `cargo run -p hauser-examples --example rerank`.

use hauser_core::adapter::per_candidate;
use hauser_core::{
    CandidateGroup, Components, Criterion, Evaluator, InformativenessScorer, RankSumReranker,
    Result, Scorer, Signature,
};

/// A toy creativity scorer: vehicles that mention rarer letters count as more creative.
struct LetterRarity;

impl Scorer for LetterRarity {
    fn criterion(&self) -> Criterion {
        Criterion::Creativity
    }

    fn signature(&self) -> Signature {
        Signature::new("letter-rarity", "example").with("alphabet", "qxzjk")
    }

    fn needs_components(&self) -> bool {
        true
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<Result<Vec<f64>>> {
        // A scorer defined by a function of one candidate: the adapter does the per-group loop
        // (and reports a candidate without components as an error of its group).
        per_candidate(groups, |c| {
            Ok(c.components()?
                .iter()
                .filter_map(|k| k.vehicle.as_deref())
                .map(|v| v.chars().filter(|ch| "qxzjk".contains(*ch)).count() as f64)
                .sum())
        })
    }
}

fn main() -> Result<()> {
    let group = CandidateGroup::new(
        "The fox jumped over the fence.",
        [
            "The fox jumped over the fence like a kangaroo.",
            "The fox jumped over the fence like a jazz saxophone solo.",
            "The fox jumped over the fence like a cat.",
        ],
    )
    .with_id("fox")
    .with_components(vec![
        vec![Components::new("the fox", "a kangaroo", "jumped")],
        vec![Components::new(
            "the fox",
            "a jazz saxophone solo",
            "jumped",
        )],
        vec![Components::new("the fox", "a cat", "jumped")],
    ])?;

    // Without a quality score the reranker uses creativity and informativeness (2:1).
    let evaluator = Evaluator::new()
        .with_scorer(LetterRarity)
        .with_scorer(InformativenessScorer)
        .with_reranker(RankSumReranker::parse("2:2:1")?);
    for outcome in evaluator.evaluate(&[group], 0) {
        let report = outcome.map_err(|f| f.error)?;
        let mut ranked: Vec<_> = report.candidates.iter().collect();
        ranked.sort_by_key(|c| c.rank);
        for c in ranked {
            println!("#{} {}", c.rank.unwrap_or(0), c.text);
        }
    }
    Ok(())
}
