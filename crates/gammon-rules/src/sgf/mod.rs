//! gnubg's `.sgf` backgammon files (`GM[6]`), replayed through the rules
//! into the same [`MatchRecord`] the `.mat` reader gives for the same match.
//!
//! A file is read in three steps: `tree` reads the SGF syntax (game trees,
//! nodes, properties, values with `\]` and `\\` escaped, whitespace
//! anywhere between tokens); `gnubg` maps gnubg's properties onto the
//! written form of a match; the `.mat` reader's replay plays it.
//!
//! What is read:
//! - one game tree per game (gnubg writes one per game); of a tree with
//!   variations only the main line (the first variation at each branch) is
//!   read;
//! - the root node: `GM[6]` (required), `MI[length:7][game:0][ws:0][bs:0]`
//!   (match length, 0 = money session; game number from 0, so `Game 1` is
//!   `game:0`; the scores of White and Black before the game), `PW`/`PB`
//!   (the players), `RU` (`Crawford`, `CrawfordGame`, `Jacoby`, `NoCube`,
//!   colon-separated; variants such as `Nackgammon` are refused), `RE`
//!   (`W+2`, `B+1R`: winner, points, `R` resigned);
//! - move nodes: `B[41lpab]` (the dice, then from/to pairs of point
//!   letters: `a`..`x` are the points counted from White's side, so White's
//!   1-point is `a` and Black's 1-point is `x`; `y` is the bar, `z` off),
//!   `W[double]`, `B[take]`, `B[drop]`. gnubg writes a beaver as a `double`
//!   by the player answering a double, followed by the doubler's `take`:
//!   that is one beaver record, as in `.mat` (a dropped beaver or a
//!   raccoon is refused);
//! - a resignation is no node: gnubg writes it only in the root's `RE`
//!   (`B+2R`) and rebuilds a resignation at the end of the game, as the
//!   `.mat` reader does for a `Wins` before the game is over. A result
//!   without `R` must follow from the moves (a game played out or a
//!   passed double); with `R` after a game played out, the played result
//!   counts (it must still be the one written);
//! - `PL[B]DI[31]` (dice set by hand) must be followed by that player's
//!   move with those dice. Setup nodes (`AE`, `AB`, `AW`, `PL` alone, `CV`,
//!   `CP`: a game from a set position, cube or dice), in the root node as
//!   in any other, and a root `CV` other than 1 (automatic doubles) are
//!   refused, naming the property: every game starts from the starting
//!   position with the cube at 1.
//!
//! Ignored here: stored analysis (`A`, `DA`, `GS`, `LU`, `MR`, `CR`, the marks
//! `BM`, `DO`, `BC`, `DC`, `IT`, `TE`, `IC`, `TC`, luck `GB`, `GW`; the
//! moves' and cube decisions' analysis is read by [`read_sgf_analysis`]),
//! comments (`C`, `N`), `FF`, `CA` (the text is read as UTF-8) and any
//! other property.
//!
//! Seats: White (`PW`, gnubg's player 0) is seat Zero, the left column of
//! gnubg's `.mat` export, so `players`, the scores and each record's
//! `player` mean what they mean for `.mat`. The headers are those gnubg's
//! `.mat` export writes for the first game's root: `PC` as `Site`, `EV`
//! `Event`, `RO` `Round`, `AN` `Transcriber`, `DT` `EventDate`
//! (`2025-11-08` written `2025.11.08`). The players are in `players` only
//! and `AP`, `WR`, `BR`, `GC` are not kept, as in gnubg's export, so the
//! record equals the one read from gnubg's `.mat` export of the same file.
//!
//! Numbering: a game's number is `MI[game:K]` + 1 (its position in the
//! file when `MI` has no game); an action's move number is the index of
//! its node in the game (the root node is 0), and its line is the line of
//! its node's `;` (the result's records, from `RE`, carry the root's). Each move's text is written as gnubg's `.mat` export
//! writes it: the steps in the file's order, `25` the bar, `0` off, a hit
//! marked `*` (`13/9 24/23`, `6/4* 18/17*`). The score before each game
//! must follow from the results before (a file may start mid-match: the
//! first game's score is then the start), and `CrawfordGame` must agree
//! with the score.

mod analysis;
mod gnubg;
mod tree;
mod write;

pub use analysis::read_sgf_analysis;
pub use write::{sgf_headers_not_written, write_sgf, SgfAnalysis};

use crate::mat::replay::replay_until_error;
use crate::{MatAction, MatError, MatPlace, MatchRecord};

/// True if `text` is SGF: its first non-blank character is `(`.
pub(crate) fn is_sgf(text: &str) -> bool {
    text.trim_start().starts_with('(')
}

/// Reads the text of a gnubg SGF match file and replays every game through
/// the rules.
///
/// ```
/// use gammon_rules::{parse_sgf, MatAction, Seat};
/// let text = "(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]\n;B[31qtst]\n;W[42hdfd])";
/// let m = parse_sgf(text).unwrap();
/// let game = &m.games[0];
/// assert_eq!(game.records[0].player, Seat::One); // Black (B) rolled first
/// assert!(matches!(&game.records[0].action, MatAction::Move { text, .. } if text == "8/5 6/5"));
/// assert!(parse_sgf(&text.replace("hdfd", "hdfc")).is_err()); // 42 cannot play 8/4 6/3
/// ```
///
/// # Errors
/// Unreadable SGF, a game tree that is not backgammon, an illegal move, a
/// dice value out of range, a cube action out of turn, a result that does
/// not fit the game, a score that does not follow from the games before,
/// or a set position; the error names the line, game, move (node index)
/// and player.
pub fn parse_sgf(text: &str) -> Result<MatchRecord, MatError> {
    let (record, error) = parse_sgf_until_error(text)?;
    error.map_or(Ok(record), Err)
}

/// [`parse_sgf`] that keeps the games before the first game that does not
/// replay: the match of those games and the error of the bad one (`None`
/// when every game replays).
///
/// # Errors
/// Text that cannot be read as a gnubg SGF match at all.
pub fn parse_sgf_until_error(text: &str) -> Result<(MatchRecord, Option<MatError>), MatError> {
    let mut reader = gnubg::MatchReader::default();
    tree::parse_collection(text, &mut reader)?;
    let (raw, resigned) = reader.finish()?;
    let lines: Vec<usize> = raw.games.iter().map(|g| g.line).collect();
    let (mut record, mut error) = replay_until_error(raw)?;
    let bad = record.games.iter().zip(resigned.0).zip(lines).enumerate().find_map(|(i, ((game, resigned), line))| {
        // A result without `R` must have been reached by the moves; the
        // replay reads a result before the end as a resignation.
        let resigns = game.records.iter().any(|r| matches!(r.action, MatAction::Resign { .. }));
        (!resigned && resigns).then(|| {
            let reason = "the result (RE) is not a resignation, but the game is not over after its last move";
            (
                i,
                MatError {
                    place: MatPlace { line, game: Some(game.number), ..MatPlace::default() },
                    reason: reason.into(),
                },
            )
        })
    });
    if let Some((i, e)) = bad {
        record.games.truncate(i);
        error = Some(e);
    }
    Ok((record, error))
}
