//! `CometModel::score_pairs`, the pair scores of minimum-Bayes-risk reranking, streamed
//! with each sentence embedded once and the feature rows built a block at a time: bit for bit
//! the scores `score` gives every pair in one call, for a group whose pairs span two blocks.

use hauser_nli::{CometInput, CometModel};

use crate::common::*;

/// `n` distinct candidates (a few repeated words, so that tokenization stays short).
fn candidates(n: usize) -> Vec<String> {
    let words = [
        "the", "cat", "sat", "like", "a", "king", "rain", "fell", "softly",
    ];
    (0..n)
        .map(|i| {
            let mut s: Vec<&str> = (0..1 + i % 5)
                .map(|w| words[(i * 7 + w * 3) % words.len()])
                .collect();
            let tag = i.to_string();
            s.push(&tag);
            s.join(" ")
        })
        .collect()
}

#[test]
fn pair_scores_are_those_of_every_pair_in_one_call() {
    let m = CometModel::load(&fixture("comet").join("regression"), &opts(4)).unwrap();
    // 50 candidates: 2,450 pairs, more than one block of estimator rows.
    let owned = candidates(50);
    let cands: Vec<&str> = owned.iter().map(String::as_str).collect();
    let src = "the king sat";
    let mut got: Vec<(usize, Vec<f32>)> = Vec::new();
    m.score_pairs(Some(src), &cands, &mut |j, s| {
        got.push((j, s.to_vec()));
        Ok(())
    })
    .unwrap();
    let hyps: Vec<usize> = got.iter().map(|(j, _)| *j).collect();
    assert_eq!(hyps, (0..cands.len()).collect::<Vec<_>>());
    let mut all = Vec::new();
    for (j, scores) in &got {
        assert_eq!(scores.len(), cands.len() - 1);
        for k in (0..cands.len()).filter(|k| k != j) {
            all.push(CometInput {
                src,
                mt: cands[*j],
                reference: Some(cands[k]),
            });
        }
    }
    let together = m.score(&all).unwrap();
    let flat: Vec<u32> = got
        .iter()
        .flat_map(|(_, s)| s)
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(
        flat,
        together.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
}
