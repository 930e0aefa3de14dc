//! The learning curve: ppg against pubeval versus games, as CSV and SVG.

use crate::checkpoint::BenchmarkRow;
use gammon_eval::file_format::{write_output, FileError};
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// Writes `rows` as CSV (header `games,ppg,standard_error,win_rate,elapsed_s`).
///
/// # Errors
/// The file cannot be written.
pub fn write_csv(path: &Path, rows: &[BenchmarkRow]) -> Result<(), FileError> {
    let mut csv = String::from("games,ppg,standard_error,win_rate,elapsed_s\n");
    for r in rows {
        let _ = writeln!(csv, "{},{:.4},{:.4},{:.4},{:.1}", r.games, r.ppg, r.standard_error, r.win_rate, r.elapsed_s);
    }
    write_output(path, csv.as_bytes())
}

/// Draws ppg ± one standard error against games as an SVG.
///
/// # Errors
/// Drawing or writing failed (the message says which).
pub fn write_svg(path: &Path, title: &str, x_desc: &str, rows: &[BenchmarkRow]) -> Result<(), String> {
    let max_games = rows.iter().map(|r| r.games).max().unwrap_or(1).max(1) as f64;
    let lo = rows.iter().map(|r| r.ppg - r.standard_error).fold(-0.2f64, f64::min).min(0.0) - 0.05;
    let hi = rows.iter().map(|r| r.ppg + r.standard_error).fold(0.7f64, f64::max) + 0.05;
    let mut svg = String::new();
    draw_svg(&mut svg, title, x_desc, rows, max_games, lo, hi)?;
    write_output(path, svg.as_bytes()).map_err(|e| match std::error::Error::source(&e) {
        Some(why) => format!("{e}: {why}"),
        None => e.to_string(),
    })
}

/// The chart of [`write_svg`], drawn into `svg`.
fn draw_svg(
    svg: &mut String,
    title: &str,
    x_desc: &str,
    rows: &[BenchmarkRow],
    max_games: f64,
    lo: f64,
    hi: f64,
) -> Result<(), String> {
    let root = SVGBackend::with_string(svg, (900, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..max_games * 1.02, lo..hi)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&|x| format!("{:.0}k", x / 1000.0))
        .y_label_formatter(&|y| format!("{y:+.1}"))
        .x_desc(x_desc)
        .y_desc("points per game vs pubeval")
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (max_games * 1.02, 0.0)], &BLACK.mix(0.3)))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new(rows.iter().map(|r| (r.games as f64, r.ppg)), &BLUE))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(rows.iter().map(|r| {
            PathElement::new(
                vec![(r.games as f64, r.ppg - r.standard_error), (r.games as f64, r.ppg + r.standard_error)],
                BLUE.mix(0.5),
            )
        }))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(rows.iter().map(|r| Circle::new((r.games as f64, r.ppg), 3, BLUE.filled())))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
