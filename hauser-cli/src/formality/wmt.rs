//! `hauser formality reproduce --wmt`: the style and content tables again, with the WMT
//! metrics task's statistics and significance clusters (`hauser meta-eval`'s WMT report, on
//! the same human scores and metric values as the paper's tables).
//!
//! WMD is a distance: it enters negated (`-WMD`), so that, like every other metric, higher is
//! better, which pairwise accuracy and the clusters assume.

use std::collections::BTreeMap;

use serde::Serialize;

use figlang_tasks::formality::{Line, SystemFiles, CONTENT_COLUMNS, FIRST_DIRECTION, SEGMENTS};

use crate::error::CliError;
use crate::meta_eval::wmt::{evaluate, WmtInput, WmtReport, WmtSettings};

/// The WMT reports of the two tables.
#[derive(Debug, Clone, Serialize)]
pub struct WmtTables {
    /// Style strength against human style.
    pub style: Option<WmtReport>,
    /// Released content scores against human content.
    pub content: Option<WmtReport>,
}

/// The settings `--wmt` uses: `hauser meta-eval`'s defaults.
pub const SETTINGS: WmtSettings = WmtSettings {
    resamples: 1000,
    bootstrap: 1000,
    seed: 0,
    alpha: 0.05,
};

/// A metric's value of a line (its 0-based index, the line).
type LineFn = dyn Fn(usize, &Line) -> Option<f64>;

/// A metric of a table: its name, its file kind, the human aspect, its value of a line.
type MetricSpec<'a> = (String, &'a str, usize, &'a LineFn);

/// Builds the report of `metrics` (name, file kind, human aspect, value of a line) over the
/// systems `names`; None when a file kind is missing.
fn report(
    data: &BTreeMap<String, SystemFiles>,
    names: &[String],
    metrics: &[MetricSpec<'_>],
) -> Result<Option<WmtReport>, CliError> {
    let mut human = Vec::new();
    let mut cols = Vec::new();
    for (k, (name, kind, aspect, value)) in metrics.iter().enumerate() {
        let mut col = Vec::with_capacity(names.len() * SEGMENTS);
        for s in names {
            let Some(lines) = data[s].get(*kind) else {
                return Ok(None);
            };
            for (i, l) in lines[..SEGMENTS].iter().enumerate() {
                if k == 0 {
                    human.push(l.human(*aspect));
                }
                col.push(value(i, l).unwrap_or(f64::NAN));
            }
        }
        if col.iter().any(|v| !v.is_finite()) {
            return Ok(None);
        }
        cols.push((name.clone(), col));
    }
    let input = WmtInput {
        systems: names.to_vec(),
        items: (1..=SEGMENTS).map(|i| i.to_string()).collect(),
        human,
        metrics: cols,
    };
    evaluate(&input, &SETTINGS)
        .map(Some)
        .map_err(|e| CliError::Usage(e.to_string()))
}

/// The WMT reports of the style and content tables (a table whose files are not released is
/// None).
///
/// # Errors
/// A statistic that cannot be computed.
pub fn tables(
    data: &BTreeMap<String, SystemFiles>,
    names: &[String],
) -> Result<WmtTables, CliError> {
    let style_value = |kind: &'static str| {
        move |i: usize, l: &Line| {
            let p = *l.metrics.last()?;
            Some(if kind.starts_with("cls.") && i >= FIRST_DIRECTION {
                1.0 - p
            } else {
                p
            })
        }
    };
    let (reg, cls, xf) = (
        style_value("reg.pt16"),
        style_value("cls.pt16"),
        style_value("cls.xformal"),
    );
    let style = report(
        data,
        names,
        &[
            ("reg.pt16".into(), "reg.pt16", 1, &reg),
            ("cls.pt16".into(), "cls.pt16", 1, &cls),
            ("cls.xformal".into(), "cls.xformal", 1, &xf),
        ],
    )?;
    let content_values: Vec<Box<LineFn>> = CONTENT_COLUMNS
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let sign = if *name == "WMD" { -1.0 } else { 1.0 };
            Box::new(move |_: usize, l: &Line| l.metrics.get(k).map(|v| sign * v)) as Box<LineFn>
        })
        .collect();
    let content_metrics: Vec<MetricSpec<'_>> = CONTENT_COLUMNS
        .iter()
        .zip(&content_values)
        .map(|(name, f)| {
            let label = if *name == "WMD" {
                "-WMD".to_string()
            } else {
                (*name).to_string()
            };
            (label, "content.ref", 0, f.as_ref())
        })
        .collect();
    let content = report(data, names, &content_metrics)?;
    Ok(WmtTables { style, content })
}
