//! GPT-2 log-probabilities against transformers (tiny random model), 1e-4.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::CausalLm;
use hauser_nli::PackedCpu;

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

/// Texts of mixed lengths, repeated so that the packed path cuts several batches.
fn many_texts() -> Vec<String> {
    let r = reference("gpt2");
    let base: Vec<String> = r["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["text"].as_str().unwrap().to_string())
        .collect();
    (0..30)
        .map(|i| base[i % base.len()].repeat(1 + i % 2))
        .collect()
}

#[test]
fn packed_and_candle_paths_agree_and_hold_the_weights_once() {
    let texts = many_texts();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut lm = CausalLm::load(&source("gpt2"), &opts(2)).unwrap();
    assert!(lm.uses_packed_cpu());
    assert_eq!(lm.kernels(), "packed-cpu");
    assert!(!lm.holds_candle_weights(), "weights held twice");
    let packed = lm.token_logprobs(&refs).unwrap();
    assert!(!lm.set_packed_cpu(false));
    assert_eq!(lm.kernels(), "candle");
    let candle = lm.token_logprobs(&refs).unwrap();
    assert!(lm.holds_candle_weights());
    for (p, c) in packed.iter().zip(&candle) {
        assert_eq!(p.ids, c.ids);
        assert!(p.logprobs.len() + 1 == p.ids.len() || p.ids.is_empty());
        let c64: Vec<f64> = c.logprobs.iter().map(|&x| x as f64).collect();
        let d = max_diff(&p.logprobs, &c64);
        assert!(d < 2e-5, "packed vs candle: {d:e}");
    }
    assert!(lm.set_packed_cpu(true));
    assert!(!lm.holds_candle_weights());
    assert_eq!(lm.token_logprobs(&refs).unwrap(), packed);
}

#[test]
fn packed_results_do_not_depend_on_the_thread_count() {
    let texts = many_texts();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let lm = CausalLm::load(&source("gpt2"), &opts(1)).unwrap();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| lm.token_logprobs(&refs).unwrap())
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn logprobs_from_a_position_equal_the_tail_of_all_logprobs_on_both_engines() {
    let r = reference("gpt2");
    let seqs: Vec<Vec<u32>> = r["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| ids(&t["ids"]))
        .collect();
    for packed in [true, false] {
        let mut lm = CausalLm::load(&source("gpt2"), &opts(2)).unwrap();
        lm.set_packed_cpu(packed);
        let all = lm.logprobs_of_ids(&seqs).unwrap();
        let from: Vec<usize> = seqs.iter().map(|s| s.len() / 2).collect();
        let tail = lm.logprobs_of_ids_from(&seqs, &from).unwrap();
        for ((a, t), f) in all.iter().zip(&tail).zip(&from) {
            let f = (*f).max(1);
            assert_eq!(t.len(), a.len() + 1 - f);
            for (x, y) in t.iter().zip(&a[f - 1..]) {
                assert!((x - y).abs() < 1e-6, "packed={packed}: {x} vs {y}");
            }
        }
        assert!(lm.logprobs_of_ids_from(&seqs, &[1]).is_err());
    }
}
