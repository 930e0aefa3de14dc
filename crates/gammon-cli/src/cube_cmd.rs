//! `gammon cube`: the doubling-cube decision of a position, money or match
//! play, as gnubg prints it, with an explanation.
//!
//! By default the decision is searched 2 plies deep, like gnubg's standard
//! 2-ply cube analysis: cubeful equities are carried through the plies
//! (Janowski's model at the leaves, both sides' best cube actions at every
//! node below the root; [`analyse_state_nply`]). `--ply 0` is the static
//! evaluation fed to Janowski's model. The n-ply search plays the moves
//! inside the lookahead by the net's cubeless static evaluation where gnubg
//! plays them by its cubeful 0-ply evaluation (and may pre-select them with
//! its pruning nets); so it follows gnubg's method, not its numbers, except
//! in money bearoffs with at most 6 checkers a side, where both read exact
//! cubeful equities from a two-sided bearoff database.
//!
//! [`analyse_state_nply`]: gammon_engine::cube::analyse_state_nply

use crate::args::{ContextArgs, JsonArg, PlyArg, PositionText, WeightsArg};
use crate::{json, text};
use anyhow::{anyhow, Result};
use clap::Args;
use gammon_engine::api::{CubeOptions, Engine, EngineError, Request};
use std::io::Write;

/// Arguments of `gammon cube`.
#[derive(Debug, Args)]
#[command(mut_arg("position", |a| a.help(
    "The position, player on roll before rolling: Position ID, XGID or `start`. An XGID also gives the cube, \
     its owner, the score, the match length and the Crawford/Jacoby/beaver rules; the options below override it"
)))]
#[command(mut_arg("ply", |a| a.help(
    "Lookahead in plies, counted as gnubg counts them: 0 = the static evaluation fed to Janowski's cube model; \
     1 to 3 = cubeful equities searched that deep (gnubg's method; 2 is gnubg's standard)"
)))]
pub struct CubeArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    context: ContextArgs,
    #[command(flatten)]
    ply: PlyArg,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `gammon cube`.
pub fn run(args: &CubeArgs) -> Result<()> {
    let mut request = Request::read(&args.position.position, None, None)?;
    let notes;
    (request.context, notes) = args.context.apply(request.context)?;
    let engine = Engine::new(args.weights.net()?);
    let mut decision = engine.cube(&request, &CubeOptions { ply: args.ply.ply }).map_err(|e| match e {
        EngineError::GameOver => anyhow!("the game is over in this position: there is no cube decision"),
        EngineError::Cube(e) => anyhow::Error::new(e).context("cannot analyse the cube at this score and cube"),
        EngineError::OpponentOwnsCube { cube_value, playing_on, mwc } => {
            let mwc = mwc.map_or(String::new(), |m| format!(", {:.2}% match winning chances", 100.0 * m));
            anyhow!(
                "X (the player on roll) cannot double: O owns the {cube_value}-cube. Playing on is worth {playing_on:+.3} for X (normalised to the cube{mwc}). \
                 To see O's redouble and X's take or pass, give the position with O on roll and --owner me."
            )
        }
        e => e.into(),
    })?;
    decision.notes.extend(notes);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json.json {
        json::write(&mut out, &decision)?;
    } else {
        text::cube_decision(&mut out, &decision)?;
    }
    out.flush()?;
    Ok(())
}
