//! `extract`: simile components (topic, vehicle, event) from the rule-based extractor of
//! `hauser extract`.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use rayon::prelude::*;

use hauser_core::{ComponentExtractor, Components, CoreError};
use hauser_extract::{Comparator, RuleExtractor};

use crate::errors::{self, value_error};
use crate::interrupt::{self, LONG};
use crate::texts::column;

/// A (topic, vehicle, event) tuple, `None` for a part not found.
pub(crate) type Triple = (Option<String>, Option<String>, Option<String>);

pub(crate) fn triple(c: Components) -> Triple {
    (c.topic, c.vehicle, c.event)
}

fn extractor(like_only: bool) -> RuleExtractor {
    if like_only {
        RuleExtractor::new().with_comparators(&[Comparator::Like])
    } else {
        RuleExtractor::new()
    }
}

/// The components of every comparison in `similes`, as `hauser extract` finds them.
///
/// `similes` is one sentence (the result is a list of `(topic, vehicle, event)` tuples, `None`
/// for a part not found, empty when there is no simile) or a list or array of sentences (a list
/// of such lists). `literal`, the sentence the simile was generated from (one, or one per
/// simile), lets the extractor take the inserted comparison; `like_only` keeps to "like"
/// comparisons, as the original HAUSER tool.
#[pyfunction]
#[pyo3(signature = (similes, literal=None, like_only=false))]
pub(crate) fn extract<'py>(
    py: Python<'py>,
    similes: &Bound<'py, PyAny>,
    literal: Option<&Bound<'py, PyAny>>,
    like_only: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let x = extractor(like_only);
    let literal = literal.filter(|l| !l.is_none());
    if let Ok(simile) = similes.cast::<PyString>() {
        let simile = simile.to_cow()?.into_owned();
        let literal: Option<String> = literal.map(|l| l.extract()).transpose()?;
        let comps = py
            .detach(|| x.extract(&simile, literal.as_deref()))
            .map_err(errors::core)?;
        let list = PyList::empty(py);
        for c in comps {
            list.append(triple(c))?;
        }
        return Ok(list.into_any());
    }
    let texts = column(similes, "similes")?;
    let literals: Vec<Option<String>> = match literal {
        None => vec![None; texts.len()],
        Some(l) if l.is_instance_of::<PyString>() => vec![Some(l.extract()?); texts.len()],
        Some(l) => {
            // A list may hold None for similes without a literal.
            let l: Vec<Option<String>> = match l.extract() {
                Ok(v) => v,
                Err(_) => column(l, "literal")?.into_iter().map(Some).collect(),
            };
            if l.len() != texts.len() {
                return Err(value_error(format!(
                    "extract: {} literals for {} similes",
                    l.len(),
                    texts.len()
                )));
            }
            l
        }
    };
    let long = texts.len() >= LONG;
    let all: Vec<Vec<Components>> = interrupt::run(py, long, move |cancel| {
        texts
            .par_iter()
            .zip(&literals)
            .map(|(s, l)| {
                if cancel.cancelled() {
                    return Ok(Vec::new());
                }
                x.extract(s, l.as_deref())
            })
            .collect::<Result<_, CoreError>>()
    })?
    .map_err(errors::core)?;
    let out = PyList::empty(py);
    for comps in all {
        let items: Vec<Triple> = comps.into_iter().map(triple).collect();
        out.append(PyList::new(py, items)?)?;
    }
    Ok(out.into_any())
}

/// Components from Python: a list of `(topic, vehicle, event)` sequences per candidate.
pub(crate) fn components_from_py(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Components>> {
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        let parts: Vec<Option<String>> = if let Ok(t) = item.cast::<PyTuple>() {
            t.extract()?
        } else {
            item.extract().map_err(|_| {
                value_error(format!(
                    "{what}[{i}]: expected a (topic, vehicle, event) triple"
                ))
            })?
        };
        let [t, v, e]: [Option<String>; 3] = parts.try_into().map_err(|p: Vec<_>| {
            value_error(format!(
                "{what}[{i}]: expected 3 parts (topic, vehicle, event), got {}",
                p.len()
            ))
        })?;
        out.push(Components::from_triple([t, v, e]));
    }
    Ok(out)
}
