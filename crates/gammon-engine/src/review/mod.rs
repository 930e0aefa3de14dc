//! Match review: every record of a match file analysed as gnubg's `analyse
//! match` analyses it, and each player's error rates, marks, luck and
//! rating.
//!
//! - **Moves** ([`ChequerReview`]): every legal move of the roll ranked by
//!   cubeful equity at the cube and score of the game
//!   ([`rank_results_cubeful`](crate::cube::rank_results_cubeful)) at
//!   [`ReviewSettings::plies`] through gnubg's normal move filter (8 moves
//!   within 0.16 after 0 ply; gnubg's own analysis uses its large filter,
//!   16 within 0.32, [`MoveFilter::LARGE`], which measured the same marks
//!   and rates on gnubg's matches at 1.7 times the time); the move played
//!   is always valued at full depth.
//!   The loss is in normalised equity (money: per unit of cube; match: EMG)
//!   and marked with gnubg's thresholds ([`Mark`]). Forced moves (one
//!   legal move) and dances are recorded, not counted as decisions.
//! - **Cube decisions** ([`CubeReview`]): before each roll where the player
//!   could double (not the opening position), every double, and every
//!   answer to one, the doubler's no double / double-take / double-pass at
//!   [`ReviewSettings::cube_plies`]; the error of what was done, gnubg's
//!   kind of error, and whether the decision counts ("close or actual":
//!   every double, take, beaver and pass; a no-double decision where the
//!   best cube action is within 0.16 of `min(double/take, 1)`).
//! - **Luck** ([`LuckReview`]): the value of the roll (its best move at
//!   [`ReviewSettings::luck_plies`], cubeful) against the average of the 36
//!   rolls; for a game's first roll against the 30 non-doubles, either
//!   player moving first.
//! - **Per player** ([`PlayerSummary`]): gnubg's chequer, cube, overall and
//!   Snowie error rates, XG's PR, luck per roll and gnubg's rating.
//!
//! Records are analysed in parallel (rayon, one task per record) and each
//! analysis depends only on its record, so a review is the same at any
//! thread count. The records are taken in file order, so a review stopped
//! part way keeps every record finished: a prefix of the match.
//!
//! Not reviewed: whether a resignation, or its acceptance, was right; a
//! beaver is reviewed as a take (the redouble itself is not valued).

mod analyse;
mod json;
mod marks;
mod report;
mod stored;
mod summary;

pub use marks::{luck_rating, LuckMark, Mark, Rating};
pub use report::{
    ChequerReview, CubeChoice, CubeErrorKind, CubeReview, GameReview, LuckCounts, LuckReview, MarkCounts, MatchReview,
    PlayerSummary, RecordReview, StoredFigures, StoredReview,
};
pub use summary::{totals_by_player, PlayerTotals};

use crate::api::Engine;
use crate::search::MoveFilter;
use gammon_eval::Evaluator;
use gammon_rules::{shorten, MatchRecord, NAME_CHARS};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;
use thiserror::Error;

/// How a match is reviewed. The default is gnubg's analysis: moves and
/// cube at 2 plies, luck at 0; with gnubg's normal move filter.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReviewSettings {
    /// Depth of the move analysis (gnubg's counting: 0 = static).
    #[serde(rename = "ply")]
    pub plies: u8,
    /// Depth of the cube decisions.
    #[serde(rename = "cube_ply")]
    pub cube_plies: u8,
    /// Depth of the luck of each roll.
    #[serde(rename = "luck_ply")]
    pub luck_plies: u8,
    /// The root screens of the move analysis.
    #[serde(skip)]
    pub filter: MoveFilter,
    /// How many of the best moves each record keeps.
    pub candidates: usize,
    /// Inside the lookahead of the move analysis, the net evaluates only
    /// the best `prune` moves of each roll by pubeval
    /// ([`MoveFilter::prune`]; 0: every move). The cube decisions are
    /// searched without the screen.
    pub prune: usize,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        ReviewSettings {
            plies: 2,
            cube_plies: 2,
            luck_plies: 0,
            filter: MoveFilter::NORMAL,
            candidates: 5,
            prune: MoveFilter::ANALYSIS_PRUNE,
        }
    }
}

/// The deepest review asked for: the engine's limit
/// ([`MAX_PLY`](crate::api::MAX_PLY)); 3 plies take minutes per move.
pub const MAX_REVIEW_PLIES: u8 = crate::api::MAX_PLY;

impl ReviewSettings {
    /// Refuses a depth beyond [`MAX_REVIEW_PLIES`].
    ///
    /// # Errors
    /// [`ReviewError::TooDeep`] naming the depth (by its option: `--ply`,
    /// `--cube-ply`).
    pub fn check(&self) -> Result<(), ReviewError> {
        for (what, plies) in [("--ply", self.plies), ("--cube-ply", self.cube_plies), ("luck", self.luck_plies)] {
            if plies > MAX_REVIEW_PLIES {
                return Err(ReviewError::TooDeep { what, plies });
            }
        }
        Ok(())
    }
}

/// Why a review did not finish.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReviewError {
    /// A depth beyond [`MAX_REVIEW_PLIES`].
    #[error("{what} {plies}: at most {MAX_REVIEW_PLIES} plies")]
    TooDeep {
        /// Which depth.
        what: &'static str,
        /// The depth asked for.
        plies: u8,
    },
    /// The match is longer than the engine's match equity table.
    #[error("a {length}-point match is longer than the match equity table ({max} points)")]
    MatchTooLong {
        /// The length.
        length: u32,
        /// The table's longest match.
        max: u32,
    },
    /// The engine could not answer a question of the review (a record
    /// whose context breaks the rules).
    #[error("{0}")]
    Engine(String),
    /// The stop flag was set before any record was analysed.
    #[error("the review was interrupted")]
    Interrupted,
}

/// Reviews every record of `record` with `engine`; `progress(done, total)`
/// is called after each record analysed.
///
/// # Errors
/// As [`review_match_until`].
pub fn review_match<E: Evaluator>(
    engine: &Engine<E>,
    record: &MatchRecord,
    settings: &ReviewSettings,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<MatchReview, ReviewError> {
    review_match_until(engine, record, settings, progress, &AtomicBool::new(false))
}

/// [`review_match`] that stops once `stop` is set (a Ctrl-C handler's
/// flag): no record is started after it, the records in hand are finished,
/// and the review returned is of every record finished — a prefix of the
/// match in file order ([`MatchReview::is_partial`]), its summary counting
/// only those records.
///
/// # Errors
/// [`ReviewError::TooDeep`], [`ReviewError::MatchTooLong`], a record the
/// engine cannot analyse, or [`ReviewError::Interrupted`] when the stop
/// came before any record was reviewed.
pub fn review_match_until<E: Evaluator>(
    engine: &Engine<E>,
    record: &MatchRecord,
    settings: &ReviewSettings,
    progress: impl Fn(usize, usize) + Sync,
    stop: &AtomicBool,
) -> Result<MatchReview, ReviewError> {
    settings.check()?;
    let max = engine.met().max_away();
    if record.match_length > max {
        return Err(ReviewError::MatchTooLong { length: record.match_length, max });
    }
    let start = Instant::now();
    let total: usize = record.games.iter().map(|g| g.records.len()).sum();
    let done = AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
    let moves = engine.screened(settings.prune);
    let (games, records_reviewed) = analyse::games(&moves, engine, record, settings, &tick, stop)?;
    // Names as shown: a file's 15 MB name must not fill every report.
    let players = record.players.each_ref().map(|p| shorten(p, NAME_CHARS).into_owned());
    let summary = summary::summarise(&players, &games);
    Ok(MatchReview {
        players,
        match_length: record.match_length,
        settings: *settings,
        evaluator: engine.name(),
        met: engine.met().name().to_string(),
        stored_program: record.stored.as_ref().map(|s| s.program.clone()),
        games,
        summary,
        elapsed: start.elapsed(),
        threads: rayon::current_num_threads(),
        records: total,
        records_reviewed,
    })
}
