//! `gammon position`: a position in any form gammon reads, shown as its
//! IDs, board, pip counts and game context (the HTTP API's `/api/position`).

use crate::args::{DiceOption, JsonArg, PositionText};
use crate::{json, text};
use anyhow::Result;
use clap::Args;
use gammon_engine::api::json::PositionJson;
use gammon_engine::api::Request;
use std::io::Write;

/// Arguments of `gammon position`.
#[derive(Debug, Args)]
#[command(mut_arg("position", |a| a.help(
    "The position, player on roll: Position ID, `PositionID:MatchID`, XGID or `start`"
)))]
pub struct PositionArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    dice: DiceOption,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `gammon position`.
pub fn run(args: &PositionArgs) -> Result<()> {
    let request = Request::read(&args.position.position, None, args.dice.dice.as_deref())?;
    let mut out = std::io::stdout().lock();
    if args.json.json {
        json::write(&mut out, &PositionJson::of_request(&request))?;
    } else {
        text::context_header(&mut out, &request.context, &[])?;
        write!(out, "{}", request.position.board_diagram())?;
        let mut context = request.context;
        if let Some(d) = request.dice {
            context.dice = gammon_rules::DiceState::Rolled(d);
        }
        writeln!(out, "XGID: {}", gammon_rules::Xgid { position: request.position, context })?;
        if let Some(d) = request.dice {
            writeln!(out, "Dice: {d}")?;
        }
    }
    out.flush()?;
    Ok(())
}
