//! Golden tests against values produced by the reference tools (see tools/gen/kb_golden.py).

use hauser_kb::clean::{Normalizer, Role};
use hauser_kb::hash::{xxh64, Xxh64};
use serde_json::Value;

fn fixture() -> Value {
    let text = include_str!("../fixtures/kb_golden.json");
    serde_json::from_str(text).expect("fixture is valid JSON")
}

#[test]
fn clean_matches_the_reference_on_every_fixture_input() {
    let f = fixture();
    let cases = f["clean"].as_array().expect("clean cases");
    assert!(cases.len() >= 50);
    for case in cases {
        let input = case["input"].as_str().expect("input");
        let vehicle = case["vehicle"].as_str().expect("vehicle");
        let other = case["other"].as_str().expect("other");
        assert_eq!(
            Normalizer::Reference.clean(input, Role::Entity),
            vehicle,
            "vehicle mode of {input:?}"
        );
        assert_eq!(
            Normalizer::Reference.clean(input, Role::Property),
            other,
            "other mode of {input:?}"
        );
    }
}

#[test]
fn xxh64_matches_the_xxhash_package() {
    let f = fixture();
    for case in f["xxh64"].as_array().expect("xxh64 cases") {
        let hex = case["hex"].as_str().expect("hex");
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit"))
            .collect();
        let want = u64::from_str_radix(case["xxh64"].as_str().expect("digest"), 16).expect("hex");
        assert_eq!(xxh64(&bytes), want, "{} bytes", bytes.len());
        let mut h = Xxh64::new();
        for chunk in bytes.chunks(7) {
            h.update(chunk);
        }
        assert_eq!(h.digest(), want);
    }
}
