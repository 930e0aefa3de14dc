//! Backgammon rules for gammon: the position type, dice, the move generator,
//! game results, and the standard position and move formats.
//!
//! # Where each rule lives
//!
//! | rule | item |
//! |---|---|
//! | moving a checker by one die, hitting a blot | [`Position::apply_step`](position::Position) (`HIT`) |
//! | all checkers on the bar enter first (`ENTER_FROM_BAR_FIRST`) | [`legal_sources`] |
//! | never onto 2+ opposing checkers (`BLOCKED_POINT`) | [`legal_sources`] |
//! | bearing off only with all 15 home (`BEAR_OFF_ALL_HOME`) | [`legal_sources`], [`Position::all_home`] |
//! | a larger die bears off from the highest point (`BEAR_OFF_HIGHER_DIE`) | [`legal_sources`] |
//! | both dice must be used if possible (`USE_BOTH_DICE`) | [`MoveList::generate`] |
//! | only one die playable: the larger one (`LARGER_DIE_IF_ONLY_ONE`) | [`MoveList::generate`] |
//! | a die playable only after the other forces the order (`DIE_ORDER_FORCED`) | [`MoveList::generate`] |
//! | doubles are played four times, or as many as possible | [`MoveList::generate`] |
//! | no legal move: the turn passes | [`MoveList::generate`] (empty list) |
//! | single, gammon, backgammon | [`GameResult`], [`Position::game_result`] |
//! | the opening roll | [`opening_roll`] |
//! | the 21 rolls and their odds | [`ALL_ROLLS`], [`Dice::weight`] |
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod board_display;
mod context;
mod dice;
mod error;
mod fibs;
mod game_result;
mod match_id;
mod movegen;
mod notation;
mod perft;
mod position;
mod position_id;
mod xgid;

pub use context::{ContextError, CubeOwner, DiceState, GameContext};
pub use dice::{opening_roll, Dice, OpeningRoll, ALL_ROLLS};
pub use error::{DiceError, PositionError, PositionIdError};
pub use fibs::{FibsBoard, FibsError};
pub use game_result::GameResult;
pub use match_id::{GameState, MatchId, MatchIdError, Resignation, Seat};
pub use movegen::{legal_sources, Move, MoveList, Step, MAX_MOVES};
pub use notation::{parse_move, parse_move_in, MoveError};
pub use perft::perft;
pub use position::{Position, SideBoard, BAR, CHECKERS_PER_SIDE, OFF};
pub use xgid::{Xgid, XgidError};
