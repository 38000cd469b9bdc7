//! Timing driver for `tools/bench_text_metrics.py`: sentence chrF, sentence BLEU (sacreBLEU
//! settings) and corpus BLEU over line-aligned files, single-threaded. Writes the per-line
//! scores next to `OUT` and prints one JSON object with the timings.
//!
//! Usage: `bench_text HYP REF OUT_PREFIX`

use std::time::Instant;

use figlang_metrics::text::bleu_sacre::SacreBleu;
use figlang_metrics::text::chrf::Chrf;
use hauser_benches::read_lines;

fn save(path: &str, v: &[f64]) {
    let text: String = v.iter().map(|x| format!("{x}\n")).collect();
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(args.len() == 4, "usage: bench_text HYP REF OUT_PREFIX");
    let hyps = read_lines(&args[1]);
    let refs = read_lines(&args[2]);
    let refs1: Vec<Vec<&str>> = refs.iter().map(|r| vec![r.as_str()]).collect();

    let chrf = Chrf::default();
    let t = Instant::now();
    let c: Vec<f64> = hyps
        .iter()
        .zip(&refs1)
        .map(|(h, r)| chrf.sentence(h, r).expect("chrf").score)
        .collect();
    let t_chrf = t.elapsed().as_secs_f64();

    let bleu = SacreBleu::sentence_default();
    let t = Instant::now();
    let b: Vec<f64> = hyps
        .iter()
        .zip(&refs1)
        .map(|(h, r)| bleu.sentence(h, r).expect("bleu").score)
        .collect();
    let t_bleu = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let corpus = SacreBleu::default()
        .corpus(&hyps, &refs1)
        .expect("corpus")
        .score;
    let t_corpus = t.elapsed().as_secs_f64();

    save(&format!("{}.chrf", args[3]), &c);
    save(&format!("{}.bleu", args[3]), &b);
    println!(
        "{{\"n\": {}, \"sentence_chrf_s\": {t_chrf}, \"sentence_bleu_s\": {t_bleu}, \"corpus_bleu_s\": {t_corpus}, \"corpus_bleu\": {corpus}}}",
        hyps.len()
    );
}
