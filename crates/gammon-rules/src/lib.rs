//! Backgammon rules for gammon: the position type, dice, the move generator,
//! game results, and the standard position and move formats.
//!
//! # Where each rule lives
//!
//! | rule | item |
//! |---|---|
//! | moving a checker by one die, hitting a blot | [`Position::apply_step`](position::Position) (`HIT`; the move generator plays it mirrored, on the switched board) |
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
//! | the opening roll: one die each, ties rolled again, the higher die starts with both | [`opening_roll`], [`try_opening_roll`] |
//! | the 21 rolls and their odds | [`ALL_ROLLS`], [`Dice::weight`] |
//! | dice from a seed, replayed dice (duplicate play) | [`RandomDice`], [`ReplayDice`], [`RecordingDice`] |
//! | the phase: finished, bearoff, race, contact | [`PositionClass`] |
//!
//! # The cube and the match
//!
//! | rule | item |
//! |---|---|
//! | a turn: the cube, the roll, the move; a pass when no checker can move | [`play_game`] |
//! | a game between two decisions: what is needed next, and each action taken or refused with its rule (a double only before the roll and once a turn, answers only to what is pending, a move among the roll's legal ones) | [`Game::next`], [`Game::apply`], [`RuleError`]; carried as text: [`Game`]'s `Display`/`FromStr` |
//! | one limit on a game's length | [`MAX_TURNS`] |
//! | only the cube owner (or anyone, cube centred) doubles, before his roll, within the largest cube | [`GameContext::may_double`], [`MatchState::may_double`]; why not: [`DoubleRefusal`] |
//! | a cube of 1 is centred (owned only after a taken double) | [`GameContext::validate`] ([`ContextError::OwnedCubeAtOne`]), [`CubeOwner`] |
//! | a taken double: twice the cube, owned by the taker | [`Cube::taken`] |
//! | a passed double: the doubler wins the cube value before the double | [`play_game`] ([`GameEnd::Passed`]) |
//! | beaver (money): take and redouble at once, keep the cube | [`Cube::beavered`], [`MatchState::may_beaver`] |
//! | raccoon (money): the doubler redoubles a beaver | [`Cube::raccooned`], [`MatchState::may_raccoon`] |
//! | the largest cube | [`MatchRules::max_cube`] |
//! | Jacoby (money): gammons count single while the cube is centred | [`MatchState::jacoby_applies`], [`MatchState::points`] |
//! | Murphy (money): equal opening dice turn the cube | [`MatchState::opening_roll`], [`MatchState::automatic_double`] |
//! | points of a game: the result times the cube | [`MatchState::points`] |
//! | resignation: single, gammon or backgammon offered, accepted (scored as that result, Jacoby included) or declined (only a higher offer counts that turn) | [`Table::offers_resignation`], [`Table::accepts_resignation`], [`GameEnd::Resigned`] |
//! | the match score, the winner at the match length | [`MatchState::record`], [`MatchState::winner`] |
//! | Crawford: no double in the first game after a player reaches 1-away | [`MatchState::record`], [`MatchState::is_crawford`] |
//! | post-Crawford: the trailer may double again | [`MatchState::is_post_crawford`] |
//! | a `.mat` match file replayed through the rules: legal moves, cube actions in turn, results that fit (`and the match` only where it ends the match) | [`parse_mat`], [`read_match_file`] |
//! | a match file's kind from its content; UTF-8 (BOM or not), UTF-16 with a BOM, LF/CR LF/CR lines; `.xg` and OGXM read from their bytes | [`read_match_file`], [`parse_match_text`], [`UnreadFormat`] |
//! | input quoted in errors at most 80 characters, names shown at most 64 | [`quote`], [`shorten`] |
//! | a gnubg `.sgf` match file (`GM[6]`) replayed the same way, into the same record | [`parse_sgf`], [`read_match_file`] |
//! | an eXtreme Gammon `.xg` match file (both containers) replayed the same way, with XG's stored analysis | [`parse_xg`], [`read_match_file`], [`StoredAnalysis`] |
//! | a match written back as `.mat` (gnubg's export layout) or gnubg SGF (with a stored analysis gnubg shows), read back as the same games by gammon and gnubg | [`write_mat`], [`write_sgf`] |
//! | a match recorded while it is played, replayed through the rules like a file | [`MatchRecorder`] |
//! | an OGXM v2 file (`.ogxm`, `.gvab`) replayed the same way, its analysis kept; written back with an analysis | [`read_ogxm`], [`read_match_file`], [`write_ogxm`] |
//! | money-only rules (Jacoby, beavers, Murphy) do not exist in a match | [`MatchRules::normalized`], [`GameContext::validate`] |
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod board_display;
mod context;
mod dice;
mod dice_source;
mod error;
mod excerpt;
mod fibs;
mod game;
mod game_result;
mod game_state;
mod mat;
mod match_id;
mod match_play;
mod movegen;
mod notation;
mod ogxm;
mod perft;
mod phase;
mod position;
mod position_id;
mod position_text;
#[cfg(test)]
mod random_games;
mod seat;
mod sgf;
mod step_orders;
mod stored_analysis;
mod xg;
mod xgid;

pub use context::{ContextError, CubeOwner, DiceState, DoubleRefusal, GameContext};
pub use dice::{opening_roll, try_opening_roll, Dice, OpeningRoll, ALL_ROLLS};
pub use dice_source::{DiceSource, RandomDice, RecordingDice, ReplayDice};
pub use error::{DiceError, PositionError, PositionIdError};
pub use excerpt::{quote, shorten, Quoted, NAME_CHARS, QUOTE_CHARS};
pub use fibs::{FibsBoard, FibsError};
pub use game::{
    play_game, Abandoned, CubePolicy, Decision, FirstRoll, Flow, GameEnd, GameRecord, GameStart, NoCube, Player, Seats,
    Table, Turn, MAX_TURNS,
};
pub use game_result::GameResult;
pub use game_state::{Action, Game, Need, RuleError, StateError};
pub use mat::{
    parse_mat, parse_mat_until_error, parse_match_bytes_until_error_with_analysis, parse_match_bytes_with_analysis,
    parse_match_text, parse_match_text_until_error, parse_match_text_with_analysis, read_match_file,
    read_match_file_until_error, read_match_file_until_error_with_analysis, read_match_file_with_analysis, write_mat,
    GameText, MatAction, MatEntry, MatError, MatPlace, MatchBytesError, MatchRecord, MatchRecorder, ReadMatchError,
    UnreadFormat, WinHow, WriteMatchError, MAX_MATCH_FILE_BYTES,
};
pub use match_id::{GameState, MatchId, MatchIdError, Resignation};
pub use match_play::{BeaverAnswer, Cube, CubeAnswer, MatchError, MatchRules, MatchState, RaccoonAnswer};
pub use movegen::{legal_sources, Move, MoveList, Step, MAX_MOVES};
pub use notation::{parse_move, parse_move_in, MoveError};
pub use ogxm::{
    is_ogxm, ogxm_headers_not_written, read_ogxm, read_ogxm_until_error, write_ogxm, OgxmError, OgxmWriteError,
};
pub use perft::perft;
pub use phase::PositionClass;
pub use position::{Position, SideBoard, BAR, CHECKERS_PER_SIDE, OFF};
pub use position_text::{parse_position_text, PositionText, PositionTextError};
pub use seat::Seat;
pub use sgf::{parse_sgf, parse_sgf_until_error, read_sgf_analysis, sgf_headers_not_written, write_sgf, SgfAnalysis};
pub use step_orders::{step_orders, PlayedStep, StepNode};
pub use stored_analysis::{MatchEquity, StoredAnalysis, StoredCandidate, StoredCube, StoredMove, StoredRecord};
pub use xg::{parse_xg, parse_xg_until_error, XgError, MAX_GAME_FILE_BYTES};
pub use xgid::{Xgid, XgidError};
