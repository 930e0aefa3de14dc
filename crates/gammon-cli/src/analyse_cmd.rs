//! `gammon analyse`: the legal moves of a roll ranked by n-ply search, or the
//! n-ply evaluation of a position before the roll with its cube decision at
//! the same depth (see `gammon cube`): money play with a centred cube, or
//! the context an XGID carries (cube, owner, score, match length, Crawford,
//! Jacoby, beavers).

use crate::args::{DiceOption, JsonArg, PlyArg, PositionText, WeightsArg};
use crate::json::{self, PositionAnalysisJson};
use crate::request::Request;
use crate::text;
use anyhow::{anyhow, Result};
use clap::Args;
use gammon_engine::api::{CubeReport, Engine, EngineError};
use gammon_eval::NetEvaluator;
use gammon_rules::Dice;
use std::io::{BufWriter, Write};

/// Arguments of `gammon analyse`.
#[derive(Debug, Args)]
#[command(after_help = "Plies are counted as gnubg counts them: 0 = the static evaluation of the net, \
1 = every roll of the side to move next and its best reply, 2 = every roll of both sides.\n\
With dice, every legal move is ranked: all at 0 ply, then gnubg's \"normal\" move filter keeps \
up to 8 moves within 0.16 equity for the full depth (at 3 plies the best 2 of those within 0.04 \
after 2 plies). Moves the filter dropped are shown at the depth they reached.\n\
Without dice, the cube decision of the player on roll follows at the same depth, as `gammon cube --ply` \
gives it: money play with a centred cube, or the cube, score and rules of an XGID.")]
#[command(mut_arg("position", |a| a.help("The position, player on roll to move: Position ID, XGID or `start`")))]
#[command(mut_arg("dice", |a| a.help(
    "The roll to analyse, like `31` (an XGID may carry it instead). Without dice: the evaluation of the position before the roll"
)))]
pub struct AnalyseArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    dice: DiceOption,
    #[command(flatten)]
    ply: PlyArg,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    json: JsonArg,
    /// Also name the evaluator in full (its weights' notes).
    #[arg(long)]
    verbose: bool,
}

/// Runs `gammon analyse`.
pub fn run(args: &AnalyseArgs) -> Result<()> {
    let request = Request::read(&args.position.position, args.dice.dice.as_deref(), " (write them like 31)")?;
    let engine = Engine::new(args.weights.net()?);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    match request.dice {
        Some(dice) => analyse_roll(&mut out, &engine, &request, dice, args)?,
        None => analyse_position(&mut out, &engine, &request, args)?,
    }
    out.flush()?;
    Ok(())
}

fn analyse_roll(
    out: &mut impl Write,
    engine: &Engine<NetEvaluator>,
    request: &Request,
    dice: Dice,
    args: &AnalyseArgs,
) -> Result<()> {
    let analysis = engine.analyse_roll(&request.position, dice, args.ply.ply).map_err(|e| match e {
        EngineError::GameOver => anyhow!("the game in this position is over: there is no move to analyse"),
        e => e.into(),
    })?;
    if args.json.json {
        json::write(out, &analysis)
    } else {
        Ok(text::roll_analysis(out, &analysis, args.verbose)?)
    }
}

fn analyse_position(
    out: &mut impl Write,
    engine: &Engine<NetEvaluator>,
    request: &Request,
    args: &AnalyseArgs,
) -> Result<()> {
    let plies = args.ply.ply;
    let evaluation = engine.evaluate(&request.position, plies);
    let cube: Result<CubeReport, String> =
        engine.decide_cube(&request.position, &request.context, plies).map_err(|e| match e {
            EngineError::GameOver => "the game is over: there is no cube decision".to_string(),
            e => format!("{:#}", anyhow::Error::from(e)),
        });
    if args.json.json {
        json::write(out, &PositionAnalysisJson::new(&evaluation, &cube))
    } else {
        Ok(text::position_analysis(out, &evaluation, &cube, args.verbose)?)
    }
}
