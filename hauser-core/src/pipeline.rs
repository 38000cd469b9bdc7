//! The evaluation pipeline: fill components, run every scorer on many groups at once (lending
//! it the groups, never copying them), normalise per group with the scorer's direction and tie
//! rule, combine quality, rerank.

use std::borrow::Cow;

use rayon::prelude::*;

use crate::criterion::{Criterion, Direction, TieRule};
use crate::error::CoreError;
use crate::normalize::normalize_scores;
use crate::quality::QualityWeights;
use crate::report::{
    CandidateReport, CriterionScore, GroupFailure, GroupOutcome, GroupReport, Skipped,
};
use crate::rerank::RankSumReranker;
use crate::scorer::{ComponentExtractor, Reranker, Scorer};
use crate::signature::{Signature, CORE_VERSION};
use crate::types::CandidateGroup;

/// Joins signatures with ` + `, e.g. `informativeness|tok:treebank|version:0.1.0 + quality|...`.
pub fn render_signatures(signatures: &[Signature]) -> String {
    signatures
        .iter()
        .map(Signature::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// One scorer's raw scores for one group, with how to normalise them.
#[derive(Debug, Clone)]
struct RawScores {
    criterion: Criterion,
    direction: Direction,
    tie_rule: TieRule,
    scores: Vec<f64>,
}

/// Runs a set of scorers over candidate groups and produces per-candidate reports.
///
/// Scorers see all groups of a call at once (so neural scorers can batch across literals);
/// normalisation, quality and ranking stay per group. Results do not depend on thread count.
pub struct Evaluator {
    scorers: Vec<Box<dyn Scorer>>,
    extractor: Option<Box<dyn ComponentExtractor>>,
    quality: QualityWeights,
    reranker: Box<dyn Reranker>,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("signature", &render_signatures(&self.signatures()))
            .finish()
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        Self::new()
    }
}

impl Evaluator {
    /// An evaluator with no scorers, default quality weights and the 2:2:1 reranker.
    pub fn new() -> Self {
        Self {
            scorers: Vec::new(),
            extractor: None,
            quality: QualityWeights::default(),
            reranker: Box::new(RankSumReranker::default()),
        }
    }

    /// Adds a scorer; criteria appear in the output in the order scorers were added.
    ///
    /// Takes any scorer, including an already boxed `Box<dyn Scorer>`.
    pub fn with_scorer(mut self, scorer: impl Scorer + 'static) -> Self {
        self.scorers.push(Box::new(scorer));
        self
    }

    /// Sets the extractor used for candidates without components (any extractor, including a
    /// `Box<dyn ComponentExtractor>`).
    pub fn with_extractor(mut self, extractor: impl ComponentExtractor + 'static) -> Self {
        self.extractor = Some(Box::new(extractor));
        self
    }

    /// Sets the quality weights.
    pub fn with_quality(mut self, quality: QualityWeights) -> Self {
        self.quality = quality;
        self
    }

    /// Sets the reranker (any reranker, including a `Box<dyn Reranker>`).
    pub fn with_reranker(mut self, reranker: impl Reranker + 'static) -> Self {
        self.reranker = Box::new(reranker);
        self
    }

    /// The criteria of the configured scorers.
    pub fn criteria(&self) -> Vec<Criterion> {
        self.scorers.iter().map(|s| s.criterion()).collect()
    }

    /// The signatures of the whole run: every scorer's, the extractor's, the quality weights'
    /// and the reranker's. [`render_signatures`] joins them into one string.
    pub fn signatures(&self) -> Vec<Signature> {
        let mut parts: Vec<Signature> = self.scorers.iter().map(|s| s.signature()).collect();
        if let Some(e) = &self.extractor {
            parts.push(e.signature());
        }
        let q = &self.quality;
        parts.push(
            Signature::new("quality", CORE_VERSION)
                .with(
                    "w",
                    format!("{},{},{}", q.relevance, q.logical, q.sentiment),
                )
                .with("missing", format!("{:?}", q.missing).to_lowercase()),
        );
        parts.push(self.reranker.signature());
        parts
    }

    /// Evaluates `groups`; `first_index` is the input position of `groups[0]` (for labels when
    /// evaluating in chunks). Returns one outcome per group, in order.
    pub fn evaluate(&self, groups: &[CandidateGroup], first_index: usize) -> Vec<GroupOutcome> {
        self.evaluate_at(groups, |k| first_index + k)
    }

    /// Evaluates `groups` whose input positions are not consecutive (a caller that left out
    /// lines it could not parse): `index_of(k)` is the input position of `groups[k]`, used in
    /// the reports, the failures and their messages.
    pub fn evaluate_at(
        &self,
        groups: &[CandidateGroup],
        index_of: impl Fn(usize) -> usize + Sync,
    ) -> Vec<GroupOutcome> {
        let prepared: Vec<Result<Cow<'_, CandidateGroup>, CoreError>> = groups
            .par_iter()
            .enumerate()
            .map(|(k, g)| self.prepare(g, index_of(k)))
            .collect();
        let mut failures: Vec<Option<CoreError>> =
            prepared.iter().map(|p| p.as_ref().err().cloned()).collect();
        let mut raw: Vec<Vec<RawScores>> = vec![Vec::new(); groups.len()];
        let mut skipped: Vec<Vec<Skipped>> = vec![Vec::new(); groups.len()];

        for scorer in &self.scorers {
            let criterion = scorer.criterion();
            let (direction, tie_rule) = (scorer.direction(), scorer.tie_rule());
            // Indices and borrowed groups of this scorer's batch: the (possibly extracted)
            // prepared groups are lent to the scorer, never copied.
            let mut eligible = Vec::new();
            let mut batch: Vec<&CandidateGroup> = Vec::new();
            for (i, p) in prepared.iter().enumerate() {
                let Ok(g) = p else { continue };
                if scorer.needs_components() && !g.has_components() {
                    skipped[i].push(Skipped {
                        criterion: criterion.clone(),
                        reason: "no components (give them or configure an extractor)".into(),
                    });
                } else {
                    eligible.push(i);
                    batch.push(g.as_ref());
                }
            }
            if batch.is_empty() {
                continue;
            }
            let results = scorer.score_batch(&batch);
            let n_results = results.len();
            let mut results = results.into_iter();
            for (&i, group) in eligible.iter().zip(&batch) {
                let expected = group.len();
                let outcome = match results.next() {
                    Some(Ok(scores)) if scores.len() == expected => Ok(scores),
                    Some(Ok(scores)) => Err(CoreError::ScoreCountMismatch {
                        scorer: criterion.to_string(),
                        got: scores.len(),
                        expected,
                    }),
                    Some(Err(e)) => Err(e),
                    None => Err(CoreError::Scorer {
                        scorer: criterion.to_string(),
                        message: format!("returned {n_results} results for {} groups", batch.len()),
                    }),
                };
                match outcome {
                    Ok(scores) => raw[i].push(RawScores {
                        criterion: criterion.clone(),
                        direction,
                        tie_rule,
                        scores,
                    }),
                    Err(e) => {
                        failures[i].get_or_insert(e);
                    }
                }
            }
        }

        prepared
            .into_iter()
            .zip(raw)
            .zip(skipped)
            .zip(failures)
            .enumerate()
            .map(|(k, (((group, raw), skipped), failure))| {
                let index = index_of(k);
                let original = &groups[k];
                let fail = |error| GroupFailure {
                    index,
                    id: original.id.clone(),
                    n_candidates: original.len(),
                    error,
                };
                if let Some(error) = failure {
                    return Err(fail(error));
                }
                let group = group.map_err(fail)?;
                self.finish(index, &group, raw, skipped).map_err(fail)
            })
            .collect()
    }

    fn prepare<'g>(
        &self,
        group: &'g CandidateGroup,
        index: usize,
    ) -> Result<Cow<'g, CandidateGroup>, CoreError> {
        if group.is_empty() {
            return Err(CoreError::EmptyGroup {
                group: group.label(index),
            });
        }
        let Some(extractor) = &self.extractor else {
            return Ok(Cow::Borrowed(group));
        };
        if group.has_components() {
            return Ok(Cow::Borrowed(group));
        }
        let mut owned = group.clone();
        for candidate in owned
            .candidates
            .iter_mut()
            .filter(|c| c.components.is_none())
        {
            candidate.components = Some(extractor.extract(&candidate.text, Some(&group.literal))?);
        }
        Ok(Cow::Owned(owned))
    }

    fn finish(
        &self,
        index: usize,
        group: &CandidateGroup,
        raw: Vec<RawScores>,
        skipped: Vec<Skipped>,
    ) -> Result<GroupReport, CoreError> {
        let n = group.len();
        let mut normalized = Vec::with_capacity(raw.len() + 1);
        for r in &raw {
            let z = normalize_scores(&r.criterion, r.direction, r.tie_rule, &r.scores)?;
            normalized.push((r.criterion.clone(), z));
        }
        let quality = self.quality.combine(&normalized, n);
        if let Some(q) = &quality {
            normalized.push((Criterion::Quality, q.clone()));
        }
        let ranks = self.reranker.rank(&normalized, n);
        let candidates = (0..n)
            .map(|i| CandidateReport {
                index: i,
                text: group.candidates[i].text.clone(),
                components: group.candidates[i].components.clone(),
                scores: raw
                    .iter()
                    .zip(&normalized)
                    .map(|(r, (_, z))| CriterionScore {
                        criterion: r.criterion.clone(),
                        raw: r.scores[i],
                        normalized: z[i],
                    })
                    .collect(),
                quality: quality.as_ref().map(|q| q[i]),
                rank: ranks.as_ref().map(|r| r[i]),
            })
            .collect();
        Ok(GroupReport {
            index,
            id: group.id.clone(),
            candidates,
            skipped,
        })
    }
}
