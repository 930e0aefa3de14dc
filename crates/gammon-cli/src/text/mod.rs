//! The text printers: each renders one of the engine's answers for people.

mod cube;
mod rollout;

pub use cube::{cube_decision, cube_in_analysis};
pub use rollout::{rollout_report, RolloutProgressLine};

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

/// The table of chances in percent, X (on roll) and O.
fn chances_table(out: &mut impl Write, p: Probabilities) -> io::Result<()> {
    writeln!(out, "          win   gammon  backgammon")?;
    writeln!(out, " X (me)  {:6.2}%  {:6.2}%  {:6.2}%", 100.0 * p.win, 100.0 * p.win_gammon, 100.0 * p.win_backgammon)?;
    writeln!(
        out,
        " O       {:6.2}%  {:6.2}%  {:6.2}%",
        100.0 * (1.0 - p.win),
        100.0 * p.lose_gammon,
        100.0 * p.lose_backgammon
    )
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

/// `gammon analyse` with dice: the ranked moves and the work done.
pub fn roll_analysis(out: &mut impl Write, a: &RollAnalysis) -> io::Result<()> {
    let (pos, dice) = (&a.position, a.dice);
    write!(out, "{pos}")?;
    writeln!(out, " Dice: {dice}")?;
    writeln!(out)?;
    if a.moves.is_empty() {
        return writeln!(out, "No legal move for {dice}: the turn passes.");
    }
    writeln!(
        out,
        " {} legal move{}, ranked at {}-ply by {} (0-ply = static evaluation).",
        a.moves.len(),
        if a.moves.len() == 1 { "" } else { "s" },
        a.plies,
        a.evaluator
    )?;
    let notations: Vec<String> = a.moves.iter().map(|m| pos.format_move(&m.move_)).collect();
    let width = notations.iter().map(String::len).max().unwrap_or(4).max(4);
    writeln!(
        out,
        "{:>3}  {:<width$}  {:>3}  {:>7}  {:>6}  {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}",
        "#", "move", "ply", "equity", "loss", "win", "gam", "bg", "lose", "gam", "bg"
    )?;
    for (i, (m, notation)) in a.moves.iter().zip(&notations).enumerate() {
        let loss = if i == 0 { String::new() } else { format!("{:+.3}", -m.loss) };
        writeln!(
            out,
            "{:>3}  {notation:<width$}  {:>3}  {:+7.3}  {loss:>6}  {}",
            i + 1,
            m.plies,
            m.equity,
            gnubg_line(m.probabilities)
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        " {} positions evaluated in {:.2} s ({} cache hits).",
        a.stats.evaluations,
        a.elapsed.as_secs_f64(),
        a.stats.cache_hits
    )
}

/// `gammon analyse` without dice: the n-ply evaluation, then the cube
/// decision at the same depth or why there is none.
pub fn position_analysis(out: &mut impl Write, e: &Evaluation, cube: &Result<CubeReport, String>) -> io::Result<()> {
    let p = e.probabilities;
    write!(out, "{}", e.position)?;
    writeln!(out)?;
    if e.is_exact() {
        writeln!(out, " Evaluated by: {} (exact, the same at every depth)", evaluated_by(e.class))?;
    } else {
        writeln!(
            out,
            " Evaluated at {}-ply by {} ({}; 0-ply = static evaluation)",
            e.plies,
            e.evaluator,
            evaluated_by(e.class)
        )?;
    }
    chances_table(out, p)?;
    writeln!(out, " {}", gnubg_line(p))?;
    writeln!(out, " Cubeless equity: {:+.3}", p.equity())?;
    writeln!(out)?;
    match cube {
        Ok(d) => cube_in_analysis(out, d),
        Err(e) => writeln!(out, " Cube decision: none ({e})."),
    }
}
