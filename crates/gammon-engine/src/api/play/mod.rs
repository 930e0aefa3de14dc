//! A game against the engine, one step at a time, with the whole state in
//! the request: the position and its context (an XGID) whenever the human
//! has to act. The server keeps nothing, so any number of games run at once
//! (`POST /api/play`).
//!
//! The state is always one where the human acts: he is on roll (to roll or
//! double, or with his dice rolled, to move), or the engine has doubled
//! (XGID dice `D`, the position seen by the engine) and he must take or
//! pass. [`play_step`] runs the rules' one game loop
//! ([`gammon_rules::play_game`]) from that state: rolled dice start it at
//! the move ([`FirstRoll::Given`]), a pending double at the engine's turn,
//! where the table offers that double again. The table (`StepTable`, in
//! `table.rs`) gives the human's action from the request and the engine's
//! decisions from the engine API; the loop owns the turns, the cube
//! exchange and the points, [`MatchState`] scores each game, and the next
//! one starts with the rules' [`opening_roll`](gammon_rules::opening_roll).
//! Where the human must act again the table suspends the loop (an
//! [`Abandoned`](gammon_rules::Abandoned) game, for this request) and that
//! state is the answer. Dice come from a [`RandomDice`] stream of the
//! request's seed and step number, so a game replays exactly.
//!
//! Not played, although the loop has them: beavers and raccoons (the engine
//! takes instead), the Murphy rule and resignations; the request has no
//! action or rule for them.

use super::{Engine, EngineError};
use gammon_eval::Evaluator;
use gammon_rules::{
    parse_move, Cube, CubeAnswer, CubeOwner, DiceState, FirstRoll, GameContext, GameStart, MatchRules, MatchState,
    MoveError, Position, RandomDice, Seat,
};
use serde::Serialize;
use table::{Pending, Spot, StepTable};
use thiserror::Error;

mod table;

/// The human is seat Zero, the engine seat One.
const HUMAN: Seat = Seat::Zero;
const ENGINE: Seat = Seat::One;

/// What the human does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayAction {
    /// Roll the dice (on roll, before rolling).
    Roll,
    /// Offer a double (on roll, before rolling).
    Double,
    /// Play this move (gnubg notation) with the rolled dice.
    Move(String),
    /// Take the engine's double.
    Take,
    /// Pass (drop) the engine's double.
    Pass,
}

/// Why an action was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PlayError {
    /// The action does not fit the state (rolling with dice already rolled,
    /// taking when nobody doubled, ...).
    #[error("{0}")]
    NotNow(String),
    /// The move is not legal with these dice (the reason is the source).
    #[error("not a legal move")]
    Move(#[from] MoveError),
    /// The state is not one the rules allow.
    #[error("{0}")]
    BadState(String),
    /// The engine could not decide.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A match longer than the engine's match equity table: its cube
    /// decisions could not be made.
    #[error("a {length}-point match is longer than the match equity table, which covers matches up to {max} points")]
    MatchTooLong {
        /// The match length asked for.
        length: u32,
        /// The longest the table covers.
        max: u32,
    },
}

/// Who did something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player.
    Human,
    /// gammon.
    Engine,
}

const fn side(seat: Seat) -> Side {
    match seat {
        Seat::Zero => Side::Human,
        Seat::One => Side::Engine,
    }
}

/// One thing that happened in a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PlayEvent {
    /// Who starts a new game, with which dice (one die each).
    OpeningRoll {
        /// The winner of the opening roll, who moves with both dice.
        starts: Side,
        /// The dice, as `31`.
        dice: String,
    },
    /// A roll.
    Rolled {
        /// Who rolled.
        by: Side,
        /// As `31`.
        dice: String,
    },
    /// A move (gnubg notation; empty when no checker could move).
    Moved {
        /// Who moved.
        by: Side,
        /// The move.
        notation: String,
        /// The position after it, seen by the side that moves next.
        position_id: String,
    },
    /// A double.
    Doubled {
        /// Who doubled.
        by: Side,
        /// The cube after a take.
        cube: u32,
    },
    /// A double taken.
    Took {
        /// Who took.
        by: Side,
    },
    /// A double passed: the game ends.
    Passed {
        /// Who passed.
        by: Side,
    },
    /// A game ended.
    GameOver {
        /// Who won it.
        winner: Side,
        /// Points won (cube, gammons, Jacoby).
        points: u32,
    },
    /// The match ended.
    MatchOver {
        /// Who won it.
        winner: Side,
    },
}

/// What the human may do in the state returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HumanTurn {
    /// Roll, or double if the cube allows it.
    RollOrDouble,
    /// Roll only (no double allowed now).
    Roll,
    /// Move with the rolled dice.
    Move,
    /// Take or pass the engine's double.
    AnswerDouble,
    /// Nothing: the match is over.
    MatchOver,
}

/// The answer to a step.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayOutcome {
    /// What happened, in order.
    pub events: Vec<PlayEvent>,
    /// The position where the human acts next, seen by the side on roll in
    /// it (the engine while its double is pending).
    pub position: Position,
    /// Its context.
    pub context: GameContext,
    /// What the human may do now.
    pub turn: HumanTurn,
    /// The score, human first.
    pub score: [u32; 2],
}

fn seat_of(owner: CubeOwner, on_roll: Seat) -> Option<Seat> {
    match owner {
        CubeOwner::Centered => None,
        CubeOwner::OnRoll => Some(on_roll),
        CubeOwner::Opponent => Some(on_roll.other()),
    }
}

/// The match and the spot of a request's state.
fn read(position: &Position, ctx: &GameContext) -> Result<(MatchState, Spot), PlayError> {
    ctx.validate().map_err(|e| PlayError::BadState(e.to_string()))?;
    let on_roll = match ctx.dice {
        // The engine doubled: it is on roll in the XGID.
        DiceState::Doubled => ENGINE,
        DiceState::ToRoll | DiceState::Rolled(_) => HUMAN,
        _ => return Err(PlayError::BadState("beavers and raccoons are not played yet".into())),
    };
    let mut score = [0; 2];
    score[on_roll.index()] = ctx.score.0;
    score[on_roll.other().index()] = ctx.score.1;
    let state = MatchState::at_score(rules_of(ctx), score, ctx.is_post_crawford())
        .map_err(|e| PlayError::BadState(e.to_string()))?;
    let cube = Cube { value: ctx.cube_value, owner: seat_of(ctx.cube_owner, on_roll), automatic: 0 };
    Ok((state, Spot { position: *position, on_roll, cube, dice: ctx.dice }))
}

/// The answer: `spot` and what the human may do there.
fn outcome(state: &MatchState, spot: &Spot, events: Vec<PlayEvent>) -> PlayOutcome {
    let turn = if state.winner().is_some() {
        HumanTurn::MatchOver
    } else {
        match spot.dice {
            DiceState::Doubled => HumanTurn::AnswerDouble,
            DiceState::Rolled(_) => HumanTurn::Move,
            _ if state.may_double(&spot.cube, HUMAN) => HumanTurn::RollOrDouble,
            _ => HumanTurn::Roll,
        }
    };
    let context = GameContext { dice: spot.dice, ..state.context(&spot.cube, spot.on_roll) };
    PlayOutcome { events, position: spot.position, context, turn, score: state.score() }
}

/// Applies the human's `action` to the state (`position`, `context`) and
/// plays the engine's turns at `plies` until the human acts again. `seed`
/// and `step` choose the dice (any step number gives a fresh stream).
///
/// # Errors
/// [`PlayError`] for an action that does not fit the state, an illegal move
/// or a state the rules refuse.
pub fn play_step<E: Evaluator>(
    engine: &Engine<E>,
    position: &Position,
    context: &GameContext,
    action: &PlayAction,
    plies: u8,
    (seed, step): (u64, u64),
) -> Result<PlayOutcome, PlayError> {
    let (state, spot) = read(position, context)?;
    if state.winner().is_some() {
        return Err(PlayError::NotNow("the match is over".into()));
    }
    if position.game_result().is_some() {
        return Err(PlayError::BadState("the game in this position is over".into()));
    }
    let not_now = |what: &str| Err(PlayError::NotNow(what.to_string()));
    let pending = match (action, spot.dice) {
        (PlayAction::Roll, DiceState::ToRoll) => Pending::Roll,
        (PlayAction::Double, DiceState::ToRoll) => {
            if !state.may_double(&spot.cube, HUMAN) {
                return not_now("you may not double now (the cube or the Crawford rule)");
            }
            Pending::Double
        }
        (PlayAction::Move(text), DiceState::Rolled(d)) => Pending::Move(parse_move(position, d, text)?.1),
        (PlayAction::Take, DiceState::Doubled) => Pending::Answer(CubeAnswer::Take),
        (PlayAction::Pass, DiceState::Doubled) => Pending::Answer(CubeAnswer::Pass),
        (_, DiceState::Doubled) => return not_now("the engine has doubled: take or pass"),
        (_, DiceState::Rolled(_)) => return not_now("your dice are rolled: move"),
        (_, _) => return not_now("you are on roll: roll or double"),
    };
    let doubled = spot.dice == DiceState::Doubled;
    // The loop asks for the engine's double again only where the rules allow it.
    if doubled && !state.may_double(&spot.cube, ENGINE) {
        return Err(PlayError::BadState("the rules do not let the engine double in this state".into()));
    }
    // Dice rolled: the loop starts at the move; otherwise at the turn of the
    // side on roll (the engine, to replay its double).
    let first_roll = match spot.dice {
        DiceState::Rolled(d) => FirstRoll::Given(d),
        _ => FirstRoll::Turn,
    };
    let start = GameStart { position: spot.position, on_roll: spot.on_roll, first_roll, cube: spot.cube };
    let mut table = StepTable::new(engine, plies, Some(pending));
    table.engine_doubled = doubled;
    table.play_on(state, start, &mut RandomDice::new(seed, step))
}

/// Starts a match (or a money session) of `context`'s rules at 0-0 (its
/// score, cube and dice are ignored): the opening roll, and the engine's
/// first move if it wins it.
///
/// # Errors
/// [`PlayError::MatchTooLong`] for a match longer than the engine's match
/// equity table (refused here, not at the first cube decision).
pub fn new_match<E: Evaluator>(
    engine: &Engine<E>,
    context: &GameContext,
    plies: u8,
    (seed, step): (u64, u64),
) -> Result<PlayOutcome, PlayError> {
    let max = engine.met().max_away();
    if context.match_length > max {
        return Err(PlayError::MatchTooLong { length: context.match_length, max });
    }
    let mut rolls = RandomDice::new(seed, step);
    let mut table = StepTable::new(engine, plies, None);
    let start = table.opening(&mut rolls);
    table.play_on(MatchState::new(rules_of(context)), start, &mut rolls)
}

/// The rules of `context`: money play (with its Jacoby rule; beavers are
/// not played yet) or a match of its length.
fn rules_of(context: &GameContext) -> MatchRules {
    if context.match_length == 0 {
        MatchRules { jacoby: context.jacoby, beaver: false, ..MatchRules::money() }
    } else {
        MatchRules::new_match(context.match_length)
    }
}

#[cfg(test)]
mod tests;
