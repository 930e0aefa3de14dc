//! `gammon moves`: every legal move of a position for a roll.

use crate::args::JsonArg;
use crate::request::Request;
use crate::{json, text};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use gammon_engine::api::{legal_moves, EngineError};
use gammon_rules::{Dice, MoveList, Position};
use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

/// Arguments of `gammon moves`.
#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON instead of text")))]
pub struct MovesArgs {
    /// The position: a Position ID, an XGID or `start`.
    #[arg(required_unless_present = "stdin")]
    position: Option<String>,
    /// The roll, like `31` (optional when an XGID carries the dice).
    dice: Option<String>,
    #[command(flatten)]
    json: JsonArg,
    /// For tools: read `<position-id> <d1><d2>` lines from standard input and
    /// print, per line, the sorted Position IDs of all results (seen by the
    /// player who moves next), separated by spaces; an empty line when no
    /// checker can move; `error: <reason>` for a malformed line.
    #[arg(long, conflicts_with_all = ["position", "dice", "json"])]
    stdin: bool,
}

/// Runs `gammon moves`.
pub fn run(args: &MovesArgs) -> Result<ExitCode> {
    if args.stdin {
        return run_stdin();
    }
    let Some(position) = &args.position else { bail!("give a position (or --stdin)") };
    let request = Request::read(position, args.dice.as_deref(), "")?;
    let Some(dice) = request.dice else { bail!("give the dice, like `gammon moves {position} 31`") };
    let moves = legal_moves(&request.position, dice).map_err(|e| match e {
        EngineError::GameOver => anyhow!("the game in this position is over: there is nothing to move"),
        e => e.into(),
    })?;
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json.json {
        json::write(&mut out, &moves)?;
    } else {
        text::legal_moves(&mut out, &moves)?;
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
