//! The metrics `hauser rerank` scores a group of candidates with: one score per candidate,
//! without a reference (quality estimation), or by minimum Bayes risk with the metric as the
//! utility and the other candidates as pseudo-references.
//!
//! MBR follows unbabel-comet 2.2.7's `comet-mbr` (`comet/cli/mbr.py`, `mbr_decoding`): the
//! score of candidate `j` is the mean, over every other candidate `k != j`, of
//! `utility(hyp = c_j, ref = c_k, src)`. COMET embeds each distinct sentence of the group once
//! (as `comet-mbr` embeds each candidate once) and builds the pairs' feature rows a block at a
//! time, BERTScore holds each sentence's states once and makes the pairs as it scores them; the
//! other metrics take the pairs a block of hypotheses at a time, so memory does not grow with
//! the square of the group. A group of one candidate has no
//! pseudo-reference: its score is NaN (written `null`), where `comet-mbr` would take the mean of
//! an empty tensor (also NaN).

use figlang_metrics::neural::{
    BertScore, BertScoreOptions, Bleurt, BosMode, Comet, MetricX, Perplexity, StyleStrength,
};
use figlang_metrics::text::{metric_by_name, TextMetric};
use hauser_core::{Direction, Signature};
use hauser_nli::{
    CausalLm, CometModel, MetricxModel, MetricxVersion, ModelSource, SequenceClassifier,
};

use crate::error::CliError;
use crate::metric::flags::TextFlags;
use crate::metric::neural::{self, NeuralMetricArgs};

/// The metric behind a [`RerankMetric`] (the models boxed: the variants' sizes differ widely).
enum Kind {
    Text(Box<dyn TextMetric>),
    Comet { metric: Box<Comet>, no_src: bool },
    Metricx(MetricX, MetricxVersion),
    Bleurt(Bleurt),
    BertScore(Box<BertScore>),
    Perplexity(Perplexity),
    Style(StyleStrength),
}

/// A loaded metric and the mode it scores groups in.
pub struct RerankMetric {
    name: String,
    mbr: bool,
    kind: Kind,
    /// The signature of the last group scored (COMET's and MetricX's say which inputs they
    /// read, which can differ between groups).
    signature: Option<Signature>,
}

impl std::fmt::Debug for RerankMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RerankMetric")
            .field("name", &self.name)
            .field("mbr", &self.mbr)
            .finish_non_exhaustive()
    }
}

/// The neural metrics `hauser rerank` knows.
pub const NEURAL: [&str; 6] = neural::NAMES;

/// The text metrics that can be MBR utilities: those of figlang-metrics' registry that score a
/// hypothesis against references.
pub fn text_metrics() -> Vec<&'static str> {
    figlang_metrics::text::registry::names_needing_references()
}

/// Why `name` cannot run in the mode asked for, before anything is loaded (COMET's class is
/// checked once the model is loaded).
pub fn mode_refusal(name: &str, mbr: bool) -> Option<String> {
    let text = text_metrics();
    let refs_only = text.contains(&name) || matches!(name, "bleurt" | "bertscore");
    if !mbr && refs_only {
        return Some(format!(
            "{name} scores a candidate against a reference, and rerank has none: use --mbr (each candidate scored against the others of its group)"
        ));
    }
    if mbr && matches!(name, "perplexity" | "style") {
        return Some(format!(
            "{name} reads no reference, so it cannot be an MBR utility: drop --mbr to rank by its scores"
        ));
    }
    if matches!(name, "distinct1" | "distinct2" | "distinct3" | "selfbleu") {
        return Some(format!(
            "{name} measures the diversity of a set of texts, not the quality of one candidate: rerank cannot rank by it"
        ));
    }
    if name == "wmd" {
        return Some(
            "wmd is not a rerank metric yet (use hauser metric wmd --sentence on the pairs)".into(),
        );
    }
    if !(text.contains(&name) || NEURAL.contains(&name)) {
        return Some(format!(
            "unknown metric {name:?}; rerank metrics: QE: comet (reference-free or unified models), metricx, perplexity, style; MBR (--mbr): {}, bertscore, bleurt, comet, metricx",
            text.join(", ")
        ));
    }
    None
}

impl RerankMetric {
    /// Loads metric `name` with the command's options (checked already by the caller).
    ///
    /// # Errors
    /// [`CliError::Usage`] for a metric that cannot run in the mode asked for, or a missing
    /// option; model loading failures.
    pub fn load(
        name: &str,
        mbr: bool,
        text: &TextFlags,
        neural: &NeuralMetricArgs,
    ) -> Result<Self, CliError> {
        if let Some(why) = mode_refusal(name, mbr) {
            return Err(CliError::Usage(why));
        }
        let opts = neural::load_options(neural);
        let kind = match name {
            "comet" => {
                let spec = neural.model.as_deref().ok_or_else(|| {
                    CliError::Usage(
                        "comet needs --model DIR (a COMET checkpoint directory: hparams.yaml, checkpoints/model.ckpt)".into(),
                    )
                })?;
                let dir = std::path::Path::new(spec);
                let model = CometModel::load(dir, &opts)?;
                let class = model.hparams().class.identifier();
                if !mbr && !model.is_referenceless() {
                    return Err(CliError::Usage(format!(
                        "comet: this {class} model needs a reference: use --mbr (each candidate scored against the others of its group), or a reference-free model (e.g. CometKiwi)"
                    )));
                }
                if mbr && !model.takes_references() {
                    return Err(CliError::Usage(format!(
                        "comet: this {class} model reads no reference, so it cannot be an MBR utility: drop --mbr to rank by its scores (quality estimation)"
                    )));
                }
                let id = dir
                    .file_name()
                    .map_or_else(|| spec.to_string(), |n| n.to_string_lossy().into_owned());
                Kind::Comet {
                    metric: Box::new(Comet::new(model, &id)),
                    no_src: neural.no_src,
                }
            }
            "metricx" => {
                let (source, id) = neural::model(neural, name)?;
                let version = if neural.metricx_version == "23" {
                    MetricxVersion::V23
                } else {
                    MetricxVersion::V24
                };
                let tokenizer = match &neural.tokenizer {
                    Some(t) => ModelSource::parse(t),
                    None => hauser_nli::metricx_default_tokenizer(&source)?,
                };
                let max_len = neural
                    .max_input_length
                    .unwrap_or_else(|| version.default_max_input_length());
                let model = MetricxModel::load(&source, &tokenizer, &opts, max_len)?;
                Kind::Metricx(MetricX::new(model, &id, version), version)
            }
            "bleurt" => {
                let (source, id) = neural::model(neural, name)?;
                Kind::Bleurt(Bleurt::new(SequenceClassifier::load(&source, &opts)?, &id)?)
            }
            "bertscore" => {
                let spec = neural.model.as_deref().ok_or_else(|| {
                    CliError::Usage("bertscore needs --model (hub id or directory)".into())
                })?;
                let options = BertScoreOptions {
                    prefix_space: neural.prefix_space,
                    ..BertScoreOptions::default()
                };
                Kind::BertScore(Box::new(neural::load_bertscore(
                    spec,
                    &opts,
                    neural.layer,
                    "--layer",
                    neural.baseline.as_deref(),
                    options,
                )?))
            }
            "perplexity" => {
                let (source, id) = neural::model(neural, name)?;
                let bos = if neural.prepend_bos {
                    BosMode::Prepend
                } else {
                    BosMode::None
                };
                Kind::Perplexity(Perplexity::new(CausalLm::load(&source, &opts)?, &id, bos)?)
            }
            "style" => {
                let (source, id) = neural::model(neural, name)?;
                let label = neural
                    .label
                    .as_deref()
                    .ok_or_else(|| CliError::Usage("style needs --label (e.g. formal)".into()))?;
                let clf = SequenceClassifier::load(&source, &opts)?;
                Kind::Style(StyleStrength::new(clf, &id, label)?)
            }
            _ => Kind::Text(
                metric_by_name(name, &text.options(name)?)
                    .map_err(|e| CliError::Usage(e.to_string()))?,
            ),
        };
        Ok(Self {
            name: name.to_string(),
            mbr,
            kind,
            signature: None,
        })
    }

    /// Which end of the metric's scale is good: the lowest for the error rates (the text
    /// metrics that say so: TER, WER, CER), MetricX (an error score) and perplexity, the
    /// highest for the others.
    pub fn direction(&self) -> Direction {
        match &self.kind {
            Kind::Metricx(..) | Kind::Perplexity(_) => Direction::LowerIsBetter,
            Kind::Text(m) if m.lower_is_better() => Direction::LowerIsBetter,
            _ => Direction::HigherIsBetter,
        }
    }

    /// The signature of the metric as it scored the last group (`None` before any).
    pub fn signature(&self) -> Option<&Signature> {
        self.signature.as_ref()
    }

    /// One score per candidate of a group: the metric's own (QE), or the mean utility against
    /// the other candidates (MBR). A message for an error record when the group's inputs do
    /// not suit the metric or the metric fails on them.
    ///
    /// # Errors
    /// The message of the error record.
    pub fn group_scores(&mut self, src: Option<&str>, cands: &[&str]) -> Result<Vec<f64>, String> {
        if !self.mbr {
            return self.qe(src, cands);
        }
        let n = cands.len();
        if n < 2 {
            // No pseudo-reference: no MBR score (comet-mbr: the mean of an empty tensor, NaN).
            if self.signature.is_none() {
                self.signature = Some(self.blank_signature());
            }
            return Ok(vec![f64::NAN; n]);
        }
        let mean = |u: &[f64]| u.iter().sum::<f64>() / u.len() as f64;
        match &mut self.kind {
            // Each sentence embedded once, the pairs' feature rows a block at a time.
            Kind::Comet { metric, no_src } => {
                let src = comet_sources(metric, *no_src, src, 1)?.map(|s| s[0]);
                let mut scores = vec![f64::NAN; n];
                metric
                    .score_pairs(src, cands, &mut |j, u| scores[j] = mean(u))
                    .map_err(|e| e.to_string())?;
                self.signature = Some(metric.signature());
                return Ok(scores);
            }
            // BERTScore: each sentence's states once, the pairs made as they are scored (the
            // batches and IDF of one call over every pair, so the scores are unchanged).
            Kind::BertScore(metric) => {
                let mut scores = vec![f64::NAN; n];
                metric
                    .score_pairs(cands, &mut |j, prf| {
                        scores[j] = prf.iter().map(|p| p.f1).sum::<f64>() / prf.len() as f64;
                    })
                    .map_err(|e| e.to_string())?;
                self.signature = Some(metric.signature());
                return Ok(scores);
            }
            _ => {}
        }
        // The other metrics score a pair from that pair alone (text metrics, and BLEURT and
        // MetricX, which encode the pair as one sequence): the pairs go to them a block of
        // hypotheses at a time, so memory is bounded by the block, not by the n (n - 1) pairs.
        let per_call = (PAIR_BLOCK / (n - 1)).max(1);
        let mut scores = Vec::with_capacity(n);
        for start in (0..n).step_by(per_call) {
            let (hyps, refs) = pairs_of(cands, start..(start + per_call).min(n));
            let utility = self.pairs(src, &hyps, &refs)?;
            // The pairs of hypothesis j are n - 1 consecutive entries.
            scores.extend(utility.chunks(n - 1).map(mean));
        }
        if let Kind::Text(m) = &self.kind {
            // The signature of the group's pairs, as one call over all of them gave it.
            self.signature = Some(m.sentence_signature(n * (n - 1), 1));
        }
        Ok(scores)
    }

    /// The signature of a metric before it has scored (for groups of one candidate under
    /// `--mbr`, scored by nothing): a neural metric's still names its model and settings.
    fn blank_signature(&self) -> Signature {
        match &self.kind {
            Kind::Text(m) => m.sentence_signature(0, 1),
            Kind::Comet { metric, no_src } => {
                let mut sig = metric.signature();
                for (key, value) in &mut sig.fields {
                    if key == "src" && *no_src {
                        *value = "no".into();
                    }
                }
                sig
            }
            Kind::Metricx(m, _) => m.signature(),
            Kind::Bleurt(m) => m.signature(),
            Kind::BertScore(m) => m.signature(),
            Kind::Perplexity(m) => m.signature(),
            Kind::Style(m) => m.signature(),
        }
    }

    /// Quality estimation: each candidate scored alone (with the source where the metric
    /// reads one).
    fn qe(&mut self, src: Option<&str>, cands: &[&str]) -> Result<Vec<f64>, String> {
        let n = cands.len();
        let err = |e: figlang_metrics::neural::NeuralError| e.to_string();
        let (scores, signature) = match &mut self.kind {
            Kind::Comet { metric, no_src } => {
                let srcs = comet_sources(metric, *no_src, src, n)?;
                let s = metric.score(srcs.as_deref(), cands, &[]).map_err(err)?;
                (s, metric.signature())
            }
            Kind::Metricx(metric, _) => {
                let src = src.ok_or(
                    "no \"src\" string: metricx needs the source to score without references (quality estimation)",
                )?;
                let s = metric
                    .score(Some(&vec![src; n]), cands, None)
                    .map_err(err)?;
                (s, metric.signature())
            }
            Kind::Perplexity(metric) => {
                let s = metric.score(cands).map_err(err)?;
                if !s.truncated.is_empty() {
                    // Kept as an error rather than a score of a cut text.
                    return Err(format!(
                        "candidate(s) {:?} are longer than the model's context of {} tokens",
                        s.truncated, s.context
                    ));
                }
                (s.perplexity, metric.signature())
            }
            Kind::Style(metric) => {
                let s = metric.directional(cands, &vec![true; n]).map_err(err)?;
                (s, metric.signature())
            }
            // Refused by `mode_refusal` before loading.
            Kind::Text(_) | Kind::Bleurt(_) | Kind::BertScore(_) => {
                return Err(format!("{} cannot score without a reference", self.name))
            }
        };
        self.signature = Some(signature);
        Ok(scores)
    }

    /// The utility of every (hypothesis, pseudo-reference) pair of a group, in one call.
    fn pairs(
        &mut self,
        src: Option<&str>,
        hyps: &[&str],
        refs: &[&str],
    ) -> Result<Vec<f64>, String> {
        let n = hyps.len();
        let err = |e: figlang_metrics::neural::NeuralError| e.to_string();
        let (scores, signature) = match &mut self.kind {
            Kind::Text(metric) => {
                let h: Vec<String> = hyps.iter().map(|s| s.to_string()).collect();
                let r: Vec<Vec<String>> = vec![refs.iter().map(|s| s.to_string()).collect()];
                let s = metric.sentence_scores(&h, &r).map_err(|e| e.to_string())?;
                (s, metric.sentence_signature(n, 1))
            }
            Kind::Comet { metric, no_src } => {
                let srcs = comet_sources(metric, *no_src, src, n)?;
                let s = metric.score(srcs.as_deref(), hyps, refs).map_err(err)?;
                (s, metric.signature())
            }
            Kind::Metricx(metric, version) => {
                let srcs = src.map(|s| vec![s; n]);
                if srcs.is_some() && *version == MetricxVersion::V23 {
                    return Err(
                        "metricx --metricx-version 23 reads a reference or a source, not both, and under --mbr the other candidates are the references: drop \"src\"".into(),
                    );
                }
                let s = metric
                    .score(srcs.as_deref(), hyps, Some(refs))
                    .map_err(err)?;
                (s, metric.signature())
            }
            Kind::Bleurt(metric) => (metric.score(hyps, refs).map_err(err)?, metric.signature()),
            Kind::BertScore(metric) => {
                let per_line: Vec<Vec<&str>> = refs.iter().map(|r| vec![*r]).collect();
                let prf = metric.score(hyps, &per_line).map_err(err)?;
                (prf.iter().map(|p| p.f1).collect(), metric.signature())
            }
            // Refused by `mode_refusal` before loading.
            Kind::Perplexity(_) | Kind::Style(_) => {
                return Err(format!("{} reads no reference", self.name))
            }
        };
        self.signature = Some(signature);
        Ok(scores)
    }
}

/// Pairs scored per call of a pairwise metric under `--mbr` (see
/// [`RerankMetric::group_scores`]).
const PAIR_BLOCK: usize = 4096;

/// The (hypothesis, pseudo-reference) pairs of the hypotheses `js` of a group: for each `j`,
/// `cands[j]` against every other candidate in order.
fn pairs_of<'a>(cands: &[&'a str], js: std::ops::Range<usize>) -> (Vec<&'a str>, Vec<&'a str>) {
    let (mut hyps, mut refs) = (Vec::new(), Vec::new());
    for j in js {
        for (k, r) in cands.iter().enumerate() {
            if k != j {
                hyps.push(cands[j]);
                refs.push(*r);
            }
        }
    }
    (hyps, refs)
}

/// The sources COMET reads for `n` inputs of a group: none with `--no-src` (empty sources for
/// the estimator classes, COMET-w; no source for the unified ones), else the group's `src`,
/// which the estimator classes need and the unified models without a source segment refuse.
fn comet_sources<'a>(
    metric: &Comet,
    no_src: bool,
    src: Option<&'a str>,
    n: usize,
) -> Result<Option<Vec<&'a str>>, String> {
    if no_src {
        return Ok(None);
    }
    let model = metric.model();
    let class = model.hparams().class;
    match src {
        Some(_) if class.is_unified() && !model.takes_sources() => Err(format!(
            "this {} model (input_segments [mt, ref]) takes no source: drop \"src\" or give --no-src",
            class.identifier()
        )),
        Some(s) => Ok(Some(vec![s; n])),
        None if class.is_unified() => Ok(None),
        None => Err(format!(
            "no \"src\" string: this {} model needs the source (or --no-src to score with empty sources, COMET-w)",
            class.identifier()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use figlang_metrics::text::{Needs, REGISTRY};

    /// The command line's lists of text metrics are figlang-metrics' registry table: `hauser
    /// metric`'s names (and its unknown-metric message) every entry, `hauser rerank`'s MBR
    /// utilities the entries that read references. (The Python package's `NAMES` is the
    /// registry's `NAMES`, itself built from the table.)
    #[test]
    fn the_metric_lists_are_the_registry_table() {
        let table: Vec<&str> = REGISTRY.iter().map(|e| e.name).collect();
        assert_eq!(crate::metric::TEXT_METRICS.to_vec(), table);
        assert_eq!(figlang_metrics::text::NAMES.to_vec(), table);
        let with_refs: Vec<&str> = REGISTRY
            .iter()
            .filter(|e| e.needs == Needs::References)
            .map(|e| e.name)
            .collect();
        assert_eq!(text_metrics(), with_refs);
        let refusal = mode_refusal("nosuch", false).unwrap_or_default();
        for name in &with_refs {
            assert!(refusal.contains(name), "{refusal}");
        }
    }
}
