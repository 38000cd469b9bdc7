//! `hauser meta-eval --plot DIR`: a metric against human scores, as SVG and PNG.
//!
//! - `system.svg` / `system.png`: one labelled point per system (metric mean, human mean), the
//!   least-squares line, and the system-level Pearson r in the title;
//! - `segment.svg` / `segment.png`: every (metric, human) pair as a translucent point, so that
//!   dense regions read darker, with the segment-level Pearson r and WMT Kendall tau.
//!
//! Everything is drawn by `plotters` without system libraries: SVG text is left to the viewer's
//! fonts, PNG text is rasterised from an embedded font (Ubuntu Light, from
//! `epaint_default_fonts`) into a buffer and encoded as PNG. Each file goes through
//! [`OutputFile`], like every other output: a temporary file in `DIR`, renamed on success.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};

use crate::error::CliError;
use crate::files::OutputFile;

/// Pixel size of every plot.
const SIZE: (u32, u32) = (800, 600);

/// The data of the two plots.
#[derive(Debug, Clone)]
pub struct MetaEvalPlot<'a> {
    /// Metric name, for the axis label.
    pub metric: &'a str,
    /// Per system: name, metric mean, human mean.
    pub systems: Vec<(String, f64, f64)>,
    /// Every scored output: (metric, human).
    pub segments: Vec<(f64, f64)>,
    /// System-level Pearson r.
    pub system_pearson: f64,
    /// Segment-level Pearson r.
    pub segment_pearson: f64,
    /// Segment-level WMT Kendall tau.
    pub segment_kendall_wmt: f64,
}

fn register_font() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        )
        .map_err(|_| "the embedded font cannot be read".to_string())
    })
    .clone()
}

/// Writes `system.{svg,png}` and `segment.{svg,png}` into `dir` (created when missing); returns
/// the paths written.
///
/// # Errors
/// [`CliError::Io`] when the directory or a file cannot be written; [`CliError::Usage`] when a
/// plot cannot be drawn (no finite point).
pub fn write_plots(dir: &Path, plot: &MetaEvalPlot<'_>) -> Result<Vec<PathBuf>, CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, e))?;
    register_font().map_err(CliError::Usage)?;
    let mut written = Vec::new();
    for stem in ["system", "segment"] {
        let svg_path = dir.join(format!("{stem}.svg"));
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            draw(stem, &area, plot).map_err(|e| draw_error(&svg_path, e))?;
            area.present().map_err(|e| draw_error(&svg_path, e))?;
        }
        let mut out = OutputFile::create(Some(&svg_path), &[])?;
        out.write_all(svg.as_bytes())
            .map_err(|e| CliError::io(&svg_path, e))?;
        out.commit()?;
        written.push(svg_path);

        let png_path = dir.join(format!("{stem}.png"));
        let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
        {
            let area = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            draw(stem, &area, plot).map_err(|e| draw_error(&png_path, e))?;
            area.present().map_err(|e| draw_error(&png_path, e))?;
        }
        let mut out = OutputFile::create(Some(&png_path), &[])?;
        PngEncoder::new(&mut out)
            .write_image(&rgb, SIZE.0, SIZE.1, ColorType::Rgb8)
            .map_err(|e| CliError::io(&png_path, std::io::Error::other(e)))?;
        out.commit()?;
        written.push(png_path);
    }
    Ok(written)
}

fn draw<DB: DrawingBackend>(
    stem: &str,
    area: &DrawingArea<DB, Shift>,
    plot: &MetaEvalPlot<'_>,
) -> Result<(), String> {
    if stem == "system" {
        draw_system(area, plot)
    } else {
        draw_segment(area, plot)
    }
}

fn draw_error(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!("cannot draw {}: {e}", path.display()))
}

/// Axis range of `values` with a 5% margin (a single value gets +-1).
fn range(values: impl Iterator<Item = f64>) -> Option<std::ops::Range<f64>> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return None;
    }
    let pad = if hi > lo { (hi - lo) * 0.08 } else { 1.0 };
    Some(lo - pad..hi + pad)
}

/// The points whose two coordinates are finite (a NaN or infinite mean cannot be drawn).
fn finite(points: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    points
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect()
}

/// The x and y axis ranges of `points` ([`range`] of each coordinate); None when empty.
fn ranges(points: &[(f64, f64)]) -> Option<(Range<f64>, Range<f64>)> {
    Some((
        range(points.iter().map(|p| p.0))?,
        range(points.iter().map(|p| p.1))?,
    ))
}

/// Least-squares line y = a + b x, or None when x is constant.
fn fit(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| {
        let b = sxy / sxx;
        (my - b * mx, b)
    })
}

/// A tick label without trailing zeros: `90`, `0.45`.
fn tick(v: &f64) -> String {
    let text = format!("{v:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

fn chart_error(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A chart with its caption (text, size), x and y ranges, and axis descriptions (x, y).
fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    (title, size): (String, u32),
    (xr, yr): (Range<f64>, Range<f64>),
    (x_desc, y_desc): (String, &str),
) -> Result<ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String> {
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", size))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(xr, yr)
        .map_err(chart_error)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 14))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(chart_error)?;
    Ok(chart)
}

fn draw_system<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &MetaEvalPlot<'_>,
) -> Result<(), String> {
    area.fill(&WHITE).map_err(chart_error)?;
    let points = finite(plot.systems.iter().map(|(_, m, h)| (*m, *h)));
    let (xr, yr) = ranges(&points).ok_or("no finite system mean")?;
    let title = format!(
        "System level: Pearson r = {:.3} ({} systems)",
        plot.system_pearson,
        points.len()
    );
    let mut chart = axes(
        area,
        (title, 24),
        (xr.clone(), yr.clone()),
        (
            format!("{} (system mean)", plot.metric),
            "human score (system mean)",
        ),
    )?;
    if let Some((a, b)) = fit(&points) {
        chart
            .draw_series(LineSeries::new(
                [xr.start, xr.end].map(|x| (x, a + b * x)),
                ShapeStyle::from(&RGBColor(200, 80, 60)).stroke_width(2),
            ))
            .map_err(chart_error)?;
    }
    let blue = RGBColor(40, 90, 160);
    let labels = label_offsets(&plot.systems, &xr, &yr);
    chart
        .draw_series(
            plot.systems
                .iter()
                .zip(labels)
                .filter(|((_, m, h), _)| m.is_finite() && h.is_finite())
                .map(|((name, m, h), offset)| {
                    EmptyElement::at((*m, *h))
                        + Circle::new((0, 0), 6, blue.filled())
                        + Text::new(name.clone(), offset, ("sans-serif", 16).into_font())
                }),
        )
        .map_err(chart_error)?;
    Ok(())
}

/// Where each system's name goes relative to its point (pixels): the first of right, left,
/// above and below whose box (estimated at 8 px a character, 16 px high, on a 700 x 480 plot
/// area) overlaps neither an earlier label nor a point; right when all do.
fn label_offsets(
    systems: &[(String, f64, f64)],
    xr: &std::ops::Range<f64>,
    yr: &std::ops::Range<f64>,
) -> Vec<(i32, i32)> {
    let (w, h) = (700.0, 480.0);
    let pixel = |m: f64, v: f64| {
        (
            (m - xr.start) / (xr.end - xr.start) * w,
            (1.0 - (v - yr.start) / (yr.end - yr.start)) * h,
        )
    };
    let points: Vec<(f64, f64)> = systems.iter().map(|(_, m, v)| pixel(*m, *v)).collect();
    let overlaps = |a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)| {
        a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
    };
    let mut boxes: Vec<(f64, f64, f64, f64)> = Vec::new();
    systems
        .iter()
        .zip(&points)
        .map(|((name, _, _), &(px, py))| {
            let tw = 8.0 * name.chars().count() as f64;
            let candidates = [
                (10.0, -8.0),
                (-10.0 - tw, -8.0),
                (-tw / 2.0, -28.0),
                (-tw / 2.0, 10.0),
            ];
            let free = |&(dx, dy): &(f64, f64)| {
                let b = (px + dx, py + dy, tw, 16.0);
                let inside = b.0 >= 0.0 && b.0 + b.2 <= w && b.1 >= 0.0 && b.1 + b.3 <= h;
                inside
                    && !boxes.iter().any(|&o| overlaps(b, o))
                    && !points
                        .iter()
                        .any(|&(qx, qy)| overlaps(b, (qx - 6.0, qy - 6.0, 12.0, 12.0)))
            };
            let (dx, dy) = candidates
                .iter()
                .copied()
                .find(free)
                .unwrap_or(candidates[0]);
            boxes.push((px + dx, py + dy, tw, 16.0));
            (dx.round() as i32, dy.round() as i32)
        })
        .collect()
}

fn draw_segment<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &MetaEvalPlot<'_>,
) -> Result<(), String> {
    area.fill(&WHITE).map_err(chart_error)?;
    let points = finite(plot.segments.iter().copied());
    let (xr, yr) = ranges(&points).ok_or("no finite score")?;
    let title = format!(
        "Segment level: Pearson r = {:.3}, WMT Kendall tau = {:.3} ({} outputs)",
        plot.segment_pearson,
        plot.segment_kendall_wmt,
        points.len()
    );
    let mut chart = axes(
        area,
        (title, 22),
        (xr, yr),
        (plot.metric.to_string(), "human score"),
    )?;
    // Translucent points: overlapping outputs accumulate, which a hexbin would show as counts.
    let alpha = (25.0 / (points.len() as f64).sqrt()).clamp(0.08, 0.6);
    chart
        .draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 4, RGBColor(40, 90, 160).mix(alpha).filled())),
        )
        .map_err(chart_error)?;
    Ok(())
}
