//! `gammon analyse` with dice, cubeful: the context line, then the moves
//! ranked by cubeful equity (money: equity per unit of the cube beside the
//! cubeless one; match: match winning chances and EMG).

use super::{gnubg_line, short_name, write_wrapped, WIDTH};
use gammon_engine::api::{CubefulMove, CubefulRollAnalysis};
use gammon_rules::{CubeOwner, GameContext};
use std::io::{self, Write};

/// The game context in one line, said first so that a player sees at once
/// whether the score is used: `Money play, cube 1 centred, Jacoby off,
/// beavers not allowed` or `7-point match, score 5-6 (X 2-away, O 1-away),
/// Crawford game, cube 1`.
pub fn context_line(ctx: &GameContext) -> String {
    let cube = match ctx.cube_owner {
        CubeOwner::Centered => format!("cube {} centred", ctx.cube_value),
        CubeOwner::OnRoll => format!("cube {} owned by X", ctx.cube_value),
        CubeOwner::Opponent => format!("cube {} owned by O", ctx.cube_value),
    };
    if ctx.is_money() {
        let on_off = |b: bool| if b { "on" } else { "off" };
        return format!(
            "Money play, {cube}, Jacoby {}, beavers {}",
            on_off(ctx.jacoby),
            if ctx.beaver { "allowed" } else { "not allowed" }
        );
    }
    let (x, o) = ctx.score;
    let away = ctx.away().map_or(String::new(), |(a, b)| format!(" (X {a}-away, O {b}-away)"));
    let phase = if ctx.crawford {
        ", Crawford game"
    } else if ctx.is_post_crawford() {
        ", post-Crawford"
    } else {
        ""
    };
    format!("{}-point match, score {x}-{o}{away}{phase}, {cube}", ctx.match_length)
}

/// Writes the context line and the notes on it (what of the position the
/// options kept).
pub fn context_header(out: &mut impl Write, ctx: &GameContext, notes: &[String]) -> io::Result<()> {
    write_wrapped(out, &context_line(ctx), " ", "   ")?;
    for n in notes {
        write_wrapped(out, &format!("Note: {n}"), " ", "   ")?;
    }
    Ok(())
}

/// `gammon analyse` with dice: the context, the board, the moves ranked by
/// cubeful equity and the work done; `verbose` names the evaluator in full.
pub fn cubeful_roll_analysis(
    out: &mut impl Write,
    a: &CubefulRollAnalysis,
    notes: &[String],
    verbose: bool,
) -> io::Result<()> {
    let (pos, dice) = (&a.position, a.dice);
    context_header(out, &a.context, notes)?;
    write!(out, "{pos}")?;
    writeln!(out, " Dice: {dice}")?;
    writeln!(out)?;
    if a.moves.is_empty() {
        return writeln!(out, "No legal move for {dice}: the turn passes.");
    }
    let unit = if a.is_match() {
        "match winning chances (MWC) and cubeful equity normalised to money (EMG)"
    } else if a.context.cube_value > 1 {
        "cubeful equity per unit of the cube"
    } else {
        "cubeful equity"
    };
    let header = format!(
        "{} legal move{}, ranked at {}-ply by {} on {unit} (0-ply = static evaluation).",
        a.moves.len(),
        if a.moves.len() == 1 { "" } else { "s" },
        a.plies,
        short_name(&a.evaluator)
    );
    write_wrapped(out, &header, " ", " ")?;
    if verbose {
        write_wrapped(out, &format!("Evaluator: {}", a.evaluator), " ", "   ")?;
    }
    let notations: Vec<String> = a.moves.iter().map(|m| pos.format_move(&m.mv)).collect();
    let longest = notations.iter().map(String::len).max().unwrap_or(0);
    let table = Table::of(a, longest);
    let rows: Vec<(&String, String)> =
        notations.iter().zip(&a.moves).enumerate().map(|(i, (n, m))| (n, table.numbers(m, i == 0))).collect();
    // A move too long for its column within 80 goes on a line of its own.
    let numbers = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let most = Table::room(numbers);
    let width = rows.iter().map(|r| r.0.len()).filter(|&n| n <= most).max().unwrap_or(4).max(4);
    writeln!(
        out,
        "{:>3} {:<width$}  {:>3} {} {:>6} {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}",
        "#",
        "move",
        "ply",
        table.headings(),
        "loss",
        "win",
        "gam",
        "bg",
        "lose",
        "gam",
        "bg"
    )?;
    super::move_rows(out, &rows, width, " ")?;
    super::search_work(out, &a.stats, a.elapsed)
}

/// The columns of values between the depth and the loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    /// Match play: MWC in percent, then EMG.
    Match,
    /// Money play: the cubeful equity, and the cubeless one when the
    /// longest move still fits in its column with it.
    Money { cubeless: bool },
}

impl Table {
    /// The widest move notation that fits on a row beside `numbers`
    /// characters of values.
    const fn room(numbers: usize) -> usize {
        WIDTH.saturating_sub(3 + 1 + 2 + numbers)
    }

    /// The table for `a`, whose longest move notation is `longest` long.
    fn of(a: &CubefulRollAnalysis, longest: usize) -> Table {
        if a.is_match() {
            return Table::Match;
        }
        let with = Table::Money { cubeless: true };
        // Any row's values are as long as any other's: measure the first.
        let fits = a.moves.first().is_some_and(|m| longest <= Table::room(with.numbers(m, false).len()));
        Table::Money { cubeless: fits }
    }

    /// The headings of the values, as wide as `Table::values`.
    fn headings(self) -> String {
        match self {
            Table::Match => format!("{:>7} {:>6}", "MWC", "EMG"),
            Table::Money { cubeless: true } => format!("{:>6} {:>8}", "equity", "cubeless"),
            Table::Money { cubeless: false } => format!("{:>6}", "equity"),
        }
    }

    /// The depth, the values, the loss (blank for the best) and the
    /// probabilities of `m`.
    fn numbers(self, m: &CubefulMove, best: bool) -> String {
        let values = match (self, m.mwc) {
            (Table::Match, Some(mwc)) => format!("{:>6.2}% {:+6.3}", 100.0 * mwc, m.equity),
            (Table::Match, None) => format!("{:>7} {:+6.3}", "", m.equity),
            (Table::Money { cubeless: true }, _) => format!("{:+6.3} {:+8.3}", m.equity, m.probabilities.equity()),
            (Table::Money { cubeless: false }, _) => format!("{:+6.3}", m.equity),
        };
        let loss = if best { String::new() } else { format!("{:+.3}", -m.loss) };
        format!("{:>3} {values} {loss:>6} {}", m.plies, gnubg_line(m.probabilities))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_line_names_the_score_and_the_phase() {
        let mut ctx = GameContext::new_match(7);
        ctx.score = (6, 4);
        assert_eq!(context_line(&ctx), "7-point match, score 6-4 (X 1-away, O 3-away), post-Crawford, cube 1 centred");
        ctx.crawford = true;
        assert!(context_line(&ctx).contains("3-away), Crawford game, cube 1"), "{}", context_line(&ctx));
        let owned = GameContext { cube_value: 4, cube_owner: CubeOwner::OnRoll, jacoby: true, ..GameContext::money() };
        assert_eq!(context_line(&owned), "Money play, cube 4 owned by X, Jacoby on, beavers not allowed");
    }
}
