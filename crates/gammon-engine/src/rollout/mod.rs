//! Monte Carlo rollouts: a position (the side on roll, before rolling), or
//! every candidate move of a roll, played out many times by the evaluator.
//!
//! This file is the rollout's public face (settings, results, errors, the
//! entry points) and its long explanation below; the parts are in
//! `dice.rs`, `player.rs`, `stats.rs`, `tally.rs` and `runner.rs`. Of its
//! length, about 100 lines are this documentation and 80 tests.
//!
//! # A trial
//!
//! Trial `k` plays the game from the start position with the dice of stream
//! `k` of the seed
//! ([`RandomDice::new`](gammon_rules::RandomDice::new)`(seed, k)`),
//! both sides moving with the evaluator: at 0 ply by
//! [`Evaluator::best_move`], at 1 or 2 ply by the first move of
//! [`Search::rank_results`](crate::search::Search::rank_results) at that ply
//! with gnubg's normal filter ([`MoveFilter::NORMAL`](crate::search::MoveFilter::NORMAL):
//! up to 8 candidates within 0.16 equity by 0 ply, each valued at 1 ply over
//! every roll of the opponent and his 0-ply best reply, at 2 ply one roll
//! deeper, as [`Search`](crate::search::Search) does; the search's static values
//! are exact for bearoffs whatever [`RolloutSettings::bearoff_exact`] says,
//! as the shipped net's are). A turn with no legal move passes. The trial
//! stops:
//!
//! - when the game is over: the exact result;
//! - with [`RolloutSettings::bearoff_exact`], when both sides are in the
//!   bearoff databases (every checker home, no contact): their
//!   probabilities, exact where each side has at most 6 checkers (two-sided
//!   database), else exact up to the one-sided database's move policy (in a
//!   cubeful trial the cube value there is exact too in the first case);
//! - with [`RolloutSettings::truncate`]` = Some(d)`, before the roll of the
//!   `d`-th half-move (`d = 0`: the start position itself): the evaluator's
//!   five probabilities there;
//! - after [`MAX_TURNS`] half-moves (only a broken evaluator gets there):
//!   the evaluator's probabilities.
//!
//! Its result is the five cumulative probabilities of the player on roll at
//! the start (gnubg's win, win gammon, win backgammon, lose gammon, lose
//! backgammon; a finished game is 0 or 1 in each) and their cubeless equity.
//!
//! # Determinism
//!
//! Trials run in parallel with rayon, but trial `k` depends only on the seed
//! and `k`, and the trials are summed exactly: each value is rounded to a
//! multiple of 2^-40 and summed, with its square, as an integer
//! ([`RolloutTally`]), so the sums do not depend on the order or grouping of
//! the trials. The stopping rule looks only at those sums, after whole
//! blocks of [`BATCH`] trials. The result is therefore bit-identical
//! whatever the thread count.
//!
//! # Shards
//!
//! For the same reason a rollout can be split: [`rollout_trials`] plays any
//! range of the trials (a shard, on another machine) and returns their sums;
//! the sums of disjoint ranges add up ([`RolloutTally::merge`]) to exactly
//! those of one run of their union, and [`position_result`] or
//! [`move_results`] of the sums of all the trials is bit for bit what
//! [`rollout_position`] or [`rollout_moves`] answers. A range can also be
//! continued from the sums of its first trials (a checkpoint).
//!
//! # Stopping early
//!
//! [`rollout_position_until`] and [`rollout_moves_until`] watch a stop flag
//! (set by a Ctrl-C handler, say): once it is set no new trial starts, and
//! the result is that of the longest run of finished trials `0..K` (trials
//! finished beyond a gap are dropped), marked
//! [`RolloutResult::interrupted`]. It is therefore exactly the result of the
//! same rollout with `trials = K`.
//!
//! # Variance reduction
//!
//! [`RolloutSettings::variance_reduction`] is gnubg's: before every roll the
//! 0-ply value of the position after the best move of each of the 21 rolls is
//! computed (exact for finished games and, with `bearoff_exact`, bearoff
//! databases; the evaluator otherwise); the **luck** of the roll is the value
//! of the actual roll minus the average over the 21 (weighted 1/36 for
//! doubles, 2/36 otherwise). The trial's result, for each of the five
//! probabilities (and the cubeful equity), is the outcome minus the sum of
//! the luck of every roll, seen by the starting player. Each luck term has
//! mean zero whatever happened before, so the estimate stays unbiased, and
//! most of the dice's noise cancels. It costs 21 move choices per half-move
//! instead of one. Single trials can then leave 0..1; only the means are
//! probabilities.
//!
//! # Quasi-random dice
//!
//! With [`RolloutSettings::quasi_random`] the first two rolls of trial `k`
//! are stratified: with `j = k mod 1296`, `a = j mod 36` and `b = (j / 36 +
//! a) mod 36`, the first roll is outcome `π₁(a)` and the second `π₂(b)` of
//! the 36 equally likely (ordered) outcomes, `π₁`, `π₂` permutations drawn
//! from the seed. Every block of 36 consecutive trials (from a multiple of 36)
//! sees each first roll and each second roll exactly once, every block of
//! 1296 each pair of them exactly once. Later rolls are random.
//!
//! # Cubeful rollouts
//!
//! With [`RolloutSettings::cubeful`] each trial also carries a doubling
//! cube: in money play cube 1 centred at the start, no Jacoby rule, no
//! beavers, the largest cube [`GameContext::DEFAULT_MAX_CUBE`](gammon_rules::GameContext::DEFAULT_MAX_CUBE);
//! with [`TrialCube::Cube`] the cube of a game context, in a match at its
//! score. Before every roll (the first included) the side on roll, if he
//! may double, takes the 0-ply cube decision of [`crate::cube`] (Janowski's
//! model at gnubg's cube efficiency, the evaluator's probabilities; in a
//! match at the changing score, so nobody doubles in the Crawford game and
//! the trailer doubles after it): he doubles when
//! [`decide`](crate::cube::decide) (the decision of
//! [`analyse`](crate::cube::analyse)) says so (optional doubles included)
//! and the opponent takes, beavers (money play with beavers) or passes as it
//! says. A pass ends the cubeful game at the cube value; otherwise the
//! game's points are multiplied by the final cube. At a truncation the
//! cubeful value is the cube model's value of the probabilities there, with
//! the side on roll's cube decision (`max(no double, min(double/take, +1))`
//! when he may double). A bearoff ends a cubeful trial only where its
//! cubeful value is exact (the two-sided database, money play); elsewhere
//! the trial plays on, as gnubg's do. The chequer play is cubeless: in
//! money play the same moves as without the cube; in a match the moves that
//! leave the mover the best cubeless match winning chances at the score and
//! cube (gnubg's are cubeful). The cubeless results of the same trials are
//! kept: the game goes on to its end after a pass for the cubeless part. The cubeful result is in points per game with the cube starting at
//! 1 in money play, `2 × MWC − 1` in a match. The cube strategy is the
//! 0-ply decision, not a cubeful search.
//!
//! A cube decision ([`rollout_cube_decision`]) rolls out two lines with the
//! same dice: no double now (the side on roll does not double before his
//! first roll), and double/take.
//!
//! # Rolling out moves
//!
//! [`rollout_moves`] rolls out the position after each candidate move of a
//! roll, the opponent on roll, and reports each from the mover's side. Trial
//! `k` of every move uses the same dice (common random numbers), so the
//! differences between moves are much more precise than each value: each
//! move carries its difference to the best one with the standard error of the
//! paired differences.
//!
//! # Layout
//!
//! `dice` (the stratified first rolls), `player` (a trial: move choice, the
//! cube, the luck of the rolls), `stats` (samples, estimates, paired
//! differences) and `runner` (trials in parallel, in order); the settings
//! and the public calls are here.

mod dice;
mod player;
mod runner;
mod stats;
mod tally;

pub use stats::{Estimate, MAX_SAMPLE, Z95};
pub use tally::{RolloutTally, TallyError, TrialSet};

use crate::cube::{CubeError, CubeState};
use crate::met::Met;
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{Dice, Move, Position};
use player::Player;
use runner::run;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// Trials per block: the stopping rule (target standard error) is checked
/// only after whole blocks, where the quasi-random dice are balanced.
/// The deepest chequer play of the rollout players, in gnubg's plies: 2,
/// gnubg's "world class" rollout setting (each move by a 2-ply search with
/// the normal filter; a trial costs about 20 times a 0-ply one).
pub const MAX_ROLLOUT_PLY: u8 = 2;

pub const BATCH: u64 = 1296;

/// A trial longer than this many half-moves is stopped and evaluated (a
/// guard against a broken evaluator; real games are far shorter): the game
/// layer's one limit on a game's length.
pub const MAX_TURNS: u32 = gammon_rules::MAX_TURNS;

/// How to roll out.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RolloutSettings {
    /// The most trials (games) to play.
    pub trials: u64,
    /// The dice seed.
    pub seed: u64,
    /// Stop each trial before the roll of this half-move and take the
    /// evaluator's probabilities (`Some(0)`: the static evaluation).
    pub truncate: Option<u32>,
    /// Luck adjustment (gnubg's variance reduction), see the module documentation.
    pub variance_reduction: bool,
    /// Stratified first two rolls, see the module documentation.
    pub quasi_random: bool,
    /// Also play with a money cube and report the cubeful equity.
    pub cubeful: bool,
    /// Stop early, after a block of [`BATCH`] trials, once the standard error
    /// of the equity (the cubeful one in cubeful rollouts; for moves, of
    /// every move) is at most this.
    pub target_se: Option<f64>,
    /// Chequer play lookahead: 0, 1 or 2 ply ([`MAX_ROLLOUT_PLY`]).
    pub ply: u8,
    /// Stop a trial when both sides are in the bearoff databases and take
    /// their probabilities.
    pub bearoff_exact: bool,
    /// [`rollout_moves`] only: roll out the best this many moves by the
    /// evaluator's 0-ply judgement (`None`: every legal move).
    pub candidates: Option<usize>,
}

impl Default for RolloutSettings {
    /// 1296 trials, seed 1, no truncation, variance reduction and
    /// quasi-random dice on, cubeless, 0 ply, exact bearoffs, every move.
    fn default() -> Self {
        RolloutSettings {
            trials: BATCH,
            seed: 1,
            truncate: None,
            variance_reduction: true,
            quasi_random: true,
            cubeful: false,
            target_se: None,
            ply: 0,
            bearoff_exact: true,
            candidates: None,
        }
    }
}

impl RolloutSettings {
    /// Refuses settings no rollout can run with: no trials, a lookahead
    /// the rollout players do not have, a target standard error that is not
    /// a positive number, no candidate moves.
    ///
    /// # Errors
    /// The [`RolloutError`] of the first setting at fault
    /// ([`RolloutError::setting`] names it).
    pub fn check(&self) -> Result<(), RolloutError> {
        if self.trials == 0 {
            return Err(RolloutError::NoTrials);
        }
        if self.ply > MAX_ROLLOUT_PLY {
            return Err(RolloutError::UnsupportedPly(self.ply));
        }
        if let Some(t) = self.target_se {
            if !(t.is_finite() && t > 0.0) {
                return Err(RolloutError::TargetSe(t));
            }
        }
        if self.candidates == Some(0) {
            return Err(RolloutError::NoCandidates);
        }
        Ok(())
    }
}

/// What a rollout's trials play for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TrialCube {
    /// Money play: cubeless, or with [`RolloutSettings::cubeful`] a cube
    /// centred at 1.
    Money,
    /// The cube state (money, or a match at its score) of the player on roll
    /// in the position rolled out, before his roll (for the moves of a roll,
    /// of the mover). With [`RolloutSettings::cubeful`] both sides double,
    /// take and pass by the cube model (in a match at the changing score:
    /// nobody doubles in the Crawford game; after it the trailer doubles,
    /// the leader's cube is dead; a cube that already wins the match is
    /// dead); without, the game is played out for the cube as it is. The
    /// trials sum points in money play, `2 × MWC − 1` of the player on roll
    /// in a match ([`match_chances`]), in the result's `cubeful` estimate.
    Cube(CubeState),
}

impl TrialCube {
    /// The trials are ranked by their cubeful value: money cubeful
    /// rollouts and every rollout with a cube state.
    pub fn headline_cubeful(&self, settings: &RolloutSettings) -> bool {
        settings.cubeful || matches!(self, TrialCube::Cube(_))
    }
}

/// The match winning chances of a match rollout's cubeful estimate (which
/// sums `2 × MWC − 1`: [`TrialCube::Cube`]), with their standard error.
pub fn match_chances(cubeful: &Estimate) -> Estimate {
    cubeful.linear(0.5, 0.5)
}

/// A rollout that cannot be run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RolloutError {
    /// Zero trials asked for.
    #[error("a rollout needs at least one trial")]
    NoTrials,
    /// The stop flag was set before any trial finished.
    #[error("the rollout was stopped before any game finished")]
    Interrupted,
    /// A lookahead the rollout players do not have.
    #[error("rollouts play at 0, 1 or 2 ply, not {0}")]
    UnsupportedPly(u8),
    /// A target standard error that is not a positive number.
    #[error("the target standard error {0} is not a positive number")]
    TargetSe(f64),
    /// `candidates: Some(0)`.
    #[error("at least one candidate move must be rolled out")]
    NoCandidates,
    /// The position breaks the rules (checker counts, both sides on a point).
    #[error("the position is not a legal backgammon position")]
    InvalidPosition,
    /// [`rollout_moves`] on a finished game.
    #[error("the game is over: there are no moves to roll out")]
    GameOver,
    /// A trial's value that is not a number or is beyond [`MAX_SAMPLE`]
    /// (only a broken evaluator produces one).
    #[error("a game of the rollout came out at {0}, not a number of points the rollout can sum")]
    Sample(f64),
    /// Trials outside the rollout's.
    #[error("trials {start}..{end} are not a part of the rollout's 0..{total}")]
    Trials {
        /// First trial.
        start: u64,
        /// One past the last.
        end: u64,
        /// The rollout's trials.
        total: u64,
    },
    /// A target standard error in a shard, which cannot see the other
    /// shards' games.
    #[error("a shard of a rollout cannot stop at a target standard error: it sees only its own games")]
    ShardTarget,
    /// Sums to resume that are not of the first trials of the range.
    #[error("the saved sums to resume are not those of the first games of these trials")]
    Resume,
    /// The cube model rejected the evaluator's probabilities (not numbers,
    /// or outside 0..1) in a cubeful rollout.
    #[error("cubeful rollout")]
    Cube(#[from] CubeError),
}

impl RolloutError {
    /// The setting at fault, by the name of the rollout option (`games`,
    /// `ply`, `target_se`, `moves`), if one is.
    pub fn setting(&self) -> Option<&'static str> {
        match self {
            RolloutError::NoTrials => Some("games"),
            RolloutError::UnsupportedPly(_) => Some("ply"),
            RolloutError::TargetSe(_) | RolloutError::ShardTarget => Some("target_se"),
            RolloutError::NoCandidates => Some("moves"),
            _ => None,
        }
    }
}

/// What a rollout found, for the player on roll at the start (for a move:
/// the player who made it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutResult {
    /// Trials played.
    pub trials: u64,
    /// The five cumulative probabilities, in the order of
    /// [`Probabilities::to_array`]: win, win gammon, win backgammon, lose
    /// gammon, lose backgammon.
    pub probabilities: [Estimate; 5],
    /// Cubeless money equity.
    pub equity: Estimate,
    /// Cubeful money equity (points per game, cube 1 centred at the start),
    /// in cubeful rollouts.
    pub cubeful: Option<Estimate>,
    /// True if the rollout stopped before `trials` because the target
    /// standard error was reached.
    pub target_reached: bool,
    /// True if the stop flag ended the rollout before `trials`: the result
    /// of the first [`RolloutResult::trials`] trials only.
    #[serde(default)]
    pub interrupted: bool,
}

impl RolloutResult {
    /// The mean probabilities as the evaluator's type (rounded to `f32`).
    pub fn mean_probabilities(&self) -> Probabilities {
        Probabilities::from_array(self.probabilities.map(|e| e.mean as f32))
    }

    /// The equity the rollout ranks by: cubeful if it has one, else cubeless.
    pub fn headline(&self) -> Estimate {
        self.cubeful.unwrap_or(self.equity)
    }
}

/// One candidate move of [`rollout_moves`].
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRollout {
    /// The move ([`Move::NONE`] when no checker can move).
    pub mv: Move,
    /// The position after it, seen by the opponent (on roll).
    pub result: Position,
    /// The evaluator's 0-ply cubeless equity of the move, for the mover.
    pub static_equity: f64,
    /// The rollout, for the mover.
    pub rollout: RolloutResult,
    /// This move's headline equity (cubeful in cubeful rollouts) minus the
    /// best move's, with the standard error of the paired per-trial
    /// differences (0 for the best move itself).
    pub difference: Estimate,
}

/// Where a rollout stands, passed to the progress callback after each chunk
/// of trials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutProgress {
    /// Trials done so far.
    pub trials: u64,
    /// The most trials the rollout will play.
    pub max_trials: u64,
    /// The running headline equity (cubeful in cubeful rollouts; for moves,
    /// the leading move's).
    pub equity: f64,
    /// Its standard error.
    pub standard_error: f64,
    /// For moves: the index of the leading move in the order of the legal
    /// moves rolled out (0-ply order, best first).
    pub leader: Option<usize>,
}

/// What a rollout watches while it runs: a progress callback (after each
/// chunk of trials, a few times a second or less often), a checkpoint
/// callback (after each chunk, with the sums so far, to save them), and a
/// stop flag (a Ctrl-C handler's): once it is set no new trial starts.
#[derive(Clone, Copy)]
pub struct Controls<'a> {
    /// Called with where the rollout stands.
    pub progress: &'a (dyn Fn(&RolloutProgress) + Sync),
    /// Called with the sums of the trials finished so far, in order.
    pub checkpoint: &'a (dyn Fn(&RolloutTally) + Sync),
    /// Set to stop.
    pub stop: &'a AtomicBool,
}

impl std::fmt::Debug for Controls<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Controls").field("stop", &self.stop).finish_non_exhaustive()
    }
}

/// What is rolled out: a position before the roll, or the candidate moves
/// of a roll ([`rollout_candidates`]).
#[derive(Debug, Clone, Copy)]
pub enum Starts<'a> {
    /// The position, player on roll, before rolling.
    Position(&'a Position),
    /// The candidates, each the position after the move.
    Moves(&'a [Candidate]),
    /// A cube decision of the player on roll before rolling: two lines with
    /// the same dice, start 0 where he does not double now, start 1 after
    /// he doubled and the opponent took (the cube of [`TrialCube::Cube`]
    /// doubled, owned by the opponent).
    CubeDecision(&'a Position),
}

impl Starts<'_> {
    /// The positions the trials start from, one per line.
    fn positions(&self) -> Vec<Position> {
        match self {
            Starts::Position(p) => vec![**p],
            Starts::Moves(c) => c.iter().map(|c| c.result).collect(),
            Starts::CubeDecision(p) => vec![**p, **p],
        }
    }
}

/// A candidate move of a moves rollout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// The move ([`Move::NONE`] when no checker can move).
    pub mv: Move,
    /// The position after it, seen by the opponent (on roll).
    pub result: Position,
    /// The evaluator's 0-ply cubeless equity of the move, for the mover.
    pub static_equity: f64,
}

/// The trials of a [`rollout_trials`] run: their sums, and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialsRun {
    /// The sums of the trials played, with those it resumed.
    pub tally: RolloutTally,
    /// Stopped early at the target standard error.
    pub target_reached: bool,
    /// Stopped by the stop flag before the end of its trials.
    pub interrupted: bool,
}

/// Rolls out `pos` (the player on roll, before rolling) with `evaluator`.
/// `progress` is called after each chunk of trials (a few times a second or
/// less often).
///
/// # Errors
/// See [`RolloutError`]: bad settings, an illegal position, or (cubeful)
/// probabilities the cube model rejects.
///
/// ```
/// use gammon_engine::rollout::{rollout_position, RolloutSettings};
/// use gammon_eval::NetEvaluator;
/// use gammon_rules::Position;
/// let net = NetEvaluator::shipped().unwrap();
/// let settings = RolloutSettings { trials: 36, truncate: Some(4), ..RolloutSettings::default() };
/// let r = rollout_position(&net, &Position::STARTING, &settings, |_| {}).unwrap();
/// assert_eq!(r.trials, 36);
/// assert!(r.equity.standard_error > 0.0);
/// ```
pub fn rollout_position(
    evaluator: &dyn Evaluator,
    pos: &Position,
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
) -> Result<RolloutResult, RolloutError> {
    rollout_position_until(evaluator, pos, settings, progress, &AtomicBool::new(false))
}

/// [`rollout_position_until`] with the cube of `cube` (money, or a match at
/// its score, with `met`).
///
/// # Errors
/// As [`rollout_position_until`].
pub fn rollout_position_with(
    evaluator: &dyn Evaluator,
    pos: &Position,
    (cube, met): (&TrialCube, &Met),
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
    stop: &AtomicBool,
) -> Result<RolloutResult, RolloutError> {
    let controls = Controls { progress: &progress, checkpoint: &|_| {}, stop };
    let starts = Starts::Position(pos);
    let run = rollout_trials(evaluator, starts, (cube, met), settings, 0..settings.trials, None, &controls)?;
    Ok(position_result(&run, cube.headline_cubeful(settings)))
}

/// [`rollout_position`] that stops early once `stop` is set, with the
/// result of the trials finished in order (see the module documentation).
///
/// # Errors
/// As [`rollout_position`], and [`RolloutError::Interrupted`] if no trial
/// finished.
pub fn rollout_position_until(
    evaluator: &dyn Evaluator,
    pos: &Position,
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
    stop: &AtomicBool,
) -> Result<RolloutResult, RolloutError> {
    rollout_position_with(evaluator, pos, (&TrialCube::Money, Met::kazaross_xg2()), settings, progress, stop)
}

/// The result of a position rollout from its trials' sums, headed by the
/// cubeful estimate when `cubeful` ([`TrialCube::headline_cubeful`]).
pub fn position_result(run: &TrialsRun, cubeful: bool) -> RolloutResult {
    run.tally.results(cubeful, run.target_reached, run.interrupted).swap_remove(0).0
}

/// Rolls out every candidate move of `pos` for `dice` (or the best
/// [`RolloutSettings::candidates`] by 0 ply): each resulting position with
/// the opponent on roll, the same dice for every move, results for the
/// mover, best first (by cubeful equity in cubeful rollouts). With no legal
/// move the one entry is the pass.
///
/// # Errors
/// As [`rollout_position`], and [`RolloutError::GameOver`] for a finished
/// game.
pub fn rollout_moves(
    evaluator: &dyn Evaluator,
    pos: &Position,
    dice: Dice,
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
) -> Result<Vec<MoveRollout>, RolloutError> {
    rollout_moves_until(evaluator, pos, dice, settings, progress, &AtomicBool::new(false))
}

/// [`rollout_moves`] that stops early once `stop` is set, every move with
/// the same finished trials (see the module documentation).
///
/// # Errors
/// As [`rollout_moves`], and [`RolloutError::Interrupted`] if no trial
/// finished.
pub fn rollout_moves_until(
    evaluator: &dyn Evaluator,
    pos: &Position,
    dice: Dice,
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
    stop: &AtomicBool,
) -> Result<Vec<MoveRollout>, RolloutError> {
    rollout_moves_with(evaluator, pos, dice, (&TrialCube::Money, Met::kazaross_xg2()), settings, progress, stop)
}

/// [`rollout_moves_until`] with the cube of `cube` (money, or a match at its
/// score seen by the mover, with `met`): in a match the moves are ranked by
/// the match winning chances they keep.
///
/// # Errors
/// As [`rollout_moves_until`].
pub fn rollout_moves_with(
    evaluator: &dyn Evaluator,
    pos: &Position,
    dice: Dice,
    (cube, met): (&TrialCube, &Met),
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
    stop: &AtomicBool,
) -> Result<Vec<MoveRollout>, RolloutError> {
    let candidates = rollout_candidates(evaluator, pos, dice, settings)?;
    let controls = Controls { progress: &progress, checkpoint: &|_| {}, stop };
    let starts = Starts::Moves(&candidates);
    let run = rollout_trials(evaluator, starts, (cube, met), settings, 0..settings.trials, None, &controls)?;
    Ok(move_results(&candidates, &run, cube.headline_cubeful(settings)))
}

/// A cube decision rolled out: the line where the player on roll does not
/// double now and the line where he doubles and is taken, with the same
/// dice, each for him in the units of [`TrialCube::Cube`] (points at the
/// cube of the line in money play, `2 × MWC − 1` in a match).
#[derive(Debug, Clone, PartialEq)]
pub struct CubeLines {
    /// No double now; both sides' cube play after.
    pub no_double: RolloutResult,
    /// Double, take: the cube doubled, owned by the taker.
    pub double_take: RolloutResult,
    /// Double/take minus no double, with the standard error of the paired
    /// trials.
    pub take_minus_no_double: Estimate,
}

/// Rolls out the cube decision of the player on roll in `pos`, whose cube
/// is `state` (money or match, [`Starts::CubeDecision`]): both lines play
/// the cube after the first roll (whatever [`RolloutSettings::cubeful`]
/// says) and use the same dice, as gnubg and XG roll out cube decisions.
///
/// # Errors
/// As [`rollout_position`].
pub fn rollout_cube_decision(
    evaluator: &dyn Evaluator,
    pos: &Position,
    (state, met): (&CubeState, &Met),
    settings: &RolloutSettings,
    progress: impl Fn(&RolloutProgress) + Sync,
    stop: &AtomicBool,
) -> Result<CubeLines, RolloutError> {
    let settings = RolloutSettings { cubeful: true, candidates: None, ..*settings };
    let controls = Controls { progress: &progress, checkpoint: &|_| {}, stop };
    let cube = TrialCube::Cube(*state);
    let starts = Starts::CubeDecision(pos);
    let run = rollout_trials(evaluator, starts, (&cube, met), &settings, 0..settings.trials, None, &controls)?;
    cube_lines(&run)
}

/// The two lines of a cube decision from its trials' sums (of
/// [`Starts::CubeDecision`]).
///
/// # Errors
/// [`RolloutError::NoCandidates`] for sums of another number of starts.
pub fn cube_lines(run: &TrialsRun) -> Result<CubeLines, RolloutError> {
    let mut lines = run.tally.results(true, run.target_reached, run.interrupted).into_iter();
    let (Some((no_double, nd_diff)), Some((double_take, dt_diff)), None) = (lines.next(), lines.next(), lines.next())
    else {
        return Err(RolloutError::NoCandidates);
    };
    // The tally measures each line against the better one (no double on a tie).
    let take_minus_no_double =
        if no_double.headline().mean >= double_take.headline().mean { dt_diff } else { nd_diff.linear(-1.0, 0.0) };
    Ok(CubeLines { no_double, double_take, take_minus_no_double })
}

/// The moves a moves rollout of `pos` and `dice` rolls out: every legal
/// move (or the pass) by the evaluator's 0-ply equity, best first (ties in
/// the generator's order), cut to [`RolloutSettings::candidates`].
///
/// # Errors
/// Bad settings, an illegal position, [`RolloutError::NoCandidates`], or
/// [`RolloutError::GameOver`] for a finished game.
pub fn rollout_candidates(
    evaluator: &dyn Evaluator,
    pos: &Position,
    dice: Dice,
    settings: &RolloutSettings,
) -> Result<Vec<Candidate>, RolloutError> {
    check(pos, settings)?;
    if settings.candidates == Some(0) {
        return Err(RolloutError::NoCandidates);
    }
    if pos.game_result().is_some() {
        return Err(RolloutError::GameOver);
    }
    let list = pos.legal_moves(dice);
    let mut moves: Vec<Candidate> = if list.is_empty() {
        let result = pos.switched();
        vec![Candidate { mv: Move::NONE, result, static_equity: -f64::from(evaluator.evaluate(&result).equity()) }]
    } else {
        let mut values = vec![Probabilities::default(); list.len()];
        evaluator.evaluate_batch(list.positions(), &mut values);
        list.iter()
            .zip(&values)
            .map(|((mv, result), v)| Candidate { mv, result, static_equity: -f64::from(v.equity()) })
            .collect()
    };
    // Best first by 0 ply; the sort is stable, so ties keep the generator's order.
    moves.sort_by(|a, b| b.static_equity.total_cmp(&a.static_equity));
    if let Some(n) = settings.candidates {
        moves.truncate(n);
    }
    Ok(moves)
}

/// The moves' results from their trials' sums, best first (by the cubeful
/// estimate when `cubeful`: [`TrialCube::headline_cubeful`]).
pub fn move_results(candidates: &[Candidate], run: &TrialsRun, cubeful: bool) -> Vec<MoveRollout> {
    let results = run.tally.results(cubeful, run.target_reached, run.interrupted);
    let mut out: Vec<MoveRollout> = candidates
        .iter()
        .zip(results)
        .map(|(c, (rollout, difference))| MoveRollout {
            mv: c.mv,
            result: c.result,
            static_equity: c.static_equity,
            rollout,
            difference,
        })
        .collect();
    out.sort_by(|a, b| b.rollout.headline().mean.total_cmp(&a.rollout.headline().mean));
    out
}

/// Plays the trials `trials` (a part of `0..settings.trials`: a shard) of
/// the rollout of `starts`, continuing `resume` (the sums of the first
/// trials of that range, from a checkpoint); the result is the sums, which
/// [`RolloutTally::merge`] adds to those of other trials. The sums of
/// trials `0..settings.trials` give, through [`position_result`] or
/// [`move_results`], exactly what [`rollout_position`] or
/// [`rollout_moves`] answer. The target standard error applies only to a
/// run of the whole range.
///
/// # Errors
/// As [`rollout_position`]; [`RolloutError::Trials`] for a range outside
/// `0..settings.trials`, [`RolloutError::Resume`] for sums that are not of
/// the first trials of the range and of these starts.
pub fn rollout_trials(
    evaluator: &dyn Evaluator,
    starts: Starts<'_>,
    (cube, met): (&TrialCube, &Met),
    settings: &RolloutSettings,
    trials: Range<u64>,
    resume: Option<RolloutTally>,
    controls: &Controls<'_>,
) -> Result<TrialsRun, RolloutError> {
    let positions = starts.positions();
    let position = positions.first().copied().unwrap_or(Position::STARTING);
    check(&position, settings)?;
    if positions.is_empty() {
        return Err(RolloutError::NoCandidates);
    }
    if trials.start >= trials.end || trials.end > settings.trials {
        return Err(RolloutError::Trials { start: trials.start, end: trials.end, total: settings.trials });
    }
    let tally = match resume {
        None => RolloutTally::empty(positions.len()),
        Some(t) => {
            let done = t.trials().len();
            let prefix = TrialSet::of(trials.start..trials.start + done);
            if t.starts() != positions.len() || done > trials.end - trials.start || (done > 0 && *t.trials() != prefix)
            {
                return Err(RolloutError::Resume);
            }
            t
        }
    };
    let flip = matches!(starts, Starts::Moves(_));
    let player = Player::new(evaluator, settings, cube, &starts, met);
    let end = run(&player, &positions, flip, trials, tally, controls)?;
    Ok(TrialsRun { tally: end.tally, target_reached: end.target_reached, interrupted: end.interrupted })
}

fn check(pos: &Position, s: &RolloutSettings) -> Result<(), RolloutError> {
    s.check()?;
    if !pos.is_consistent() {
        return Err(RolloutError::InvalidPosition);
    }
    Ok(())
}

#[cfg(test)]
mod match_play_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_eval::NetEvaluator;
    use std::sync::atomic::Ordering;

    fn quick() -> RolloutSettings {
        RolloutSettings { trials: 5000, truncate: Some(4), ..RolloutSettings::default() }
    }

    #[test]
    fn a_cube_error_in_a_rollout_is_named_once() {
        let cause = CubeError::Efficiency(2.0);
        let err = RolloutError::Cube(cause.clone());
        let mut text = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(s) = source {
            text = format!("{text}: {s}");
            source = s.source();
        }
        assert_eq!(text.matches(&cause.to_string()).count(), 1, "{text}");
    }

    #[test]
    fn a_stopped_rollout_is_the_rollout_of_the_trials_it_finished() {
        let net = NetEvaluator::shipped().unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let stop = AtomicBool::new(false);
        // Stop at the first progress report: some trials, far fewer than asked for.
        let partial = pool
            .install(|| {
                rollout_position_until(
                    &net,
                    &Position::STARTING,
                    &quick(),
                    |_| stop.store(true, Ordering::SeqCst),
                    &stop,
                )
            })
            .unwrap();
        assert!(partial.interrupted);
        assert!(partial.trials >= 1 && partial.trials < quick().trials, "{} trials", partial.trials);
        let settings = RolloutSettings { trials: partial.trials, ..quick() };
        let whole = rollout_position(&net, &Position::STARTING, &settings, |_| {}).unwrap();
        assert!(!whole.interrupted);
        assert_eq!(RolloutResult { interrupted: true, ..whole }, partial);
    }

    #[test]
    fn stopped_moves_share_the_same_finished_trials() {
        let net = NetEvaluator::shipped().unwrap();
        let stop = AtomicBool::new(false);
        let dice = Dice::new(3, 1).unwrap();
        let settings = RolloutSettings { candidates: Some(3), ..quick() };
        let partial = rollout_moves_until(
            &net,
            &Position::STARTING,
            dice,
            &settings,
            |_| stop.store(true, Ordering::SeqCst),
            &stop,
        )
        .unwrap();
        let trials = partial[0].rollout.trials;
        assert!(trials < settings.trials);
        assert!(partial.iter().all(|m| m.rollout.interrupted && m.rollout.trials == trials));
        let whole =
            rollout_moves(&net, &Position::STARTING, dice, &RolloutSettings { trials, ..settings }, |_| {}).unwrap();
        for (p, w) in partial.iter().zip(&whole) {
            assert_eq!((p.mv, &p.rollout.equity, &p.difference), (w.mv, &w.rollout.equity, &w.difference));
        }
    }

    #[test]
    fn a_rollout_stopped_before_any_trial_is_an_error() {
        let net = NetEvaluator::shipped().unwrap();
        let stop = AtomicBool::new(true);
        let r = rollout_position_until(&net, &Position::STARTING, &quick(), |_| {}, &stop);
        assert_eq!(r, Err(RolloutError::Interrupted));
    }
}
