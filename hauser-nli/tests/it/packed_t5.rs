//! MetricX's packed CPU path (T5 encoder and one decoder step) against candle's padded path on
//! random mT5 / T5 models: random sizes (heads x d_kv different from d_model included), layer
//! counts, relu or gated-gelu feed-forward, tied or untied head, bucket
//! settings, and random inputs of different lengths in batches that pad. The logits must agree
//! within 1e-4 (relative to the logit's size where it exceeds 1: T5 has no attention scaling,
//! so random weights make large ones).
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::Path;

use candle_core::{Device, Tensor};
use hauser_nli::PackedCpu;
use hauser_nli::{Batching, LoadOptions, MetricxInput, MetricxModel, MetricxVersion, ModelSource};
use proptest::prelude::*;
use serde_json::json;

use crate::common::fixture;

const TOL: f64 = 1e-4;

/// The fixture tokenizer's vocabulary size (its `config.json`).
const VOCAB: usize = 240;

#[derive(Debug, Clone)]
struct Shape {
    d_model: usize,
    heads: usize,
    d_kv: usize,
    d_ff: usize,
    layers: usize,
    decoder_layers: usize,
    gated: bool,
    tied: bool,
    /// With tied embeddings, whether the checkpoint still has its own `lm_head`.
    lm_head: bool,
    buckets: usize,
    max_distance: usize,
    seed: u64,
}

fn shapes() -> impl Strategy<Value = Shape> {
    (
        (4..=24usize, 1..=4usize, 1..=8usize, 1..=24usize),
        (
            1..=3usize,
            1..=2usize,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        (2..=16usize, 2..=40usize, any::<u64>()),
    )
        .prop_map(
            |(
                (d_model, heads, d_kv, d_ff),
                (layers, decoder_layers, gated, tied, lm_head),
                (buckets, max_distance, seed),
            )| Shape {
                d_model,
                heads,
                d_kv,
                d_ff,
                layers,
                decoder_layers,
                gated,
                tied,
                lm_head,
                buckets,
                max_distance,
                seed,
            },
        )
}

/// xorshift64*, uniform in [-1, 1).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (r >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

struct Checkpoint {
    rng: Rng,
    tensors: HashMap<String, Tensor>,
}

impl Checkpoint {
    fn put(&mut self, name: String, shape: &[usize], offset: f32, scale: f32) {
        let n = shape.iter().product();
        let v: Vec<f32> = (0..n).map(|_| offset + scale * self.rng.unit()).collect();
        self.tensors
            .insert(name, Tensor::from_vec(v, shape, &Device::Cpu).unwrap());
    }

    /// A bias-free PyTorch `Linear` (weight `[out, in]`), scaled so that outputs stay near 1.
    fn linear(&mut self, name: String, inputs: usize, outputs: usize) {
        let scale = 1.5 / (inputs as f32).sqrt();
        self.put(format!("{name}.weight"), &[outputs, inputs], 0.0, scale);
    }

    fn norm(&mut self, name: String, d: usize) {
        self.put(format!("{name}.weight"), &[d], 1.0, 0.2);
    }
}

/// A random checkpoint of shape `s` with the fixture's tokenizer in `dir`.
fn write_t5(dir: &Path, s: &Shape) {
    let (d, inner, f) = (s.d_model, s.heads * s.d_kv, s.d_ff);
    let mut c = Checkpoint {
        rng: Rng(s.seed | 1),
        tensors: HashMap::new(),
    };
    c.put("shared.weight".into(), &[VOCAB, d], 0.0, 1.0);
    if !s.tied || s.lm_head {
        c.put("lm_head.weight".into(), &[VOCAB, d], 0.0, 0.5);
    }
    for (stack, n) in [("encoder", s.layers), ("decoder", s.decoder_layers)] {
        for i in 0..n {
            let b = format!("{stack}.block.{i}.layer");
            c.norm(format!("{b}.0.layer_norm"), d);
            let attention = |c: &mut Checkpoint, at: String| {
                for p in ["q", "k", "v"] {
                    c.linear(format!("{at}.{p}"), d, inner);
                }
                c.linear(format!("{at}.o"), inner, d);
            };
            attention(&mut c, format!("{b}.0.SelfAttention"));
            if i == 0 {
                c.put(
                    format!("{b}.0.SelfAttention.relative_attention_bias.weight"),
                    &[s.buckets, s.heads],
                    0.0,
                    1.0,
                );
            }
            let ff_at = if stack == "decoder" {
                c.norm(format!("{b}.1.layer_norm"), d);
                attention(&mut c, format!("{b}.1.EncDecAttention"));
                2
            } else {
                1
            };
            c.norm(format!("{b}.{ff_at}.layer_norm"), d);
            let ff = format!("{b}.{ff_at}.DenseReluDense");
            if s.gated {
                c.linear(format!("{ff}.wi_0"), d, f);
                c.linear(format!("{ff}.wi_1"), d, f);
            } else {
                c.linear(format!("{ff}.wi"), d, f);
            }
            c.linear(format!("{ff}.wo"), f, d);
        }
        c.norm(format!("{stack}.final_layer_norm"), d);
    }
    candle_core::safetensors::save(&c.tensors, dir.join("model.safetensors")).unwrap();
    let config = json!({
        "model_type": if s.tied { "t5" } else { "mt5" },
        "d_model": d,
        "d_kv": s.d_kv,
        "d_ff": f,
        "num_layers": s.layers,
        "num_decoder_layers": s.decoder_layers,
        "num_heads": s.heads,
        "vocab_size": VOCAB,
        "relative_attention_num_buckets": s.buckets,
        "relative_attention_max_distance": s.max_distance,
        "layer_norm_epsilon": 1e-6,
        "feed_forward_proj": if s.gated { "gated-gelu" } else { "relu" },
        "tie_word_embeddings": s.tied,
    });
    std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
    for file in [
        "spiece.model",
        "special_tokens_map.json",
        "tokenizer_config.json",
    ] {
        std::fs::copy(fixture("metricx").join(file), dir.join(file)).unwrap();
    }
}

const WORDS: [&str; 12] = [
    "the", "cat", "sat", "on", "a", "mat", "quickly", "über", "naïve", "river", "42", "stone",
];

/// Inputs as word lists (indices into [`WORDS`]): hypothesis and reference, of different
/// lengths, empty ones included.
fn texts() -> impl Strategy<Value = Vec<(Vec<usize>, Vec<usize>)>> {
    let words = || prop::collection::vec(0..WORDS.len(), 0..=14);
    prop::collection::vec((words(), words()), 1..=7)
}

fn join(words: &[usize]) -> String {
    words
        .iter()
        .map(|&w| WORDS[w])
        .collect::<Vec<_>>()
        .join(" ")
}

fn load(dir: &Path, batch_size: usize) -> MetricxModel {
    let src = ModelSource::Dir(dir.to_path_buf());
    let opts = LoadOptions {
        batching: Batching {
            batch_size,
            bucketed: true,
        },
        ..LoadOptions::default()
    };
    MetricxModel::load(&src, &src, &opts, 512).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn t5_packed_matches_candle(s in shapes(), raw in texts(), batch_size in 1..=3usize) {
        let dir = tempfile::tempdir().unwrap();
        write_t5(dir.path(), &s);
        let mut m = load(dir.path(), batch_size);
        prop_assert!(m.uses_packed_cpu());
        prop_assert_eq!(m.kernels(), "packed-cpu");
        prop_assert!(!m.holds_candle_weights(), "weights held twice");
        let strings: Vec<(String, String)> =
            raw.iter().map(|(h, r)| (join(h), join(r))).collect();
        let inputs: Vec<MetricxInput<'_>> = strings
            .iter()
            .map(|(h, r)| MetricxInput {
                source: Some("source text"),
                hypothesis: h,
                reference: Some(r),
            })
            .collect();
        let packed = m.predict(MetricxVersion::V24, &inputs).unwrap();
        prop_assert!(!m.set_packed_cpu(false));
        let candle = m.predict(MetricxVersion::V24, &inputs).unwrap();
        prop_assert_eq!(packed.len(), inputs.len());
        for (i, (p, c)) in packed.iter().zip(&candle).enumerate() {
            let d = (p.logit as f64 - c.logit as f64).abs();
            prop_assert!(
                d <= TOL * (c.logit as f64).abs().max(1.0),
                "input {}: packed {} vs candle {}", i, p.logit, c.logit
            );
            prop_assert_eq!(p.truncated, c.truncated);
        }
    }
}

#[test]
fn metricx_results_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let s = Shape {
        d_model: 16,
        heads: 2,
        d_kv: 4,
        d_ff: 24,
        layers: 2,
        decoder_layers: 1,
        gated: true,
        tied: false,
        lm_head: true,
        buckets: 8,
        max_distance: 16,
        seed: 7,
    };
    write_t5(dir.path(), &s);
    let m = load(dir.path(), 1);
    let texts: Vec<String> = (0..40)
        .map(|i| {
            let k = i % 13;
            join(&(0..k).map(|j| (k + j) % WORDS.len()).collect::<Vec<_>>())
        })
        .collect();
    let inputs: Vec<MetricxInput<'_>> = texts
        .iter()
        .map(|t| MetricxInput {
            source: Some("s"),
            hypothesis: t,
            reference: Some("the cat"),
        })
        .collect();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| m.predict(MetricxVersion::V24, &inputs).unwrap())
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    // The same input gives the same score wherever it sits, up to the last bit: gemm picks
    // its kernels by the number of rows, and the decoder step's products have one row per
    // input of the batch.
    for (i, p) in one.iter().enumerate() {
        let want = one[i % 13].logit;
        assert!(
            (p.logit - want).abs() <= 1e-6 * want.abs().max(1.0),
            "input {i}"
        );
    }
}
