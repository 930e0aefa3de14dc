//! What a review finds: per record, per game, per player.

use super::marks::{LuckMark, Mark, Rating};
use super::ReviewSettings;
use crate::api::CubefulMove;
use crate::cube::CubeAnalysis;
use gammon_rules::{Dice, GameContext, MatAction, Position, Seat, StoredRecord};
use serde::Serialize;
use std::time::Duration;

/// A whole match reviewed, from [`review_match`](super::review_match).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchReview {
    /// The players as the file names them, a name longer than
    /// [`NAME_CHARS`](gammon_rules::NAME_CHARS) cut with `…`: `[seat Zero, seat One]`.
    pub players: [String; 2],
    /// The match length; 0 = money session.
    pub match_length: u32,
    /// How it was reviewed.
    pub settings: ReviewSettings,
    /// The evaluator's name.
    pub evaluator: String,
    /// The match equity table's name.
    pub met: String,
    /// The program whose analysis the file stored (XG, OGXM), shown beside
    /// gammon's on each record ([`RecordReview::stored`]) and in the
    /// summary ([`PlayerSummary::stored`]).
    pub stored_program: Option<String>,
    /// The games in file order.
    pub games: Vec<GameReview>,
    /// Per player (index = seat): rates, marks, luck, rating.
    pub summary: [PlayerSummary; 2],
    /// The wall time of the review.
    pub elapsed: Duration,
    /// The threads it ran on.
    pub threads: usize,
    /// The records of the file (moves, rolls, cube actions, resignations
    /// and results).
    pub records: usize,
    /// The records reviewed: all of them, or after a stop the first
    /// `records_reviewed` in file order (the last game in
    /// [`games`](Self::games) then holds only its reviewed records).
    pub records_reviewed: usize,
}

impl MatchReview {
    /// The review was stopped before every record was reviewed.
    pub const fn is_partial(&self) -> bool {
        self.records_reviewed < self.records
    }
}

/// One game reviewed.
#[derive(Debug, Clone, PartialEq)]
pub struct GameReview {
    /// Its number as written.
    pub number: u32,
    /// The score before it, `[seat Zero, seat One]`.
    pub score: [u32; 2],
    /// It is the Crawford game.
    pub crawford: bool,
    /// Who won and how many points (`None`: unfinished).
    pub result: Option<(Seat, u32)>,
    /// Every record of the game in file order.
    pub records: Vec<RecordReview>,
}

/// One record of a game (a roll and its move, a cube action, a
/// resignation, the result) and what the review found in it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordReview {
    /// Who acted.
    pub player: Seat,
    /// The numbered line it is on.
    pub move_number: Option<u32>,
    /// The line in the file.
    pub line: usize,
    /// What was done, as the file says.
    pub action: MatAction,
    /// The position before it, seen by `player`.
    pub position: Position,
    /// The cube and the score, seen by `player`, before the action.
    pub context: GameContext,
    /// For a roll with a move: the move played against the best.
    pub chequer: Option<ChequerReview>,
    /// The cube decision of the record: the no-double decision before a
    /// roll where a double was possible, the double, or the answer to it.
    pub cube: Option<CubeReview>,
    /// For a roll: its luck.
    pub luck: Option<LuckReview>,
    /// The analysis the file stored for this record (another program's),
    /// with the errors it gives.
    pub stored: Option<StoredReview>,
}

/// Another program's stored analysis of a record, read as gammon reads its
/// own: the loss of the move played and the error of the cube action.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredReview {
    /// What the file stored.
    pub record: StoredRecord,
    /// The equity the move played gave up by the program's numbers.
    pub loss: Option<f64>,
    /// The error of the record's cube action by the program's numbers.
    pub cube_error: Option<f64>,
}

impl RecordReview {
    /// The dice of a roll.
    pub fn dice(&self) -> Option<Dice> {
        match self.action {
            MatAction::Move { dice, .. } | MatAction::Dance { dice } => Some(dice),
            _ => None,
        }
    }

    /// The mark of the chequer play or cube decision, the worse of the two.
    pub fn worst_mark(&self) -> Mark {
        let chequer = self.chequer.as_ref().map_or(Mark::None, |c| c.mark);
        let cube = self.cube.as_ref().map_or(Mark::None, |c| c.mark);
        chequer.max(cube)
    }
}

/// The move played against the best, valued at the review's depth.
#[derive(Debug, Clone, PartialEq)]
pub struct ChequerReview {
    /// Only one legal move (counted as a move, not as a decision).
    pub forced: bool,
    /// The number of legal moves (distinct results).
    pub legal_moves: usize,
    /// The best moves, best first (at most the settings' `candidates`), and
    /// the move played if it is not among them.
    pub candidates: Vec<CubefulMove>,
    /// The move played.
    pub played: CubefulMove,
    /// The best move.
    pub best: CubefulMove,
    /// The equity lost by the move played (normalised, at least 0).
    pub loss: f64,
    /// The same in match winning chances (match play).
    pub loss_mwc: Option<f64>,
    /// gnubg's mark of the loss.
    pub mark: Mark,
}

/// What was done with the cube at a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeChoice {
    /// The player could double and rolled instead.
    NoDouble,
    /// He doubled.
    Double,
    /// He took a double.
    Take,
    /// He took a double and redoubled at once (money play).
    Beaver,
    /// He passed a double.
    Pass,
}

/// gnubg's kinds of cube error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeErrorKind {
    /// Should have doubled; the opponent would take (or it was optional).
    MissedDoubleBelowCashPoint,
    /// Should have doubled; the opponent should pass.
    MissedDoubleAboveCashPoint,
    /// Doubled where no double was right, and it is not too good.
    WrongDoubleBelowDoublePoint,
    /// Doubled a position too good to double (should play on for gammon).
    WrongDoubleAboveTooGoodPoint,
    /// Took a double that should be passed.
    WrongTake,
    /// Passed a double that should be taken.
    WrongPass,
}

/// A cube decision and the error of what was done.
#[derive(Debug, Clone, PartialEq)]
pub struct CubeReview {
    /// The doubler's decision (no double, double/take, double/pass), seen
    /// by the player who may double (for a take or pass: the doubler).
    pub analysis: CubeAnalysis,
    /// What was done.
    pub choice: CubeChoice,
    /// The error of what was done (normalised, at least 0), for the player
    /// of the record.
    pub error: f64,
    /// The same in match winning chances (match play).
    pub error_mwc: Option<f64>,
    /// Which error, if any.
    pub kind: Option<CubeErrorKind>,
    /// Counted in the cube error rate: every double, take, beaver and pass,
    /// and a no-double decision within 0.16 of a double or with an error
    /// (gnubg's "close or actual").
    pub close: bool,
    /// gnubg's mark of the error.
    pub mark: Mark,
}

/// The luck of a roll: its value against the average roll.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuckReview {
    /// Normalised equity above the average roll (negative: unlucky).
    pub luck: f64,
    /// The same in match winning chances (match play).
    pub luck_mwc: Option<f64>,
    /// gnubg's mark.
    pub mark: LuckMark,
}

/// Counts of marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct MarkCounts {
    /// Unmarked decisions.
    pub none: usize,
    /// Doubtful.
    pub doubtful: usize,
    /// Bad.
    pub bad: usize,
    /// Very bad.
    pub very_bad: usize,
}

impl MarkCounts {
    /// Counts one more `mark`.
    pub fn add(&mut self, mark: Mark) {
        match mark {
            Mark::None => self.none += 1,
            Mark::Doubtful => self.doubtful += 1,
            Mark::Bad => self.bad += 1,
            Mark::VeryBad => self.very_bad += 1,
        }
    }
}

/// Counts of luck marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct LuckCounts {
    /// Very unlucky rolls.
    pub very_unlucky: usize,
    /// Unlucky.
    pub unlucky: usize,
    /// Lucky.
    pub lucky: usize,
    /// Very lucky.
    pub very_lucky: usize,
}

/// One player's figures over the match, as gnubg's statistics define them.
/// Error totals are positive sums of normalised equity; the rates divide
/// them by the decisions that count.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlayerSummary {
    /// His name.
    pub name: String,
    /// Every roll of his (forced moves and dances included).
    pub total_moves: usize,
    /// His moves with more than one legal move.
    pub unforced_moves: usize,
    /// The sum of the losses of his unforced moves.
    pub chequer_error: f64,
    /// The same in match winning chances (0 in money play).
    pub chequer_error_mwc: f64,
    /// Every cube decision of his analysed.
    pub cube_decisions: usize,
    /// His close or actual cube decisions.
    pub close_cube_decisions: usize,
    /// The sum of his cube errors.
    pub cube_error: f64,
    /// The same in match winning chances.
    pub cube_error_mwc: f64,
    /// Marks of his unforced moves.
    pub move_marks: MarkCounts,
    /// Marks of his close or actual cube decisions.
    pub cube_marks: MarkCounts,
    /// The counts of each kind of cube error.
    pub cube_errors: Vec<(CubeErrorKind, usize)>,
    /// The sum of his rolls' luck.
    pub luck: f64,
    /// The same in match winning chances.
    pub luck_mwc: f64,
    /// His rolls' luck marks.
    pub luck_marks: LuckCounts,
    /// Both players' rolls (the Snowie error rate's denominator).
    pub both_players_moves: usize,
    /// His errors by the stored analysis's numbers.
    pub stored: StoredFigures,
}

/// A player's errors by another program's stored numbers, over the
/// decisions gammon counts (unforced moves, close or actual cube
/// decisions) that the program analysed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StoredFigures {
    /// Unforced moves with a stored loss.
    pub moves: usize,
    /// The sum of those losses.
    pub chequer_error: f64,
    /// Close or actual cube decisions with a stored cube analysis.
    pub cube_decisions: usize,
    /// The sum of their errors.
    pub cube_error: f64,
}

impl StoredFigures {
    /// Chequer play error per stored move.
    pub fn chequer_error_rate(&self) -> Option<f64> {
        rate(self.chequer_error, self.moves)
    }

    /// Cube error per stored cube decision.
    pub fn cube_error_rate(&self) -> Option<f64> {
        rate(self.cube_error, self.cube_decisions)
    }

    /// Both errors per stored decision.
    pub fn overall_error_rate(&self) -> Option<f64> {
        rate(self.chequer_error + self.cube_error, self.moves + self.cube_decisions)
    }

    /// The performance rating by the stored numbers (500 times the mean
    /// error per decision, as [`PlayerSummary::pr`]).
    pub fn pr(&self) -> Option<f64> {
        self.overall_error_rate().map(|r| 500.0 * r)
    }
}

fn rate(total: f64, count: usize) -> Option<f64> {
    (count > 0).then(|| total / count as f64)
}

impl PlayerSummary {
    /// Chequer play error per unforced move (`None` without one).
    pub fn chequer_error_rate(&self) -> Option<f64> {
        rate(self.chequer_error, self.unforced_moves)
    }

    /// Cube error per close or actual cube decision.
    pub fn cube_error_rate(&self) -> Option<f64> {
        rate(self.cube_error, self.close_cube_decisions)
    }

    /// Both errors per decision (unforced moves and close cube decisions).
    pub fn overall_error_rate(&self) -> Option<f64> {
        rate(self.chequer_error + self.cube_error, self.unforced_moves + self.close_cube_decisions)
    }

    /// Snowie's error rate: both errors over the rolls of both players.
    pub fn snowie_error_rate(&self) -> Option<f64> {
        rate(self.chequer_error + self.cube_error, self.both_players_moves)
    }

    /// XG's performance rating: 500 times the mean error per decision
    /// (gnubg's overall error rate in milli-equity, halved).
    pub fn pr(&self) -> Option<f64> {
        self.overall_error_rate().map(|r| 500.0 * r)
    }

    /// Luck per roll.
    pub fn luck_rate(&self) -> Option<f64> {
        rate(self.luck, self.total_moves)
    }

    /// gnubg's rating of the overall error rate.
    pub fn rating(&self) -> Option<Rating> {
        self.overall_error_rate().map(Rating::of_error_rate)
    }

    /// gnubg's rating of the chequer play alone.
    pub fn chequer_rating(&self) -> Option<Rating> {
        self.chequer_error_rate().map(Rating::of_error_rate)
    }

    /// gnubg's rating of the cube decisions alone.
    pub fn cube_rating(&self) -> Option<Rating> {
        self.cube_error_rate().map(Rating::of_error_rate)
    }
}
