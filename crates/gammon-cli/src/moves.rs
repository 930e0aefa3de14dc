//! `gammon moves`: every legal move of a position for a roll.

use crate::position_arg::parse_position;
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_rules::{Dice, MoveList, Position};
use serde::Serialize;
use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

/// Arguments of `gammon moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The position: a Position ID, an XGID or `start`.
    #[arg(required_unless_present = "stdin")]
    position: Option<String>,
    /// The roll, like `31` (optional when an XGID carries the dice).
    dice: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// For tools: read `<position-id> <d1><d2>` lines from standard input and
    /// print, per line, the sorted Position IDs of all results (seen by the
    /// player who moves next), separated by spaces; an empty line when no
    /// checker can move; `error: <reason>` for a malformed line.
    #[arg(long, conflicts_with_all = ["position", "dice", "json"])]
    stdin: bool,
}

#[derive(Serialize)]
struct MoveJson {
    /// gnubg notation.
    notation: String,
    /// Every single-die step (UBGI style).
    steps: String,
    /// Position ID after the move, seen by the player who moves next.
    result: String,
}

#[derive(Serialize)]
struct MovesJson {
    position: String,
    dice: String,
    pips: [u32; 2],
    dice_used: u8,
    moves: Vec<MoveJson>,
}

/// Runs `gammon moves`.
pub fn run(args: &MovesArgs) -> Result<ExitCode> {
    if args.stdin {
        return run_stdin();
    }
    let Some(text) = &args.position else { bail!("give a position (or --stdin)") };
    let arg = parse_position(text)?;
    let dice = match (&args.dice, arg.dice) {
        (Some(d), _) => d.parse::<Dice>().with_context(|| format!("cannot read dice {d:?}"))?,
        (None, Some(d)) => d,
        (None, None) => bail!("give the dice, like `gammon moves {text} 31`"),
    };
    let pos = arg.position;
    if pos.game_result().is_some() {
        bail!("the game in this position is over: there is nothing to move");
    }
    let list = pos.legal_moves(dice);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json {
        let (me, him) = pos.pip_count();
        let json = MovesJson {
            position: pos.to_position_id(),
            dice: dice.to_string(),
            pips: [me, him],
            dice_used: list.dice_used(),
            moves: list
                .iter()
                .map(|(m, after)| MoveJson {
                    notation: pos.format_move(&m),
                    steps: m.to_ubgi(true),
                    result: after.to_position_id(),
                })
                .collect(),
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        write!(out, "{pos}")?;
        writeln!(out, " Dice: {dice}")?;
        writeln!(out)?;
        if list.is_empty() {
            writeln!(out, "No legal move: the turn passes.")?;
        } else {
            let s = if list.len() == 1 { "" } else { "s" };
            writeln!(out, "{} legal move{s}:", list.len())?;
            let rows: Vec<(String, String)> =
                list.iter().map(|(m, after)| (pos.format_move(&m), after.to_position_id())).collect();
            let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
            for (i, (notation, id)) in rows.iter().enumerate() {
                writeln!(out, "{:>4}. {notation:<width$}  {id}", i + 1)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Reads one `<position-id> <dice>` request.
fn parse_request(line: &str) -> Result<(Position, Dice)> {
    let mut fields = line.split_whitespace();
    let (Some(id), Some(dice), None) = (fields.next(), fields.next(), fields.next()) else {
        bail!("expected `<position-id> <d1><d2>`");
    };
    let pos = Position::from_position_id(id).with_context(|| format!("cannot read Position ID {id:?}"))?;
    let dice = dice.parse::<Dice>().with_context(|| format!("cannot read dice {dice:?}"))?;
    Ok((pos, dice))
}

fn run_stdin() -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut list = MoveList::new();
    let mut ids: Vec<String> = Vec::new();
    let mut failed = 0usize;
    for line in stdin.lock().lines() {
        let line = line.context("reading standard input")?;
        match parse_request(&line) {
            Ok((pos, dice)) => {
                list.generate(&pos, dice);
                ids.clear();
                ids.extend(list.positions().iter().map(Position::to_position_id));
                ids.sort_unstable();
                writeln!(out, "{}", ids.join(" "))?;
            }
            Err(e) => {
                failed += 1;
                writeln!(out, "error: {e:#}")?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        eprintln!("error: {failed} input line(s) could not be read");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
