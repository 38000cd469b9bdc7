//! GPT-2 log-probabilities against transformers (tiny random model), 1e-4.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use hauser_nli::CausalLm;

#[test]
fn token_logprobs_sums_and_perplexity_match() {
    let r = reference("gpt2");
    let texts: Vec<&str> = r["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["text"].as_str().unwrap())
        .collect();
    for batch_size in [1, 3] {
        let lm = CausalLm::load(&source("gpt2"), &opts(batch_size)).unwrap();
        let out = lm.token_logprobs(&texts).unwrap();
        let seq = lm.sequence_logprob(&texts).unwrap();
        let ppl = lm.perplexity(&texts).unwrap();
        for (i, t) in r["texts"].as_array().unwrap().iter().enumerate() {
            assert_eq!(out[i].ids, ids(&t["ids"]), "ids of {:?}", texts[i]);
            assert_close(
                &format!("logprobs {i} bs={batch_size}"),
                &out[i].logprobs,
                &floats(&t["token_logprobs"]),
            );
            assert!((seq[i] - t["sum_logprob"].as_f64().unwrap()).abs() < TOL);
            let p = t["perplexity"].as_f64().unwrap();
            assert!((ppl[i] - p).abs() / p < TOL, "perplexity {} vs {p}", ppl[i]);
        }
    }
}

#[test]
fn conditional_logprob_matches() {
    let r = reference("gpt2");
    let lm = CausalLm::load(&source("gpt2"), &opts(4)).unwrap();
    let cases = r["conditional"].as_array().unwrap();
    let pairs: Vec<(&str, &str)> = cases
        .iter()
        .map(|c| {
            (
                c["context"].as_str().unwrap(),
                c["continuation"].as_str().unwrap(),
            )
        })
        .collect();
    let got = lm.conditional_logprob(&pairs).unwrap();
    for (g, c) in got.iter().zip(cases) {
        let want = c["logprob"].as_f64().unwrap();
        assert!((g - want).abs() < TOL, "{g} vs {want}");
    }
    assert!(lm.conditional_logprob(&[("", "x")]).is_err());
}

#[test]
fn over_long_inputs_are_errors() {
    let lm = CausalLm::load(&source("gpt2"), &opts(4)).unwrap();
    let long = "the boy ran like the wind ".repeat(40);
    let msg = lm.token_logprobs(&[long.as_str()]).unwrap_err().to_string();
    assert!(msg.contains("exceed the context"), "{msg}");
}
