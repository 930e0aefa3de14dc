//! The text printers: each renders one of the engine's answers for people.

mod cube;
mod cubeful;
mod rollout;

pub use cube::{cube_decision, cube_in_analysis, cube_matrix};
pub use cubeful::{context_header, cubeful_roll_analysis};
pub use rollout::{
    cube_rollout_report, merged_cube_rollout_report, merged_rollout_report, rollout_report, RolloutProgressLine,
};

use gammon_engine::api::{CubeReport, Evaluation, LegalMoves, RollAnalysis};
use gammon_eval::{evaluated_by, Probabilities};
use std::io::{self, Write};

/// gnubg's line of probabilities: `0.545 0.162 0.008 - 0.455 0.121 0.005`.
fn gnubg_line(p: Probabilities) -> String {
    format!(
        "{:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
        p.win,
        p.win_gammon,
        p.win_backgammon,
        1.0 - p.win,
        p.lose_gammon,
        p.lose_backgammon
    )
}

/// The width the text printers keep to: a terminal's 80 columns.
pub const WIDTH: usize = 80;

/// Writes `text` wrapped at [`WIDTH`] at spaces only (an ID or a `2-ply` is
/// never cut): the first line after `first`, the others after `rest`.
pub(crate) fn write_wrapped(out: &mut impl Write, text: &str, first: &str, rest: &str) -> io::Result<()> {
    let options = textwrap::Options::new(WIDTH)
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    for line in textwrap::wrap(text, options) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// An evaluator's name without the history its weights' notes carry
/// (`gammon v2-distill: v2-finetune + 8 rounds of …` gives
/// `gammon v2-distill`); `--verbose` shows it all.
pub(crate) fn short_name(name: &str) -> &str {
    name.split_once(": ").map_or(name, |(short, _)| short)
}

/// The table of chances in percent, X (on roll) and O. Each heading ends
/// where the numbers under it end.
fn chances_table(out: &mut impl Write, p: Probabilities) -> io::Result<()> {
    writeln!(out, "{:8}{:>8}{:>9}{:>12}", "", "win", "gammon", "backgammon")?;
    let row = |out: &mut dyn Write, label: &str, win: f32, gammon: f32, backgammon: f32| {
        writeln!(out, "{label:8}{:>7.2}%{:>8.2}%{:>11.2}%", 100.0 * win, 100.0 * gammon, 100.0 * backgammon)
    };
    row(out, " X (me)", p.win, p.win_gammon, p.win_backgammon)?;
    row(out, " O", 1.0 - p.win, p.lose_gammon, p.lose_backgammon)
}

/// `gammon moves`: the board, the roll and the numbered moves.
pub fn legal_moves(out: &mut impl Write, moves: &LegalMoves) -> io::Result<()> {
    let pos = &moves.position;
    write!(out, "{pos}")?;
    writeln!(out, " Dice: {}", moves.dice)?;
    writeln!(out)?;
    if moves.moves.is_empty() {
        return writeln!(out, "No legal move: the turn passes.");
    }
    let s = if moves.moves.len() == 1 { "" } else { "s" };
    writeln!(out, "{} legal move{s}:", moves.moves.len())?;
    let rows: Vec<(String, String)> =
        moves.moves.iter().map(|m| (pos.format_move(&m.mv), m.result.to_position_id())).collect();
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    for (i, (notation, id)) in rows.iter().enumerate() {
        writeln!(out, "{:>4}. {notation:<width$}  {id}", i + 1)?;
    }
    Ok(())
}

/// `gammon eval`: the board, the part of the evaluator that answered and
/// the chances.
pub fn evaluation(out: &mut impl Write, e: &Evaluation) -> io::Result<()> {
    let p = e.probabilities;
    write!(out, "{}", e.position)?;
    writeln!(out)?;
    writeln!(out, " Evaluated by: {}", evaluated_by(e.class))?;
    chances_table(out, p)?;
    writeln!(out, " Cubeless equity: {:+.3}", p.equity())
}

/// `gammon analyse` with dice: the ranked moves and the work done;
/// `verbose` names the evaluator in full.
pub fn roll_analysis(out: &mut impl Write, a: &RollAnalysis, verbose: bool) -> io::Result<()> {
    let (pos, dice) = (&a.position, a.dice);
    write!(out, "{pos}")?;
    writeln!(out, " Dice: {dice}")?;
    writeln!(out)?;
    if a.moves.is_empty() {
        return writeln!(out, "No legal move for {dice}: the turn passes.");
    }
    let header = format!(
        "{} legal move{}, ranked at {}-ply by {} (0-ply = static evaluation).",
        a.moves.len(),
        if a.moves.len() == 1 { "" } else { "s" },
        a.plies,
        short_name(&a.evaluator)
    );
    write_wrapped(out, &header, " ", " ")?;
    if verbose {
        write_wrapped(out, &format!("Evaluator: {}", a.evaluator), " ", "   ")?;
    }
    let rows: Vec<(String, String)> = a
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let loss = if i == 0 { String::new() } else { format!("{:+.3}", -m.loss) };
            let numbers = format!("{:>3}  {:+6.3}  {loss:>6}  {}", m.plies, m.equity, gnubg_line(m.probabilities));
            (pos.format_move(&m.mv), numbers)
        })
        .collect();
    // A move too long for its column within 80 goes on a line of its own.
    let numbers = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let most = WIDTH.saturating_sub(3 + 2 + 2 + numbers);
    let width = rows.iter().map(|r| r.0.len()).filter(|&n| n <= most).max().unwrap_or(4).max(4);
    writeln!(
        out,
        "{:>3}  {:<width$}  {:>3}  {:>6}  {:>6}  {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}",
        "#", "move", "ply", "equity", "loss", "win", "gam", "bg", "lose", "gam", "bg"
    )?;
    move_rows(out, &rows, width, "  ")?;
    search_work(out, &a.stats, a.elapsed)
}

/// The ranked moves' rows: the rank, the move in a column `width` wide
/// after `gap`, then its numbers; a longer move gets a line of its own.
pub(crate) fn move_rows(
    out: &mut impl Write,
    rows: &[(impl AsRef<str>, String)],
    width: usize,
    gap: &str,
) -> io::Result<()> {
    for (i, (notation, numbers)) in rows.iter().enumerate() {
        let notation = notation.as_ref();
        if notation.len() > width {
            writeln!(out, "{:>3}{gap}{notation}", i + 1)?;
            writeln!(out, "{:>3}{gap}{:<width$}  {numbers}", "", "")?;
        } else {
            writeln!(out, "{:>3}{gap}{notation:<width$}  {numbers}", i + 1)?;
        }
    }
    Ok(())
}

/// The search's work line after a blank line.
pub(crate) fn search_work(
    out: &mut impl Write,
    stats: &gammon_engine::search::SearchStats,
    elapsed: std::time::Duration,
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        " {} positions evaluated in {:.2} s ({} cache hits).",
        stats.evaluations,
        elapsed.as_secs_f64(),
        stats.cache_hits
    )
}

/// `gammon analyse` without dice: the n-ply evaluation, then the cube
/// decision at the same depth or why there is none.
pub fn position_analysis(
    out: &mut impl Write,
    e: &Evaluation,
    cube: &Result<CubeReport, String>,
    verbose: bool,
) -> io::Result<()> {
    let p = e.probabilities;
    write!(out, "{}", e.position)?;
    writeln!(out)?;
    if e.is_exact() {
        writeln!(out, " Evaluated by: {} (exact, the same at every depth)", evaluated_by(e.class))?;
    } else {
        let header = format!(
            "Evaluated at {}-ply by {} ({}; 0-ply = static evaluation)",
            e.plies,
            short_name(&e.evaluator),
            evaluated_by(e.class)
        );
        write_wrapped(out, &header, " ", " ")?;
    }
    if verbose {
        write_wrapped(out, &format!("Evaluator: {}", e.evaluator), " ", "   ")?;
    }
    chances_table(out, p)?;
    writeln!(out, " {}", gnubg_line(p))?;
    writeln!(out, " Cubeless equity: {:+.3}", p.equity())?;
    writeln!(out)?;
    match cube {
        Ok(d) => cube_in_analysis(out, d),
        Err(e) => write_wrapped(out, &format!("Cube decision: none ({e})."), " ", "   "),
    }
}
