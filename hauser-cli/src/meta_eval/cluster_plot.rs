//! `hauser meta-eval --wmt --plot DIR`: the significance clusters, as `clusters.svg` and
//! `clusters.png`.
//!
//! One panel per statistic (3 x 3): its metrics top to bottom in ranking order, each a point
//! at its value with its bootstrap interval as a horizontal bar, coloured by significance
//! cluster (grey where the statistic has no test), labelled with its name and cluster. Drawn in
//! memory like `plot`'s figures and written with [`super::plot::write_plots`] once the run has
//! succeeded.

use plotters::coord::Shift;
use plotters::prelude::*;

use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};

use super::plot::{range, register_font, tick, Rendered};
use super::wmt::{Stat, StatReport, WmtReport};
use crate::error::CliError;

/// The files `--plot DIR` writes in the WMT report.
pub const FILES: [&str; 2] = ["clusters.svg", "clusters.png"];

/// Pixel size of the figure.
const SIZE: (u32, u32) = (1500, 1200);

/// Cluster colours, cycled (a colour-blind-safe qualitative palette).
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
];

/// Draws `clusters.svg` and `clusters.png` in memory.
///
/// # Errors
/// [`CliError::Usage`] when the figure cannot be drawn.
pub fn render(report: &WmtReport) -> Result<Rendered, CliError> {
    register_font().map_err(CliError::Usage)?;
    let err = |name: &str, e: String| CliError::Usage(format!("cannot draw {name}: {e}"));
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        draw(&area, report).map_err(|e| err(FILES[0], e))?;
        area.present().map_err(|e| err(FILES[0], e.to_string()))?;
    }
    let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        draw(&area, report).map_err(|e| err(FILES[1], e))?;
        area.present().map_err(|e| err(FILES[1], e.to_string()))?;
    }
    let mut png = Vec::new();
    PngEncoder::new(&mut png)
        .write_image(&rgb, SIZE.0, SIZE.1, ColorType::Rgb8)
        .map_err(|e| err(FILES[1], e.to_string()))?;
    Ok(Rendered {
        files: vec![(FILES[0], svg.into_bytes()), (FILES[1], png)],
        notes: Vec::new(),
    })
}

fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &WmtReport,
) -> Result<(), String> {
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    let (title, body) = area.split_vertically(40);
    title
        .draw(&Text::new(
            format!(
                "Significance clusters: {} metrics, {} systems, {} items",
                report.metrics.len(),
                report.n_systems,
                report.n_items
            ),
            (20, 10),
            ("sans-serif", 22).into_font(),
        ))
        .map_err(|e| e.to_string())?;
    let panels = body.split_evenly((3, 3));
    for (panel, stat) in panels.iter().zip(&report.statistics) {
        draw_panel(panel, stat)?;
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    stat: &StatReport,
) -> Result<(), String> {
    let heading = stat.stat.map_or(stat.statistic, Stat::heading);
    let n = stat.ranking.len();
    let values = stat
        .ranking
        .iter()
        .flat_map(|r| [Some(r.value), r.ci95.map(|c| c[0]), r.ci95.map(|c| c[1])])
        .flatten();
    let Some(xr) = range(values) else {
        // Nothing defined: the heading alone says so.
        return area
            .draw(&Text::new(
                format!("{heading}: not defined"),
                (20, 20),
                ("sans-serif", 16).into_font(),
            ))
            .map(|_| ())
            .map_err(|e| e.to_string());
    };
    let caption = match stat.test {
        Some(t) => format!("{heading} ({t})"),
        None => format!("{heading} (no test)"),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(25)
        .y_label_area_size(5)
        .build_cartesian_2d(xr, 0.0..n as f64)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .x_labels(5)
        .x_label_formatter(&tick)
        .label_style(("sans-serif", 12))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, r) in stat.ranking.iter().enumerate() {
        if r.value.is_nan() {
            continue;
        }
        let y = n as f64 - k as f64 - 0.5;
        let colour = r.cluster.map_or(RGBColor(120, 120, 120), |c| {
            PALETTE[(c - 1) % PALETTE.len()]
        });
        if let Some([lo, hi]) = r.ci95 {
            if lo.is_finite() && hi.is_finite() {
                chart
                    .draw_series(LineSeries::new(
                        [(lo, y), (hi, y)],
                        ShapeStyle::from(&colour).stroke_width(2),
                    ))
                    .map_err(|e| e.to_string())?;
            }
        }
        let label = match r.cluster {
            Some(c) => format!("{} ({c})", r.metric),
            None => r.metric.clone(),
        };
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((r.value, y))
                    + Circle::new((0, 0), 4, colour.filled())
                    + Text::new(label, (6, -14), ("sans-serif", 12).into_font()),
            ))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
