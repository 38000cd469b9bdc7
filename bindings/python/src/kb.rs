//! `KnowledgeBase`: a simile knowledge base (hauser-kb), opened from an index file or built from
//! a corpus, with the queries of `hauser kb lookup`.

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use hauser_kb::ingest::{ingest_reader, IngestOptions, InputFormat};
use hauser_kb::{Kb, KbBuilder, KbError, Normalizer};

use crate::convert::json_to_py;
use crate::errors::{self, value_error};
use crate::interrupt::{self, Cancel};
use crate::texts::{column, numpy_array};

/// A simile knowledge base of (topic, property, vehicle) triplets: relevance and vehicle counts
/// for HAUSER's relevance and creativity criteria.
///
/// `KnowledgeBase.open(path)` maps an index written by `hauser kb build` (or `build(...,
/// out=path)`); `KnowledgeBase.build(input, format)` ingests a corpus. Keys are normalised as
/// the index was built (the reference implementation's `clean` by default). Queries release
/// the interpreter and are safe from several threads.
#[pyclass(frozen, module = "hauser")]
#[derive(Debug)]
pub(crate) struct KnowledgeBase {
    kb: Arc<Kb>,
    report: Option<serde_json::Value>,
}

impl KnowledgeBase {
    /// The shared index, for the relevance and creativity scorers.
    pub(crate) fn shared(&self) -> Arc<Kb> {
        Arc::clone(&self.kb)
    }
}

/// A reader that fails once Ctrl-C was pressed, so that ingestion stops at its next read.
struct CancelRead<'a, R> {
    inner: R,
    cancel: &'a Cancel,
}

impl<R: Read> Read for CancelRead<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.cancel.cancelled() {
            // Not `ErrorKind::Interrupted`: readers retry on that one.
            return Err(std::io::Error::other("cancelled"));
        }
        self.inner.read(buf)
    }
}

fn format(name: &str) -> PyResult<InputFormat> {
    match name {
        "maps-kb" => Ok(InputFormat::MapsKb),
        "triplets" => Ok(InputFormat::Triplets),
        "simile-tsv" => Ok(InputFormat::SimileTsv),
        "similes" => Ok(InputFormat::Similes),
        other => Err(value_error(format!(
            "unknown format {other:?} (maps-kb, triplets, simile-tsv, similes)"
        ))),
    }
}

fn normalizer(name: &str) -> PyResult<Normalizer> {
    match name {
        "reference" => Ok(Normalizer::Reference),
        "strip-punctuation" => Ok(Normalizer::StripPunctuation),
        other => Err(value_error(format!(
            "unknown clean {other:?} (reference, strip-punctuation)"
        ))),
    }
}

/// Ingests `input` and builds the index: written to `out` through a temporary file in the same
/// directory (renamed when complete, so an interrupted build leaves no index), or kept in
/// memory.
fn build(
    input: &Path,
    format: InputFormat,
    normalizer: Normalizer,
    out: Option<&Path>,
    skip_bad_rows: bool,
    cancel: &Cancel,
) -> Result<(Kb, serde_json::Value), KbError> {
    let file = std::fs::File::open(input).map_err(|e| KbError::io(input, e))?;
    let reader = BufReader::with_capacity(
        1 << 20,
        CancelRead {
            inner: file,
            cancel,
        },
    );
    let extractor = hauser_extract::RuleExtractor::new();
    let mut builder = KbBuilder::new(normalizer);
    let opts = IngestOptions {
        skip_bad_rows,
        ..IngestOptions::default()
    };
    let report = ingest_reader(reader, input, format, &mut builder, opts, Some(&extractor))?;
    if cancel.cancelled() {
        return Err(KbError::Cancelled("knowledge base build"));
    }
    let report = serde_json::to_value(&report).unwrap_or_default();
    let kb = match out {
        None => builder.build_in_memory()?,
        Some(out) => {
            let mut name = out.file_name().unwrap_or_default().to_os_string();
            name.push(format!(".tmp-{}", std::process::id()));
            let tmp = out.with_file_name(name);
            let written = builder
                .write_file(&tmp)
                .and_then(|_| std::fs::rename(&tmp, out).map_err(|e| KbError::io(out, e)));
            if let Err(e) = written {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
            Kb::open(out)?
        }
    };
    Ok((kb, report))
}

#[pymethods]
impl KnowledgeBase {
    /// Opens (memory-maps) an index file; its header and checksum are checked.
    ///
    /// Raises `FileNotFoundError`/`OSError` when it cannot be read, `ValueError` when it is not
    /// a valid index.
    #[staticmethod]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let kb = py.detach(|| Kb::open(&path)).map_err(errors::kb)?;
        Ok(Self {
            kb: Arc::new(kb),
            report: None,
        })
    }

    /// Builds a knowledge base from `input` in `format` (`maps-kb`, `triplets`, `simile-tsv`
    /// or `similes`, as `hauser kb build --format`). With `out`, the index is written there
    /// (and memory-mapped); without, it is kept in memory. `skip_bad_rows` counts malformed
    /// rows instead of stopping at the first; `clean` is `reference` or `strip-punctuation`.
    /// Ctrl-C stops the build and leaves no index.
    #[staticmethod]
    #[pyo3(signature = (input, format, out=None, skip_bad_rows=false, clean="reference"))]
    fn build(
        py: Python<'_>,
        input: PathBuf,
        format: &str,
        out: Option<PathBuf>,
        skip_bad_rows: bool,
        clean: &str,
    ) -> PyResult<Self> {
        let (format, normalizer) = (self::format(format)?, self::normalizer(clean)?);
        let (kb, report) = interrupt::run(py, true, move |cancel| {
            build(
                &input,
                format,
                normalizer,
                out.as_deref(),
                skip_bad_rows,
                cancel,
            )
        })?
        .map_err(errors::kb)?;
        Ok(Self {
            kb: Arc::new(kb),
            report: Some(report),
        })
    }

    /// Relevance of a (topic, vehicle) pair: the sum over properties of count x plausibility
    /// (`kb lookup`'s `relevance`; 0 when the pair is unknown). Lists (or arrays) of topics and
    /// vehicles give a NumPy array.
    fn relevance<'py>(
        &self,
        py: Python<'py>,
        topic: &Bound<'py, PyAny>,
        vehicle: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let (Ok(t), Ok(v)) = (topic.extract::<String>(), vehicle.extract::<String>()) {
            let r = py.detach(|| self.kb.relevance(&t, &v));
            return Ok(r.into_pyobject(py)?.into_any());
        }
        let (t, v) = (column(topic, "topic")?, column(vehicle, "vehicle")?);
        if t.len() != v.len() {
            return Err(value_error(format!(
                "relevance: {} topics for {} vehicles",
                t.len(),
                v.len()
            )));
        }
        let out: Vec<f64> = py.detach(|| {
            t.iter()
                .zip(&v)
                .map(|(t, v)| self.kb.relevance(t, v))
                .collect()
        });
        numpy_array(py, &out)
    }

    /// N(v): how often the vehicle occurs in the knowledge base (`kb lookup`'s
    /// `vehicle_count`). A list (or array) of vehicles gives a NumPy array.
    fn vehicle_count<'py>(
        &self,
        py: Python<'py>,
        vehicle: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(v) = vehicle.extract::<String>() {
            let n = py.detach(|| self.kb.vehicle_count(&v));
            return Ok(n.into_pyobject(py)?.into_any());
        }
        let v = column(vehicle, "vehicle")?;
        let out: Vec<f64> = py.detach(|| v.iter().map(|v| self.kb.vehicle_count(v)).collect());
        numpy_array(py, &out)
    }

    /// `hauser kb lookup`'s JSON as a dict: the keys, relevance, pair and vehicle counts and
    /// the `top` properties of (topic, vehicle), and/or the top vehicles of (topic, property).
    #[pyo3(signature = (topic, vehicle=None, property=None, top=5))]
    fn lookup<'py>(
        &self,
        py: Python<'py>,
        topic: &str,
        vehicle: Option<&str>,
        property: Option<&str>,
        top: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        if vehicle.is_none() && property.is_none() {
            return Err(value_error(
                "lookup needs vehicle (pair) or property (top vehicles)",
            ));
        }
        let kb = &self.kb;
        let v = py.detach(|| {
            let mut v = serde_json::json!({
                "topic": topic,
                "topic_key": kb.key(topic),
                "kb": kb.checksum(),
            });
            if let Some(vehicle) = vehicle {
                let pair = kb.pair(topic, vehicle);
                v["vehicle"] = serde_json::json!(vehicle);
                v["vehicle_key"] = serde_json::json!(kb.key(vehicle));
                v["relevance"] = serde_json::json!(pair.map_or(0.0, |p| p.relevance));
                v["pair_count"] = serde_json::json!(pair.map_or(0.0, |p| p.count));
                v["vehicle_count"] = serde_json::json!(kb.vehicle_count(vehicle));
                v["top_properties"] = serde_json::json!(kb.top_properties(topic, vehicle, top));
            }
            if let Some(property) = property {
                v["property"] = serde_json::json!(property);
                v["top_vehicles"] = serde_json::json!(kb.top_vehicles(topic, property, top));
            }
            v
        });
        json_to_py(py, &v)
    }

    /// The `top` properties linking (topic, vehicle), as (name, count, weight) tuples.
    #[pyo3(signature = (topic, vehicle, top=5))]
    fn top_properties(&self, topic: &str, vehicle: &str, top: usize) -> Vec<(String, f64, f64)> {
        self.kb
            .top_properties(topic, vehicle, top)
            .into_iter()
            .map(|h| (h.name, h.count, h.weight))
            .collect()
    }

    /// The `top` vehicles of (topic, property), as (name, count, weight) tuples.
    #[pyo3(signature = (topic, property, top=5))]
    fn top_vehicles(&self, topic: &str, property: &str, top: usize) -> Vec<(String, f64, f64)> {
        self.kb
            .top_vehicles(topic, property, top)
            .into_iter()
            .map(|h| (h.name, h.count, h.weight))
            .collect()
    }

    /// A text normalised as the index's keys are.
    fn key(&self, text: &str) -> String {
        self.kb.key(text)
    }

    /// `hauser kb stats`'s JSON as a dict: path, format version, size, checksum, normaliser,
    /// counts.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = serde_json::to_value(self.kb.stats()).unwrap_or_default();
        json_to_py(py, &v)
    }

    /// The payload checksum (`xxh64:...`), part of every score's signature.
    #[getter]
    fn checksum(&self) -> String {
        self.kb.checksum()
    }

    /// What the build read (rows, triplets, bad rows...), for a knowledge base made by
    /// `build`; `None` for one opened from a file.
    #[getter]
    fn build_report<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match &self.report {
            Some(v) => Ok(json_to_py(py, v)?.cast_into::<PyDict>().ok()),
            None => Ok(None),
        }
    }

    /// Every triplet as (topic, property, vehicle, count, plausibility) tuples.
    fn triplets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for t in self.kb.triplets() {
            list.append(t)?;
        }
        Ok(list)
    }

    fn __repr__(&self) -> String {
        let s = self.kb.stats();
        format!(
            "KnowledgeBase(path={:?}, triplets={}, checksum={:?})",
            s.path, s.triplets, s.checksum
        )
    }
}
