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

use crate::args::{ContextArgs, JsonArg, MetArg, PlyArg, PositionText, WeightsArg};
use crate::{json, text};
use anyhow::Result;
use clap::Args;
use gammon_engine::api::{Asked, CubeOptions, Engine, Refusal, Request};
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
    met: MetArg,
    /// Show the decision, with the position's cube, at every score of an
    /// N-point match where both sides need 2 to N points: rows the away of
    /// the player on roll, columns the opponent's. It sets the match, the
    /// score and the Crawford game: --match, --score and --crawford are
    /// refused with it.
    #[arg(long, value_name = "N")]
    matrix: Option<u32>,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `gammon cube`.
pub fn run(args: &CubeArgs) -> Result<()> {
    let mut request = Request::read(&args.position.position, None, None)?;
    if args.matrix.is_some() {
        args.context.overrides().check_with_matrix()?;
    }
    let notes;
    (request.context, notes) = args.context.apply(request.context)?;
    let engine = Engine::new(args.weights.net()?).with_met(args.met.met()?);
    let options = CubeOptions { ply: args.ply.ply };
    if let Some(length) = args.matrix {
        let mut matrix = engine.cube_matrix(&request, &options, length).map_err(|e| Refusal::new(e, Asked::Cube))?;
        matrix.entries.iter_mut().for_each(|d| d.notes.extend(notes.iter().cloned()));
        return print(args, &matrix, text::cube_matrix);
    }
    let mut decision = engine.cube(&request, &options).map_err(|e| Refusal::new(e, Asked::Cube))?;
    decision.notes.extend(notes);
    print(args, &decision, text::cube_decision)
}

/// `value` as JSON or as `text` prints it.
fn print<T: serde::Serialize>(
    args: &CubeArgs,
    value: &T,
    text: fn(&mut std::io::StdoutLock<'static>, &T) -> std::io::Result<()>,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if args.json.json {
        json::write(&mut out, value)?;
    } else {
        text(&mut out, value)?;
    }
    out.flush()?;
    Ok(())
}
