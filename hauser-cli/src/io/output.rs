//! JSON output records: one per candidate, or an error record naming file and line.

use std::path::Path;

use serde_json::{json, Map, Value};

use hauser_core::{CandidateReport, Components, GroupReport};

/// The group label: its id when given, else its 0-based index.
pub fn group_label(id: Option<&str>, index: usize) -> Value {
    match id {
        Some(id) => Value::String(id.to_string()),
        None => Value::from(index),
    }
}

/// Components as `[[topic, vehicle, event], ...]` with `null` for unknown parts.
pub fn components_json(components: Option<&[Components]>) -> Value {
    match components {
        None => Value::Null,
        Some(list) => Value::Array(list.iter().map(|c| json!(c.as_triple())).collect()),
    }
}

/// The output record of one scored candidate. NaN raw scores are written as `null`.
pub fn candidate_record(group: &GroupReport, cand: &CandidateReport, signature: &str) -> Value {
    let mut m = Map::new();
    m.insert(
        "group".into(),
        group_label(group.id.as_deref(), group.index),
    );
    m.insert("candidate".into(), Value::from(cand.index));
    m.insert("text".into(), Value::String(cand.text.clone()));
    m.insert(
        "components".into(),
        components_json(cand.components.as_deref()),
    );
    for score in &cand.scores {
        let name = score.criterion.as_str();
        m.insert(format!("{name}_raw"), Value::from(score.raw));
        m.insert(name.to_string(), Value::from(score.normalized));
    }
    if let Some(q) = cand.quality {
        m.insert("quality".into(), Value::from(q));
    }
    if let Some(r) = cand.rank {
        m.insert("rank".into(), Value::from(r));
    }
    m.insert("signature".into(), Value::String(signature.to_string()));
    Value::Object(m)
}

/// An error record: which group (and candidate, when known), where in which file, and why.
pub fn error_record(
    group: Value,
    candidate: Option<usize>,
    file: &Path,
    line: usize,
    error: &str,
) -> Value {
    json!({
        "group": group,
        "candidate": candidate,
        "file": file.display().to_string(),
        "line": line,
        "error": error,
    })
}
