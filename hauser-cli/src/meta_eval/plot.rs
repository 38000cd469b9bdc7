//! `hauser meta-eval --plot DIR`: a metric against human scores, as SVG and PNG.
//!
//! - `system.svg` / `system.png`: one labelled point per system (metric mean, human mean), the
//!   least-squares line, and the system-level Pearson r in the title;
//! - `segment.svg` / `segment.png`: every (metric, human) pair as a translucent point, so that
//!   dense regions read darker, with the segment-level Pearson r and WMT Kendall tau.
//!
//! Everything is drawn by `plotters` without system libraries: SVG text is left to the viewer's
//! fonts, PNG text is rasterised from an embedded font (Ubuntu Light, from
//! `epaint_default_fonts`) into a buffer and encoded as PNG. The four files are drawn in memory
//! ([`render`]) and written by [`write_plots`] once the whole run has succeeded: each through
//! [`OutputFile`] (a temporary file in `DIR`), all four renamed into place only after all four
//! were written.
//!
//! Points with a non-finite coordinate (a system mean that overflows) are left out, with a
//! note naming them; axis ranges stay finite and wide enough for the tick computation to end
//! on any finite input, up to +-f64::MAX.

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
use crate::io::files::{Checked, OutputFile};

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

pub(crate) fn register_font() -> Result<(), String> {
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

/// The files `--plot DIR` writes, in the order [`render`] returns them.
pub const FILES: [&str; 4] = ["system.svg", "system.png", "segment.svg", "segment.png"];

/// The plots drawn in memory, not yet written.
#[derive(Debug)]
pub struct Rendered {
    /// Each file's name (one of [`FILES`]) and bytes.
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// What was left out of the plots, and why.
    pub notes: Vec<String>,
}

/// Draws `system.{svg,png}` and `segment.{svg,png}` in memory, leaving out (with a note) the
/// points that have a non-finite coordinate.
///
/// # Errors
/// [`CliError::Usage`] when a plot cannot be drawn (no finite point).
pub fn render(plot: &MetaEvalPlot<'_>) -> Result<Rendered, CliError> {
    register_font().map_err(CliError::Usage)?;
    let mut notes = Vec::new();
    let mut finite_plot = plot.clone();
    finite_plot.systems.retain(|(name, m, h)| {
        let keep = m.is_finite() && h.is_finite();
        if !keep {
            notes.push(format!(
                "system {name:?} left out of system.svg and system.png: its mean {} is {}",
                if m.is_finite() {
                    "human score"
                } else {
                    "metric score"
                },
                if m.is_finite() { h } else { m }
            ));
        }
        keep
    });
    let mut index = 0;
    finite_plot.segments.retain(|(m, h)| {
        index += 1;
        let keep = m.is_finite() && h.is_finite();
        if !keep {
            notes.push(format!(
                "output {index} (in system order) left out of segment.svg and segment.png: metric {m}, human {h}"
            ));
        }
        keep
    });
    let plot = &finite_plot;
    let mut files = Vec::new();
    for stem in ["system", "segment"] {
        let svg_name = if stem == "system" { FILES[0] } else { FILES[2] };
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            draw(stem, &area, plot).map_err(|e| draw_error(svg_name, e))?;
            area.present().map_err(|e| draw_error(svg_name, e))?;
        }
        files.push((svg_name, svg.into_bytes()));

        let png_name = if stem == "system" { FILES[1] } else { FILES[3] };
        let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
        {
            let area = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            draw(stem, &area, plot).map_err(|e| draw_error(png_name, e))?;
            area.present().map_err(|e| draw_error(png_name, e))?;
        }
        let mut png = Vec::new();
        PngEncoder::new(&mut png)
            .write_image(&rgb, SIZE.0, SIZE.1, ColorType::Rgb8)
            .map_err(|e| draw_error(png_name, e))?;
        files.push((png_name, png));
    }
    Ok(Rendered { files, notes })
}

/// Writes the rendered plots into `dir` (created when missing; declared in `checked` with
/// [`crate::io::files::RunFiles::plot_dir`]): every file to a temporary file first, then all
/// renamed, so that a failure while writing leaves the earlier plots as they were. Returns the
/// paths written.
///
/// # Errors
/// [`CliError::Io`] when the directory or a file cannot be written.
pub fn write_plots(
    dir: &Path,
    rendered: &Rendered,
    checked: &Checked,
) -> Result<Vec<PathBuf>, CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, e))?;
    let mut pending = Vec::new();
    for (name, bytes) in &rendered.files {
        let path = dir.join(name);
        let mut out = OutputFile::create(Some(&path), checked)?;
        out.write_all(bytes).map_err(|e| CliError::io(&path, e))?;
        out.flush().map_err(|e| CliError::io(&path, e))?;
        pending.push((path, out));
    }
    let mut written = Vec::new();
    for (path, out) in pending {
        out.commit()?;
        written.push(path);
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

fn draw_error(name: &str, e: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!("cannot draw {name}: {e}"))
}

/// Axis range of `values` with an 8% margin on each side (a single value gets +-5% of itself,
/// at least +-1).
///
/// The range is computed from halves so that it stays finite for values near +-f64::MAX
/// (plotters' tick search never ends on an infinite span), and never narrower than a millionth
/// of its magnitude (a span lost in rounding gives the same endless search). A span wider than
/// f64::MAX cannot be an axis: it is cut to +-f64::MAX / 2, and the points beyond are clipped.
pub(crate) fn range(values: impl Iterator<Item = f64>) -> Option<std::ops::Range<f64>> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return None;
    }
    let mid = lo / 2.0 + hi / 2.0;
    let half = hi / 2.0 - lo / 2.0;
    let pad = if half > 0.0 {
        half * 1.16
    } else {
        (mid.abs() * 0.05).max(1.0)
    };
    let pad = pad.max(mid.abs() * 1e-6);
    let mut start = (mid - pad).max(-f64::MAX);
    let mut end = (mid + pad).min(f64::MAX);
    if !(end - start).is_finite() {
        start = start.max(-f64::MAX / 2.0);
        end = end.min(f64::MAX / 2.0);
    }
    Some(start..end)
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
    (sxx > 0.0)
        .then(|| {
            let b = sxy / sxx;
            (my - b * mx, b)
        })
        // Sums of huge values overflow: no line rather than one through infinities.
        .filter(|(a, b)| a.is_finite() && b.is_finite())
}

/// The part of the line y = a + b x inside the plot's box, or None when it misses the box:
/// plotters maps a point far outside its ranges to a pixel that overflows an `i32`.
fn clip_line(a: f64, b: f64, xr: &Range<f64>, yr: &Range<f64>) -> Option<[(f64, f64); 2]> {
    let (mut x0, mut x1) = (xr.start, xr.end);
    if b != 0.0 {
        let (ya, yb) = ((yr.start - a) / b, (yr.end - a) / b);
        x0 = x0.max(ya.min(yb));
        x1 = x1.min(ya.max(yb));
    } else if !(yr.start..=yr.end).contains(&a) {
        return None;
    }
    let ends = [(x0, a + b * x0), (x1, a + b * x1)];
    let inside = |&(x, y): &(f64, f64)| {
        // A pixel's worth of slack for rounding at the box's edges.
        let (dx, dy) = ((xr.end - xr.start) * 1e-3, (yr.end - yr.start) * 1e-3);
        x.is_finite()
            && y.is_finite()
            && (xr.start - dx..=xr.end + dx).contains(&x)
            && (yr.start - dy..=yr.end + dy).contains(&y)
    };
    (x0 <= x1 && ends.iter().all(inside)).then_some(ends)
}

/// A tick label without trailing zeros: `90`, `0.45`; `1.5e12` for large or tiny values.
pub(crate) fn tick(v: &f64) -> String {
    if *v != 0.0 && !(1e-3..1e7).contains(&v.abs()) {
        return format!("{v:.3e}").replace(".000e", "e");
    }
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
        if let Some(ends) = clip_line(a, b, &xr, &yr) {
            chart
                .draw_series(LineSeries::new(
                    ends,
                    ShapeStyle::from(&RGBColor(200, 80, 60)).stroke_width(2),
                ))
                .map_err(chart_error)?;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn plot(values: &[f64]) -> MetaEvalPlot<'static> {
        MetaEvalPlot {
            metric: "m",
            systems: values
                .iter()
                .enumerate()
                .map(|(i, &v)| (format!("s{i}"), v, i as f64))
                .collect(),
            segments: values.iter().map(|&v| (v, -v)).collect(),
            system_pearson: f64::NAN,
            segment_pearson: 0.5,
            segment_kendall_wmt: 0.5,
        }
    }

    /// Each of these once ran plotters' tick search forever (an infinite or rounded-away span).
    #[test]
    fn extreme_finite_values_are_drawn_and_the_drawing_ends() {
        let max = f64::MAX;
        for values in [
            vec![1e308, -1e308, 5.0],
            vec![max, -max],
            vec![max, max],
            vec![-max],
            vec![1e308],
            vec![5e-324, 0.0, -5e-324],
            vec![1e20, 1e20 + 16384.0],
            vec![1e-310, 2e-310],
            vec![0.0, -0.0],
        ] {
            let r = render(&plot(&values)).unwrap();
            assert_eq!(r.files.len(), 4, "{values:?}");
            assert!(r.notes.is_empty(), "{values:?}: {:?}", r.notes);
            for v in &values {
                let r = range(std::iter::once(*v)).unwrap();
                assert!((r.end - r.start).is_finite() && r.end >= r.start, "{v}");
            }
        }
    }

    #[test]
    fn non_finite_points_are_left_out_with_a_note_naming_them() {
        let mut p = plot(&[1.0, 2.0, 3.0]);
        p.systems[1].1 = f64::INFINITY;
        p.segments[2].1 = f64::NAN;
        let r = render(&p).unwrap();
        assert_eq!(r.notes.len(), 2, "{:?}", r.notes);
        assert!(r.notes[0].contains("system \"s1\""), "{:?}", r.notes);
        assert!(r.notes[1].contains("output 3"), "{:?}", r.notes);
    }

    #[test]
    fn ranges_stay_finite_and_contain_representable_spans() {
        let r = range([-1.0, 3.0].into_iter()).unwrap();
        assert!(r.start < -1.0 && r.end > 3.0);
        let r = range([1e308, -1e308].into_iter()).unwrap();
        assert!((r.end - r.start).is_finite());
        let r = range([7.0].into_iter()).unwrap();
        assert_eq!((r.start, r.end), (6.0, 8.0));
    }
}
