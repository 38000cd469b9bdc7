//! Content preservation and its correlation with human judgement, as in the formality-transfer
//! meta-evaluation: corpus BLEU and chrF (sacreBLEU), sentence ROUGE-L (rouge-score), then the
//! segment-level Pearson and Kendall correlation of sentence chrF with human ratings.
//!
//! Run with `cargo run -p hauser-examples --example text_metrics`.

use figlang_metrics::stats::{kendall_tau, pearson, TauVariant};
use figlang_metrics::text::bleu_sacre::SacreBleu;
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::rouge::{RougeScore, RougeType};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let hyps = [
        "I would like to know what you think.",
        "He is really angry about it.",
        "That movie was not good.",
        "Thank you for your help.",
    ];
    let refs = [
        "I would like to know your opinion.",
        "He is very upset about it.",
        "That film was rather poor.",
        "Thank you very much for your help.",
    ];
    let human = [4.0, 3.5, 2.0, 4.5];

    let nested: Vec<Vec<&str>> = refs.iter().map(|r| vec![*r]).collect();
    let bleu = SacreBleu::default().corpus(&hyps, &nested)?;
    let chrf = Chrf::default();
    println!("BLEU {:.2}  ({})", bleu.score, bleu.signature);
    let corpus_chrf = chrf.corpus(&hyps, &nested)?;
    println!("chrF {:.2}  ({})", corpus_chrf.score, corpus_chrf.signature);

    let rouge = RougeScore::default();
    let mut sentence_chrf = Vec::new();
    for (h, r) in hyps.iter().zip(&refs) {
        let l = rouge.score_pair(RougeType::RougeL, r, h)?;
        let c = chrf.sentence(h, &[*r])?.score;
        println!("ROUGE-L F {:.3}  chrF {:5.2}  {h}", l.fmeasure, c);
        sentence_chrf.push(c);
    }
    let r = pearson(&sentence_chrf, &human)?;
    let tau = kendall_tau(&sentence_chrf, &human, TauVariant::B)?;
    println!(
        "segment level: Pearson {:.3} (p = {:.3}), Kendall tau-b {:.3}",
        r.statistic, r.p_value, tau.statistic
    );
    Ok(())
}
