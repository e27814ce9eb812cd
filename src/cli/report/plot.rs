//! The report's four SVG plots, drawn alike: the page, title, margins, grid and legend of every
//! chart are written once ([`svg`], [`chart_on`], [`mesh`], `draw_legend!`), and each plot adds
//! its axes and series.

use super::{CubeCurve, EloData, PentagoData, SizeRow, Sizes};
use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

/// Okabe and Ito's colour-blind-safe palette: blue, vermilion, bluish green, orange, reddish
/// purple, sky blue.
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(230, 159, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
];

const SIZE: (u32, u32) = (760, 480);
const FONT: &str = "sans-serif";

fn draw_error(e: impl std::fmt::Display) -> String {
    format!("cannot draw a plot: {e}")
}

/// The log axis range that holds `values` with some room, whole powers of ten.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::MAX, f64::MIN_POSITIVE);
    for v in values.filter(|v| *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return 0.1..10.0;
    }
    let lo = 10f64.powf(lo.log10().floor());
    // At least two decades, so that at least three powers of ten are labelled.
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 100.0);
    // A little room beyond the powers of ten, so that both ends are drawn and labelled.
    lo / 1.25..hi * 1.25
}

/// A log axis's label: 1 ms, 10 k, 1 M.
fn log_label(v: f64, unit_seconds: bool) -> String {
    // Only powers of ten are labelled: the ticks between them would crowd the axis.
    let exp = v.log10();
    if (exp - exp.round()).abs() > 1e-6 {
        return String::new();
    }
    if unit_seconds {
        return match v {
            v if v >= 1.0 => format!("{v:.0} s"),
            v if v >= 1e-3 => format!("{:.0} ms", v * 1e3),
            v => format!("{:.0} us", v * 1e6),
        };
    }
    match v {
        v if v >= 1e9 => format!("{:.0} G", v / 1e9),
        v if v >= 1e6 => format!("{:.0} M", v / 1e6),
        v if v >= 1e3 => format!("{:.0} k", v / 1e3),
        v => format!("{v}"),
    }
}

/// The legend box every plot draws, at `position` (a `SeriesLabelPosition`): a macro, as the
/// single and dual-axis charts are different types.
macro_rules! draw_legend {
    ($chart:ident, $position:ident) => {
        $chart
            .configure_series_labels()
            .position(SeriesLabelPosition::$position)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.5))
            .label_font((FONT, 14))
            .draw()
            .map_err(draw_error)?
    };
}

/// A line with a marker at each point (its legend a line): the marker shape differs from series
/// to series (circle, triangle, cross) so that the colours are not the only cue.
macro_rules! draw_points {
    ($chart:expr, $draw:ident, $points:expr, $index:expr, $label:expr) => {{
        let color = PALETTE[$index % PALETTE.len()];
        let points: Vec<(f64, f64)> = $points;
        let line = LineSeries::new(points.clone(), color.stroke_width(2));
        let stroke = color.stroke_width(2);
        // The legend shows the line and the marker, as the plot does (offsets from its place).
        let legend_line = move |x: i32, y: i32| {
            EmptyElement::at((x, y)) + PathElement::new(vec![(-8, 0), (12, 0)], stroke)
        };
        match $index % 3 {
            0 => {
                $chart
                    .$draw(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                    .map_err(draw_error)?;
                $chart
                    .$draw(line)
                    .map_err(draw_error)?
                    .label($label)
                    .legend(move |(x, y)| {
                        legend_line(x, y) + Circle::new((2, 0), 4, color.filled())
                    });
            }
            1 => {
                $chart
                    .$draw(
                        points
                            .iter()
                            .map(|&p| TriangleMarker::new(p, 6, color.filled())),
                    )
                    .map_err(draw_error)?;
                $chart
                    .$draw(line)
                    .map_err(draw_error)?
                    .label($label)
                    .legend(move |(x, y)| {
                        legend_line(x, y) + TriangleMarker::new((2, 0), 6, color.filled())
                    });
            }
            _ => {
                $chart
                    .$draw(points.iter().map(|&p| Cross::new(p, 5, stroke)))
                    .map_err(draw_error)?;
                $chart
                    .$draw(line)
                    .map_err(draw_error)?
                    .label($label)
                    .legend(move |(x, y)| legend_line(x, y) + Cross::new((2, 0), 5, stroke));
            }
        }
    }};
}

/// The x axis range that holds `xs`, `pad` beyond the least and the greatest.
fn padded(xs: impl Iterator<Item = f64> + Clone, pad: f64) -> std::ops::Range<f64> {
    let lo = xs.clone().fold(f64::MAX, f64::min) - pad;
    let hi = xs.fold(f64::MIN, f64::max) + pad;
    lo..hi
}

/// A plot as SVG text: a white page of [`SIZE`], `draw` on it, then the page written out.
fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        draw(&root)?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// The chart of every plot, to be built on its axes: the title, the margin and the bottom and
/// left label areas.
fn chart_on<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    caption: impl AsRef<str>,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(caption, (FONT, 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70);
    builder
}

/// The grid and axes of every plot, to be drawn once the plot has set its labels: the axes'
/// titles, the labels' font and no minor grid lines.
fn mesh<'a, 'b, DB, X, Y, XT, YT>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: impl Into<String>,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .label_style((FONT, 14))
        .light_line_style(WHITE.mix(0.0));
    mesh
}

/// An axis label for whole numbers only (stones, cells): the ticks between them stay bare.
fn whole(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

pub(super) fn plot_cube(c: &CubeCurve) -> Result<String, String> {
    let x = padded(c.rows.iter().map(|r| f64::from(r.stones)), 1.0);
    let y1 = log_range(c.rows.iter().map(|r| r.seconds));
    let y2 = log_range(c.rows.iter().map(|r| r.mean_nodes));
    let count = c.rows.first().map_or(0, |r| r.count);
    svg(|root| {
        let mut chart = chart_on(
            root,
            format!("Connect Four 3D: {count} positions of N stones, generated and solved"),
        )
        .right_y_label_area_size(70)
        .build_cartesian_2d(x.clone(), y1.log_scale())
        .map_err(draw_error)?
        .set_secondary_coord(x, y2.log_scale());
        mesh(
            &mut chart,
            "stones on the board (fewer = harder)",
            format!("seconds for all {count} (log)"),
        )
        .x_label_formatter(&whole)
        .y_label_formatter(&|v| log_label(*v, true))
        .draw()
        .map_err(draw_error)?;
        chart
            .configure_secondary_axes()
            .y_desc("mean nodes a position (log)")
            .y_label_formatter(&|v| log_label(*v, false))
            .label_style((FONT, 14))
            .draw()
            .map_err(draw_error)?;
        let secs: Vec<(f64, f64)> = c
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.seconds))
            .collect();
        let nodes: Vec<(f64, f64)> = c
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.mean_nodes))
            .collect();
        draw_points!(chart, draw_series, secs, 0, "seconds for all (left)");
        draw_points!(chart, draw_secondary_series, nodes, 1, "mean nodes (right)");
        draw_legend!(chart, UpperRight);
        Ok(())
    })
}

pub(super) fn plot_sizes(s: &Sizes, nodes: bool) -> Result<String, String> {
    let value = |r: &SizeRow| {
        if nodes { r.nodes as f64 } else { r.seconds }
    };
    let x = padded(s.rows.iter().map(|r| f64::from(r.cells)), 1.0);
    let y = log_range(s.rows.iter().map(value));
    let mut heights: Vec<u32> = s.rows.iter().map(|r| r.height).collect();
    heights.sort_unstable();
    heights.dedup();
    svg(|root| {
        let what = if nodes { "nodes" } else { "seconds" };
        let mut chart = chart_on(
            root,
            format!("Connect Four, empty boards: {what} to the exact score"),
        )
        .build_cartesian_2d(x, y.log_scale())
        .map_err(draw_error)?;
        let y_desc = if nodes {
            "nodes (log)"
        } else {
            "seconds, one thread (log)"
        };
        mesh(&mut chart, "cells (width x height)", y_desc)
            .x_label_formatter(&whole)
            .y_label_formatter(&|v| log_label(*v, !nodes))
            .draw()
            .map_err(draw_error)?;
        for (i, &h) in heights.iter().enumerate() {
            let points: Vec<(f64, f64)> = s
                .rows
                .iter()
                .filter(|r| r.height == h)
                .map(|r| (f64::from(r.cells), value(r)))
                .collect();
            draw_points!(chart, draw_series, points, i, format!("height {h}"));
        }
        // Each point named, so that a reader can find a board.
        chart
            .draw_series(s.rows.iter().map(|r| {
                Text::new(
                    format!("{}x{}", r.width, r.height),
                    (f64::from(r.cells) + 0.3, value(r)),
                    (FONT, 11).into_font().color(&BLACK.mix(0.7)),
                )
            }))
            .map_err(draw_error)?;
        draw_legend!(chart, UpperLeft);
        Ok(())
    })
}

pub(super) fn plot_pentago(p: &PentagoData) -> Result<String, String> {
    let stones = p.rows.iter().map(|r| f64::from(r.stones));
    let x = padded(
        stones.chain(p.irving.rows.iter().map(|r| f64::from(r.stones))),
        0.5,
    );
    let y = log_range(
        p.rows
            .iter()
            .map(|r| r.cpu_s)
            .chain(p.irving.rows.iter().map(|r| r.irving_cpu_s))
            .chain(p.irving.rows.iter().map(|r| r.inarow_cpu_s)),
    );
    svg(|root| {
        let mut chart = chart_on(
            root,
            "Pentago midgame solver: CPU seconds a position (median), one thread",
        )
        .build_cartesian_2d(x, y.log_scale())
        .map_err(draw_error)?;
        mesh(
            &mut chart,
            "stones on the board (fewer = harder)",
            "CPU seconds a position (log)",
        )
        .x_label_formatter(&whole)
        .y_label_formatter(&|v| log_label(*v, true))
        .draw()
        .map_err(draw_error)?;
        let ours: Vec<(f64, f64)> = p
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.cpu_s))
            .collect();
        draw_points!(chart, draw_series, ours, 0, "inarow, stone-count table");
        let tag = if p.irving.measured {
            "measured side by side"
        } else {
            "stored figures"
        };
        let his: Vec<(f64, f64)> = p
            .irving
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.irving_cpu_s))
            .collect();
        draw_points!(chart, draw_series, his, 1, format!("Irving ({tag})"));
        let beside: Vec<(f64, f64)> = p
            .irving
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.inarow_cpu_s))
            .collect();
        draw_points!(
            chart,
            draw_series,
            beside,
            2,
            format!("inarow beside Irving ({tag})")
        );
        draw_legend!(chart, UpperRight);
        Ok(())
    })
}

pub(super) fn plot_elo(e: &EloData) -> Result<String, String> {
    let n = e.ladder.len();
    let lo = e.ladder.iter().map(|r| r.elo - r.error).fold(0.0, f64::min);
    let hi = e.ladder.iter().map(|r| r.elo + r.error).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.1).max(50.0);
    let names: Vec<String> = e.ladder.iter().map(|r| r.level.clone()).collect();
    svg(|root| {
        let mut chart = chart_on(
            root,
            format!(
                "Engines' Elo ladder, {} ({} s a move, {} games a match)",
                e.game, e.seconds_per_move, e.games
            ),
        )
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), (lo - pad)..(hi + pad))
        .map_err(draw_error)?;
        let label = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        };
        mesh(
            &mut chart,
            "engine level (play --engine), weakest first",
            "Elo above random (95% interval)",
        )
        .x_labels(2 * n + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&|v| format!("{v:+.0}"))
        .disable_x_mesh()
        .draw()
        .map_err(draw_error)?;
        let color = PALETTE[0];
        let bound_color = PALETTE[1];
        chart
            .draw_series(e.ladder.iter().enumerate().map(|(i, r)| {
                ErrorBar::new_vertical(
                    i as f64,
                    r.elo - r.error,
                    r.elo,
                    r.elo + r.error,
                    color.stroke_width(2),
                    12,
                )
            }))
            .map_err(draw_error)?;
        chart
            .draw_series(
                e.ladder
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| !r.bound)
                    .map(|(i, r)| Circle::new((i as f64, r.elo), 5, color.filled())),
            )
            .map_err(draw_error)?
            .label("Elo, 95% interval")
            .legend(move |(x, y)| Circle::new((x, y), 5, color.filled()));
        if e.ladder.iter().any(|r| r.bound) {
            chart
                .draw_series(
                    e.ladder
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.bound)
                        .map(|(i, r)| {
                            TriangleMarker::new((i as f64, r.elo), 7, bound_color.filled())
                        }),
                )
                .map_err(draw_error)?
                .label("at least (a match below was all one way)")
                .legend(move |(x, y)| TriangleMarker::new((x, y), 7, bound_color.filled()));
        }
        draw_legend!(chart, UpperLeft);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_ranges() {
        assert_eq!(log_label(1e6, false), "1 M");
        assert_eq!(log_label(2e6, false), "");
        assert_eq!(log_label(1e-3, true), "1 ms");
        assert_eq!(log_label(10.0, true), "10 s");
        let r = log_range([0.02, 3.0].into_iter());
        assert!(
            (r.start - 0.008).abs() < 1e-12 && (r.end - 12.5).abs() < 1e-9,
            "{r:?}"
        );
        let r = log_range([2.0, 3.0].into_iter());
        assert!(
            (r.start - 0.8).abs() < 1e-12 && (r.end - 125.0).abs() < 1e-9,
            "{r:?}"
        );
    }
}
