//! One game of a match as a resumable state machine: [`Game::next`]
//! says what the game needs now (a roll or a double, an answer to a double,
//! a beaver or a raccoon, a move, an answer to a resignation, or nothing:
//! the game or the match is over) and [`Game::apply`] takes an
//! [`Action`] or refuses what the rules forbid, naming the rule
//! ([`RuleError`]).
//!
//! It holds what [`play_game`](crate::play_game)'s loop keeps between two
//! decisions (position, whose turn, cube, dice, pending cube action or
//! resignation, the turn count, the match score), so a game can be stopped
//! after any decision and carried elsewhere. [`Game`] (named so beside the Match ID's [`GameState`](crate::GameState) field) has a compact,
//! versioned text form (`Display`, `FromStr`, [`StateError`]) for a server
//! that keeps no state and signs what it hands out. The dice come from the
//! caller ([`Action::Roll`]): the rules draw no random numbers here.

mod encoding;
#[cfg(test)]
mod tests;

pub use encoding::StateError;

use crate::context::{DiceState, DoubleRefusal, GameContext};
use crate::dice::Dice;
use crate::game::GameEnd;
use crate::game_result::GameResult;
use crate::match_play::{Cube, MatchState};
use crate::movegen::MoveList;
use crate::position::Position;
use crate::seat::Seat;
use thiserror::Error;

/// Where the turn of the side on roll stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the roll: he may resign, double (unless `cube_done`: a double
    /// of this turn was taken, beavered or raccooned) or roll.
    ToRoll { cube_done: bool },
    /// He doubled: the opponent answers.
    Doubled,
    /// The opponent beavered: the doubler answers.
    Beavered,
    /// The doubler raccooned: the beaverer answers.
    Raccooned,
    /// He rolled: he moves (or resigns).
    Rolled(Dice),
    /// He offered to resign `offered` before his roll (`dice` `None`) or
    /// after it: the opponent answers.
    Resigning { offered: GameResult, dice: Option<Dice>, cube_done: bool },
    /// The game ended (its result is in the match score).
    Over(GameEnd),
}

/// A game of a match, between two decisions: what [`next`](Self::next)
/// needs, and [`apply`](Self::apply) to take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The match, with the score before this game until it ends.
    state: MatchState,
    /// The board, seen by `on_roll`.
    position: Position,
    on_roll: Seat,
    cube: Cube,
    phase: Phase,
    /// Half-moves played in this game.
    turns: u32,
    /// The highest resignation declined this turn: only a higher one may
    /// follow (gnubg's rule).
    declined: Option<GameResult>,
}

/// What the game needs now, and from whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// `seat`, on roll, rolls ([`Action::Roll`]); or doubles, if
    /// `may_double`; or offers to resign.
    RollOrDouble {
        /// Who acts.
        seat: Seat,
        /// The rules let him double now.
        may_double: bool,
    },
    /// `seat` answers a double: take, pass, or beaver if `may_beaver`.
    AnswerDouble {
        /// Who answers (the opponent of the doubler).
        seat: Seat,
        /// Beavers are allowed.
        may_beaver: bool,
    },
    /// `seat` (the doubler) answers a beaver: take (accept), pass, or
    /// raccoon if `may_raccoon`.
    AnswerBeaver {
        /// Who answers.
        seat: Seat,
        /// Raccoons are allowed.
        may_raccoon: bool,
    },
    /// `seat` (the beaverer) answers a raccoon: take (accept) or pass.
    AnswerRaccoon {
        /// Who answers.
        seat: Seat,
    },
    /// `seat` moves with `dice` (or resigns). With no legal move the move is
    /// the pass: [`Action::Move`] of the position switched.
    Move {
        /// Who moves.
        seat: Seat,
        /// His roll.
        dice: Dice,
    },
    /// `seat` accepts or rejects the resignation of `offered` by his opponent.
    AnswerResignation {
        /// Who answers.
        seat: Seat,
        /// What is resigned.
        offered: GameResult,
    },
    /// The game is over and scored; the match goes on ([`Action::NewGame`]).
    GameOver(GameEnd),
    /// The game is over and it won `winner` the match.
    MatchOver {
        /// How the last game ended.
        end: GameEnd,
        /// Who won the match.
        winner: Seat,
    },
}

/// A decision, by whoever [`Need`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The side on roll rolled these dice.
    Roll(Dice),
    /// The side on roll doubles.
    Double,
    /// Take a double; accept a beaver or a raccoon.
    Take,
    /// Pass (drop) a double, a beaver or a raccoon: the game ends.
    Pass,
    /// Answer a double with a beaver.
    Beaver,
    /// Answer a beaver with a raccoon.
    Raccoon,
    /// The move that gives this position (seen by the opponent, as
    /// [`MoveList::positions`] has it; the switched board for a pass).
    Move(Position),
    /// The side on roll offers to resign this.
    Resign(GameResult),
    /// Accept the resignation offered: the game ends.
    AcceptResignation,
    /// Reject it: play goes on; only a higher offer may follow this turn.
    RejectResignation,
    /// After a game that did not end the match: the next one, `first` to
    /// move with the opening `dice` (already rolled, after any automatic
    /// doubles that turned `cube`).
    NewGame {
        /// Who moves first.
        first: Seat,
        /// The opening roll.
        dice: Dice,
        /// The cube at the start (1 centred, or as Murphy's rule turned it).
        cube: Cube,
    },
}

/// An action the rules forbid here, with the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The action answers another question than the one pending.
    #[error("{action} is not allowed now: {need}")]
    NotNow {
        /// The action, in words.
        action: &'static str,
        /// What the game needs, in words.
        need: &'static str,
    },
    /// A double the rules refuse (the Crawford game, the cube owner, the
    /// largest cube, a game without the cube).
    #[error("no double now: {0}")]
    Double(DoubleRefusal),
    /// A beaver where the rules have none.
    #[error(
        "a beaver is only allowed in money play with beavers on, and with four times the cube within the largest cube"
    )]
    Beaver,
    /// A raccoon where the rules have none.
    #[error("a raccoon is only allowed in money play with beavers on, and with eight times the cube within the largest cube")]
    Raccoon,
    /// A move that is not one of the roll's legal moves.
    #[error("the move is not one of the legal moves of the roll")]
    IllegalMove,
    /// A resignation not above the one declined this turn.
    #[error("an offer to resign was declined this turn: only a higher one may follow")]
    ResignationNotHigher,
    /// A start that does not fit a new game (the opening dice are
    /// different, the cube centred and turned only by automatic doubles).
    #[error("a new game starts with two different dice and a centred cube")]
    BadStart,
}

impl Game {
    /// A game of `state`'s match from `position` (seen by `on_roll`, before
    /// his roll), with `cube`; `opening` dice already rolled start it at the
    /// move (the opening roll has no cube action before it).
    pub fn new(state: MatchState, position: Position, on_roll: Seat, cube: Cube, opening: Option<Dice>) -> Self {
        let phase = match opening {
            Some(d) => Phase::Rolled(d),
            None => Phase::ToRoll { cube_done: false },
        };
        let mut game = Game { state, position, on_roll, cube, phase, turns: 0, declined: None };
        game.finish_if_borne_off();
        game
    }

    /// The match (its score includes this game once it is over).
    pub const fn match_state(&self) -> &MatchState {
        &self.state
    }

    /// The board, seen by [`on_roll`](Self::on_roll).
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// The side on roll (the doubler while a cube action is pending).
    pub const fn on_roll(&self) -> Seat {
        self.on_roll
    }

    /// The cube (before a pending double).
    pub const fn cube(&self) -> &Cube {
        &self.cube
    }

    /// Half-moves played in this game.
    pub const fn turns(&self) -> u32 {
        self.turns
    }

    /// The game context of the side on roll: cube, score, rules, and what
    /// is pending (XGID's dice field).
    pub fn context(&self) -> GameContext {
        let dice = match self.phase {
            Phase::Doubled => DiceState::Doubled,
            Phase::Beavered => DiceState::Beavered,
            Phase::Raccooned => DiceState::Raccooned,
            Phase::Rolled(d) | Phase::Resigning { dice: Some(d), .. } => DiceState::Rolled(d),
            _ => DiceState::ToRoll,
        };
        GameContext { dice, ..self.state.context(&self.cube, self.on_roll) }
    }

    /// How the game ended, once it has.
    pub const fn end(&self) -> Option<GameEnd> {
        match self.phase {
            Phase::Over(end) => Some(end),
            _ => None,
        }
    }

    /// What the game needs now.
    pub fn next(&self) -> Need {
        let seat = self.on_roll;
        match self.phase {
            Phase::ToRoll { cube_done } => {
                Need::RollOrDouble { seat, may_double: !cube_done && self.state.may_double(&self.cube, seat) }
            }
            Phase::Doubled => Need::AnswerDouble { seat: seat.other(), may_beaver: self.state.may_beaver(&self.cube) },
            Phase::Beavered => Need::AnswerBeaver { seat, may_raccoon: self.state.may_raccoon(&self.cube) },
            Phase::Raccooned => Need::AnswerRaccoon { seat: seat.other() },
            Phase::Rolled(dice) => Need::Move { seat, dice },
            Phase::Resigning { offered, .. } => Need::AnswerResignation { seat: seat.other(), offered },
            Phase::Over(end) => match self.state.winner() {
                Some(winner) => Need::MatchOver { end, winner },
                None => Need::GameOver(end),
            },
        }
    }

    /// Takes `action`, by whoever [`next`](Self::next) names, and returns
    /// the state after it; refuses an action the rules forbid here.
    ///
    /// # Errors
    /// [`RuleError`], naming the rule; the state is unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), RuleError> {
        let seat = self.on_roll;
        let taker = seat.other();
        let cube = self.cube;
        match (self.phase, action) {
            (_, Action::NewGame { first, dice, cube }) => return self.new_game(first, dice, cube),
            (Phase::Over(_), _) => return Err(not_now(action, self.next())),
            (Phase::ToRoll { .. }, Action::Roll(d)) => self.phase = Phase::Rolled(d),
            (Phase::ToRoll { cube_done }, Action::Double) => {
                if cube_done {
                    return Err(RuleError::Double(DoubleRefusal::NotBeforeRoll));
                }
                if let Some(why) = self.state.double_refusal(&cube, seat) {
                    return Err(RuleError::Double(why));
                }
                self.phase = Phase::Doubled;
            }
            (Phase::ToRoll { cube_done }, Action::Resign(offered)) => {
                self.offer(offered, None, cube_done)?;
            }
            (Phase::Rolled(d), Action::Resign(offered)) => self.offer(offered, Some(d), true)?,
            (Phase::Rolled(d), Action::Move(after)) => self.play(d, after)?,
            (Phase::Doubled, Action::Take) => self.turn_cube(cube.taken(taker)),
            (Phase::Doubled, Action::Pass) => self.over(GameEnd::Passed { winner: seat, points: cube.value }),
            (Phase::Doubled, Action::Beaver) => {
                if !self.state.may_beaver(&cube) {
                    return Err(RuleError::Beaver);
                }
                self.phase = Phase::Beavered;
            }
            (Phase::Beavered, Action::Take) => self.turn_cube(cube.beavered(taker)),
            (Phase::Beavered, Action::Pass) => {
                self.over(GameEnd::Passed { winner: taker, points: cube.value.saturating_mul(2) });
            }
            (Phase::Beavered, Action::Raccoon) => {
                if !self.state.may_raccoon(&cube) {
                    return Err(RuleError::Raccoon);
                }
                self.phase = Phase::Raccooned;
            }
            (Phase::Raccooned, Action::Take) => self.turn_cube(cube.raccooned(taker)),
            (Phase::Raccooned, Action::Pass) => {
                self.over(GameEnd::Passed { winner: seat, points: cube.value.saturating_mul(4) });
            }
            (Phase::Resigning { offered, .. }, Action::AcceptResignation) => {
                let points = self.state.points(offered, &cube);
                self.over(GameEnd::Resigned { winner: taker, result: offered, points });
            }
            (Phase::Resigning { offered, dice, cube_done }, Action::RejectResignation) => {
                self.declined = Some(offered);
                self.phase = match dice {
                    Some(d) => Phase::Rolled(d),
                    None => Phase::ToRoll { cube_done },
                };
            }
            _ => return Err(not_now(action, self.next())),
        }
        Ok(())
    }

    /// Stops the game where it stands (a truncated rollout trial, the turn
    /// limit): it ends unscored, [`GameEnd::Stopped`].
    pub fn stop(&mut self) {
        self.phase = Phase::Over(GameEnd::Stopped { on_roll: self.on_roll });
    }

    fn offer(&mut self, offered: GameResult, dice: Option<Dice>, cube_done: bool) -> Result<(), RuleError> {
        if self.declined.is_some_and(|d| offered <= d) {
            return Err(RuleError::ResignationNotHigher);
        }
        self.phase = Phase::Resigning { offered, dice, cube_done };
        Ok(())
    }

    fn turn_cube(&mut self, cube: Cube) {
        self.cube = cube;
        self.phase = Phase::ToRoll { cube_done: true };
    }

    /// The move of `dice` to `after`: one of the legal results, or the
    /// pass when there is none.
    fn play(&mut self, dice: Dice, after: Position) -> Result<(), RuleError> {
        let mut list = MoveList::new();
        list.generate(&self.position, dice);
        let legal = if list.is_empty() { after == self.position.switched() } else { list.positions().contains(&after) };
        if !legal {
            return Err(RuleError::IllegalMove);
        }
        self.moved(after);
        Ok(())
    }

    /// The move to `after`, one of the legal results of the roll (or the
    /// pass) that the caller generated: [`play_game`](crate::play_game)'s
    /// hot path, which does not generate the moves twice.
    pub(crate) fn moved(&mut self, after: Position) {
        debug_assert!(matches!(self.phase, Phase::Rolled(_)));
        self.position = after;
        self.on_roll = self.on_roll.other();
        self.turns = self.turns.saturating_add(1);
        self.declined = None;
        self.phase = Phase::ToRoll { cube_done: false };
        self.finish_if_borne_off();
    }

    /// Ends the game if a side has borne off all his checkers.
    fn finish_if_borne_off(&mut self) {
        if let Some((on_roll_won, result)) = self.position.game_result() {
            let winner = if on_roll_won { self.on_roll } else { self.on_roll.other() };
            let points = self.state.points(result, &self.cube);
            self.over(GameEnd::Finished { winner, result, points });
        }
    }

    /// The end of the game, scored in the match.
    fn over(&mut self, end: GameEnd) {
        if let Some((winner, points)) = end.winner() {
            self.state.record(winner, points);
        }
        self.phase = Phase::Over(end);
    }

    fn new_game(&mut self, first: Seat, dice: Dice, cube: Cube) -> Result<(), RuleError> {
        if !matches!(self.next(), Need::GameOver(_)) {
            return Err(not_now(Action::NewGame { first, dice, cube }, self.next()));
        }
        let turned_only_by_murphy = cube.owner.is_none()
            && cube.value.is_power_of_two()
            && cube.value == 1u32.checked_shl(cube.automatic).unwrap_or(0)
            && cube.automatic <= self.state.rules().murphy;
        if dice.is_double() || !turned_only_by_murphy {
            return Err(RuleError::BadStart);
        }
        *self = Game::new(self.state, Position::STARTING, first, cube, Some(dice));
        Ok(())
    }
}

/// The refusal of `action` where `need` is pending.
fn not_now(action: Action, need: Need) -> RuleError {
    let action = match action {
        Action::Roll(_) => "a roll",
        Action::Double => "a double",
        Action::Take => "a take",
        Action::Pass => "a pass",
        Action::Beaver => "a beaver",
        Action::Raccoon => "a raccoon",
        Action::Move(_) => "a move",
        Action::Resign(_) => "an offer to resign",
        Action::AcceptResignation | Action::RejectResignation => "an answer to a resignation",
        Action::NewGame { .. } => "a new game",
    };
    let need = match need {
        Need::RollOrDouble { .. } => "the side on roll rolls or doubles",
        Need::AnswerDouble { .. } => "a double waits for its answer",
        Need::AnswerBeaver { .. } => "a beaver waits for the doubler's answer",
        Need::AnswerRaccoon { .. } => "a raccoon waits for the beaverer's answer",
        Need::Move { .. } => "the side on roll has rolled and moves",
        Need::AnswerResignation { .. } => "an offer to resign waits for its answer",
        Need::GameOver(_) => "the game is over",
        Need::MatchOver { .. } => "the match is over",
    };
    RuleError::NotNow { action, need }
}
