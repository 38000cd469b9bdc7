//! # hauser-nli
//!
//! All transformer inference of hauser-rs, on Candle: BERT-family, DistilBERT, ALBERT and
//! DeBERTa (v1, v2/v3) encoders with the sequence-classification heads of transformers,
//! mean-pooled embeddings and per-layer hidden states, multiple-choice heads
//! ([`MultipleChoice`]), masked-LM heads with fill-mask top-k ([`MaskedLm`]), a GPT-2
//! causal LM with decoding (greedy, seeded top-k, `no_repeat_ngram_size`, and a summed-logits
//! ensemble of prompts: [`CausalLm::generate`], [`GenerateConfig`]), COMET estimator models read from
//! unbabel-comet checkpoints ([`CometModel`]), MetricX-23/24 on an mT5 encoder-decoder
//! ([`MetricxModel`]), and the logical- and sentiment-consistency
//! criteria built on them. `figlang-metrics` (feature `neural`) builds
//! BERTScore, BLEURT, COMET, MetricX, perplexity and style strength on this crate.
//!
//! ```no_run
//! use hauser_nli::{Embedder, LoadOptions, ModelSource, SequenceClassifier};
//!
//! // A hub id (`org/name[@revision]`, through the Hugging Face cache) or a local directory.
//! let source = ModelSource::parse("sentence-transformers/all-MiniLM-L6-v2");
//! let embedder = Embedder::load(&source, &LoadOptions::default())?;
//! // Mean-pooled, L2-normalised sentence embeddings of the last layer.
//! let e = embedder.embed(&["He runs like the wind.", "He is very fast."], None, true)?;
//! let cosine: f32 = e.vectors[0].iter().zip(&e.vectors[1]).map(|(a, b)| a * b).sum();
//! println!("cosine similarity {cosine:.3}");
//!
//! // A sentence-pair classifier (MNLI): probabilities per class, in `labels()` order.
//! let nli = ModelSource::parse("mujeensung/roberta-base_mnli_bc");
//! let classifier = SequenceClassifier::load(&nli, &LoadOptions::default())?;
//! let p = classifier.predict(&[("He is fast.", Some("He runs like the wind."))])?;
//! println!("{:?} {:?}", classifier.labels(), p.probs[0]);
//! # Ok::<(), hauser_nli::NliError>(())
//! ```
//!
//! ## Examples
//!
//! [`embed`](https://github.com/hauser-rs/hauser-rs/blob/main/examples/examples/embed.rs) in the repository's `examples/`
//! (`cargo run --release -p hauser-examples --example embed -- MODEL`) embeds sentences and
//! compares them.
//!
//! ## Features
//!
//! | feature | default | adds |
//! | --- | --- | --- |
//! | `cuda` | no | Candle's CUDA backend (`DeviceSpec::Cuda`); needs the CUDA toolkit |
//! | `metal` | no | Candle's Metal backend (`DeviceSpec::Metal`) on macOS |
//!
//! The CPU, f32 path is the tested default.
//!
//! Models come from a local directory or the Hugging Face hub ([`ModelSource`]); weights are
//! `model.safetensors` (memory-mapped) or `pytorch_model.bin`.
//!
//! ## Parity
//! Tested against transformers 5.23.0 / torch 2.15.0 (tokenizers 0.23.3) on tiny random-weight
//! models of every architecture (`tools/gen/gen_tiny_models.py`, fixtures in `tests/fixtures/`):
//! logits, per-layer hidden states and GPT-2 token log-probabilities agree within 1e-4 absolute
//! (observed differences are below 1e-6, and below 2e-5 for the DeBERTa fixtures, whose wider
//! weights make attention sharp enough that relative positions matter) for single inputs, pairs,
//! truncated pairs and padded mixed-length batches; all-MiniLM-L6-v2 embeddings agree with sentence-transformers 6.2.0
//! within 1e-4 on 24 sentences. Greedy decoding gives transformers' `generate` tokens exactly and
//! the top-k distribution equals its logits warpers' (1e-6) on the tiny GPT-2; multiple-choice
//! logits agree within 1e-4 (`tools/gen/gen_generate_fixture.py`,
//! `tools/gen/gen_choice_fixtures.py`); masked-LM logits, top-k fillers (ids, decoded tokens,
//! probabilities) of BERT, RoBERTa and ALBERT, and ALBERT's encoder and classifier agree within
//! 1e-4 (`tools/gen/gen_mlm_fixtures.py`).
//!
//! ## Layers
//! Every encoder (BERT family, DistilBERT, DeBERTa v1, DeBERTa-v2/v3) exposes all its hidden
//! states, numbered as transformers' `hidden_states`: 0 is the embedding output,
//! `num_hidden_layers` the last layer. DeBERTa-v2 drives candle-transformers' public layer
//! modules one by one; DistilBERT, whose candle modules are private, and ALBERT, which candle
//! lacks (factorised embeddings, layers shared across the depth), run through the BERT
//! encoder's own layer code with a table of their weight names; DeBERTa v1 (`model_type`
//! "deberta", e.g. microsoft/deberta-large-mnli), which candle lacks, is written here on
//! candle's tensor operations.
//!
//! ## Speed
//! On the CPU in f32, BERT-family (XLM-RoBERTa XL's pre-LayerNorm layers included) and
//! DistilBERT encoders, and MetricX's T5 (encoder and its one decoder step), run through
//! packed kernels rather than candle's op-by-op path: each batch's sequences are laid end to end without padding,
//! the projections and feed-forward block are single `gemm` products (AVX-512 kernels where
//! the CPU has them) with bias and residual fused in, GELU, softmax and LayerNorm are
//! vectorised, and batches run in parallel on rayon's threads, each single-threaded, so the
//! numbers do not depend on the thread count. They agree with candle's padded path within
//! 2e-5 and with transformers within the parity tolerance.
//! [`PackedCpu::set_packed_cpu`] switches back to candle's path; DeBERTa, GPUs and
//! half precision always use candle. GPT-2 has the same packed path for its log-probabilities
//! (the same [`PackedCpu`] switch), with only the predicting rows sent through the LM head in
//! chunks, so memory stays bounded. The weights are held once: the packed copy is made layer
//! by layer from the file, and candle's modules are built only when its path runs
//! ([`PackedCpu::holds_candle_weights`]). docs/PERFORMANCE.md compares both with PyTorch.
//!
//! ```
//! use hauser_nli::{Batching, ModelSource};
//! // Length-bucketed batching: longest inputs first, results restored to input order.
//! let plan = Batching { batch_size: 2, bucketed: true }.plan(&[3, 8, 5]);
//! assert_eq!(plan, vec![vec![1, 2], vec![0]]);
//! let src = ModelSource::parse("mujeensung/roberta-base_mnli_bc@main");
//! assert_eq!(src.revision(), "main");
//! ```
#![deny(missing_docs)]

mod batch;
mod candle_ops;
mod checkpoint_spec;
mod choice;
mod classifier_head;
mod classify;
mod comet;
mod config;
mod cpu_kernels;
mod device;
mod embed;
mod error;
mod generate;
mod layer_rows;
mod lm;
mod metricx;
mod mlm;
mod mlm_head;
mod model;
mod models;
mod packed_or_candle;
mod scorers;
mod source;
mod spm;
mod tokenize;
mod vocab;
mod weights;

pub use batch::Batching;
pub use choice::MultipleChoice;
pub use classify::{Predictions, SequenceClassifier};
pub use comet::{
    comet_encoder_source, CometClass, CometHparams, CometInput, CometModel, CometPrediction,
    CometSegment, ErrorSpan, LayerChoice, LayerTransform, Pooling, Segment,
};
pub use config::ModelConfig;
pub use cpu_kernels::gemm_flops;
pub use device::{DeviceSpec, Precision};
pub use embed::{Embedder, Embeddings, TokenStates};
pub use error::{NliError, Result};
pub use generate::{banned_tokens, top_k_probabilities, Decoding, GenerateConfig, Generation};
pub use lm::{CausalLm, TokenLogProbs};
pub use metricx::{
    default_tokenizer as metricx_default_tokenizer, MetricxInput, MetricxModel, MetricxPrediction,
    MetricxVersion, DEFAULT_TOKENIZER as METRICX_DEFAULT_TOKENIZER,
    SCORE_RANGE as METRICX_SCORE_RANGE, SCORE_TOKEN as METRICX_SCORE_TOKEN,
};
pub use mlm::{Filler, MaskedLm};
pub use model::{LoadOptions, TransformerModel};
pub use models::t5::{FeedForward, T5Config};
pub use models::ENCODER_ARCHITECTURES;
pub use packed_or_candle::PackedCpu;
pub use scorers::{cut_for_sentiment, LogicalConsistency, NliInput, SentimentConsistency};
pub use source::ModelSource;
pub use tokenize::{tokenizer_class, Encoded, TextEncoder, T5_MODEL_TYPES, XLMR_MODEL_TYPES};

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
