//! The neural metrics as `hauser_core::Scorer`s over simile candidate groups: BERTScore F1
//! of each candidate against its literal sentence, fluency (negative log-perplexity: higher is
//! better, kept so that the `fluency` values of earlier runs stay comparable; a perplexity
//! criterion could instead declare `Direction::LowerIsBetter`) and style strength. All three
//! make one model call per group ([`hauser_core::adapter::per_group`]), as the NLI scorers do:
//! a group's scores then never depend on the groups scored beside it, which the per-literal
//! normalisation would magnify.

use hauser_core::adapter;
use hauser_core::{CandidateGroup, CoreError, Criterion, Scorer, Signature};

use crate::neural::bertscore::BertScore;
use crate::neural::error::NeuralError;
use crate::neural::perplexity::Perplexity;
use crate::neural::style::StyleStrength;

/// Runs `f` once per group (groups in parallel) with the candidate texts and their literals;
/// a failure becomes that group's error.
fn per_group(
    groups: &[&CandidateGroup],
    name: &str,
    f: impl Fn(&[&str], &[&str]) -> Result<Vec<f64>, NeuralError> + Sync,
) -> Vec<hauser_core::Result<Vec<f64>>> {
    adapter::per_group(name, groups, |batch| {
        let texts: Vec<&str> = batch.iter().map(|c| c.text()).collect();
        let literals: Vec<&str> = batch.iter().map(|c| c.literal()).collect();
        f(&texts, &literals).map_err(|e| CoreError::scorer(name, e))
    })
}

impl Scorer for BertScore {
    fn criterion(&self) -> Criterion {
        Criterion::Other("bertscore_f1".into())
    }

    fn signature(&self) -> Signature {
        BertScore::signature(self)
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        per_group(groups, "bertscore_f1", |cands, literals| {
            let refs: Vec<Vec<&str>> = literals.iter().map(|l| vec![*l]).collect();
            Ok(self
                .score(cands, &refs)?
                .into_iter()
                .map(|s| s.f1)
                .collect())
        })
    }
}

impl Scorer for Perplexity {
    fn criterion(&self) -> Criterion {
        Criterion::Other("fluency".into())
    }

    fn signature(&self) -> Signature {
        Perplexity::signature(self).with("score", "-ln(ppl)")
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        per_group(groups, "fluency", |cands, _| {
            Ok(self.mean_nll(cands)?.into_iter().map(|nll| -nll).collect())
        })
    }
}

impl Scorer for StyleStrength {
    fn criterion(&self) -> Criterion {
        Criterion::Other("style".into())
    }

    fn signature(&self) -> Signature {
        StyleStrength::signature(self)
    }

    fn score_batch(&self, groups: &[&CandidateGroup]) -> Vec<hauser_core::Result<Vec<f64>>> {
        per_group(groups, "style", |cands, _| self.probabilities(cands))
    }
}
