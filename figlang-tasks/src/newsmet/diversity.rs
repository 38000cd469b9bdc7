//! The diversity of a headline's candidates (NewsMet's Algorithm 1, given in the paper as
//! pseudocode; the release has no code for it). Each candidate is put in place of the focus
//! verb and disambiguated by NLTK's simplified Lesk on the headline's whitespace tokens (verbs
//! only), ties between senses broken as NLTK up to 3.4.5 broke them (largest synset name): with
//! that rule the three Table 4 headlines whose candidates are in the release get exactly the
//! paper's clusters, with NLTK 3.5+'s first-sense rule they do not ([`LeskTies`]); then
//! for every pair i < j whose Leacock-Chodorow similarity exceeds the threshold (1.7: for verbs,
//! a path of at most 3 edges):
//! if c_i is in a cluster, c_j joins c_i's (first) cluster; else if c_j is, c_i joins c_j's;
//! else {c_i, c_j} is a new cluster. Clusters never merge, so a candidate may sit in two. The
//! diversity is the number of clusters plus the candidates left in none (singletons, as the
//! paper's Table 4 and its "6 = every candidate in its own cluster" count them).
//! A candidate without a verb synset in WordNet (where NLTK's `lesk` returns `None` and the
//! pseudocode would fail) is never similar to another: it counts as a singleton.

use figlang_metrics::text::wordnet::WordNet;
use figlang_metrics::text::wordnet_sim::{LeskTies, SynsetId};
use serde::Serialize;

use crate::error::{TaskError, TaskResult};

/// The paper's threshold on LCH similarity.
pub const LCH_THRESHOLD: f64 = 1.7;

/// The clusters of one headline's candidates.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiversityReport {
    /// Clusters of candidate indices, in creation order (members in joining order).
    pub clusters: Vec<Vec<usize>>,
    /// Candidates in no cluster.
    pub singletons: Vec<usize>,
    /// Clusters plus singletons.
    pub diversity: usize,
    /// Each candidate's Lesk sense (NLTK's synset name), `None` without a verb synset.
    pub senses: Vec<Option<String>>,
}

/// Clusters `candidates` replacing token `focus` of `tokens` (the headline split on whitespace).
///
/// # Errors
/// [`TaskError::Input`] when `focus` is outside the headline.
pub fn diversity(
    wn: &WordNet,
    tokens: &[&str],
    focus: usize,
    candidates: &[&str],
    threshold: f64,
    ties: LeskTies,
) -> TaskResult<DiversityReport> {
    if focus >= tokens.len() {
        return Err(TaskError::Input(format!(
            "focus token {focus} outside a headline of {} tokens",
            tokens.len()
        )));
    }
    let senses: Vec<Option<SynsetId>> = candidates
        .iter()
        .map(|c| {
            let mut h = tokens.to_vec();
            h[focus] = c;
            wn.lesk_with(&h, c, Some('v'), ties)
        })
        .collect();
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    let find = |clusters: &[Vec<usize>], x: usize| clusters.iter().position(|c| c.contains(&x));
    for i in 0..candidates.len() {
        for j in i + 1..candidates.len() {
            let (Some(a), Some(b)) = (senses[i], senses[j]) else {
                continue;
            };
            if !wn.lch_similarity(a, b).is_some_and(|s| s > threshold) {
                continue;
            }
            if let Some(k) = find(&clusters, i) {
                if !clusters[k].contains(&j) {
                    clusters[k].push(j);
                }
            } else if let Some(k) = find(&clusters, j) {
                clusters[k].push(i);
            } else {
                clusters.push(vec![i, j]);
            }
        }
    }
    let singletons: Vec<usize> = (0..candidates.len())
        .filter(|&i| find(&clusters, i).is_none())
        .collect();
    Ok(DiversityReport {
        diversity: clusters.len() + singletons.len(),
        clusters,
        singletons,
        senses: senses
            .iter()
            .map(|s| s.and_then(|s| wn.synset_name(s)))
            .collect(),
    })
}
