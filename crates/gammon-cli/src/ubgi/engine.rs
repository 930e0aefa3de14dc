//! The engine, loaded at start-up, and what both drafts ask of it: the cube
//! decision, the answer to a pending cube action, and the move.

use super::UbgiArgs;
use crate::evaluators;
use anyhow::Result;
use gammon_engine::api::{self, pending_answer, EngineError, PendingAnswer};
use gammon_engine::cube::{CubeAnalysis, CubeError};
use gammon_eval::Evaluator;
use gammon_rules::{BeaverAnswer, CubeAnswer, Dice, DiceState, GameContext, Move, Position, RaccoonAnswer};

/// The engine (the evaluator inside the engine API), loaded before the
/// first request is read.
pub(super) struct Engine<'a> {
    pub(super) args: &'a UbgiArgs,
    api: api::Engine<Box<dyn Evaluator>>,
}

impl<'a> Engine<'a> {
    /// Loads the evaluator that `--engine` or `--weights` names: a file that
    /// is missing or is not a weights file is an error here, at start-up, so
    /// that a controller waiting for the handshake sees the program exit
    /// instead of an answer that never comes.
    pub(super) fn load(args: &'a UbgiArgs) -> Result<Self> {
        let evaluator: Box<dyn Evaluator> = match (&args.engine, &args.weights) {
            (_, Some(path)) => Box::new(evaluators::net(Some(path))?),
            (Some(spec), None) => evaluators::by_name(spec)?,
            (None, None) => Box::new(evaluators::net(None)?),
        };
        eprintln!("gammon ubgi: evaluator {}", evaluator.name());
        Ok(Engine { args, api: api::Engine::new(evaluator) })
    }
}

/// An answer to a pending cube action, in UBGI's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    Take,
    Drop,
    Beaver,
}

/// The cube decision of the player on roll in `pos` (before rolling) in
/// `ctx` (its dice state is ignored), searched `plies` deep; or the UBGI
/// 0.2 error code and the reason.
pub(super) fn cube_analysis(
    engine: &Engine<'_>,
    pos: &Position,
    ctx: &GameContext,
    plies: u8,
) -> std::result::Result<CubeAnalysis, (&'static str, String)> {
    let api = &engine.api;
    let before_roll = GameContext { dice: DiceState::ToRoll, ..*ctx };
    api.decide_cube(pos, &before_roll, plies).map(|d| d.analysis).map_err(|e| match e {
        EngineError::GameOver => ("bad_state", "the game is over in this position".to_string()),
        EngineError::Cube(e @ CubeError::MatchTooLong { .. }) => ("unsupported", e.to_string()),
        EngineError::Cube(e @ CubeError::Context(_)) => ("bad_value", e.to_string()),
        // The whole chain: a cubeful rollout's message leaves its cause to `source()`.
        e => ("bad_state", format!("{:#}", anyhow::Error::from(e))),
    })
}

/// The answer to the cube action pending in `pending` ([`pending_answer`]):
/// accepting a beaver or a raccoon is `take`.
pub(super) fn answer_pending(a: &CubeAnalysis, pending: DiceState) -> Answer {
    match pending_answer(a, pending) {
        Some(PendingAnswer::Double(CubeAnswer::Beaver)) => Answer::Beaver,
        Some(
            PendingAnswer::Double(CubeAnswer::Pass)
            | PendingAnswer::Beaver(BeaverAnswer::Pass)
            | PendingAnswer::Raccoon(RaccoonAnswer::Pass),
        ) => Answer::Drop,
        _ => Answer::Take,
    }
}

/// The engine's choice for `pos` (player on roll to move) and `dice` at
/// `ply` plies, counted as gnubg does (0 = the net's static evaluation):
/// the move, and its cubeless equity for the mover when there was a choice.
pub(super) fn choose_at(engine: &Engine<'_>, pos: &Position, dice: Dice, ply: u8) -> Result<(Move, Option<f32>)> {
    let api = &engine.api;
    if ply == 0 {
        let chosen = api.choose_move(pos, dice, 0)?;
        let equity = (chosen.choices > 1).then(|| -api.evaluator().evaluate(&chosen.result).equity());
        return Ok((chosen.mv, equity));
    }
    let ranked = api.analyse_roll(pos, dice, ply)?.moves;
    Ok(match ranked.as_slice() {
        [] => (Move::NONE, None),
        [only] => (only.mv, None),
        [best, ..] => (best.mv, Some(best.equity)),
    })
}
