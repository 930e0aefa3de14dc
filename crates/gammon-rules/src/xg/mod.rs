//! eXtreme Gammon's binary `.xg` match files, replayed through the rules
//! into the same [`MatchRecord`] the `.mat` reader gives for XG's text
//! export of the same match, with XG's stored analysis in
//! [`MatchRecord::stored`].
//!
//! The format is published by its author (extremegammon.com/xgformat.aspx,
//! "RichGameFormat"); the facts below were checked against two public
//! readers, xgdatatools (Michael Petch, LGPL: `xgstruct.py`, `xgzarc.py`,
//! `xgimport.py`) and gammonview's `gvformat/xg.py` (MIT), and against the
//! real files of `shared/matches/xg/`. No code was taken from them.
//!
//! A file is read in four steps, one module each:
//! - `container`: the `RGMH` header (8,232 bytes: magic, version 1, header
//!   size, thumbnail offset and size), the JPEG thumbnail, then either a
//!   ZLibArchive (zlib-compressed files; a 36-byte trailer at the end gives
//!   the CRC-32 of the archive, the file count and the size of the
//!   compressed index of 532-byte entries: name, sizes, start, CRC-32) whose
//!   file `temp.xg` is the game file, or the "bare" kind whose one zlib
//!   stream after the thumbnail is the game file. Every size is checked
//!   against the file and [`MAX_GAME_FILE_BYTES`] (inflation stops there);
//! - `records`: the game file is 2,560-byte records (`TSaveRec`), the first
//!   a match header with the magic `DMLI`; then per game a game header, a
//!   cube record before each roll (the decision to double, the answer), a
//!   move record per roll, and a game footer (winner and points);
//! - `convert`: the records as the written form of a match. XG's player 1
//!   is the left column (seat Zero) as in its `.mat` export. Checker steps
//!   are from/to pairs counted from 0 in the mover's numbering (24 the
//!   bar, below 0 off), a step may span both dice (`24/18`); a match length
//!   of 99999 (or 0) is a money session; the Crawford, Jacoby and beaver
//!   rules and the cube limit (a power of two) come from the match header;
//!   each game's score and Crawford flag from its header; a game ends with
//!   the footer's `Wins N points` (a game not over after its moves is a
//!   resignation, as in `.mat`). The headers are those XG's `.mat` export
//!   writes from the match header (`Player 1`, `Player 2`, `Variation`,
//!   `Crawford`, `Jacoby`, `Beaver`, `Cubelimit`), and `Event`, `Round`,
//!   `Location` when set. Each action is numbered with the row XG's
//!   `.mat` export writes it on, so an error names the game and move as
//!   that export shows them. Refused: other variants (Nackgammon...),
//!   automatic doubles, raccoons, games from a set position;
//! - the replay (shared with `.mat` and SGF) checks every play against the
//!   rules: an illegal play (XG lets a transcriber enter one and marks it
//!   invalid) is an error naming its game and move;
//! - `analysis`: the cube and checker analyses XG stored, in gammon's
//!   conventions (see that module).
//!
//! Not read: rollout details (`temp.xgr`), comments (`temp.xgc`), luck,
//! time settings, tutor data.

mod analysis;
mod bytes;
mod container;
mod convert;
mod records;

use crate::mat::replay::replay_until_error;
use crate::{MatError, MatchRecord};
use thiserror::Error;

pub use container::MAX_GAME_FILE_BYTES;

/// Why an `.xg` file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum XgError {
    /// It does not start with `RGMH`.
    #[error("not an eXtreme Gammon file (no RGMH header)")]
    NotXg,
    /// It ends inside the named part.
    #[error("truncated: the file ends inside {0}")]
    Truncated(&'static str),
    /// A field holds what no XG file holds.
    #[error("corrupt: {0}")]
    Corrupt(String),
    /// A CRC-32 does not match the data it covers.
    #[error("corrupt: the checksum of {0} does not match")]
    Checksum(&'static str),
    /// The game file inflates past [`MAX_GAME_FILE_BYTES`].
    #[error("the game data inflates past the limit of {MAX_GAME_FILE_BYTES} bytes")]
    TooLarge,
    /// The archive has no `temp.xg`.
    #[error("the archive holds no game file (temp.xg)")]
    NoGameFile,
    /// A record of the game file (counted from 0) is not valid.
    #[error("record {index}: {reason}")]
    Record {
        /// The record's index in the game file.
        index: usize,
        /// Why.
        reason: String,
    },
    /// Something XG writes that gammon does not read.
    #[error("not read: {0}")]
    Unsupported(String),
    /// A game does not replay (an illegal play, a result that does not fit).
    #[error(transparent)]
    Match(#[from] MatError),
}

/// True if `bytes` are an XG file (they start with `RGMH`).
pub(crate) fn is_xg(bytes: &[u8]) -> bool {
    bytes.starts_with(b"RGMH")
}

/// Reads the bytes of an `.xg` file and replays every game through the
/// rules, with XG's analysis in [`MatchRecord::stored`].
///
/// # Errors
/// A container or record that is not valid XG ([`XgError`]), or a game
/// that does not replay ([`XgError::Match`], naming its game and move).
pub fn parse_xg(bytes: &[u8]) -> Result<MatchRecord, XgError> {
    let (record, error) = parse_xg_until_error(bytes)?;
    error.map_or(Ok(record), |e| Err(XgError::Match(e)))
}

/// [`parse_xg`] that keeps the games before the first game that does not
/// replay: those games (with their analysis) and the error of the bad one.
///
/// # Errors
/// A file that cannot be read as an XG match at all.
pub fn parse_xg_until_error(bytes: &[u8]) -> Result<(MatchRecord, Option<MatError>), XgError> {
    let game_file = container::game_file(bytes)?;
    let records = records::parse_records(&game_file)?;
    let converted = convert::convert(records)?;
    let (mut record, mut error) = replay_until_error(converted.raw)?;
    if let Some((game, invalid)) = converted.invalid {
        // The rules refuse most invalid plays themselves; one whose steps are
        // legal but do not say what was played (XG drops a backwards hop) is
        // refused by XG's mark, unless the replay stopped before it.
        let stopped_before = error.as_ref().is_some_and(|e| {
            record.games.len() < game
                || (record.games.len() == game && e.place.move_number <= invalid.place.move_number)
        });
        if !stopped_before {
            record.games.truncate(game);
            error = Some(invalid);
        }
    }
    record.stored = analysis::attach(&record, converted.pending);
    Ok((record, error))
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
