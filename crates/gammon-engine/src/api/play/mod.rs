//! A game against the engine, one step at a time, with the whole state in
//! the request: the rules' game state machine ([`gammon_rules::Game`]) in
//! its text form. The server keeps nothing (it signs the state it hands
//! out and checks it when it comes back; the engine never sees the
//! signature), so any number of games run at once (`POST /api/play`).
//!
//! A step reads the state where the human acts, applies his action with
//! [`Game::apply`] (an action the rules refuse is one error naming the
//! rule, and the state stays as it was), then plays the engine's decisions
//! (`turns.rs`) until [`Game::next`] needs the human again or the match
//! is over: its checker play at the step's depth ([`Engine::choose_move`]),
//! its cube through [`CubePlayer`](super::CubePlayer) (doubles, takes,
//! beavers, raccoons), its answer to a resignation, and the next game's
//! opening roll (with Murphy's automatic doubles where the rules have
//! them). A roll with no legal move passes by itself, for either side.
//! Dice come from a [`RandomDice`] stream of the request's seed and step
//! number, so a game replays exactly from its seed.
//!
//! **The human's resignation** is accepted as gnubg accepts one
//! ([`Engine::answers_resignation`]): when what is offered (a single game,
//! a gammon or a backgammon, times the cube; single under the Jacoby rule
//! while the cube is centred; in a match, the match winning chances after
//! those points) is worth at least the engine's value of playing on, less
//! [`RESIGNATION_TOLERANCE`](super::RESIGNATION_TOLERANCE). Playing on is
//! valued cubefully (Janowski's model at the cube, its owner and the score,
//! searched at the step's depth; cubeless where the game has no cube), from
//! the resigner's position before his roll, or after his best move for the
//! roll when he resigns with his dice rolled.
//!
//! **The engine resigns** only when it cannot win at all: in a bearoff
//! position valued exactly (the bearoff database, [`PositionClass::Bearoff`])
//! its chance of winning is zero, and it has borne off a checker, so no
//! gammon can be lost. Then a single game is exactly what playing on gives
//! the human (he cannot lose, and can win no more than the cube, even by
//! doubling: the engine would pass), and the engine offers it before its
//! roll. "Cannot win" is against correct play: the database has both sides
//! bear off as fast as they can, so the offer gives up only what a human
//! who misplays his bearoff would hand back. It offers nothing where the
//! loss is only likely: a resignation there is a judgement the engine does
//! not make yet.

use super::{Engine, EngineError};
use gammon_eval::Evaluator;
use gammon_rules::{
    Action, Dice, Game, GameResult, MatchRules, MatchState, MoveError, Need, Position, PositionClass, RandomDice,
    RuleError, Seat, StateError,
};
use serde::Serialize;
use thiserror::Error;
use turns::Step;

mod turns;

/// The human is seat Zero, the engine seat One.
pub const HUMAN: Seat = Seat::Zero;
/// The engine's seat.
pub const ENGINE: Seat = Seat::One;

/// What the human does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayAction {
    /// Roll the dice (on roll, before rolling).
    Roll,
    /// Offer a double (on roll, before rolling).
    Double,
    /// Play this move (gnubg notation) with the rolled dice.
    Move(String),
    /// Take the engine's double, or accept its beaver or raccoon.
    Take,
    /// Pass (drop) the engine's double, beaver or raccoon.
    Pass,
    /// Beaver the engine's double (money play with beavers on).
    Beaver,
    /// Raccoon the engine's beaver of the human's double.
    Raccoon,
    /// Offer to resign this (before or after rolling).
    Resign(GameResult),
    /// Accept the engine's offer to resign.
    AcceptResignation,
    /// Reject the engine's offer to resign.
    RejectResignation,
}

/// Why a step was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PlayError {
    /// The rules do not allow the action here (the rule is named).
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The move is not legal with these dice (the reason is the source).
    #[error("not a legal move")]
    Move(#[from] MoveError),
    /// The state does not read as a game state.
    #[error(transparent)]
    State(#[from] StateError),
    /// The state is not one where the human acts.
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

/// A result as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultName {
    /// One point times the cube.
    Single,
    /// Two.
    Gammon,
    /// Three.
    Backgammon,
}

impl From<GameResult> for ResultName {
    fn from(r: GameResult) -> Self {
        match r {
            GameResult::Single => ResultName::Single,
            GameResult::Gammon => ResultName::Gammon,
            GameResult::Backgammon => ResultName::Backgammon,
        }
    }
}

/// One thing that happened in a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PlayEvent {
    /// Equal opening dice turned the cube (Murphy's rule); they are rolled
    /// again.
    AutomaticDouble {
        /// The equal dice, as `33`.
        dice: String,
        /// The cube after it.
        cube: u32,
    },
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
    /// A double taken, or a beaver or a raccoon accepted.
    Took {
        /// Who took.
        by: Side,
    },
    /// A double, beaver or raccoon passed: the game ends.
    Passed {
        /// Who passed.
        by: Side,
    },
    /// A double answered by a beaver: taken and redoubled at once.
    Beavered {
        /// Who beavered.
        by: Side,
        /// The cube if the beaver is accepted.
        cube: u32,
    },
    /// A beaver answered by a raccoon: redoubled again.
    Raccooned {
        /// Who raccooned.
        by: Side,
        /// The cube if the raccoon is accepted.
        cube: u32,
    },
    /// An offer to resign.
    Resigned {
        /// Who offers.
        by: Side,
        /// What he gives up (times the cube).
        result: ResultName,
    },
    /// An offer to resign accepted: the game ends.
    ResignationAccepted {
        /// Who accepted.
        by: Side,
    },
    /// An offer to resign rejected: play goes on.
    ResignationRejected {
        /// Who rejected.
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

/// What the human is asked for in the state returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HumanTurn {
    /// Roll, or double if the cube allows it.
    RollOrDouble,
    /// Roll only (no double allowed now).
    Roll,
    /// Move with the rolled dice.
    Move,
    /// Take or pass the engine's double (or beaver it).
    AnswerDouble,
    /// Accept or pass the engine's beaver of his double (or raccoon it).
    AnswerBeaver,
    /// Accept or pass the engine's raccoon of his beaver.
    AnswerRaccoon,
    /// Accept or reject the engine's offer to resign.
    AnswerResignation,
    /// Nothing: the match is over.
    MatchOver,
}

/// An action the human may send, as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionName {
    /// [`PlayAction::Roll`].
    Roll,
    /// [`PlayAction::Double`].
    Double,
    /// [`PlayAction::Move`].
    Move,
    /// [`PlayAction::Take`].
    Take,
    /// [`PlayAction::Pass`].
    Pass,
    /// [`PlayAction::Beaver`].
    Beaver,
    /// [`PlayAction::Raccoon`].
    Raccoon,
    /// [`PlayAction::Resign`].
    Resign,
    /// [`PlayAction::AcceptResignation`].
    AcceptResignation,
    /// [`PlayAction::RejectResignation`].
    RejectResignation,
}

/// The answer to a step.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayOutcome {
    /// What happened, in order.
    pub events: Vec<PlayEvent>,
    /// The game where the human acts next, or where the match ended: the
    /// next request's state ([`Game`]'s text form).
    pub game: Game,
    /// What the human is asked for now.
    pub turn: HumanTurn,
    /// The actions the rules allow him now ([`Game::apply`] takes each).
    pub actions: Vec<ActionName>,
    /// The resignations he may offer now (an offer after a rejected one
    /// must be higher).
    pub resign: Vec<ResultName>,
    /// The score, human first.
    pub score: [u32; 2],
}

impl PlayOutcome {
    /// The position of the state, seen by the side on roll in it (the
    /// engine while its double, its raccoon or its offer to resign waits
    /// for the human's answer).
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Who is on roll in [`position`](Self::position).
    pub fn on_roll(&self) -> Side {
        side(self.game.on_roll())
    }
}

const RESULTS: [GameResult; 3] = [GameResult::Single, GameResult::Gammon, GameResult::Backgammon];

/// The answer for `game`, where the human acts or the match is over
/// (`None` where the engine or a new game is next).
fn outcome(game: Game, events: Vec<PlayEvent>) -> Option<PlayOutcome> {
    let turn = match game.next() {
        Need::MatchOver { .. } => HumanTurn::MatchOver,
        Need::RollOrDouble { seat: HUMAN, may_double } => {
            if may_double {
                HumanTurn::RollOrDouble
            } else {
                HumanTurn::Roll
            }
        }
        Need::Move { seat: HUMAN, .. } => HumanTurn::Move,
        Need::AnswerDouble { seat: HUMAN, .. } => HumanTurn::AnswerDouble,
        Need::AnswerBeaver { seat: HUMAN, .. } => HumanTurn::AnswerBeaver,
        Need::AnswerRaccoon { seat: HUMAN } => HumanTurn::AnswerRaccoon,
        Need::AnswerResignation { seat: HUMAN, .. } => HumanTurn::AnswerResignation,
        _ => return None,
    };
    // What the rules take now, tried on copies: the list is theirs.
    let takes = |action: Action| {
        let mut copy = game;
        copy.apply(action).is_ok()
    };
    let any_dice = Dice::new(2, 1).unwrap_or_else(|_| unreachable!("2-1 is a roll"));
    let candidates = [
        (ActionName::Roll, Action::Roll(any_dice)),
        (ActionName::Double, Action::Double),
        (ActionName::Take, Action::Take),
        (ActionName::Pass, Action::Pass),
        (ActionName::Beaver, Action::Beaver),
        (ActionName::Raccoon, Action::Raccoon),
        (ActionName::AcceptResignation, Action::AcceptResignation),
        (ActionName::RejectResignation, Action::RejectResignation),
    ];
    let resign: Vec<ResultName> =
        RESULTS.into_iter().filter(|r| takes(Action::Resign(*r))).map(ResultName::from).collect();
    let mut actions: Vec<ActionName> = candidates.into_iter().filter(|(_, a)| takes(*a)).map(|(n, _)| n).collect();
    if turn == HumanTurn::Move {
        actions.push(ActionName::Move);
    }
    if !resign.is_empty() {
        actions.push(ActionName::Resign);
    }
    let [me, it] = [game.match_state().score()[HUMAN.index()], game.match_state().score()[ENGINE.index()]];
    Some(PlayOutcome { events, game, turn, actions, resign, score: [me, it] })
}

/// Applies the human's `action` to `state` (a [`Game`]'s text form, as the
/// last answer gave it) and plays the engine's turns at `plies` until the
/// human acts again or the match ends. `seed` and `step` choose the dice
/// (any step number gives a fresh stream).
///
/// # Errors
/// [`PlayError::Rule`] for an action the rules refuse here (naming the
/// rule), [`PlayError::Move`] for an illegal move, [`PlayError::State`] or
/// [`PlayError::BadState`] for a state that does not read or where the
/// human does not act, [`PlayError::Engine`] where the engine cannot decide.
pub fn play_step<E: Evaluator>(
    engine: &Engine<E>,
    state: &str,
    action: &PlayAction,
    plies: u8,
    (seed, step): (u64, u64),
) -> Result<PlayOutcome, PlayError> {
    let game: Game = state.parse()?;
    if outcome(game, Vec::new()).is_none() {
        return Err(PlayError::BadState("the state is not one where the human acts".into()));
    }
    let mut step = Step::new(engine, plies, RandomDice::new(seed, step), game);
    step.human(action)?;
    step.play_on()
}

/// Starts a match (or a money session) with `rules` at 0-0: the opening
/// roll (with Murphy's automatic doubles where `rules` has them), and the
/// engine's first turn if it wins it. Rules of money play alone (Jacoby,
/// beavers, Murphy) are dropped in a match ([`MatchRules::normalized`]).
///
/// # Errors
/// [`PlayError::MatchTooLong`] for a match longer than the engine's match
/// equity table (refused here, not at the first cube decision).
pub fn new_match<E: Evaluator>(
    engine: &Engine<E>,
    rules: MatchRules,
    plies: u8,
    (seed, step): (u64, u64),
) -> Result<PlayOutcome, PlayError> {
    let max = engine.met().max_away();
    if rules.length > max {
        return Err(PlayError::MatchTooLong { length: rules.length, max });
    }
    let state = MatchState::new(rules.normalized());
    let mut rolls = RandomDice::new(seed, step);
    let mut events = Vec::new();
    let (first, dice, cube) = turns::opening(&state, &mut rolls, &mut events);
    let game = Game::new(state, Position::STARTING, first, cube, Some(dice));
    Step::with_events(engine, plies, rolls, game, events).play_on()
}

/// True where the engine offers to resign a single game on roll in
/// `position`: see the module's documentation.
fn engine_cannot_win<E: Evaluator>(engine: &Engine<E>, position: &Position) -> bool {
    if PositionClass::of(position) != PositionClass::Bearoff || position.borne_off().0 == 0 {
        return false;
    }
    let value = engine.evaluate(position, 0);
    value.is_exact() && value.probabilities.win <= 0.0
}

#[cfg(test)]
mod tests;
