//! Evaluation of generated continuations as the authors' `src/generative/automatic_metrics.py`
//! does it:
//!
//! - gold of a narrative: the correct option of every data row sharing it (the released
//!   prediction files carry `gold: []`, so it is rebuilt from the data), cleaned;
//! - cleaning (gold and predictions): `<eos>` and `<pad>` removed, then stripped;
//!   a prediction is then cut before its LAST `.` (the script's comment says first; the
//!   paper's numbers follow the code), and empty predictions are dropped;
//! - per narrative: the maximum over references x predictions of pltrdy ROUGE-L F (`rouge`
//!   1.0.x, `exclusive=True`, case-sensitive) and of BERTScore F1; 0 for a narrative left
//!   without predictions; both averaged over narratives and multiplied by 100.

use std::collections::HashMap;
use std::path::Path;

use figlang_metrics::neural::BertScore;
use figlang_metrics::text::rouge::{PltrdyRouge, RougeType};
use serde::{Deserialize, Serialize};

use super::data::{parse_lines, LabelStatus, Split};
use crate::error::{TaskError, TaskResult};

/// One line of a generative prediction file.
#[derive(Debug, Clone, PartialEq)]
pub struct Predictions {
    /// 1-based line in the file.
    pub line: usize,
    /// The narrative (`input`, or `narrative` in the GPT-3 files).
    pub narrative: String,
    /// The generated continuations.
    pub predictions: Vec<String>,
}

#[derive(Deserialize)]
struct RawPred {
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    narrative: Option<String>,
    predictions: Vec<String>,
}

/// Parses a generative prediction file (JSONL with `input` or `narrative`, and
/// `predictions`; `gold` is ignored): every line parsed or its error.
pub fn parse_predictions(text: &str, path: &Path) -> Vec<TaskResult<Predictions>> {
    parse_lines(text, path, |l| {
        let raw: RawPred = serde_json::from_str(l).map_err(|e| e.to_string())?;
        let narrative = raw
            .input
            .or(raw.narrative)
            .ok_or("no \"input\" or \"narrative\" field")?;
        Ok((narrative, raw.predictions))
    })
    .into_iter()
    .map(|(line, r)| {
        r.map(|(narrative, predictions)| Predictions {
            line,
            narrative,
            predictions,
        })
    })
    .collect()
}

/// `<eos>` and `<pad>` removed, then stripped (the script's cleaning of gold and predictions).
pub fn clean(text: &str) -> String {
    text.replace("<eos>", "")
        .replace("<pad>", "")
        .trim()
        .to_string()
}

/// A cleaned prediction cut before its last `.`; `None` when nothing is left.
pub fn prepare_prediction(text: &str) -> Option<String> {
    let p = clean(text);
    let p = match p.rfind('.') {
        Some(i) => p[..i].to_string(),
        None => p,
    };
    (!p.is_empty()).then_some(p)
}

/// The gold continuations of each narrative.
///
/// # Errors
/// [`TaskError::Input`] for data without labels (upstream's test placeholder).
pub fn gold_by_narrative(split: &Split) -> TaskResult<HashMap<String, Vec<String>>> {
    if split.labels != LabelStatus::Labelled {
        return Err(TaskError::Input(
            "the data's labels are upstream's test placeholder (every answer option1): no gold continuations"
                .into(),
        ));
    }
    let mut gold: HashMap<String, Vec<String>> = HashMap::new();
    for item in &split.items {
        gold.entry(item.narrative.clone())
            .or_default()
            .push(clean(&item.options[item.answer.index()]));
    }
    Ok(gold)
}

/// The scores of one narrative (0-1 scale).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NarrativeScore {
    /// Line of the prediction file.
    pub line: usize,
    /// Best ROUGE-L F.
    pub rouge_l: f64,
    /// Best BERTScore F1, when a model is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bertscore_f1: Option<f64>,
    /// Gold continuations.
    pub n_refs: usize,
    /// Predictions left after cleaning.
    pub n_hyps: usize,
}

/// A prediction line that could not be scored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineError {
    /// Line of the prediction file.
    pub line: usize,
    /// Why.
    pub error: String,
}

/// The evaluation of a prediction file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenEvalReport {
    /// Mean best ROUGE-L F x 100.
    pub rouge_l: f64,
    /// Mean best BERTScore F1 x 100, when a model is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bertscore_f1: Option<f64>,
    /// Narratives scored.
    pub n: usize,
    /// Per narrative, in file order.
    pub per_narrative: Vec<NarrativeScore>,
    /// Lines not scored (malformed, a narrative absent from the data, a prediction pltrdy's
    /// ROUGE refuses), excluded from the means.
    pub errors: Vec<LineError>,
}

/// Scores prediction lines against the gold continuations.
///
/// # Errors
/// Model failures of BERTScore; no line scored.
pub fn evaluate(
    lines: Vec<TaskResult<Predictions>>,
    gold: &HashMap<String, Vec<String>>,
    bertscore: Option<&BertScore>,
) -> TaskResult<GenEvalReport> {
    let rouge = PltrdyRouge::default();
    let mut scored: Vec<(NarrativeScore, Vec<String>, Vec<String>)> = Vec::new();
    let mut errors = Vec::new();
    for l in lines {
        let p = match l {
            Ok(p) => p,
            Err(e) => {
                let line = match &e {
                    TaskError::Record { line, .. } => *line,
                    _ => 0,
                };
                errors.push(LineError {
                    line,
                    error: e.to_string(),
                });
                continue;
            }
        };
        let Some(refs) = gold.get(&p.narrative) else {
            errors.push(LineError {
                line: p.line,
                error: "narrative not found in the data".into(),
            });
            continue;
        };
        let hyps: Vec<String> = p
            .predictions
            .iter()
            .filter_map(|h| prepare_prediction(h))
            .collect();
        let mut best: Option<f64> = None;
        let mut failed = None;
        for r in refs {
            for h in &hyps {
                match rouge.score_pair(RougeType::RougeL, h, r) {
                    Ok(s) => best = Some(best.map_or(s.fmeasure, |b| b.max(s.fmeasure))),
                    Err(e) => failed = Some(e.to_string()),
                }
            }
        }
        if let Some(error) = failed {
            errors.push(LineError {
                line: p.line,
                error,
            });
            continue;
        }
        scored.push((
            NarrativeScore {
                line: p.line,
                rouge_l: best.unwrap_or(0.0),
                bertscore_f1: None,
                n_refs: refs.len(),
                n_hyps: hyps.len(),
            },
            refs.clone(),
            hyps,
        ));
    }
    if scored.is_empty() {
        return Err(TaskError::Input(
            "no prediction line could be scored".into(),
        ));
    }
    if let Some(bs) = bertscore {
        // Every (reference, prediction) pair of every narrative in one call; F1 is symmetric, so
        // the authors' passing references as candidates changes nothing.
        let mut cands = Vec::new();
        let mut refs = Vec::new();
        for (_, r, h) in &scored {
            for a in r {
                for b in h {
                    cands.push(a.as_str());
                    refs.push(vec![b.as_str()]);
                }
            }
        }
        let f1 = bs.score(&cands, &refs)?;
        let mut at = 0;
        for (s, r, h) in &mut scored {
            let n = r.len() * h.len();
            s.bertscore_f1 = Some(
                f1[at..at + n]
                    .iter()
                    .map(|p| p.f1)
                    .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
                    .unwrap_or(0.0),
            );
            at += n;
        }
    }
    let n = scored.len();
    let mean = |f: &dyn Fn(&NarrativeScore) -> f64| {
        100.0 * scored.iter().map(|(s, _, _)| f(s)).sum::<f64>() / n as f64
    };
    let rouge_l = mean(&|s| s.rouge_l);
    let bertscore_f1 = bertscore.map(|_| mean(&|s| s.bertscore_f1.unwrap_or(0.0)));
    Ok(GenEvalReport {
        rouge_l,
        bertscore_f1,
        n,
        per_narrative: scored.into_iter().map(|(s, _, _)| s).collect(),
        errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predictions_are_cut_at_the_last_period() {
        assert_eq!(prepare_prediction("A. B. c <eos>").as_deref(), Some("A. B"));
        assert_eq!(prepare_prediction(" x<pad> y ").as_deref(), Some("x y"));
        assert_eq!(prepare_prediction(". <eos>"), None);
        assert_eq!(
            prepare_prediction("no period").as_deref(),
            Some("no period")
        );
    }
}
