//! The WMT report ([`WmtReport`]) as text and as a LaTeX table.
//!
//! Both end with the table of the WMT findings papers: one row per metric, one column per
//! statistic, each cell the value and its significance cluster; rows ordered by the mean of
//! the two headline statistics, system-level pairwise accuracy and segment-level acc*_eq (the
//! WMT23 ranking), name second. The text form first lists every statistic with its interval,
//! cluster and (acc*_eq) tie threshold.

use std::io::{self, Write};

use super::wmt::{Stat, WmtReport};

/// Rows of the findings table: (metric, cells in [`Stat::ALL`] order as (value, cluster), avg).
type Row = (String, Vec<(f64, Option<usize>)>, f64);

/// The findings table's rows, ordered best first.
fn rows(report: &WmtReport) -> Vec<Row> {
    let mut rows: Vec<Row> = report
        .metrics
        .iter()
        .map(|name| {
            let cells: Vec<(f64, Option<usize>)> = report
                .statistics
                .iter()
                .map(|s| {
                    s.ranking
                        .iter()
                        .find(|r| &r.metric == name)
                        .map_or((f64::NAN, None), |r| (r.value, r.cluster))
                })
                .collect();
            let head: Vec<f64> = report
                .statistics
                .iter()
                .zip(&cells)
                .filter(|(s, _)| matches!(s.stat, Some(Stat::SysAcc | Stat::SegAccStar)))
                .map(|(_, c)| c.0)
                .filter(|v| !v.is_nan())
                .collect();
            let avg = if head.is_empty() {
                f64::NAN
            } else {
                head.iter().sum::<f64>() / head.len() as f64
            };
            (name.clone(), cells, avg)
        })
        .collect();
    let key = |v: f64| if v.is_nan() { f64::NEG_INFINITY } else { v };
    rows.sort_by(|a, b| key(b.2).total_cmp(&key(a.2)).then_with(|| a.0.cmp(&b.0)));
    rows
}

fn num(v: f64) -> String {
    if v.is_nan() {
        "-".into()
    } else {
        format!("{v:.4}")
    }
}

fn cell(v: f64, cluster: Option<usize>) -> String {
    if v.is_nan() {
        return "-".into();
    }
    match cluster {
        Some(c) => format!("{v:.3} ({c})"),
        None => format!("{v:.3}"),
    }
}

/// Writes the report as text.
///
/// # Errors
/// The writer's.
pub fn write_text(out: &mut dyn Write, report: &WmtReport) -> io::Result<()> {
    writeln!(
        out,
        "WMT-style meta-evaluation: {} metrics, {} systems, {} items ({} scored)",
        report.metrics.len(),
        report.n_systems,
        report.n_items,
        report.n_scored
    )?;
    let width = report
        .metrics
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut level = "";
    for s in &report.statistics {
        if s.level != level {
            level = s.level;
            writeln!(out, "\n{level} level")?;
            writeln!(
                out,
                "  {:<30} {:<width$} {:>8}  {:<20} {:>7}",
                "statistic (grouping)", "metric", "value", "95% CI", "cluster"
            )?;
        }
        let title = format!("{} ({})", s.statistic, s.grouping);
        for (k, r) in s.ranking.iter().enumerate() {
            let ci = r.ci95.map_or("-".to_string(), |c| {
                format!("[{}, {}]", num(c[0]), num(c[1]))
            });
            let cluster = r.cluster.map_or("-".to_string(), |c| c.to_string());
            let eps = r
                .epsilon
                .map_or(String::new(), |e| format!("  epsilon {e:.6}"));
            writeln!(
                out,
                "  {:<30} {:<width$} {:>8}  {:<20} {:>7}{eps}",
                if k == 0 { title.as_str() } else { "" },
                r.metric,
                num(r.value),
                ci,
                cluster
            )?;
        }
    }
    writeln!(
        out,
        "\nRanking as in the WMT findings (value (cluster); avg = mean of sys acc and seg acc*_eq)"
    )?;
    let headings: Vec<&str> = report
        .statistics
        .iter()
        .map(|s| s.stat.map_or(s.statistic, Stat::heading))
        .collect();
    let col = 12;
    write!(out, "  {:<width$} {:>7}", "metric", "avg")?;
    for h in &headings {
        write!(out, " {h:>col$}")?;
    }
    writeln!(out)?;
    for (name, cells, avg) in rows(report) {
        write!(out, "  {name:<width$} {:>7}", num(avg))?;
        for (v, c) in cells {
            write!(out, " {:>col$}", cell(v, c))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "signature: {}", report.signature)?;
    for note in &report.notes {
        writeln!(out, "note: {note}")?;
    }
    Ok(())
}

/// `text` with LaTeX's special characters escaped.
fn escape(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        match c {
            '\\' => s.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                s.push('\\');
                s.push(c);
            }
            '~' => s.push_str("\\textasciitilde{}"),
            '^' => s.push_str("\\textasciicircum{}"),
            c => s.push(c),
        }
    }
    s
}

/// Writes the findings table as a LaTeX `tabular` (booktabs rules): the value of each metric
/// on each statistic with its cluster in parentheses, the first cluster in bold.
///
/// # Errors
/// The writer's.
pub fn write_latex(out: &mut dyn Write, report: &WmtReport) -> io::Result<()> {
    writeln!(
        out,
        "% WMT-style meta-evaluation: {} metrics, {} systems, {} items ({} scored)",
        report.metrics.len(),
        report.n_systems,
        report.n_items,
        report.n_scored
    )?;
    writeln!(out, "% {}", report.signature)?;
    for note in &report.notes {
        writeln!(out, "% note: {note}")?;
    }
    let n = report.statistics.len();
    writeln!(out, "\\begin{{tabular}}{{l r{}}}", " r".repeat(n))?;
    writeln!(out, "\\toprule")?;
    write!(out, "Metric & avg")?;
    for s in &report.statistics {
        write!(
            out,
            " & {}",
            escape(s.stat.map_or(s.statistic, Stat::heading))
        )?;
    }
    writeln!(out, " \\\\")?;
    writeln!(out, "\\midrule")?;
    for (name, cells, avg) in rows(report) {
        write!(out, "{} & {}", escape(&name), num(avg))?;
        for (v, c) in cells {
            let text = cell(v, c);
            if c == Some(1) {
                write!(out, " & \\textbf{{{text}}}")?;
            } else {
                write!(out, " & {text}")?;
            }
        }
        writeln!(out, " \\\\")?;
    }
    writeln!(out, "\\bottomrule")?;
    writeln!(out, "\\end{{tabular}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_specials_are_escaped() {
        assert_eq!(escape("a_b&c%"), "a\\_b\\&c\\%");
        assert_eq!(
            escape("x^y~\\"),
            "x\\textasciicircum{}y\\textasciitilde{}\\textbackslash{}"
        );
    }
}
