//! `gammon analyse`: the legal moves of a roll ranked by n-ply search, or the
//! n-ply evaluation of a position before the roll with its cube decision at
//! the same depth (see `gammon cube`): money play with a centred cube, or
//! the context an XGID carries (cube, owner, score, match length, Crawford,
//! Jacoby, beavers).

use crate::cube_cmd::{self, CubeJson};
use crate::evaluators;
use crate::json::EvaluationJson;
use crate::position_arg::parse_position;
use anyhow::{Context, Result};
use clap::Args;
use gammon_engine::cube::{analyse_position_nply, CubeAnalysis};
use gammon_engine::met::Met;
use gammon_engine::search::{RankedMove, Search};
use gammon_eval::{evaluated_by, Evaluator, NetEvaluator, PositionClass, Probabilities};
use gammon_rules::{Dice, GameContext, Position};
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `gammon analyse`.
#[derive(Debug, Args)]
#[command(after_help = "Plies are counted as gnubg counts them: 0 = the static evaluation of the net, \
1 = every roll of the side to move next and its best reply, 2 = every roll of both sides.\n\
With dice, every legal move is ranked: all at 0 ply, then gnubg's \"normal\" move filter keeps \
up to 8 moves within 0.16 equity for the full depth (at 3 plies the best 2 of those within 0.04 \
after 2 plies). Moves the filter dropped are shown at the depth they reached.\n\
Without dice, the cube decision of the player on roll follows at the same depth, as `gammon cube --ply` \
gives it: money play with a centred cube, or the cube, score and rules of an XGID.")]
pub struct AnalyseArgs {
    /// The position, player on roll to move: Position ID, XGID or `start`.
    position: String,
    /// The roll to analyse, like `31` (an XGID may carry it instead). Without
    /// dice: the evaluation of the position before the roll.
    #[arg(long)]
    dice: Option<String>,
    /// Search depth in plies, 0 to 3, counted as gnubg does (0 = static
    /// evaluation, no lookahead).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=3))]
    ply: u8,
    /// Weights file to use instead of the built-in net.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct MoveJson {
    rank: usize,
    /// gnubg notation.
    #[serde(rename = "move")]
    notation: String,
    /// Position ID after the move, seen by the opponent (now on roll).
    result: String,
    /// The depth this move was evaluated at.
    plies: u8,
    /// Cubeless equity for the mover.
    equity: f32,
    /// Equity lost against the best move (0 for the best, else positive).
    loss: f32,
    probabilities: EvaluationJson,
}

#[derive(Serialize)]
struct RollJson {
    position: String,
    dice: String,
    plies: u8,
    evaluator: String,
    moves: Vec<MoveJson>,
}

#[derive(Serialize)]
struct PositionJson {
    position: String,
    plies: u8,
    evaluator: String,
    /// Which part of the evaluator answers (exact ones are not searched).
    class: String,
    probabilities: EvaluationJson,
    /// The cube decision of the player on roll at the same depth (`null`
    /// when there is none, see `cube_error`).
    cube: Option<CubeJson>,
    /// Why there is no cube decision (a finished game, a score the match
    /// equity table does not cover).
    #[serde(skip_serializing_if = "Option::is_none")]
    cube_error: Option<String>,
}

/// Runs `gammon analyse`.
pub fn run(args: &AnalyseArgs) -> Result<()> {
    let arg = parse_position(&args.position)?;
    let dice = match &args.dice {
        Some(d) => Some(d.parse::<Dice>().with_context(|| format!("cannot read dice {d:?} (write them like 31)"))?),
        None => arg.dice,
    };
    let pos = arg.position;
    let net = evaluators::net(args.weights.as_deref())?;
    let evaluator = net.name();
    let search = Search::new(net);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    match dice {
        Some(dice) => analyse_roll(&mut out, &search, &pos, dice, args, &evaluator)?,
        None => analyse_position(&mut out, &search, &pos, args, &evaluator)?,
    }
    out.flush()?;
    Ok(())
}

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

fn analyse_roll(
    out: &mut impl Write,
    search: &Search<NetEvaluator>,
    pos: &Position,
    dice: Dice,
    args: &AnalyseArgs,
    evaluator: &str,
) -> Result<()> {
    if pos.game_result().is_some() {
        anyhow::bail!("the game in this position is over: there is no move to analyse");
    }
    let start = Instant::now();
    let ranked: Vec<RankedMove> = search.analyse_roll(pos, dice, args.ply)?;
    let elapsed = start.elapsed();
    if args.json {
        let json = RollJson {
            position: pos.to_position_id(),
            dice: dice.to_string(),
            plies: args.ply,
            evaluator: evaluator.to_string(),
            moves: ranked
                .iter()
                .enumerate()
                .map(|(i, m)| MoveJson {
                    rank: i + 1,
                    notation: pos.format_move(&m.move_),
                    result: m.result.to_position_id(),
                    plies: m.plies,
                    equity: m.equity,
                    loss: m.loss,
                    probabilities: m.probabilities.into(),
                })
                .collect(),
        };
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(());
    }
    write!(out, "{pos}")?;
    writeln!(out, " Dice: {dice}")?;
    writeln!(out)?;
    if ranked.is_empty() {
        writeln!(out, "No legal move for {dice}: the turn passes.")?;
        return Ok(());
    }
    writeln!(
        out,
        " {} legal move{}, ranked at {}-ply by {evaluator} (0-ply = static evaluation).",
        ranked.len(),
        if ranked.len() == 1 { "" } else { "s" },
        args.ply
    )?;
    let notations: Vec<String> = ranked.iter().map(|m| pos.format_move(&m.move_)).collect();
    let width = notations.iter().map(String::len).max().unwrap_or(4).max(4);
    writeln!(
        out,
        "{:>3}  {:<width$}  {:>3}  {:>7}  {:>6}  {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}",
        "#", "move", "ply", "equity", "loss", "win", "gam", "bg", "lose", "gam", "bg"
    )?;
    for (i, (m, notation)) in ranked.iter().zip(&notations).enumerate() {
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
    let stats = search.stats();
    writeln!(out)?;
    writeln!(
        out,
        " {} positions evaluated in {:.2} s ({} cache hits).",
        stats.evaluations,
        elapsed.as_secs_f64(),
        stats.cache_hits
    )?;
    Ok(())
}

fn analyse_position(
    out: &mut impl Write,
    search: &Search<NetEvaluator>,
    pos: &Position,
    args: &AnalyseArgs,
    evaluator: &str,
) -> Result<()> {
    let p = search.value(pos, args.ply);
    let class = PositionClass::of(pos);
    let by = evaluated_by(class);
    let exact = matches!(class, PositionClass::Finished | PositionClass::Bearoff);
    let (ctx, notes) = cube_cmd::context_of(&args.position)?;
    let cube: Result<CubeAnalysis, String> = if pos.game_result().is_some() {
        Err("the game is over: there is no cube decision".to_string())
    } else {
        analyse_position_nply(search, pos, &ctx, Met::kazaross_xg2(), args.ply).map_err(|e| e.to_string())
    };
    if args.json {
        let net_part = search.evaluator().evaluate_with(pos, &mut search.evaluator().scratch()).1.to_string();
        let (cube, cube_error) = match &cube {
            Ok(a) => (Some(cube_cmd::to_json(pos, &ctx, net_part, args.ply, a, notes)), None),
            Err(e) => (None, Some(e.clone())),
        };
        let json = PositionJson {
            position: pos.to_position_id(),
            plies: args.ply,
            evaluator: evaluator.to_string(),
            class: by.to_string(),
            probabilities: p.into(),
            cube,
            cube_error,
        };
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(());
    }
    write!(out, "{pos}")?;
    writeln!(out)?;
    if exact {
        writeln!(out, " Evaluated by: {by} (exact, the same at every depth)")?;
    } else {
        writeln!(out, " Evaluated at {}-ply by {evaluator} ({by}; 0-ply = static evaluation)", args.ply)?;
    }
    writeln!(out, "          win   gammon  backgammon")?;
    writeln!(out, " X (me)  {:6.2}%  {:6.2}%  {:6.2}%", 100.0 * p.win, 100.0 * p.win_gammon, 100.0 * p.win_backgammon)?;
    writeln!(
        out,
        " O       {:6.2}%  {:6.2}%  {:6.2}%",
        100.0 * (1.0 - p.win),
        100.0 * p.lose_gammon,
        100.0 * p.lose_backgammon
    )?;
    writeln!(out, " {}", gnubg_line(p))?;
    writeln!(out, " Cubeless equity: {:+.3}", p.equity())?;
    writeln!(out)?;
    match &cube {
        Ok(a) => write_cube(out, &ctx, args.ply, a, &notes)?,
        Err(e) => writeln!(out, " Cube decision: none ({e}).")?,
    }
    Ok(())
}

/// The cube decision after the evaluation.
fn write_cube(
    out: &mut impl Write,
    ctx: &GameContext,
    ply: u8,
    a: &CubeAnalysis,
    notes: &[String],
) -> std::io::Result<()> {
    writeln!(out, " Cube decision at {ply}-ply: {}", cube_cmd::setting_line(ctx, &a.state))?;
    for n in notes {
        writeln!(out, " Note: {n}")?;
    }
    if let Some(m) = a.match_chances {
        writeln!(
            out,
            " Cubeless equity at the score {:+.3} (match winning chances {:.2}%)",
            a.cubeless_equity,
            100.0 * m.cubeless
        )?;
    }
    writeln!(out, " Cube efficiency x = {:.3}", a.efficiency)?;
    cube_cmd::write_decision(out, ctx, ply, a, " ")
}
