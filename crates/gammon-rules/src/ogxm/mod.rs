//! OGXM match files (`.ogxm`, `.gvab`): HedgeHog's binary interchange
//! format, also written by GammonView and AnkiGammon, read into the same
//! [`MatchRecord`] as `.mat` and SGF (every play replayed through the
//! rules) with its analysis as a [`StoredAnalysis`], and written back.
//!
//! The format (v2; sources: HedgeHog's `docs/OGXM_FORMAT_SPEC.md`, CC BY
//! 4.0; its reference codec `libogxm`, MIT, in the PyPI wheel `ogxm`
//! 2.3.2; GammonView's `docs/OGXM_V2_PROFILE.md` and
//! `docs/OGXM_JSON_SPEC_GAMMONVIEW.md`, MIT, PyPI `gammonview` 3.1.0):
//!
//! - a 16-byte header: `OGXM`, the file's major and minor version, the
//!   oldest reader version that can read it (major, minor), the file size
//!   (u32; all integers little-endian); the file ends with `END!`;
//! - sections: a 4-byte type, a u32 length, a flags byte (bit 0: critical),
//!   the payload. `MTCH` (the match), one `GAME` per game, `ANAL` + `DECS`
//!   per analysis block, `CSUM` (CRC-32 of every byte before it, checked),
//!   and `SIGN`, `MSIG`, `CLCK`, `VIDO`, `ANNO`, which gammon skips, as it
//!   skips any unknown section that is not critical (an unknown critical one
//!   refuses the file);
//! - records: a varint length, a varint presence mask, required fields,
//!   then the optional fields whose mask bit is set, in bit order; fields
//!   a later minor version adds are stepped over by the length;
//! - seats: 0 is White (`MTCH`'s first name), gammon's seat Zero (the left
//!   column of a `.mat` file); 1 is Black, seat One;
//! - a ply: one byte (action in bits 0-5, seat in bit 6, an extras record
//!   follows if bit 7), then for a roll (actions 0-20, the 21 rolls `11`,
//!   `12` .. `66`) up to 2 (4 for doubles) step bytes ending early at a 0
//!   byte: the start point in bits 0-4, the pips in bits 5-7. Points are
//!   the board's: seat 1 moves from 24 down, entering from 25; seat 0 moves
//!   up, entering from 0. 21 double, 22 take, 23 drop, 32 beaver, 27/28 a
//!   resignation (of the game / the match; extras: its level 1-3), 24, 25,
//!   26, 30 markers with no action, 31 a position set by hand (also an
//!   illegal play restated as the board it made), 33 raccoon, 34
//!   settlement, 36 cube set by hand, 37 a turn with no recorded roll;
//! - `GAME`: winner, points won, a set-up board (26 signed counts, seat 0
//!   positive, bars at 0 and 25), the cube's starting value and owner,
//!   automatic doubles, then its plies;
//! - `DECS`: decisions addressed by `ply_ref`, the ply's ordinal across the
//!   whole match; equities are i32 millionths, probabilities u16
//!   ten-thousandths (win, win gammon, win backgammon, lose gammon, lose
//!   backgammon, cumulative), in the currency of the block (see
//!   `analysis` for gammon's units).
//!
//! gammon reads v2 only; a v1 file (major 1) is refused by name (the
//! reference codec's `v1_to_v2` converts one). Actions the replay cannot
//! follow (31, 33, 34, 36, 37, forfeit 29) refuse the game that holds them
//! ([`read_ogxm_until_error`] keeps the games before it). Every read is
//! bounded: the file size ([`MAX_MATCH_FILE_BYTES`]), each record by what
//! holds it, counts by the bytes left, strings at 4096 bytes, 1000 games,
//! 1500 plies a game, 64 blocks, 1024 alternatives; nothing is
//! decompressed.
//!
//! [`MAX_MATCH_FILE_BYTES`]: crate::MAX_MATCH_FILE_BYTES

mod analysis;
mod decode;
mod met;
mod read;
mod wire;
mod write;

use crate::mat::replay::replay_until_error;
use crate::{MatError, MatchEquity, MatchRecord};
use thiserror::Error;

pub use write::{ogxm_headers_not_written, write_ogxm, OgxmWriteError};

/// The last action id with a meaning in v2 (37, pass).
pub(crate) const LAST_KNOWN_ACTION: u32 = 37;

/// Why an OGXM file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OgxmError {
    /// It does not start with `OGXM`.
    #[error("not an OGXM file (no OGXM magic)")]
    NotOgxm,
    /// An OGXM v1 file.
    #[error("an OGXM v1 file (1.{minor}): not read; convert it to v2 (the reference codec's v1_to_v2)")]
    Version1 {
        /// The minor version.
        minor: u16,
    },
    /// A version this reader does not know.
    #[error("OGXM {major}.{minor} needs a reader of {reader_major}.{reader_minor}; this one reads 2.0 to 2.2")]
    Version {
        /// The file's version.
        major: u16,
        /// The file's minor version.
        minor: u16,
        /// The reader it needs.
        reader_major: u16,
        /// The reader's minor version it needs.
        reader_minor: u16,
    },
    /// The header's size is not the file's.
    #[error("the header says {stated} bytes, the file has {actual}")]
    SizeMismatch {
        /// The size in the header.
        stated: u32,
        /// The bytes read.
        actual: usize,
    },
    /// No `END!` at the end.
    #[error("no END! marker at the end: truncated")]
    NoEndMarker,
    /// The data ends inside a field.
    #[error("truncated at byte {offset}")]
    Truncated {
        /// Where.
        offset: usize,
    },
    /// A varint that is overlong, too wide or unterminated.
    #[error("byte {offset}: a varint {why}")]
    Varint {
        /// Where.
        offset: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// A field that breaks the format.
    #[error("byte {offset}: {what}")]
    Invalid {
        /// Where.
        offset: usize,
        /// What.
        what: &'static str,
    },
    /// The CRC-32 in `CSUM` is not the data's.
    #[error("checksum mismatch: stored {stored:08x}, computed {computed:08x}")]
    Checksum {
        /// In the file.
        stored: u32,
        /// Of the data.
        computed: u32,
    },
    /// An unknown section marked critical.
    #[error("an unknown critical section {kind:?}: this reader cannot read the file safely")]
    UnknownCritical {
        /// Its type.
        kind: String,
    },
    /// No `MTCH` section.
    #[error("no MTCH section: an analysis without its match")]
    NoMatch,
    /// More than a limit allows.
    #[error("{what}")]
    Limit {
        /// Which limit.
        what: &'static str,
    },
    /// A set-up board that is not a position.
    #[error("a set-up board that is not a position: {reason}")]
    Board {
        /// Why.
        reason: String,
    },
    /// Something gammon does not play (a variant, a strange cube).
    #[error("not read: {what}")]
    Unsupported {
        /// What.
        what: String,
    },
    /// An action the replay cannot follow.
    #[error("game {game}, ply {ply}: {what} cannot be replayed")]
    Unreplayable {
        /// The game (from 1).
        game: usize,
        /// The ply in the game (from 1).
        ply: usize,
        /// The action.
        what: &'static str,
    },
    /// The plays do not replay through the rules.
    #[error(transparent)]
    Replay(#[from] MatError),
}

/// True if `bytes` start with the OGXM magic.
pub fn is_ogxm(bytes: &[u8]) -> bool {
    bytes.starts_with(decode::MAGIC)
}

/// Reads an OGXM v2 file and replays every game through the rules; the
/// first block of analysis in money or match equity goes to
/// [`MatchRecord::stored`] (a match block only with a table, `equity`, to
/// turn its match winning chances into EMG).
///
/// # Errors
/// A file that breaks the format ([`OgxmError`]), an action the replay
/// cannot follow, or a play that is not legal ([`OgxmError::Replay`]).
pub fn read_ogxm(bytes: &[u8], equity: Option<&dyn MatchEquity>) -> Result<MatchRecord, OgxmError> {
    let (record, error) = read_ogxm_until_error(bytes, equity)?;
    match error {
        Some(e) => Err(OgxmError::Replay(e)),
        None => Ok(record),
    }
}

/// [`read_ogxm`] that keeps the games before the first that does not
/// replay: those games (with their analysis) and the error of the bad one.
/// An action the replay cannot follow ends the games read there too.
///
/// # Errors
/// A file that breaks the format.
pub fn read_ogxm_until_error(
    bytes: &[u8],
    equity: Option<&dyn MatchEquity>,
) -> Result<(MatchRecord, Option<MatError>), OgxmError> {
    let mut file = decode::decode(bytes)?;
    // An action gammon cannot replay ends the games read there, as a bad play does.
    let mut stop = None;
    if let Some((game, e)) = first_unreplayable(&file) {
        file.games.truncate(game);
        stop = Some(e);
    }
    // A game whose stated winner its plays do not reach ends by resignation.
    let implied: Vec<bool> = (0..file.games.len())
        .map(|i| file.games.get(i).is_some_and(|g| g.winner.is_some_and(|w| w < 2)) && !read::plays_end(&file, i))
        .collect();
    let (raw, map) = read::to_raw(&file, &implied)?;
    let (mut record, mut error) = replay_until_error(raw)?;
    if let Some((i, e)) = wrong_winner(&file, &record) {
        record.games.truncate(i);
        error = Some(e);
    }
    error = error.or(stop);
    record.stored = analysis::stored(&file.blocks, &map, &record, equity);
    Ok((record, error))
}

/// The first replayed game whose winner is not the one the file states.
/// The points are the play's: a stated `points_won` that a played-out or
/// passed game does not give (an edited file) yields to the rules.
fn wrong_winner(file: &decode::File, record: &MatchRecord) -> Option<(usize, MatError)> {
    record.games.iter().zip(&file.games).enumerate().find_map(|(i, (played, stated))| {
        let says = stated.winner.filter(|&w| w < 2)?;
        let is = played.result.map(|(w, _)| w.index());
        (is != usize::try_from(says).ok()).then(|| {
            let place = crate::MatPlace { game: Some(played.number), ..Default::default() };
            let reason = match is {
                Some(w) => format!("the file says seat {says} won, but the play gives it to seat {w}"),
                None => format!("the file says seat {says} won, but the game is not over after its plays"),
            };
            (i, MatError { place, reason })
        })
    })
}

/// The first ply gammon's replay cannot follow: its game's index and the error.
fn first_unreplayable(file: &decode::File) -> Option<(usize, MatError)> {
    file.games.iter().enumerate().find_map(|(gi, g)| {
        g.plies.iter().enumerate().find_map(|(pi, p)| {
            let what = read::unreplayable(p.action)?;
            let place = crate::MatPlace {
                game: u32::try_from(gi + 1).ok(),
                move_number: u32::try_from(pi + 1).ok(),
                ..Default::default()
            };
            Some((gi, MatError { place, reason: format!("{what} cannot be replayed") }))
        })
    })
}
