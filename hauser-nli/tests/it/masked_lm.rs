//! Masked-LM heads (BERT, RoBERTa, ALBERT) and ALBERT's encoder against transformers'
//! `*ForMaskedLM` / `AlbertForSequenceClassification` (tools/gen/gen_mlm_fixtures.py), 1e-4.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::PackedCpu;
use hauser_nli::{Embedder, MaskedLm, NliError, SequenceClassifier};

const MLMS: [&str; 3] = ["masked-lm/bert", "masked-lm/roberta", "masked-lm/albert"];

fn close(got: &[f32], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        assert!((*a as f64 - b).abs() < TOL, "{what}[{i}]: {a} vs {b}");
    }
}

#[test]
fn mask_logits_and_top_k_match_transformers() {
    for name in MLMS {
        let r = reference(name);
        let items = r["items"].as_array().unwrap();
        let texts: Vec<&str> = items.iter().map(|i| i["text"].as_str().unwrap()).collect();
        // One text at a time and batches, on the packed kernels (ALBERT's shared layers
        // included) and on candle's padded path.
        for (packed, bs) in [(true, 1), (true, 8), (false, 3)] {
            let mut mlm = MaskedLm::load(&source(name), &opts(bs)).unwrap();
            assert_eq!(mlm.mask_token(), r["mask_token"].as_str().unwrap());
            assert_eq!(mlm.model_mut().set_packed_cpu(packed), packed);
            let kernels = if packed { "packed-cpu" } else { "candle" };
            assert_eq!(mlm.model().kernels(), kernels);
            let logits = mlm.mask_logits(&texts).unwrap();
            let top = mlm.top_k(&texts, 8).unwrap();
            for (t, item) in items.iter().enumerate() {
                let ids = mlm
                    .model()
                    .text_encoder()
                    .encode(texts[t], None)
                    .unwrap()
                    .ids;
                assert_eq!(ids, self::ids(&item["ids"]), "{name} {t}: token ids");
                let want = matrix(&item["logits"]);
                assert_eq!(logits[t].len(), want.len(), "{name} {t}: masks");
                for (m, w) in want.iter().enumerate() {
                    let what = format!("{name} text {t} mask {m} packed={packed} bs={bs}");
                    close(&logits[t][m], w, &what);
                    // A padded batch gives the unpadded run's logits.
                    close(&logits[t][m], &floats(&r["batch_logits"][t][m]), &what);
                    let want_top = item["top"][m].as_array().unwrap();
                    for (f, w) in top[t][m].iter().zip(want_top) {
                        assert_eq!(f.id as u64, w["id"].as_u64().unwrap(), "{what}: top ids");
                        assert_eq!(f.token, w["token"].as_str().unwrap(), "{what}: token");
                        assert!((f.prob as f64 - w["prob"].as_f64().unwrap()).abs() < TOL);
                    }
                }
            }
        }
    }
}

#[test]
fn albert_encoder_matches_transformers() {
    // Factorised embeddings, two shared groups of two layers: the last hidden state.
    let name = "masked-lm/albert";
    let r = reference(name);
    let mut emb = Embedder::load(&source(name), &opts(2)).unwrap();
    for packed in [true, false] {
        emb.model_mut().set_packed_cpu(packed);
        for item in r["items"].as_array().unwrap() {
            let text = item["text"].as_str().unwrap();
            let states = emb.token_states(&[(text, None)], None).unwrap();
            let want = matrix(&item["last_hidden"]);
            let got = &states.states[0];
            assert_eq!(got.len(), want.len());
            for (p, (g, w)) in got.iter().zip(&want).enumerate() {
                close(g, w, &format!("{text} token {p} packed={packed}"));
            }
        }
    }
    let cls = SequenceClassifier::load(&source("masked-lm/albert-classifier"), &opts(3)).unwrap();
    let r = reference("masked-lm/albert-classifier");
    let items = r["items"].as_array().unwrap();
    let texts: Vec<(&str, Option<&str>)> = items
        .iter()
        .map(|i| (i["text"].as_str().unwrap(), None))
        .collect();
    let p = cls.predict(&texts).unwrap();
    for (g, it) in p.logits.iter().zip(items) {
        close(g, &floats(&it["logits"]), "albert classifier");
    }
}

#[test]
fn inputs_without_a_mask_and_models_without_a_head_are_errors() {
    let mlm = MaskedLm::load(&source("masked-lm/bert"), &opts(2)).unwrap();
    let err = mlm
        .top_k(&["a [MASK] here", "no mask at all"], 5)
        .unwrap_err();
    assert!(
        matches!(&err, NliError::Invalid { message, .. } if message.starts_with("input 1: no mask token")),
        "{err}"
    );
    // A mask beyond the maximum length is cut off by truncation, and said so.
    let long = format!("{} [MASK]", "the boy ran ".repeat(40));
    let err = mlm.top_k(&[long.as_str()], 5).unwrap_err();
    assert!(err.to_string().contains("cut off by truncation"), "{err}");
    // A classification checkpoint has no masked-LM head; DistilBERT has none here.
    let err = MaskedLm::load(&source("bert"), &opts(2)).unwrap_err();
    assert!(matches!(err, NliError::Weights { .. }), "{err}");
    let err = MaskedLm::load(&source("distilbert"), &opts(2)).unwrap_err();
    assert!(
        matches!(err, NliError::UnsupportedArchitecture { .. }),
        "{err}"
    );
}
