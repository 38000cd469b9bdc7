//! Score simile candidates on all knowledge-base criteria: build a small simile knowledge base in
//! memory, let the rule-based extractor find each candidate's topic, vehicle and event, and run
//! relevance, creativity and informativeness through the evaluation pipeline.
//!
//! Run with `cargo run -p hauser-examples --example kb_scores`.

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;

use hauser_core::{CandidateGroup, Criterion, Evaluator, InformativenessScorer};
use hauser_extract::RuleExtractor;
use hauser_kb::{ingest, CreativityScorer, KbBuilder, Normalizer, RelevanceScorer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A knowledge base of (topic, property, vehicle, count) triplets; a real one comes from
    // MAPS-KB (`hauser kb build`) and is opened with `Kb::open`, memory-mapped.
    let tsv = "topic\tproperty\tvehicle\tcount\n\
               he\tfast\tthe wind\t12\n\
               he\tfast\ta cheetah\t3\n\
               he\tfast\ta hare\t1\n\
               she\tcold\tice\t9\n";
    let mut builder = KbBuilder::new(Normalizer::Reference);
    ingest::ingest_reader(
        Cursor::new(tsv),
        Path::new("inline.tsv"),
        ingest::InputFormat::Triplets,
        &mut builder,
        ingest::IngestOptions::default(),
        None,
    )?;
    let kb = Arc::new(builder.build_in_memory()?);

    let group = CandidateGroup::new(
        "He runs very fast.",
        [
            "He runs like the wind.",
            "He runs like a cheetah.",
            "He runs like a hare chased by a fox.",
        ],
    )
    .with_id("runner");

    let evaluator = Evaluator::new()
        .with_extractor(Box::new(RuleExtractor::new()))
        .with_scorer(Box::new(RelevanceScorer::new(kb.clone())))
        .with_scorer(Box::new(CreativityScorer::new(kb)))
        .with_scorer(Box::new(InformativenessScorer));

    let report = evaluator
        .evaluate(&[group], 0)
        .remove(0)
        .map_err(|f| f.error)?;
    for c in &report.candidates {
        let get = |k: Criterion| c.score(&k).map_or(f64::NAN, |s| s.normalized);
        println!(
            "rank {} | relevance {:.2} creativity {:.2} informativeness {:.2} | {}",
            c.rank.unwrap_or(0),
            get(Criterion::Relevance),
            get(Criterion::Creativity),
            get(Criterion::Informativeness),
            c.text,
        );
    }
    println!(
        "signature: {}",
        hauser_core::render_signatures(&evaluator.signatures())
    );
    Ok(())
}
