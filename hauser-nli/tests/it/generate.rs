//! Decoding against transformers on the tiny GPT-2 (tools/gen/gen_generate_fixture.py): greedy
//! `generate` tokens exactly, the summed-logits ensemble against a reference loop, and the
//! top-k distribution on fixed logits.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::PackedCpu;
use hauser_nli::{top_k_probabilities, CausalLm, Decoding, GenerateConfig};

fn generate_ref() -> serde_json::Value {
    let p = fixture("gpt2").join("generate.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn greedy(max_new_tokens: usize, ngram: usize, stop_at_eos: bool) -> GenerateConfig {
    GenerateConfig {
        max_new_tokens,
        decoding: Decoding::Greedy,
        no_repeat_ngram_size: ngram,
        stop_at_eos,
    }
}

#[test]
fn greedy_tokens_equal_transformers_generate_on_both_engines() {
    let r = generate_ref();
    for packed in [true, false] {
        let mut lm = CausalLm::load(&source("gpt2"), &opts(3)).unwrap();
        lm.set_packed_cpu(packed);
        let cases = r["greedy"].as_array().unwrap();
        for c in cases {
            let prompt = ids(&c["prompt_ids"]);
            assert_eq!(
                lm.text_encoder()
                    .encode_plain(c["prompt"].as_str().unwrap())
                    .unwrap(),
                prompt
            );
            let cfg = greedy(
                c["max_new_tokens"].as_u64().unwrap() as usize,
                c["no_repeat_ngram_size"].as_u64().unwrap() as usize,
                true,
            );
            let out = lm.generate(std::slice::from_ref(&prompt), &cfg).unwrap();
            assert_eq!(out[0].ids, ids(&c["new_ids"]), "{c} packed={packed}");
        }
        // All prompts in one batch give the same tokens as one at a time.
        let cfg = greedy(20, 3, true);
        let prompts: Vec<Vec<u32>> = cases.iter().map(|c| ids(&c["prompt_ids"])).collect();
        let batched = lm.generate(&prompts, &cfg).unwrap();
        for (p, b) in prompts.iter().zip(&batched) {
            assert_eq!(lm.generate(std::slice::from_ref(p), &cfg).unwrap()[0], *b);
        }
    }
}

#[test]
fn ensemble_sums_the_prompts_logits_like_the_reference_loop() {
    let r = generate_ref();
    let lm = CausalLm::load(&source("gpt2"), &opts(4)).unwrap();
    for key in ["ensemble_greedy", "ensemble_greedy_ngram"] {
        for c in r[key].as_array().unwrap() {
            let prompts: Vec<Vec<u32>> = c["prompt_ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(ids)
                .collect();
            let n = c["no_repeat_ngram_size"].as_u64().unwrap() as usize;
            let steps = c["steps"].as_u64().unwrap() as usize;
            let out = lm
                .generate_ensemble(std::slice::from_ref(&prompts), &greedy(steps, n, false))
                .unwrap();
            assert_eq!(out[0].ids, ids(&c["new_ids"]), "{key}");
            // The first step's summed logits, n-gram ban included.
            let per = lm.next_token_logits(&prompts).unwrap();
            let mut sum = vec![0f32; per[0].len()];
            for l in &per {
                sum.iter_mut().zip(l).for_each(|(a, b)| *a += b);
            }
            for t in hauser_nli::banned_tokens(&prompts[0], n) {
                sum[t as usize] = f32::NEG_INFINITY;
            }
            let want = c["first_step_logits"].as_array().unwrap();
            for (g, w) in sum.iter().zip(want) {
                match w.as_f64() {
                    Some(w) => assert!((*g as f64 - w).abs() < TOL, "{g} vs {w}"),
                    // -inf is written as null or a string by json.
                    None => assert_eq!(*g, f32::NEG_INFINITY),
                }
            }
        }
    }
}

#[test]
fn top_k_distribution_matches_transformers_warpers() {
    let r = generate_ref();
    for c in r["top_k"].as_array().unwrap() {
        let logits: Vec<f32> = floats(&c["logits"]).iter().map(|&x| x as f32).collect();
        let got = top_k_probabilities(
            &logits,
            c["k"].as_u64().unwrap() as usize,
            c["temperature"].as_f64().unwrap() as f32,
        );
        let want = floats(&c["probs"]);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-6, "{}: {g} vs {w}", c["name"]);
        }
    }
}

#[test]
fn sampling_is_fixed_by_the_seed_and_independent_of_the_batch() {
    let lm = CausalLm::load(&source("gpt2"), &opts(2)).unwrap();
    let prompts: Vec<Vec<u32>> = ["The boy ran", "She was as quiet as", "A storm"]
        .iter()
        .map(|t| lm.text_encoder().encode_plain(t).unwrap())
        .collect();
    let cfg = GenerateConfig::narratives(42);
    let all = lm.generate(&prompts, &cfg).unwrap();
    assert_eq!(lm.generate(&prompts, &cfg).unwrap(), all);
    let last = lm.generate(&prompts[2..], &cfg).unwrap();
    // A sequence's stream depends on its index, so run it at index 2 again.
    let again = lm.generate(&prompts, &cfg).unwrap();
    assert_eq!(again[2], all[2]);
    assert_eq!(last.len(), 1);
    for g in &all {
        assert!(!g.ids.is_empty() && g.ids.len() <= 20);
    }
    let other = lm
        .generate(&prompts, &GenerateConfig::narratives(7))
        .unwrap();
    assert_ne!(other, all, "another seed should change some token");
}

#[test]
fn bad_settings_and_empty_prompts_are_errors() {
    let lm = CausalLm::load(&source("gpt2"), &opts(2)).unwrap();
    let mut cfg = GenerateConfig::narratives(1);
    cfg.decoding = Decoding::TopK {
        k: 0,
        temperature: 0.7,
        seed: 1,
    };
    assert!(lm.generate(&[vec![5]], &cfg).is_err());
    assert!(lm
        .generate(&[vec![]], &GenerateConfig::narratives(1))
        .is_err());
    // A prompt longer than the context is cut from the left and the cut reported.
    let long: Vec<u32> = (0..100).map(|i| 5 + (i % 40)).collect();
    let out = lm.generate(&[long], &greedy(4, 0, false)).unwrap();
    assert_eq!(out[0].truncated, 100 - (lm.context_len() - 4));
    assert_eq!(out[0].ids.len(), 4);
}
