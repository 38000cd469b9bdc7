//! Rerank simile candidates with your own scorer plugged into the HAUSER pipeline.
//!
//! Run with `cargo run -p hauser-examples --example rerank`.

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

    fn score_groups(&self, groups: &[CandidateGroup]) -> Vec<Result<Vec<f64>>> {
        groups
            .iter()
            .map(|g| {
                Ok(g.candidates
                    .iter()
                    .map(|c| {
                        let comps = c.components.as_deref().unwrap_or_default();
                        comps
                            .iter()
                            .filter_map(|k| k.vehicle.as_deref())
                            .map(|v| v.chars().filter(|ch| "qxzjk".contains(*ch)).count() as f64)
                            .sum()
                    })
                    .collect())
            })
            .collect()
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
        .with_scorer(Box::new(LetterRarity))
        .with_scorer(Box::new(InformativenessScorer))
        .with_reranker(Box::new(RankSumReranker::parse("2:2:1")?));
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
