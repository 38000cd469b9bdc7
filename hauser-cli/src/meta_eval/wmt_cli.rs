//! `hauser meta-eval`'s WMT report on the command line: the table's metric columns read into a
//! [`WmtInput`](super::wmt::WmtInput), the report computed, drawn with `--plot` and printed as
//! `--format` asks.

use std::io::Write;

use serde_json::Value;

use super::{cluster_plot, plot, stats_error, table, wmt, Format, MetaEvalArgs, Table};
use crate::error::CliError;
use crate::io::files;

/// The WMT report: reads every metric column, computes [`wmt::evaluate`], prints it as
/// `--format` asks (JSON by default) and draws the clusters with `--plot`.
pub(super) fn run_wmt(args: &MetaEvalArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    let seed = u32::try_from(args.seed).map_err(|_| {
        CliError::Usage(format!(
            "--seed {} is above 4294967295, the largest seed of the WMT report's permutation tests (NumPy's np.random.seed)",
            args.seed
        ))
    })?;
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = args.metric_col.iter().find(|c| !seen.insert(c.as_str())) {
        return Err(CliError::Usage(format!(
            "--metric-col {dup:?} is given twice"
        )));
    }
    let checked = files::RunFiles::new()
        .input("--input", &args.input)
        .plot_dir("--plot", args.plot.as_deref(), &cluster_plot::FILES)
        .check()?;
    let table = Table::read(&args.input)?;
    let path = &args.input;
    let (cs, cg, ch) = (
        table.column(&args.system_col)?,
        table.column(&args.segment_col)?,
        table.column(&args.human_col)?,
    );
    let cm: Vec<usize> = args
        .metric_col
        .iter()
        .map(|c| table.column(c))
        .collect::<Result<_, _>>()?;
    let (mut systems, mut items) = (Vec::<String>::new(), Vec::<String>::new());
    let (mut sys_index, mut item_index) = (
        std::collections::HashMap::new(),
        std::collections::HashMap::new(),
    );
    let mut cells = Vec::with_capacity(table.rows.len());
    for (line, row) in &table.rows {
        let s = table.cell(*line, row, cs)?;
        let g = table.cell(*line, row, cg)?;
        let next = systems.len();
        let si = *sys_index.entry(s.to_string()).or_insert_with(|| {
            systems.push(s.to_string());
            next
        });
        let next = items.len();
        let gi = *item_index.entry(g.to_string()).or_insert_with(|| {
            items.push(g.to_string());
            next
        });
        let h = table.number(*line, row, ch)?;
        let m: Vec<f64> = cm
            .iter()
            .map(|&c| table.number(*line, row, c))
            .collect::<Result<_, _>>()?;
        cells.push((*line, si, gi, h, m));
    }
    if cells.is_empty() {
        return Err(CliError::Input {
            path: path.clone(),
            line: 1,
            message: "no rows".into(),
        });
    }
    let (ns, ni) = (systems.len(), items.len());
    wmt::check_size(ns, ni, cm.len()).map_err(|e| stats_error(path, e))?;
    let mut human = vec![f64::NAN; ns * ni];
    let mut metrics: Vec<(String, Vec<f64>)> = args
        .metric_col
        .iter()
        .map(|n| (n.clone(), vec![0.0; ns * ni]))
        .collect();
    for (line, si, gi, h, m) in cells {
        let k = si * ni + gi;
        if !human[k].is_nan() {
            return Err(CliError::Input {
                path: path.clone(),
                line,
                message: format!("system {:?} has segment {:?} twice", systems[si], items[gi]),
            });
        }
        human[k] = h;
        for ((_, col), v) in metrics.iter_mut().zip(m) {
            col[k] = v;
        }
    }
    let settings = wmt::WmtSettings {
        resamples: args.resamples.unwrap_or(1000),
        bootstrap: args.bootstrap.unwrap_or(1000),
        seed,
        alpha: args.alpha.unwrap_or(0.05),
    };
    let input = wmt::WmtInput {
        systems,
        items,
        human,
        metrics,
    };
    let report = wmt::evaluate(&input, &settings).map_err(|e| stats_error(path, e))?;
    let rendered = match &args.plot {
        Some(dir) => Some((dir, cluster_plot::render(&report)?)),
        None => None,
    };
    let mut value = serde_json::to_value(&report).map_err(|e| CliError::Usage(e.to_string()))?;
    if let Some((dir, rendered)) = rendered {
        let written = plot::write_plots(dir, &rendered, &checked)?;
        value["plots"] = written
            .iter()
            .map(|p| Value::String(p.display().to_string()))
            .collect();
    }
    let io = |e| CliError::io("<stdout>", e);
    match args.format.unwrap_or(Format::Json) {
        Format::Json => writeln!(out, "{value}").map_err(io)?,
        Format::Text => table::write_text(out, &report).map_err(io)?,
        Format::Latex => table::write_latex(out, &report).map_err(io)?,
    }
    Ok(value)
}
