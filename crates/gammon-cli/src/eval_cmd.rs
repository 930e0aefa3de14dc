//! `gammon eval`: the evaluation of a position.

use crate::args::{JsonArg, PositionText, WeightsArg};
use crate::json::{self, EvalJson};
use crate::text;
use anyhow::Result;
use clap::Args;
use gammon_engine::api::Request;
use gammon_engine::api::{Engine, EvalOptions};
use std::io::{BufWriter, Write};

/// Arguments of `gammon eval`.
#[derive(Debug, Args)]
#[command(after_help = "The evaluation is the net's static one: 0-ply, counted as gnubg counts plies \
(`gammon analyse --ply N` searches deeper).")]
#[command(mut_arg("position", |a| a.help("The position (player on roll, before rolling): Position ID, XGID or `start`")))]
pub struct EvalArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `gammon eval`.
pub fn run(args: &EvalArgs) -> Result<()> {
    let request = Request::read(&args.position.position, None, None)?;
    let engine = Engine::new(args.weights.net()?);
    let evaluation = engine.eval(&request, &EvalOptions::default())?;
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json.json {
        json::write(&mut out, &EvalJson::from(&evaluation))?;
    } else {
        text::evaluation(&mut out, &evaluation)?;
    }
    out.flush()?;
    Ok(())
}
