//! Scores with their signatures, and multi-reference aggregation helpers.

use std::cell::RefCell;
use std::thread::LocalKey;

use hauser_core::Signature;

use super::error::MetricError;

/// What sacreBLEU's corpus scores require: one reference set per hypothesis, none of them
/// empty. Returns the largest number of references (for the signature).
pub(crate) fn corpus_nrefs<R>(
    metric: &str,
    n_hyps: usize,
    refs: &[Vec<R>],
) -> Result<usize, MetricError> {
    if n_hyps != refs.len() {
        return Err(MetricError::input(
            metric,
            format!("{n_hyps} hypotheses for {} reference sets", refs.len()),
        ));
    }
    if refs.iter().any(Vec::is_empty) {
        return Err(MetricError::input(metric, "a hypothesis has no reference"));
    }
    Ok(refs.iter().map(Vec::len).max().unwrap_or(0))
}

/// A per-thread cache of the last signature built, keyed by the setting that determines it.
pub(crate) type SignatureCache<K> = RefCell<Option<(K, Signature)>>;

/// The signature for `key` from `cache`, built by `build` only when the key changed: sentence
/// scores of a corpus share one setting, and formatting a signature per sentence would cost as
/// much as scoring.
pub(crate) fn cached_signature<K: PartialEq + Clone + 'static>(
    cache: &'static LocalKey<SignatureCache<K>>,
    key: K,
    build: impl FnOnce() -> Signature,
) -> Signature {
    cache.with_borrow_mut(|c| match c {
        Some((k, sig)) if *k == key => sig.clone(),
        _ => {
            let sig = build();
            *c = Some((key, sig.clone()));
            sig
        }
    })
}

/// A metric value and the signature that reproduces it.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricScore {
    /// The value, on the metric's documented scale.
    pub score: f64,
    /// Metric, implementation version and every setting that affects the value.
    pub signature: Signature,
}

impl MetricScore {
    /// A score with its signature.
    pub fn new(score: f64, signature: Signature) -> Self {
        Self { score, signature }
    }
}

/// How per-reference scores of one hypothesis are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RefAggregation {
    /// The best reference (the figurative narratives paper's choice).
    #[default]
    Max,
    /// The mean over references.
    Mean,
}

impl RefAggregation {
    /// Short name for signatures.
    pub fn as_str(&self) -> &'static str {
        match self {
            RefAggregation::Max => "max",
            RefAggregation::Mean => "mean",
        }
    }
}

/// Scores `hyp` against each reference separately with `f` and aggregates; `None` when there
/// are no references.
///
/// ```
/// use figlang_metrics::text::score::{aggregate_refs, RefAggregation};
/// let len_diff = |h: &str, r: &str| -((h.len() as f64) - (r.len() as f64)).abs();
/// assert_eq!(aggregate_refs("abc", &["a", "abcd"], RefAggregation::Max, len_diff), Some(-1.0));
/// assert_eq!(aggregate_refs("abc", &["a", "abcd"], RefAggregation::Mean, len_diff), Some(-1.5));
/// ```
pub fn aggregate_refs<R: AsRef<str>>(
    hyp: &str,
    refs: &[R],
    how: RefAggregation,
    mut f: impl FnMut(&str, &str) -> f64,
) -> Option<f64> {
    let scores: Vec<f64> = refs.iter().map(|r| f(hyp, r.as_ref())).collect();
    if scores.is_empty() {
        return None;
    }
    Some(match how {
        RefAggregation::Max => scores.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        RefAggregation::Mean => scores.iter().sum::<f64>() / scores.len() as f64,
    })
}
