//! Tiny random-weight models against transformers' outputs (tools/gen/gen_tiny_models.py), 1e-4:
//! logits, token ids, truncation. Hidden states: `tests/hidden_states.rs`.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::{Embedder, SequenceClassifier};

#[test]
fn single_sentence_logits_and_ids_match() {
    for arch in ENCODERS {
        let r = reference(arch);
        let c = SequenceClassifier::load(&source(arch), &opts(1)).unwrap();
        for s in r["singles"].as_array().unwrap() {
            let text = s["text"].as_str().unwrap();
            let enc = c.model().text_encoder().encode(text, None).unwrap();
            assert_eq!(enc.ids, ids(&s["ids"]), "{arch}: token ids of {text:?}");
            let p = c.predict(&[(text, None)]).unwrap();
            assert_close(
                &format!("{arch} logits {text:?}"),
                &p.logits[0],
                &floats(&s["logits"]),
            );
            let sum: f32 = p.probs[0].iter().sum();
            assert!((sum - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn pair_logits_match() {
    for arch in ENCODERS {
        let r = reference(arch);
        let c = SequenceClassifier::load(&source(arch), &opts(1)).unwrap();
        for s in r["pairs"].as_array().unwrap() {
            let (a, b) = (s["first"].as_str().unwrap(), s["second"].as_str().unwrap());
            let enc = c.model().text_encoder().encode(a, Some(b)).unwrap();
            assert_eq!(enc.ids, ids(&s["ids"]), "{arch}: pair ids");
            if let Some(t) = s["type_ids"].as_array() {
                if arch == "bert" {
                    assert_eq!(enc.type_ids, ids(&serde_json::Value::Array(t.clone())));
                }
            }
            let p = c.predict(&[(a, Some(b))]).unwrap();
            assert_close(
                &format!("{arch} pair logits"),
                &p.logits[0],
                &floats(&s["logits"]),
            );
        }
    }
}

#[test]
fn padded_mixed_batches_match_and_keep_input_order() {
    for arch in ENCODERS {
        let r = reference(arch);
        let b = &r["batch"];
        let firsts: Vec<&str> = b["firsts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let seconds: Vec<Option<&str>> = b["seconds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str())
            .collect();
        let inputs: Vec<(&str, Option<&str>)> = firsts.iter().copied().zip(seconds).collect();
        let expected = matrix(&b["logits"]);
        for (batch_size, bucketed) in [(8, true), (2, true), (3, false)] {
            let mut o = opts(batch_size);
            o.batching.bucketed = bucketed;
            let c = SequenceClassifier::load(&source(arch), &o).unwrap();
            let p = c.predict(&inputs).unwrap();
            assert_eq!(p.logits.len(), expected.len());
            for (i, (ours, theirs)) in p.logits.iter().zip(&expected).enumerate() {
                assert_close(&format!("{arch} batch[{i}] bs={batch_size}"), ours, theirs);
            }
        }
    }
}

#[test]
fn long_pairs_are_truncated_longest_first_and_counted() {
    for arch in ENCODERS {
        let r = reference(arch);
        let s = &r["long_pair"];
        let (a, b) = (s["first"].as_str().unwrap(), s["second"].as_str().unwrap());
        let c = SequenceClassifier::load(&source(arch), &opts(4)).unwrap();
        let enc = c.model().text_encoder().encode(a, Some(b)).unwrap();
        assert!(enc.truncated);
        assert_eq!(enc.ids, ids(&s["ids"]), "{arch}: truncated ids");
        let p = c.predict(&[(a, Some(b)), ("short", None)]).unwrap();
        assert_eq!(p.truncated, 1);
        assert_close(
            &format!("{arch} long pair"),
            &p.logits[0],
            &floats(&s["logits"]),
        );
    }
}

#[test]
fn repeated_runs_are_bit_identical_and_types_are_send_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SequenceClassifier>();
    send_sync::<Embedder>();
    send_sync::<hauser_nli::CausalLm>();
    send_sync::<hauser_nli::LogicalConsistency>();
    send_sync::<hauser_nli::SentimentConsistency>();
    let c = SequenceClassifier::load(&source("roberta"), &opts(2)).unwrap();
    let inputs = [
        ("a b c d e", None),
        ("x", Some("y z")),
        ("the boy ran", None),
    ];
    let first = c.predict(&inputs).unwrap();
    // From several threads at once, as the pipeline may call scorers.
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|_| s.spawn(|| c.predict(&inputs).unwrap()))
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), first);
        }
    });
}
