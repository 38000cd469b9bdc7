//! The neural metrics of `hauser metric` (feature `neural`): `BERTScorer` (bert_score's API),
//! `Perplexity` and `StyleClassifier`, each bound to one model loaded once.
//!
//! Models are local directories (config.json, weights, tokenizer files) or hub ids found in the
//! Hugging Face cache, as for the CLI's `--model`. A forward pass cannot be cut short, so after
//! Ctrl-C the call returns at once and the batch in flight finishes in the background.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use figlang_metrics::neural::{
    default_layer, Baseline, BertScore, BertScoreOptions, BosMode, NeuralError, Perplexity as Ppl,
    StyleStrength,
};
use hauser_nli::{
    Batching, CausalLm, DeviceSpec, Embedder, LoadOptions, ModelSource, Precision,
    SequenceClassifier,
};

use crate::errors::{self, value_error};
use crate::interrupt;
use crate::texts::{column, numpy_array};

/// Device, precision and batch size of a model, checked once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Device {
    device: DeviceSpec,
    precision: Precision,
    batch_size: usize,
}

impl Device {
    /// Parses `device` (`cpu`, `cuda[:N]`, `metal[:N]`) and `precision` (`f32`, `f16`, `bf16`)
    /// as the CLI's `--device` and `--precision`.
    pub(crate) fn parse(device: &str, precision: &str, batch_size: usize) -> PyResult<Self> {
        let device = DeviceSpec::parse(device.trim()).ok_or_else(|| {
            value_error(format!(
                "device: expected cpu, cuda, cuda:N, metal or metal:N, got {device:?}"
            ))
        })?;
        let precision = match precision.trim() {
            "f32" => Precision::F32,
            "f16" => Precision::F16,
            "bf16" => Precision::Bf16,
            other => {
                return Err(value_error(format!(
                    "precision: expected f32, f16 or bf16, got {other:?}"
                )))
            }
        };
        if batch_size == 0 {
            return Err(value_error("batch_size: must be at least 1"));
        }
        Ok(Self {
            device,
            precision,
            batch_size,
        })
    }

    /// The loading options the CLI builds from the same flags.
    pub(crate) fn load_options(&self) -> LoadOptions {
        LoadOptions {
            device: self.device,
            precision: self.precision,
            batching: Batching {
                batch_size: self.batch_size,
                bucketed: true,
            },
            ..LoadOptions::default()
        }
    }
}

/// The model id of a spec, as the CLI names it in signatures (`@revision` left out).
pub(crate) fn model_id(spec: &str) -> String {
    spec.split('@').next().unwrap_or(spec).to_string()
}

/// A layer as given (negative counts from the end) within a model of `n` hidden states.
fn resolve_layer(layer: isize, n: usize) -> PyResult<usize> {
    let n_signed = isize::try_from(n).unwrap_or(isize::MAX);
    let i = if layer < 0 { n_signed + layer } else { layer };
    if (0..n_signed).contains(&i) {
        Ok(i.unsigned_abs())
    } else {
        Err(value_error(format!(
            "layer {layer} out of range: this model exposes {n} hidden states"
        )))
    }
}

/// Per-candidate references in bert_score's shapes: one `str` per candidate, or a list of them.
fn references(refs: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<Vec<String>>> {
    let items: Vec<Bound<'_, PyAny>> = refs.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != n {
        return Err(value_error(format!(
            "{n} candidates but {} references",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if let Ok(s) = r.cast::<PyString>() {
                Ok(vec![s.to_cow()?.into_owned()])
            } else {
                column(r, &format!("refs[{i}]"))
            }
        })
        .collect()
}

/// BERTScore with the `bert_score` package's conventions (0.3.13): greedy matching of one
/// layer's token embeddings, optional IDF from the references, maximum over several
/// references, optional baseline rescaling.
///
/// `model` is a local model directory or a cached hub id; `layer` defaults to bert_score's
/// layer for the model (negative counts from the end); `baseline` is a bert_score baseline
/// file (`LAYER,P,R,F` rows); `prefix_space` overrides the leading space bert_score puts
/// before RoBERTa / DeBERTa inputs.
#[pyclass(frozen, module = "hauser", name = "BERTScorer")]
#[derive(Debug)]
pub(crate) struct BertScorer {
    metric: Arc<BertScore>,
}

#[pymethods]
impl BertScorer {
    #[new]
    #[pyo3(signature = (
        model, layer=None, idf=false, baseline=None, *, prefix_space=None,
        batch_size=64, device="cpu", precision="f32"
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        model: &str,
        layer: Option<isize>,
        idf: bool,
        baseline: Option<PathBuf>,
        prefix_space: Option<bool>,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let opts = Device::parse(device, precision, batch_size)?.load_options();
        let id = model_id(model);
        // Read before the slow model load, so that a missing file fails at once.
        let baseline_text = match &baseline {
            Some(path) => Some((
                path.clone(),
                std::fs::read_to_string(path)
                    .map_err(|e| errors::os_error(e.kind(), format!("{}: {e}", path.display())))?,
            )),
            None => None,
        };
        let source = ModelSource::parse(model);
        let embedder = py
            .detach(|| Embedder::load(&source, &opts))
            .map_err(errors::nli)?;
        let layer = match layer {
            Some(l) => Some(resolve_layer(l, embedder.layers())?),
            None => default_layer(&id),
        };
        let baseline = match baseline_text {
            Some((path, text)) => {
                let l =
                    layer.ok_or_else(|| errors::neural(NeuralError::NoDefaultLayer(id.clone())))?;
                let b = Baseline::parse(&text, l)
                    .map_err(|m| value_error(format!("{}: {m}", path.display())))?;
                Some((path.display().to_string(), b))
            }
            None => None,
        };
        let options = BertScoreOptions {
            layer,
            idf,
            baseline,
            prefix_space,
            ..BertScoreOptions::default()
        };
        let metric = BertScore::new(embedder, &id, options).map_err(errors::neural)?;
        Ok(Self {
            metric: Arc::new(metric),
        })
    }

    /// Precision, recall and F1 of each candidate against its references, as three NumPy
    /// arrays (bert_score's `P, R, F`). `refs` holds one reference (`str`) or a list of
    /// references per candidate.
    fn score<'py>(
        &self,
        py: Python<'py>,
        cands: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let cands = column(cands, "cands")?;
        let refs = references(refs, cands.len())?;
        let metric = Arc::clone(&self.metric);
        let scores = interrupt::run(py, true, move |_| {
            let c: Vec<&str> = cands.iter().map(String::as_str).collect();
            let r: Vec<Vec<&str>> = refs
                .iter()
                .map(|l| l.iter().map(String::as_str).collect())
                .collect();
            metric.score(&c, &r)
        })?
        .map_err(errors::neural)?;
        let column = |f: fn(&figlang_metrics::neural::Prf) -> f64| -> Vec<f64> {
            scores.iter().map(f).collect()
        };
        PyTuple::new(
            py,
            [
                numpy_array(py, &column(|s| s.precision))?,
                numpy_array(py, &column(|s| s.recall))?,
                numpy_array(py, &column(|s| s.f1))?,
            ],
        )
    }

    /// The layer in use.
    #[getter]
    fn layer(&self) -> usize {
        self.metric.layer()
    }

    /// The reproducibility signature (`hauser metric bertscore`'s).
    #[getter]
    fn signature(&self) -> String {
        self.metric.signature().to_string()
    }

    fn __repr__(&self) -> String {
        format!("BERTScorer(signature={:?})", self.signature())
    }
}

/// Sentence perplexity under a causal language model (GPT-2 family), as transformers'
/// `exp(loss)` with `labels=input_ids`; `prepend_bos` also scores the first token.
#[pyclass(frozen, module = "hauser")]
#[derive(Debug)]
pub(crate) struct Perplexity {
    metric: Arc<Ppl>,
}

#[pymethods]
impl Perplexity {
    #[new]
    #[pyo3(signature = (model, prepend_bos=false, *, batch_size=64, device="cpu", precision="f32"))]
    fn new(
        py: Python<'_>,
        model: &str,
        prepend_bos: bool,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let opts = Device::parse(device, precision, batch_size)?.load_options();
        let source = ModelSource::parse(model);
        let lm = py
            .detach(|| CausalLm::load(&source, &opts))
            .map_err(errors::nli)?;
        let bos = if prepend_bos {
            BosMode::Prepend
        } else {
            BosMode::None
        };
        let metric = Ppl::new(lm, &model_id(model), bos).map_err(errors::neural)?;
        Ok(Self {
            metric: Arc::new(metric),
        })
    }

    /// The perplexity of each text as a NumPy array (NaN for a text with no scored token). Texts
    /// longer than the model's context are cut to it, with a `UserWarning` naming them.
    fn score<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let texts = column(texts, "texts")?;
        let metric = Arc::clone(&self.metric);
        let s = interrupt::run(py, true, move |_| {
            let t: Vec<&str> = texts.iter().map(String::as_str).collect();
            metric.score(&t)
        })?
        .map_err(errors::neural)?;
        if !s.truncated.is_empty() {
            let shown: Vec<String> = s
                .truncated
                .iter()
                .take(10)
                .map(ToString::to_string)
                .collect();
            let message = format!(
                "perplexity: {} text(s) longer than the model's context of {} tokens were cut to it (index {}{})",
                s.truncated.len(),
                s.context,
                shown.join(", "),
                if s.truncated.len() > 10 { ", ..." } else { "" }
            );
            let category = py.get_type::<PyUserWarning>();
            let message = std::ffi::CString::new(message).unwrap_or_default();
            PyErr::warn(py, &category, &message, 1)?;
        }
        numpy_array(py, &s.perplexity)
    }

    /// The reproducibility signature (`hauser metric perplexity`'s).
    #[getter]
    fn signature(&self) -> String {
        self.metric.signature().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Perplexity(signature={:?})", self.signature())
    }
}

/// Style strength: the probability of a target `label` (matched case-insensitively) under a
/// sequence classifier, e.g. a formality classifier.
#[pyclass(frozen, module = "hauser")]
#[derive(Debug)]
pub(crate) struct StyleClassifier {
    metric: Arc<StyleStrength>,
}

/// Which texts count towards the label: `flip` is None, CLI-style 1-based line ranges
/// (`"41-80"`, `"3,7-9"`) or one bool per text (True = transferred the other way, scored 1 - p).
fn towards(flip: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<bool>> {
    let Some(flip) = flip.filter(|f| !f.is_none()) else {
        return Ok(vec![true; n]);
    };
    if let Ok(spec) = flip.cast::<PyString>() {
        let spec = spec.to_cow()?;
        let mut towards = vec![true; n];
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let bad = || {
                value_error(format!(
                    "flip: expected 1-based ranges like 41-80, got {spec:?}"
                ))
            };
            let a: usize = a.trim().parse().map_err(|_| bad())?;
            let b: usize = b.trim().parse().map_err(|_| bad())?;
            if a == 0 || a > b || b > n {
                return Err(value_error(format!(
                    "flip: range {part} is outside lines 1-{n}"
                )));
            }
            towards[a - 1..b].iter_mut().for_each(|t| *t = false);
        }
        return Ok(towards);
    }
    let flags: Vec<bool> = flip.extract()?;
    if flags.len() != n {
        return Err(value_error(format!(
            "flip: {} flags for {n} texts",
            flags.len()
        )));
    }
    Ok(flags.into_iter().map(|f| !f).collect())
}

#[pymethods]
impl StyleClassifier {
    #[new]
    #[pyo3(signature = (model, label, *, batch_size=64, device="cpu", precision="f32"))]
    fn new(
        py: Python<'_>,
        model: &str,
        label: &str,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let opts = Device::parse(device, precision, batch_size)?.load_options();
        let source = ModelSource::parse(model);
        let clf = py
            .detach(|| SequenceClassifier::load(&source, &opts))
            .map_err(errors::nli)?;
        let metric = StyleStrength::new(clf, &model_id(model), label).map_err(errors::neural)?;
        Ok(Self {
            metric: Arc::new(metric),
        })
    }

    /// P(label) of each text as a NumPy array; with `flip`, 1 - P for the flipped texts (the
    /// CLI's `--flip`).
    #[pyo3(signature = (texts, flip=None))]
    fn score<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        flip: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let texts = column(texts, "texts")?;
        let towards = towards(flip, texts.len())?;
        let metric = Arc::clone(&self.metric);
        let p = interrupt::run(py, true, move |_| {
            let t: Vec<&str> = texts.iter().map(String::as_str).collect();
            metric.directional(&t, &towards)
        })?
        .map_err(errors::neural)?;
        numpy_array(py, &p)
    }

    /// The reproducibility signature (`hauser metric style`'s, without the flipped count).
    #[getter]
    fn signature(&self) -> String {
        self.metric.signature().to_string()
    }

    fn __repr__(&self) -> String {
        format!("StyleClassifier(signature={:?})", self.signature())
    }
}

/// Registers the neural classes on `m`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BertScorer>()?;
    m.add_class::<Perplexity>()?;
    m.add_class::<StyleClassifier>()?;
    Ok(())
}
