//! NewsMet's metaphoricity against gensim 4.4.0 (tools/gen/gen_metaphoricity_fixture.py) on
//! figlang-metrics' small random word2vec file: every pair's similarity and five triples, 1e-6.
#![allow(clippy::unwrap_used)]

use figlang_metrics::wmd::WordVectors;
use figlang_tasks::newsmet::{metaphoricity, similarity};

#[test]
fn similarity_and_metaphoricity_equal_gensim() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let v = WordVectors::load(
        std::path::Path::new(&format!(
            "{root}/figlang-metrics/tests/fixtures/wmd/vectors.txt"
        )),
        None,
        None,
    )
    .unwrap();
    let fx: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{root}/figlang-tasks/tests/fixtures/newsmet/metaphoricity.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let pairs = fx["pairs"].as_array().unwrap();
    assert!(pairs.len() > 500);
    for p in pairs {
        let (a, b) = (p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
        let got = similarity(&v, a, b).unwrap();
        let want = p["similarity"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-6, "{a} {b}: {got} vs {want}");
    }
    for t in fx["triples"].as_array().unwrap() {
        let m = metaphoricity(
            &v,
            t["subject"].as_str(),
            t["object"].as_str(),
            t["candidate"].as_str().unwrap(),
        );
        let want = t["score"].as_f64().unwrap();
        assert!((m.score.unwrap() - want).abs() < 1e-6, "{t}");
    }
}
