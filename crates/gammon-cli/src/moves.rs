//! `gammon moves`: every legal move of a position for a roll.

use crate::args::JsonArg;
use crate::line_input::{read_line, Line};
use crate::{json, text};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use gammon_engine::api::Request;
use gammon_engine::api::{legal_moves, Asked, LegalMoves, Refusal};
use gammon_rules::{Dice, Position};
use std::io::{BufWriter, Write};
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
    /// For tools: read `<position> <d1><d2>` lines from standard input (the
    /// position as above; an XGID's own dice may stand for the roll) and
    /// print, per line, the sorted Position IDs of all results (seen by the
    /// player who moves next), separated by spaces; an empty line when no
    /// checker can move; `error: <reason>` for a malformed line or a finished game.
    #[arg(long, conflicts_with_all = ["position", "dice", "json"])]
    stdin: bool,
}

/// Runs `gammon moves`.
pub fn run(args: &MovesArgs) -> Result<ExitCode> {
    if args.stdin {
        return run_stdin();
    }
    let Some(position) = &args.position else { bail!("give a position (or --stdin)") };
    let request = Request::read(position, None, args.dice.as_deref())?;
    let Some(dice) = request.dice else { bail!("give the dice, like `gammon moves {position} 31`") };
    let moves = moves_of(&request.position, dice)?;
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

/// The legal moves of both modes: a finished game has none to list.
fn moves_of(pos: &Position, dice: Dice) -> Result<LegalMoves> {
    Ok(legal_moves(pos, dice).map_err(|e| Refusal::new(e, Asked::Moves))?)
}

/// The longest `--stdin` line read: a request is a Position ID and a roll,
/// so anything much longer is not one, and a line without end must not
/// fill the memory.
const MAX_LINE_BYTES: usize = 1024;

/// The answer to one `--stdin` line: the sorted result IDs, or why not.
fn answer_line(bytes: &[u8]) -> Result<String> {
    let line = std::str::from_utf8(bytes).context("the line is not UTF-8 text")?;
    let (pos, dice) = parse_request(line.strip_suffix('\r').unwrap_or(line))?;
    let moves = moves_of(&pos, dice)?;
    let mut ids: Vec<String> = moves.moves.iter().map(|m| m.result.to_position_id()).collect();
    ids.sort_unstable();
    Ok(ids.join(" "))
}

/// Reads one `<position> [<dice>]` request: the position in any form the
/// one-shot mode takes (`start`, a Position ID, an XGID), the dice optional
/// when an XGID carries them.
fn parse_request(line: &str) -> Result<(Position, Dice)> {
    let mut fields = line.split_whitespace();
    let (Some(position), dice, None) = (fields.next(), fields.next(), fields.next()) else {
        bail!("expected `<position> <d1><d2>`");
    };
    let request = Request::read(position, None, dice)?;
    let Some(dice) = request.dice else { bail!("give the dice after the position, like `{position} 31`") };
    Ok((request.position, dice))
}

fn run_stdin() -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut buf = Vec::new();
    let mut failed = 0usize;
    loop {
        let answer = match read_line(&mut input, &mut buf, MAX_LINE_BYTES).context("reading standard input")? {
            Line::End => break,
            Line::TooLong => Err(anyhow!("line too long (more than {MAX_LINE_BYTES} bytes)")),
            Line::Read => answer_line(&buf),
        };
        match answer {
            Ok(ids) => writeln!(out, "{ids}")?,
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
