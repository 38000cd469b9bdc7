//! The diversity of a headline's candidates (NewsMet's Algorithm 1, given in the paper as
//! pseudocode; the release has no code for it). Each candidate is put in place of the focus
//! verb and disambiguated by NLTK's simplified Lesk on the headline's tokens (whitespace tokens,
//! or NLTK's `word_tokenize` with [`HeadlineTokens::Nltk`]; verbs only), ties between senses
//! broken as NLTK up to 3.9.1 broke them (largest synset name): with that rule the three Table 4
//! headlines whose candidates are in the release get exactly the paper's clusters, with NLTK
//! 3.9.2+'s first-sense rule they do not ([`LeskTies`]); then
//! for every pair i < j whose Leacock-Chodorow similarity exceeds the threshold (1.7: for verbs,
//! a path of at most 3 edges):
//! if c_i is in a cluster, c_j joins c_i's (first) cluster; else if c_j is, c_i joins c_j's;
//! else {c_i, c_j} is a new cluster. Clusters never merge, so a candidate may sit in two. The
//! diversity is the number of clusters plus the candidates left in none (singletons, as the
//! paper's Table 4 and its "6 = every candidate in its own cluster" count them).
//! A candidate without a verb synset in WordNet (where NLTK's `lesk` returns `None` and the
//! pseudocode would fail) is never similar to another: it counts as a singleton.

//!
//! The work is memoised so that a long candidate list stays fast: one Lesk call per distinct
//! candidate, one hypernym walk per distinct sense, and each candidate's clusters indexed
//! rather than searched.
use std::collections::HashMap;

use figlang_metrics::text::tokenize::NltkTokenizer;
use figlang_metrics::text::wordnet::WordNet;
use figlang_metrics::text::wordnet_sim::{Ancestors, LeskTies, SynsetId};
use serde::Serialize;

use crate::error::{TaskError, TaskResult};

/// The paper's threshold on LCH similarity.
pub const LCH_THRESHOLD: f64 = 1.7;

/// The tokens Lesk compares with the sense definitions: the context of each candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeadlineTokens {
    /// The headline's whitespace tokens, the candidate in place of the focus token.
    #[default]
    Whitespace,
    /// NLTK's `word_tokenize` (Punkt, then the Treebank word tokenizer of that release) of
    /// the headline with the candidate in place of the focus token, its tokens joined by
    /// single spaces.
    Nltk(NltkTokenizer),
}

/// Settings of [`diversity_with`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiversityConfig {
    /// Two candidates are similar when their senses' LCH similarity is above this.
    pub threshold: f64,
    /// Lesk's tie rule.
    pub ties: LeskTies,
    /// Lesk's context.
    pub tokens: HeadlineTokens,
}

impl Default for DiversityConfig {
    fn default() -> Self {
        Self {
            threshold: LCH_THRESHOLD,
            ties: LeskTies::LargestName,
            tokens: HeadlineTokens::Whitespace,
        }
    }
}

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

/// Clusters `candidates` replacing token `focus` of `tokens` (the headline split on whitespace),
/// Lesk on the whitespace tokens.
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
    let cfg = DiversityConfig {
        threshold,
        ties,
        tokens: HeadlineTokens::Whitespace,
    };
    diversity_with(wn, tokens, focus, candidates, &cfg)
}

/// [`diversity`] with a choice of Lesk's context ([`DiversityConfig`]).
///
/// # Errors
/// [`TaskError::Input`] when `focus` is outside the headline.
pub fn diversity_with(
    wn: &WordNet,
    tokens: &[&str],
    focus: usize,
    candidates: &[&str],
    cfg: &DiversityConfig,
) -> TaskResult<DiversityReport> {
    if focus >= tokens.len() {
        return Err(TaskError::Input(format!(
            "focus token {focus} outside a headline of {} tokens",
            tokens.len()
        )));
    }
    // The context depends on the candidate only, so its sense does too.
    let mut by_word: HashMap<&str, Option<SynsetId>> = HashMap::new();
    let senses: Vec<Option<SynsetId>> = candidates
        .iter()
        .map(|&c| {
            *by_word
                .entry(c)
                .or_insert_with(|| lesk_in_headline(wn, tokens, focus, c, cfg))
        })
        .collect();
    // One hypernym walk per distinct sense; candidates refer to their sense's slot.
    let mut slot_of: HashMap<SynsetId, usize> = HashMap::new();
    let mut ancestors: Vec<Ancestors> = Vec::new();
    let slots: Vec<Option<usize>> = senses
        .iter()
        .map(|s| {
            s.map(|s| {
                *slot_of.entry(s).or_insert_with(|| {
                    ancestors.push(wn.ancestors(s));
                    ancestors.len() - 1
                })
            })
        })
        .collect();
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    // The clusters each candidate is in, in joining order; its first cluster is the smallest.
    let mut member_of: Vec<Vec<usize>> = vec![Vec::new(); candidates.len()];
    let first = |m: &[usize]| m.iter().copied().min();
    for i in 0..candidates.len() {
        let Some(a) = slots[i] else { continue };
        for j in i + 1..candidates.len() {
            let Some(b) = slots[j] else { continue };
            let similar = wn
                .lch_similarity_of(&ancestors[a], &ancestors[b])
                .is_some_and(|s| s > cfg.threshold);
            if !similar {
                continue;
            }
            if let Some(k) = first(&member_of[i]) {
                if !member_of[j].contains(&k) {
                    clusters[k].push(j);
                    member_of[j].push(k);
                }
            } else if let Some(k) = first(&member_of[j]) {
                clusters[k].push(i);
                member_of[i].push(k);
            } else {
                clusters.push(vec![i, j]);
                member_of[i].push(clusters.len() - 1);
                member_of[j].push(clusters.len() - 1);
            }
        }
    }
    let singletons: Vec<usize> = (0..candidates.len())
        .filter(|&i| member_of[i].is_empty())
        .collect();
    let mut names: HashMap<SynsetId, Option<String>> = HashMap::new();
    Ok(DiversityReport {
        diversity: clusters.len() + singletons.len(),
        clusters,
        singletons,
        senses: senses
            .iter()
            .map(|s| s.and_then(|s| names.entry(s).or_insert_with(|| wn.synset_name(s)).clone()))
            .collect(),
    })
}

/// Lesk's verb sense of `candidate` in the headline with `candidate` in place of token `focus`.
fn lesk_in_headline(
    wn: &WordNet,
    tokens: &[&str],
    focus: usize,
    candidate: &str,
    cfg: &DiversityConfig,
) -> Option<SynsetId> {
    let mut h = tokens.to_vec();
    h[focus] = candidate;
    match cfg.tokens {
        HeadlineTokens::Whitespace => wn.lesk_with(&h, candidate, Some('v'), cfg.ties),
        HeadlineTokens::Nltk(t) => {
            let toks = t.tokenize(&h.join(" "));
            let ctx: Vec<&str> = toks.iter().map(String::as_str).collect();
            wn.lesk_with(&ctx, candidate, Some('v'), cfg.ties)
        }
    }
}
