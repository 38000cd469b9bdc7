//! Multiple-choice heads against transformers' `BertForMultipleChoice` and
//! `RobertaForMultipleChoice` (tools/gen/gen_choice_fixtures.py), 1e-4.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::PackedCpu;
use hauser_nli::{MultipleChoice, NliError};

#[test]
fn choice_logits_match_transformers() {
    for arch in ["bert", "roberta"] {
        let name = format!("multiple-choice/{arch}");
        let r = reference(&name);
        for (packed, bs) in [(true, 1), (true, 4), (false, 3)] {
            let mut mc = MultipleChoice::load(&source(&name), &opts(bs)).unwrap();
            mc.model_mut().set_packed_cpu(packed);
            let items = r["items"].as_array().unwrap();
            let questions: Vec<Vec<(&str, &str)>> = items
                .iter()
                .map(|it| {
                    it["pairs"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| (p[0].as_str().unwrap(), p[1].as_str().unwrap()))
                        .collect()
                })
                .collect();
            let got = mc.question_logits(&questions).unwrap();
            for (i, (g, it)) in got.iter().zip(items).enumerate() {
                let want = floats(&it["logits"]);
                assert_eq!(g.len(), want.len());
                for (a, b) in g.iter().zip(&want) {
                    assert!(
                        (*a as f64 - b).abs() < TOL,
                        "{arch} item {i} packed={packed} bs={bs}: {a} vs {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn classification_checkpoints_are_refused_with_the_reason() {
    // A 3-way sequence classifier has no one-output head.
    let err = MultipleChoice::load(&source("bert"), &opts(2)).unwrap_err();
    assert!(matches!(err, NliError::Weights { .. }), "{err}");
    let err = MultipleChoice::load(&source("distilbert"), &opts(2)).unwrap_err();
    assert!(
        matches!(err, NliError::UnsupportedArchitecture { .. }),
        "{err}"
    );
}
