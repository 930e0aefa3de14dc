//! Jellyfish / gnubg `.mat` text match files (also FIBS, Backgammon
//! Galaxy, Backgammon Studio and XG text exports), replayed through the
//! rules.
//!
//! A file is read in two steps: `lines` turns the text into the games and
//! their written actions, each assigned to the left or right player's
//! column; `replay` plays every action through the rules (each move must
//! be legal for its dice, each cube action in turn) and rebuilds the
//! position before it. The written form (`raw`) and the replay are shared
//! with the gnubg SGF reader (`crate::sgf`), which builds the same written
//! form from SGF properties, so both formats give the same [`MatchRecord`].

mod encoding;
mod lines;
pub(crate) mod raw;
mod read;
mod recorder;
pub(crate) mod replay;
pub(crate) mod write;

use crate::{shorten, Cube, Dice, GameResult, MatchRules, MatchState, Move, Position, Seat, NAME_CHARS};
use std::collections::BTreeMap;
use std::fmt;
use thiserror::Error;

pub use encoding::UnreadFormat;
pub use read::{
    parse_match_bytes_until_error_with_analysis, parse_match_bytes_with_analysis, parse_match_text,
    parse_match_text_until_error, parse_match_text_with_analysis, read_match_file, read_match_file_until_error,
    read_match_file_until_error_with_analysis, read_match_file_with_analysis, MatchBytesError, ReadMatchError,
    MAX_MATCH_FILE_BYTES,
};
pub use recorder::MatchRecorder;
pub use write::{write_mat, WriteMatchError};

/// A whole match (or money session) as written in a `.mat` file.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRecord {
    /// The players: `[left column, right column]` (seat Zero, seat One).
    pub players: [String; 2],
    /// The match length; 0 = money session.
    pub match_length: u32,
    /// Crawford rule (`; [Crawford "Off"]` turns it off; on by default).
    pub crawford: bool,
    /// The rules the games were played under (length, cube, money rules).
    pub rules: MatchRules,
    /// The `; [Key "Value"]` header lines, in key order.
    pub headers: BTreeMap<String, String>,
    /// The games in file order.
    pub games: Vec<GameText>,
    /// Another program's analysis stored in the file (XG, OGXM), if any.
    pub stored: Option<crate::StoredAnalysis>,
}

/// One game of a match file.
#[derive(Debug, Clone, PartialEq)]
pub struct GameText {
    /// Its number as written (`Game K`).
    pub number: u32,
    /// The score before it, `[left, right]`, as written.
    pub score: [u32; 2],
    /// The records in file order.
    pub records: Vec<MatEntry>,
    /// Who won and how many points; `None`: the game is unfinished.
    pub result: Option<(Seat, u32)>,
    /// The match state the game was played in (score, Crawford game,
    /// post-Crawford): `state.context(&entry.cube, entry.player)` is the
    /// [`GameContext`](crate::GameContext) of an entry.
    pub state: MatchState,
}

impl GameText {
    /// The number of rolls (moves and dances) in the game.
    pub fn rolls(&self) -> usize {
        self.records.iter().filter(|r| matches!(r.action, MatAction::Move { .. } | MatAction::Dance { .. })).count()
    }
}

/// One action of a game, with the position it was taken in.
#[derive(Debug, Clone, PartialEq)]
pub struct MatEntry {
    /// Who acted: seat Zero = the left column.
    pub player: Seat,
    /// The numbered line it is on (`None`: an unnumbered result line).
    pub move_number: Option<u32>,
    /// The line in the file (1-based).
    pub line: usize,
    /// The position before the action, seen by `player`.
    pub position: Position,
    /// The cube before the action.
    pub cube: Cube,
    /// What was done.
    pub action: MatAction,
}

/// What a player did.
#[derive(Debug, Clone, PartialEq)]
pub enum MatAction {
    /// A roll and the legal move played.
    Move {
        /// The dice.
        dice: Dice,
        /// The move (legal for `dice`).
        mv: Move,
        /// The move as written.
        text: String,
    },
    /// A roll with no legal move.
    Dance {
        /// The dice.
        dice: Dice,
    },
    /// A double to `value`.
    Double {
        /// The cube value offered.
        value: u32,
    },
    /// The double is taken.
    Take,
    /// The double is beavered (money): taken and redoubled.
    Beaver,
    /// The double is passed: the game ends.
    Drop,
    /// A resignation (written `Losses N point`, or implied by a `Wins N
    /// points` before the game is over, as gnubg reads it).
    Resign {
        /// The points given up.
        points: u32,
        /// The level resigned: single, gammon or backgammon.
        level: GameResult,
    },
    /// The game is won for `points`.
    Win {
        /// The points written.
        points: u32,
        /// How the game ended.
        how: WinHow,
    },
}

/// How a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinHow {
    /// Played to the end with this result.
    Played(GameResult),
    /// The opponent passed a double.
    Passed,
    /// The opponent resigned at this level.
    Resigned(GameResult),
}

/// Where in a match file an error is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MatPlace {
    /// The line (1-based); 0 in a binary file (XG, OGXM), which has none.
    pub line: usize,
    /// The game number, once a game has started.
    pub game: Option<u32>,
    /// The move number of the line, if it is a numbered line.
    pub move_number: Option<u32>,
    /// The player's name, if the error is in an action.
    pub player: Option<String>,
}

impl fmt::Display for MatPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Binary files (XG, OGXM) have no lines: line 0.
        let mut parts = Vec::with_capacity(3);
        if self.line > 0 {
            parts.push(format!("line {}", self.line));
        }
        if let Some(g) = self.game {
            parts.push(format!("game {g}"));
        }
        if let Some(m) = self.move_number {
            parts.push(format!("move {m}"));
        }
        if parts.is_empty() {
            parts.push("the file".to_string());
        }
        f.write_str(&parts.join(", "))?;
        if let Some(p) = &self.player {
            write!(f, " ({})", shorten(p, NAME_CHARS))?;
        }
        Ok(())
    }
}

/// Why a match file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{place}: {reason}")]
pub struct MatError {
    /// Where.
    pub place: MatPlace,
    /// Why.
    pub reason: String,
}

/// Reads the text of a match file and replays every game through the rules.
///
/// ```
/// use gammon_rules::{parse_mat, MatAction, Seat};
/// let text = " 1 point match\n\n Game 1\n A : 0         B : 0\n  1)           31: 8/5 6/5\n  2) 13: 8/4\n";
/// let m = parse_mat(text).unwrap();
/// let game = &m.games[0];
/// assert_eq!(game.records[0].player, Seat::One); // B rolled first
/// assert_eq!(game.rolls(), 2);
/// assert!(parse_mat(&text.replace("8/4", "8/3")).is_err()); // 13 cannot play 8/3
/// ```
///
/// # Errors
/// Unreadable text, an illegal move, a dice value out of range, a cube
/// action out of turn, a result that does not fit the game or a score that
/// does not follow from the games before; the error names the line, game,
/// move number and player.
pub fn parse_mat(text: &str) -> Result<MatchRecord, MatError> {
    let raw = lines::parse_lines(text)?;
    replay::replay(raw)
}

/// [`parse_mat`] that keeps the games before the first game that does not
/// replay: the match of those games and the error of the bad one (`None`
/// when every game replays).
///
/// # Errors
/// Text that cannot be read as a match file at all.
pub fn parse_mat_until_error(text: &str) -> Result<(MatchRecord, Option<MatError>), MatError> {
    let raw = lines::parse_lines(text)?;
    replay::replay_until_error(raw)
}

/// Whether the header `key: value` says only that the game is backgammon
/// (XG's `Variation "Backgammon"`): every writer's format says so itself.
pub(crate) fn says_backgammon(key: &str, value: &str) -> bool {
    key.eq_ignore_ascii_case("Variation") && value.eq_ignore_ascii_case("Backgammon")
}
