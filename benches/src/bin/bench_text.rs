//! Timing driver for `tools/bench/bench_text_metrics.py`: sentence chrF, sentence BLEU (sacreBLEU
//! settings), corpus BLEU and corpus TER over line-aligned files; then a paired bootstrap of
//! BLEU (two systems against a baseline, statistics extraction included) on the smaller files.
//! Each workload times the library calls of the command that computes it: sentence scores as
//! `hauser metric chrf|bleu --sentence` computes them (`SummedStats::segment_score`: chrF's
//! `segment_stats` then `score_from_stats`, BLEU's statistics on the stack; over rayon's `par_iter`; the command then divides by 100, left out here
//! to compare with sacreBLEU's 0-100 scores), corpus scores with `corpus`, the paired test with
//! `hauser metric bleu --paired-bs`'s `segment_stats`, `BleuStats::row` and `paired_bootstrap`.
//! Rayon's pool has `RAYON_NUM_THREADS` threads (every workload uses it). Writes the
//! per-line scores next to `OUT` and prints one JSON object with the timings, the corpus
//! scores, and the paired test's p-values and means.
//!
//! Usage: `bench_text HYP REF OUT_PREFIX HYP_M REF_M SYS2 SYS3`

use std::time::Instant;

use rayon::prelude::*;

use figlang_metrics::text::bleu_sacre::SacreBleu;
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::significance::{paired_bootstrap, Resampling};
use figlang_metrics::text::ter::Ter;
use hauser_benches::read_lines;

fn save(path: &str, v: &[f64]) {
    let text: String = v.iter().map(|x| format!("{x}\n")).collect();
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(
        args.len() == 8,
        "usage: bench_text HYP REF OUT_PREFIX HYP_M REF_M SYS2 SYS3"
    );
    let hyps = read_lines(&args[1]);
    let refs = read_lines(&args[2]);
    let refs1: Vec<Vec<&str>> = refs.iter().map(|r| vec![r.as_str()]).collect();

    let chrf = Chrf::default();
    let t = Instant::now();
    let c: Vec<f64> = hyps
        .par_iter()
        .zip(&refs1)
        .map(|(h, r)| chrf.score_from_stats(&chrf.segment_stats(h, r)))
        .collect();
    let t_chrf = t.elapsed().as_secs_f64();

    let bleu = SacreBleu::sentence_default();
    let t = Instant::now();
    let b: Vec<f64> = hyps
        .par_iter()
        .zip(&refs1)
        .map(|(h, r)| bleu.segment_score(h, r))
        .collect();
    let t_bleu = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let corpus = SacreBleu::default()
        .corpus(&hyps, &refs1)
        .expect("corpus")
        .score;
    let t_corpus = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let ter = Ter::default().corpus(&hyps, &refs1).expect("ter").score;
    let t_ter = t.elapsed().as_secs_f64();

    let (hyp_m, ref_m) = (read_lines(&args[4]), read_lines(&args[5]));
    let refs_m: Vec<Vec<&str>> = ref_m.iter().map(|r| vec![r.as_str()]).collect();

    let systems = [read_lines(&args[6]), read_lines(&args[7])];
    let t = Instant::now();
    let cfg = SacreBleu::default();
    let rows = |h: &[String]| -> Vec<Vec<f64>> {
        h.par_iter()
            .zip(&refs_m)
            .map(|(h, r)| cfg.segment_stats(h, r).row())
            .collect()
    };
    let base = rows(&hyp_m);
    let others: Vec<Vec<Vec<f64>>> = systems.iter().map(|s| rows(s)).collect();
    let views: Vec<&[Vec<f64>]> = others.iter().map(Vec::as_slice).collect();
    let paired = paired_bootstrap(&base, &views, &cfg, &Resampling::bootstrap()).expect("paired");
    let t_paired = t.elapsed().as_secs_f64();
    let p: Vec<f64> = paired.iter().filter_map(|r| r.p_value).collect();
    let means: Vec<f64> = paired.iter().filter_map(|r| r.mean).collect();

    save(&format!("{}.chrf", args[3]), &c);
    save(&format!("{}.bleu", args[3]), &b);
    println!(
        "{{\"n\": {}, \"sentence_chrf_s\": {t_chrf}, \"sentence_bleu_s\": {t_bleu}, \"corpus_bleu_s\": {t_corpus}, \"corpus_bleu\": {corpus}, \"corpus_ter_s\": {t_ter}, \"corpus_ter\": {ter}, \"paired_bs_s\": {t_paired}, \"paired_p\": {p:?}, \"paired_mean\": {means:?}}}",
        hyps.len()
    );
}
