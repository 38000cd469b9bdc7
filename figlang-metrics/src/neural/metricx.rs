//! MetricX-23 and MetricX-24 (Juraska et al. 2023, 2024; google-research/metricx): a learned
//! translation error score in [0, 25], lower is better, from an mT5 encoder-decoder regressor
//! ([`hauser_nli::MetricxModel`]). MetricX-24's hybrid models score with a reference (and the
//! source, empty when there is none) or, without a reference, from the source alone (quality
//! estimation); MetricX-23 has reference-based and QE models of its own.

use hauser_core::Signature;
use hauser_nli::{MetricxInput, MetricxModel, MetricxPrediction, MetricxVersion};

use crate::neural::error::{NeuralError, NeuralResult};

/// MetricX scores from a loaded checkpoint.
#[derive(Debug)]
pub struct MetricX {
    model: MetricxModel,
    model_id: String,
    version: MetricxVersion,
    with_src: bool,
    with_ref: bool,
}

impl MetricX {
    /// Wraps a loaded model; `model_id` names it in signatures, `version` picks the input
    /// template.
    pub fn new(model: MetricxModel, model_id: &str, version: MetricxVersion) -> Self {
        Self {
            model,
            model_id: model_id.to_string(),
            version,
            with_src: true,
            with_ref: true,
        }
    }

    /// The model.
    pub fn model(&self) -> &MetricxModel {
        &self.model
    }

    /// Scores line-aligned hypotheses (lower is better). `src`: the sources, or none;
    /// `refs`: one reference per hypothesis, or none for quality estimation. MetricX-24 reads
    /// a reference with or without the source (an empty one when absent, as the repository's
    /// README says) and without a reference needs the source; MetricX-23 reads a reference or
    /// a source, not both.
    ///
    /// # Errors
    /// [`NeuralError::Input`] when the lists are not aligned or the inputs do not suit the
    /// version; model failures.
    pub fn predict(
        &mut self,
        src: Option<&[&str]>,
        hyps: &[&str],
        refs: Option<&[&str]>,
    ) -> NeuralResult<Vec<MetricxPrediction>> {
        for (what, list) in [("sources", src), ("references", refs)] {
            if let Some(l) = list.filter(|l| l.len() != hyps.len()) {
                return Err(NeuralError::Input(format!(
                    "{} {what} for {} hypotheses",
                    l.len(),
                    hyps.len()
                )));
            }
        }
        let probe = MetricxInput {
            source: src.map(|_| ""),
            hypothesis: "",
            reference: refs.map(|_| ""),
        };
        probe
            .template(self.version)
            .map_err(|m| NeuralError::Input(format!("MetricX-{}: {m}", self.version.number())))?;
        self.with_src = src.is_some();
        self.with_ref = refs.is_some();
        let inputs: Vec<MetricxInput<'_>> = hyps
            .iter()
            .enumerate()
            .map(|(i, h)| MetricxInput {
                source: src.map(|s| s[i]),
                hypothesis: h,
                reference: refs.map(|r| r[i]),
            })
            .collect();
        Ok(self.model.predict(self.version, &inputs)?)
    }

    /// [`Self::predict`]'s scores.
    ///
    /// # Errors
    /// As [`Self::predict`].
    pub fn score(
        &mut self,
        src: Option<&[&str]>,
        hyps: &[&str],
        refs: Option<&[&str]>,
    ) -> NeuralResult<Vec<f64>> {
        Ok(self
            .predict(src, hyps, refs)?
            .iter()
            .map(|p| f64::from(p.score))
            .collect())
    }

    /// The mode of the last run: `ref` (with a reference), `qe` (without).
    pub fn mode(&self) -> &'static str {
        if self.with_ref {
            "ref"
        } else {
            "qe"
        }
    }

    /// The reproducibility signature of the last run, e.g.
    /// `metricx|model:google/metricx-24-hybrid-large-v2p6|rev:main|tokenizer:google/mt5-xl|version:24|mode:ref|src:yes|max_len:1536|ffn:gated-gelu|better:lower|batch:64|precision:f32|kernels:candle|version:0.1.0`
    /// (`better:lower`: an error score, 0 best, 25 worst).
    pub fn signature(&self) -> Signature {
        let m = &self.model;
        Signature::new("metricx", crate::VERSION)
            .with("model", &self.model_id)
            .with("rev", m.source().revision())
            .with("tokenizer", m.tokenizer_source().name())
            .with("metricx", self.version.number())
            .with("mode", self.mode())
            .with("src", if self.with_src { "yes" } else { "no" })
            .with("max_len", m.text_encoder().max_len())
            .with("ffn", m.feed_forward())
            .with("better", "lower")
            .with("batch", m.batching().batch_size)
            .with("precision", m.precision())
            .with("kernels", "candle")
    }
}
