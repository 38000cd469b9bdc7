//! `Hauser`: the simile evaluator of `hauser score` (criteria, per-group normalisation,
//! quality, 2:2:1 reranking), scoring candidate groups given as Python dicts.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use hauser_core::{
    render_signatures, CandidateGroup, CandidateReport, Criterion, Evaluator, GroupOutcome,
    GroupReport, InformativenessScorer, MissingPart, QualityWeights, RankSumReranker, Scorer,
};
use hauser_kb::{CreativityScorer, Kb, RelevanceScorer};

use crate::errors::{self, value_error};
use crate::extract::{components_from_py, triple};
use crate::interrupt::{self, LONG};
use crate::kb::KnowledgeBase;
use crate::texts::type_name;

/// Groups scored per call of the evaluator: the CLI's `--chunk` default, so that neural
/// scorers see the same batches and Ctrl-C is checked as often.
const CHUNK: usize = 256;

/// HAUSER's evaluator: scores groups of simile candidates generated from one literal sentence
/// on every criterion it can run, as `hauser score` does.
///
/// `kb` (a `KnowledgeBase` or the path of an index) enables relevance and creativity; `nli` and
/// `sentiment` (a local model directory, or a hub id found in the Hugging Face cache) enable
/// logical and sentiment consistency; informativeness always runs. `weights` are the quality
/// weights of relevance, logical and sentiment consistency (`"3/6,2/6,1/6"` or three numbers),
/// `rerank` the rank weights of quality, creativity and informativeness (`"2:2:1"`). Candidates
/// without components get them from the rule-based extractor unless `extract=False`.
#[pyclass(frozen, module = "hauser")]
pub(crate) struct Hauser {
    evaluator: Arc<Evaluator>,
    signature: String,
    unavailable: Vec<(String, String)>,
    /// Whether a model-backed criterion runs (every call is then long).
    neural: bool,
}

impl std::fmt::Debug for Hauser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hauser")
            .field("signature", &self.signature)
            .finish()
    }
}

/// The quality weights from a string (`"3/6,2/6,1/6"`) or three numbers.
fn quality(weights: &Bound<'_, PyAny>, missing: &str) -> PyResult<QualityWeights> {
    let q = if let Ok(s) = weights.cast::<PyString>() {
        QualityWeights::parse(&s.to_cow()?).map_err(errors::core)?
    } else {
        let [a, b, c]: [f64; 3] = weights
            .extract()
            .map_err(|_| PyTypeError::new_err("weights: expected \"a,b,c\" or three numbers"))?;
        QualityWeights::new(a, b, c).map_err(errors::core)?
    };
    let missing = match missing {
        "omit" => MissingPart::Omit,
        "renormalize" => MissingPart::Renormalize,
        other => {
            return Err(value_error(format!(
                "missing_part {other:?} (omit or renormalize)"
            )))
        }
    };
    Ok(q.with_missing(missing))
}

/// The knowledge base from a `KnowledgeBase` or an index path.
fn knowledge_base(py: Python<'_>, kb: &Bound<'_, PyAny>) -> PyResult<Arc<Kb>> {
    if let Ok(k) = kb.cast::<KnowledgeBase>() {
        return Ok(k.get().shared());
    }
    let path: std::path::PathBuf = kb.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "kb: expected a KnowledgeBase or a path, got {}",
            type_name(kb)
        ))
    })?;
    let kb = py.detach(|| Kb::open(&path)).map_err(errors::kb)?;
    Ok(Arc::new(kb))
}

/// The neural criteria, or why they cannot run.
#[cfg(feature = "neural")]
#[allow(clippy::too_many_arguments)]
fn neural_scorers(
    py: Python<'_>,
    nli: Option<String>,
    nli_labels: Option<Vec<String>>,
    nli_input: &str,
    sentiment: Option<String>,
    opts: &crate::neural::Device,
    scorers: &mut Vec<Box<dyn Scorer>>,
    unavailable: &mut Vec<(String, String)>,
) -> PyResult<()> {
    let input = hauser_nli::NliInput::parse(nli_input)
        .ok_or_else(|| value_error(format!("nli_input {nli_input:?} (pair or concat)")))?;
    let load = opts.load_options();
    match nli {
        Some(spec) => {
            let src = hauser_nli::ModelSource::parse(&spec);
            let s = py
                .detach(|| {
                    hauser_nli::LogicalConsistency::from_model(&src, &load, nli_labels, input)
                })
                .map_err(errors::nli)?;
            scorers.push(Box::new(s));
        }
        None => unavailable.push((
            Criterion::LogicalConsistency.to_string(),
            "no nli model given".into(),
        )),
    }
    match sentiment {
        Some(spec) => {
            let src = hauser_nli::ModelSource::parse(&spec);
            let s = py
                .detach(|| hauser_nli::SentimentConsistency::from_model(&src, &load))
                .map_err(errors::nli)?;
            scorers.push(Box::new(s));
        }
        None => unavailable.push((
            Criterion::SentimentConsistency.to_string(),
            "no sentiment model given".into(),
        )),
    }
    Ok(())
}

/// One group from a dict with the keys of `hauser score`'s JSONL input (`literal` or
/// `origin_sentence`, `candidates` or `cands`, optional `id` and `components`).
fn group_from_py(obj: &Bound<'_, PyAny>, index: usize) -> PyResult<CandidateGroup> {
    let d = obj.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "groups[{index}]: expected a dict with literal and candidates, got {}",
            type_name(obj)
        ))
    })?;
    let get = |keys: [&str; 2]| -> PyResult<Option<Bound<'_, PyAny>>> {
        for k in keys {
            if let Some(v) = d.get_item(k)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    };
    let missing = |what: &str| value_error(format!("groups[{index}]: missing {what:?}"));
    let literal: String = get(["literal", "origin_sentence"])?
        .ok_or_else(|| missing("literal"))?
        .extract()
        .map_err(|_| value_error(format!("groups[{index}]: literal must be a str")))?;
    let candidates: Vec<String> = get(["candidates", "cands"])?
        .ok_or_else(|| missing("candidates"))?
        .extract()
        .map_err(|_| value_error(format!("groups[{index}]: candidates must be a list of str")))?;
    let mut group = CandidateGroup::new(literal, candidates);
    match d.get_item("id")? {
        None => {}
        Some(v) if v.is_none() => {}
        Some(v) if v.is_instance_of::<PyString>() => group.id = Some(v.extract()?),
        // The CLI's JSONL accepts a number as id, written back as its text.
        Some(v) if v.extract::<i64>().is_ok() || v.extract::<f64>().is_ok() => {
            group.id = Some(v.str()?.to_string())
        }
        Some(v) => {
            return Err(value_error(format!(
                "groups[{index}]: id must be a str or a number, got {}",
                type_name(&v)
            )))
        }
    }
    let components = d.get_item("components")?;
    with_components(
        group,
        components.as_ref(),
        &format!("groups[{index}].components"),
    )
}

/// `group` with one component list per candidate from `lists` (absent or `None`: unchanged),
/// the k-th named `{what}[k]` in errors.
fn with_components(
    group: CandidateGroup,
    lists: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<CandidateGroup> {
    let Some(c) = lists.filter(|c| !c.is_none()) else {
        return Ok(group);
    };
    let lists = c
        .try_iter()?
        .enumerate()
        .map(|(k, l)| components_from_py(&l?, &format!("{what}[{k}]")))
        .collect::<PyResult<Vec<_>>>()?;
    group.with_components(lists).map_err(errors::core)
}

/// `hauser score`'s record of one candidate (NaN raw scores as `None`, as its JSON has `null`).
fn candidate_record<'py>(
    py: Python<'py>,
    group: &GroupReport,
    cand: &CandidateReport,
    signature: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match &group.id {
        Some(id) => d.set_item("group", id)?,
        None => d.set_item("group", group.index)?,
    }
    d.set_item("candidate", cand.index)?;
    d.set_item("text", &cand.text)?;
    match &cand.components {
        None => d.set_item("components", py.None())?,
        Some(list) => {
            let items: Vec<_> = list
                .iter()
                .map(|c| {
                    let (t, v, e) = triple(c.clone());
                    vec![t, v, e]
                })
                .collect();
            d.set_item("components", items)?;
        }
    }
    let finite = |x: f64| x.is_finite().then_some(x);
    for score in &cand.scores {
        let name = score.criterion.as_str();
        d.set_item(format!("{name}_raw"), finite(score.raw))?;
        d.set_item(name, finite(score.normalized))?;
    }
    if let Some(q) = cand.quality {
        d.set_item("quality", finite(q))?;
    }
    if let Some(r) = cand.rank {
        d.set_item("rank", r)?;
    }
    d.set_item("signature", signature)?;
    Ok(d)
}

impl Hauser {
    /// Evaluates `groups` chunk by chunk, with the interpreter released.
    fn evaluate(&self, py: Python<'_>, groups: Vec<CandidateGroup>) -> PyResult<Vec<GroupOutcome>> {
        let evaluator = Arc::clone(&self.evaluator);
        let candidates: usize = groups.iter().map(CandidateGroup::len).sum();
        let long = candidates >= LONG || self.neural;
        interrupt::run(py, long, move |cancel| {
            let mut out = Vec::with_capacity(groups.len());
            for (k, chunk) in groups.chunks(CHUNK).enumerate() {
                if cancel.cancelled() {
                    break;
                }
                out.extend(evaluator.evaluate(chunk, k * CHUNK));
            }
            out
        })
    }
}

#[pymethods]
impl Hauser {
    #[new]
    #[pyo3(signature = (
        kb=None, nli=None, sentiment=None, *, nli_labels=None, nli_input="pair",
        weights=None, missing_part="omit", rerank="2:2:1", extract=true,
        batch_size=32, device="cpu", precision="f32"
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        kb: Option<&Bound<'_, PyAny>>,
        nli: Option<String>,
        sentiment: Option<String>,
        nli_labels: Option<Vec<String>>,
        nli_input: &str,
        weights: Option<&Bound<'_, PyAny>>,
        missing_part: &str,
        rerank: &str,
        extract: bool,
        batch_size: usize,
        device: &str,
        precision: &str,
    ) -> PyResult<Self> {
        let quality = match weights {
            Some(w) if !w.is_none() => quality(w, missing_part)?,
            _ => quality(PyString::new(py, "3/6,2/6,1/6").as_any(), missing_part)?,
        };
        let reranker = RankSumReranker::parse(rerank).map_err(errors::core)?;
        if batch_size == 0 {
            return Err(value_error("batch_size: must be at least 1"));
        }
        let mut scorers: Vec<Box<dyn Scorer>> = vec![Box::new(InformativenessScorer)];
        let mut unavailable = Vec::new();
        match kb {
            Some(k) if !k.is_none() => {
                let kb = knowledge_base(py, k)?;
                scorers.push(Box::new(RelevanceScorer::new(Arc::clone(&kb))));
                scorers.push(Box::new(CreativityScorer::new(kb)));
            }
            _ => {
                for c in [Criterion::Relevance, Criterion::Creativity] {
                    unavailable.push((c.to_string(), "no kb given".to_string()));
                }
            }
        }
        #[cfg(feature = "neural")]
        {
            let opts = crate::neural::Device::parse(device, precision, batch_size)?;
            neural_scorers(
                py,
                nli,
                nli_labels,
                nli_input,
                sentiment,
                &opts,
                &mut scorers,
                &mut unavailable,
            )?;
        }
        #[cfg(not(feature = "neural"))]
        {
            let _ = (nli_labels, nli_input, device, precision);
            if nli.is_some() || sentiment.is_some() {
                return Err(value_error(
                    "this build of hauser has no neural models (built without the `neural` feature)",
                ));
            }
            for c in [
                Criterion::LogicalConsistency,
                Criterion::SentimentConsistency,
            ] {
                unavailable.push((c.to_string(), "built without neural models".into()));
            }
        }
        let neural = scorers.iter().any(|s| {
            matches!(
                s.criterion(),
                Criterion::LogicalConsistency | Criterion::SentimentConsistency
            )
        });
        let mut evaluator = Evaluator::new()
            .with_quality(quality)
            .with_reranker(reranker);
        for s in scorers {
            evaluator = evaluator.with_scorer(s);
        }
        if extract {
            evaluator = evaluator.with_extractor(hauser_extract::RuleExtractor::new());
        }
        let signature = render_signatures(&evaluator.signatures());
        Ok(Self {
            evaluator: Arc::new(evaluator),
            signature,
            unavailable,
            neural,
        })
    }

    /// Scores candidate groups: a list of dicts with `literal` and `candidates` (optional `id`,
    /// and `components`: one list of (topic, vehicle, event) per candidate), or one such dict.
    /// Returns one dict per candidate, in input order, with the fields of `hauser score`'s
    /// records (`group`, `candidate`, `text`, `components`, `<criterion>_raw` and
    /// `<criterion>`, `quality`, `rank`, `signature`); a group that cannot be scored gives one
    /// record per candidate with `group`, `candidate` and `error` instead.
    fn score<'py>(
        &self,
        py: Python<'py>,
        groups: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyAny>> = if groups.is_instance_of::<PyDict>() {
            vec![groups.clone()]
        } else {
            groups.try_iter()?.collect::<PyResult<_>>()?
        };
        let parsed = items
            .iter()
            .enumerate()
            .map(|(i, g)| group_from_py(g, i))
            .collect::<PyResult<Vec<_>>>()?;
        // Labels of error records; the groups themselves move to the worker.
        let ids: Vec<Option<String>> = parsed.iter().map(|g| g.id.clone()).collect();
        let outcomes = self.evaluate(py, parsed)?;
        let out = PyList::empty(py);
        for (i, (id, outcome)) in ids.iter().zip(outcomes).enumerate() {
            match outcome {
                Ok(report) => {
                    for cand in &report.candidates {
                        out.append(candidate_record(py, &report, cand, &self.signature)?)?;
                    }
                }
                Err(failure) => {
                    let label = match id {
                        Some(id) => id.clone().into_pyobject(py)?.into_any(),
                        None => i.into_pyobject(py)?.into_any(),
                    };
                    let message = failure.error.to_string();
                    for c in failure.record_slots() {
                        let d = PyDict::new(py);
                        d.set_item("group", &label)?;
                        d.set_item("candidate", c)?;
                        d.set_item("error", &message)?;
                        out.append(d)?;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The candidates of one group ordered best first by the reranker (ties keep input
    /// order): `literal`, `candidates` and optional `components` as in `score`.
    #[pyo3(signature = (literal, candidates, components=None))]
    fn rerank(
        &self,
        py: Python<'_>,
        literal: String,
        candidates: Vec<String>,
        components: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let group = with_components(
            CandidateGroup::new(literal, candidates),
            components,
            "components",
        )?;
        let outcome = self
            .evaluate(py, vec![group])?
            .pop()
            .ok_or_else(|| value_error("rerank: no result"))?;
        let report = outcome.map_err(|f| errors::core(f.error))?;
        let mut order: Vec<&CandidateReport> = report.candidates.iter().collect();
        order.sort_by_key(|c| (c.rank.unwrap_or(usize::MAX), c.index));
        Ok(order.into_iter().map(|c| c.text.clone()).collect())
    }

    /// The run's signature, as in every record (`+`-joined signatures of the scorers, the
    /// extractor, the quality weights and the reranker).
    #[getter]
    fn signature(&self) -> String {
        self.signature.clone()
    }

    /// The criteria that run, in record order.
    #[getter]
    fn criteria(&self) -> Vec<String> {
        self.evaluator
            .criteria()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The criteria that cannot run, with the reason: (criterion, reason) pairs.
    #[getter]
    fn skipped(&self) -> Vec<(String, String)> {
        self.unavailable.clone()
    }

    fn __repr__(&self) -> String {
        format!("Hauser(criteria={:?})", self.criteria())
    }
}
