//! The learned MT metrics (feature `neural`): `BLEURT` (bleurt-pytorch's checkpoints, BLEURT-20
//! and its distilled forms included), `COMET` (every unbabel-comet 2.2.7 model class, with the
//! unified classes' error spans) and `MetricX` (google-research/metricx's MetricX-23/24), each
//! bound to one model loaded once.

use std::path::Path;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use figlang_metrics::neural::{
    Bleurt as BleurtMetric, Comet as CometMetric, MetricX as MetricxMetric,
};
use hauser_nli::{
    CometModel, CometPrediction, MetricxModel, MetricxVersion, ModelSource, SequenceClassifier,
};

use crate::errors::{self, value_error};
use crate::interrupt;
use crate::neural::{model_id, Device};
use crate::texts::{column, numpy_array};

/// BLEURT: the regression head's output for each (reference, candidate) pair, encoded as the
/// original BLEURT does (`[CLS] reference [SEP] candidate [SEP]`).
#[pyclass(frozen, module = "hauser", name = "BLEURT")]
#[derive(Debug)]
pub(crate) struct Bleurt {
    metric: Arc<BleurtMetric>,
}

#[pymethods]
impl Bleurt {
    #[new]
    #[pyo3(signature = (model, *, batch_size=64, device="cpu", precision="f32"))]
    fn new(
        py: Python<'_>,
        model: &str,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let opts = Device::parse(device, precision, batch_size)?.load_options();
        let source = ModelSource::parse(model);
        let clf = py
            .detach(|| SequenceClassifier::load(&source, &opts))
            .map_err(errors::nli)?;
        let metric = BleurtMetric::new(clf, &model_id(model)).map_err(errors::neural)?;
        Ok(Self {
            metric: Arc::new(metric),
        })
    }

    /// The score of each candidate against its reference, as a NumPy array (the original
    /// BLEURT's `BleurtScorer.score(references=..., candidates=...)`).
    #[pyo3(signature = (*, references, candidates))]
    fn score<'py>(
        &self,
        py: Python<'py>,
        references: &Bound<'py, PyAny>,
        candidates: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let refs = column(references, "references")?;
        let cands = column(candidates, "candidates")?;
        if refs.len() != cands.len() {
            return Err(value_error(format!(
                "{} references for {} candidates",
                refs.len(),
                cands.len()
            )));
        }
        let metric = Arc::clone(&self.metric);
        let s = interrupt::run(py, true, move |_| {
            let c: Vec<&str> = cands.iter().map(String::as_str).collect();
            let r: Vec<&str> = refs.iter().map(String::as_str).collect();
            metric.score(&c, &r)
        })?
        .map_err(errors::neural)?;
        numpy_array(py, &s)
    }

    /// The reproducibility signature (`hauser metric bleurt`'s).
    #[getter]
    fn signature(&self) -> String {
        self.metric.signature().to_string()
    }

    fn __repr__(&self) -> String {
        format!("BLEURT(signature={:?})", self.signature())
    }
}

/// COMET: an unbabel-comet 2.x checkpoint directory (`hparams.yaml`, `checkpoints/model.ckpt`)
/// of any class: estimator, regression, reference-free, unified (CometKiwi), XCOMET.
#[pyclass(frozen, module = "hauser", name = "COMET")]
#[derive(Debug)]
pub(crate) struct Comet {
    metric: Arc<Mutex<CometMetric>>,
}

/// The texts of `samples` (unbabel-comet's list of `{"src", "mt", "ref"}` dicts): every sample
/// must have `mt`, and `src` / `ref` in all samples or none.
type Samples = (Option<Vec<String>>, Vec<String>, Option<Vec<String>>);

/// The metric behind a mutex: a call that panicked leaves no broken state in it (each call
/// sets what it reads), so a poisoned lock is taken as it is.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `score`'s columns: hypotheses, and sources and references (each one per hypothesis) when
/// given.
fn columns(
    hyps: &Bound<'_, PyAny>,
    sources: Option<&Bound<'_, PyAny>>,
    references: Option<&Bound<'_, PyAny>>,
) -> PyResult<Samples> {
    let mt = column(hyps, "hyps")?;
    let src = sources.map(|s| column(s, "sources")).transpose()?;
    let rf = references.map(|r| column(r, "references")).transpose()?;
    for (what, c) in [("sources", &src), ("references", &rf)] {
        if let Some(c) = c.as_ref().filter(|c| c.len() != mt.len()) {
            return Err(value_error(format!(
                "{} {what} for {} hypotheses",
                c.len(),
                mt.len()
            )));
        }
    }
    Ok((src, mt, rf))
}

fn samples(list: &Bound<'_, PyAny>) -> PyResult<Samples> {
    let items: Vec<Bound<'_, PyAny>> = list.try_iter()?.collect::<PyResult<_>>()?;
    let mut cols: [Vec<Option<String>>; 3] = Default::default();
    for (i, item) in items.iter().enumerate() {
        let d = item
            .cast::<PyDict>()
            .map_err(|_| value_error(format!("samples[{i}]: expected a dict with src, mt, ref")))?;
        for key in d.keys() {
            let k: String = key.extract()?;
            if !matches!(k.as_str(), "src" | "mt" | "ref") {
                return Err(value_error(format!(
                    "samples[{i}]: unknown key {k:?} (COMET reads src, mt, ref)"
                )));
            }
        }
        for (c, key) in cols.iter_mut().zip(["src", "mt", "ref"]) {
            c.push(match d.get_item(key)? {
                Some(v) => {
                    Some(v.extract::<String>().map_err(|_| {
                        value_error(format!("samples[{i}][{key:?}]: expected a str"))
                    })?)
                }
                None => None,
            });
        }
    }
    let [src, mt, rf] = cols;
    let all_or_none = |c: Vec<Option<String>>, key: &str| -> PyResult<Option<Vec<String>>> {
        let n = c.iter().filter(|x| x.is_some()).count();
        if n == 0 {
            return Ok(None);
        }
        if n != c.len() {
            return Err(value_error(format!(
                "{key:?}: in {n} of {} samples; give it in all or none",
                c.len()
            )));
        }
        Ok(Some(c.into_iter().flatten().collect()))
    };
    let mt = all_or_none(mt, "mt")?.unwrap_or_default();
    if mt.len() != items.len() {
        return Err(value_error("every sample needs \"mt\""));
    }
    Ok((all_or_none(src, "src")?, mt, all_or_none(rf, "ref")?))
}

impl Comet {
    fn run(&self, py: Python<'_>, (src, mt, rf): Samples) -> PyResult<Vec<CometPrediction>> {
        let metric = Arc::clone(&self.metric);
        interrupt::run(py, true, move |_| {
            let src: Option<Vec<&str>> =
                src.as_ref().map(|s| s.iter().map(String::as_str).collect());
            let mt: Vec<&str> = mt.iter().map(String::as_str).collect();
            let rf: Vec<&str> = rf.iter().flatten().map(String::as_str).collect();
            let mut m = lock(&metric);
            m.predict(src.as_deref(), &mt, &rf)
        })?
        .map_err(errors::neural)
    }
}

#[pymethods]
impl Comet {
    #[new]
    #[pyo3(signature = (model, *, batch_size=64, device="cpu", precision="f32"))]
    fn new(
        py: Python<'_>,
        model: &str,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let opts = Device::parse(device, precision, batch_size)?.load_options();
        let dir = Path::new(model).to_path_buf();
        let m = py
            .detach(|| CometModel::load(&dir, &opts))
            .map_err(errors::nli)?;
        let id = dir
            .file_name()
            .map_or_else(|| model.to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Self {
            metric: Arc::new(Mutex::new(CometMetric::new(m, &id))),
        })
    }

    /// unbabel-comet's `model.predict(samples)`: `samples` is a list of `{"src", "mt", "ref"}`
    /// dicts; returns a `hauser.Prediction` (a dict with attribute access, as COMET's) with
    /// `scores` (NumPy), `system_score` and `metadata` as COMET's (`src_scores`, `ref_scores`,
    /// `unified_scores` where a UnifiedMetric or XCOMET model runs its three inputs, XCOMET's
    /// capped `src_scores` on one input and its `mqm_scores`, `error_spans` for the models with a
    /// word-level head), and `signature`.
    fn predict<'py>(
        &self,
        py: Python<'py>,
        samples: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let preds = self.run(py, self::samples(samples)?)?;
        let scores: Vec<f64> = preds.iter().map(|p| f64::from(p.score)).collect();
        let out = PyDict::new(py);
        out.set_item("scores", numpy_array(py, &scores)?)?;
        out.set_item(
            "system_score",
            scores.iter().sum::<f64>() / scores.len() as f64,
        )?;
        // unbabel-comet's metadata keys, in its order: the passes' scores, XCOMET's MQM
        // scores, the error spans.
        let meta = PyDict::new(py);
        let passes = preds.iter().map(|p| p.pass_scores.len()).max().unwrap_or(0);
        let names: &[&str] = if passes == 3 {
            &["src_scores", "ref_scores", "unified_scores"]
        } else {
            &["src_scores"]
        };
        if passes > 0 {
            for (i, name) in names.iter().enumerate() {
                let col: Vec<f64> = preds
                    .iter()
                    .map(|p| p.pass_scores.get(i).map_or(f64::NAN, |s| f64::from(*s)))
                    .collect();
                meta.set_item(*name, numpy_array(py, &col)?)?;
            }
        }
        if preds.iter().any(|p| p.mqm_score.is_some()) {
            let mqm: Vec<f64> = preds
                .iter()
                .map(|p| p.mqm_score.map_or(f64::NAN, f64::from))
                .collect();
            meta.set_item("mqm_scores", numpy_array(py, &mqm)?)?;
        }
        if preds.iter().any(|p| p.error_spans.is_some()) {
            let spans = PyList::empty(py);
            for p in &preds {
                let row = PyList::empty(py);
                for s in p.error_spans.iter().flatten() {
                    let d = PyDict::new(py);
                    d.set_item("text", &s.text)?;
                    d.set_item("confidence", f64::from(s.confidence))?;
                    d.set_item("severity", &s.severity)?;
                    d.set_item("start", s.start)?;
                    d.set_item("end", s.end)?;
                    row.append(d)?;
                }
                spans.append(row)?;
            }
            meta.set_item("error_spans", spans)?;
        }
        out.set_item("metadata", meta)?;
        out.set_item("signature", self.signature())?;
        py.import("hauser._results")?
            .getattr("Prediction")?
            .call1((out,))
    }

    /// The score of each hypothesis as a NumPy array; `sources` and `references` as the model
    /// takes them (see `predict`).
    #[pyo3(signature = (hyps, *, sources=None, references=None))]
    fn score<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        sources: Option<&Bound<'py, PyAny>>,
        references: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let preds = self.run(py, columns(hyps, sources, references)?)?;
        let scores: Vec<f64> = preds.iter().map(|p| f64::from(p.score)).collect();
        numpy_array(py, &scores)
    }

    /// The reproducibility signature of the last call (`hauser metric comet`'s).
    #[getter]
    fn signature(&self) -> String {
        lock(&self.metric).signature().to_string()
    }

    fn __repr__(&self) -> String {
        format!("COMET(signature={:?})", self.signature())
    }
}

/// MetricX-24 / MetricX-23 (google-research/metricx): an error score in [0, 25], lower is
/// better, from an mT5 regressor; `version` picks predict.py's input template, `tokenizer`
/// defaults to the checkpoint's own, else google/mt5-xl, `max_input_length` to the version's.
#[pyclass(frozen, module = "hauser", name = "MetricX")]
#[derive(Debug)]
pub(crate) struct Metricx {
    metric: Arc<Mutex<MetricxMetric>>,
}

#[pymethods]
impl Metricx {
    #[new]
    #[pyo3(signature = (model, *, version=24, tokenizer=None, max_input_length=None, batch_size=64, device="cpu", precision="f32"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        model: &str,
        version: u32,
        tokenizer: Option<&str>,
        max_input_length: Option<usize>,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let version = match version {
            24 => MetricxVersion::V24,
            23 => MetricxVersion::V23,
            other => {
                return Err(value_error(format!(
                    "version: expected 24 or 23, got {other}"
                )))
            }
        };
        let opts = Device::parse(device, precision, batch_size)?.load_options();
        let source = ModelSource::parse(model);
        let max_len = max_input_length.unwrap_or_else(|| version.default_max_input_length());
        let m = py
            .detach(|| {
                let tok = match tokenizer {
                    Some(t) => ModelSource::parse(t),
                    None => hauser_nli::metricx_default_tokenizer(&source)?,
                };
                MetricxModel::load(&source, &tok, &opts, max_len)
            })
            .map_err(errors::nli)?;
        Ok(Self {
            metric: Arc::new(Mutex::new(MetricxMetric::new(m, &model_id(model), version))),
        })
    }

    /// The score of each hypothesis as a NumPy array (lower is better): with `references`
    /// (MetricX-24 adds the sources when given), or from `sources` alone (quality estimation).
    #[pyo3(signature = (hyps, *, sources=None, references=None))]
    fn score<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        sources: Option<&Bound<'py, PyAny>>,
        references: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (src, mt, rf) = columns(hyps, sources, references)?;
        let metric = Arc::clone(&self.metric);
        let s = interrupt::run(py, true, move |_| {
            let src: Option<Vec<&str>> =
                src.as_ref().map(|s| s.iter().map(String::as_str).collect());
            let rf: Option<Vec<&str>> = rf.as_ref().map(|s| s.iter().map(String::as_str).collect());
            let mt: Vec<&str> = mt.iter().map(String::as_str).collect();
            let mut m = lock(&metric);
            m.score(src.as_deref(), &mt, rf.as_deref())
        })?
        .map_err(errors::neural)?;
        numpy_array(py, &s)
    }

    /// The reproducibility signature of the last call (`hauser metric metricx`'s).
    #[getter]
    fn signature(&self) -> String {
        lock(&self.metric).signature().to_string()
    }

    fn __repr__(&self) -> String {
        format!("MetricX(signature={:?})", self.signature())
    }
}

/// Registers the learned-metric classes on `m`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bleurt>()?;
    m.add_class::<Comet>()?;
    m.add_class::<Metricx>()?;
    Ok(())
}
