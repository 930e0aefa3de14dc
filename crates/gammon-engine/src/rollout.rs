//! Monte Carlo rollouts: a position (the side on roll, before rolling), or
//! every candidate move of a roll, played out many times by the evaluator.
//!
//! # A trial
//!
//! Trial `k` plays the game from the start position with the dice of stream
//! `k` of the seed ([`RandomDice::new`]`(seed, k)`), both sides moving with
//! the evaluator: at 0 ply by [`Evaluator::best_move`], at 1 ply by the best
//! of the 0-ply candidates (up to 8 within 0.16 equity, gnubg's normal
//! filter) after every roll of the opponent and his 0-ply best reply. A turn
//! with no legal move passes. The trial stops:
//!
//! - when the game is over: the exact result;
//! - with [`RolloutSettings::bearoff_exact`], when both sides are in the
//!   one-sided bearoff database (every checker home, no contact): the
//!   database's probabilities, exact up to its move policy;
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
//! and `k`, and the trials are summed in trial order; the stopping rule looks
//! only at those sums, after whole blocks of [`BATCH`] trials. The result is
//! therefore bit-identical whatever the thread count.
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
//! # Cubeful rollouts (money)
//!
//! With [`RolloutSettings::cubeful`] each trial also carries a doubling
//! cube: money play, cube 1 centred at the start, no Jacoby rule, no beavers,
//! the largest cube [`GameContext::DEFAULT_MAX_CUBE`](gammon_rules::GameContext::DEFAULT_MAX_CUBE).
//! Before every roll (the first included) the side on roll, if he may double,
//! takes the 0-ply cube decision of [`crate::cube`] (Janowski's model at
//! gnubg's cube efficiency, the evaluator's probabilities): he doubles when
//! [`decide`](crate::cube::decide) (the decision of
//! [`analyse`](crate::cube::analyse)) says so (optional doubles included)
//! and the opponent takes or passes as it says. A pass ends the cubeful game at
//! the cube value; otherwise the game's points are multiplied by the final
//! cube. At a truncation or bearoff stop the cubeful value is the Janowski
//! equity of the probabilities there, with the side on roll's cube decision
//! (`max(no double, min(double/take, +1))` when he may double). The chequer
//! play is cubeless (the same moves as without the cube), so the cubeless
//! results of the same trials are kept: the game goes on to its end after a
//! pass for the cubeless part. The cubeful equity is in points per game with
//! the cube starting at 1. This is an approximation in two ways: the cube
//! strategy is the 0-ply Janowski decision, not a cubeful search, and the
//! bearoff stop uses Janowski's model where gnubg has exact cubeful bearoff
//! values.
//!
//! # Rolling out moves
//!
//! [`rollout_moves`] rolls out the position after each candidate move of a
//! roll, the opponent on roll, and reports each from the mover's side. Trial
//! `k` of every move uses the same dice (common random numbers), so the
//! differences between moves are much more precise than each value: each
//! move carries its difference to the best one with the standard error of the
//! paired differences.

use crate::cube::{cube_efficiency, decide, CubeError, CubeState, Response};
use crate::met::Met;
use gammon_eval::bearoff::bearoff_db;
use gammon_eval::play::{DiceSource, RandomDice};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{CubeOwner, Dice, Move, MoveList, Position, ALL_ROLLS};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Trials per block: the stopping rule (target standard error) is checked
/// only after whole blocks, where the quasi-random dice are balanced.
pub const BATCH: u64 = 1296;

/// A trial longer than this many half-moves is stopped and evaluated (a
/// guard against a broken evaluator; real games are far shorter).
pub const MAX_TURNS: u32 = 10_000;

/// The normal z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Candidates kept for the 1-ply move choice: at most this many...
const PLY1_MAX_MOVES: usize = 8;
/// ... within this much 0-ply equity of the best (gnubg's normal filter).
const PLY1_WINDOW: f32 = 0.16;

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
    /// Chequer play lookahead: 0 or 1 ply.
    pub ply: u8,
    /// Stop a trial when both sides are in the one-sided bearoff database and
    /// take its probabilities.
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

/// A rollout that cannot be run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RolloutError {
    /// Zero trials asked for.
    #[error("a rollout needs at least one trial")]
    NoTrials,
    /// A lookahead the rollout players do not have.
    #[error("rollouts play at 0 or 1 ply, not {0}")]
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
    /// The cube model rejected the evaluator's probabilities (not numbers,
    /// or outside 0..1) in a cubeful rollout.
    #[error("cubeful rollout: {0}")]
    Cube(#[from] CubeError),
}

/// A mean with its standard error and 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Its standard error (0 with a single trial or identical trials).
    pub standard_error: f64,
    /// Lower end of the normal 95% interval, `mean - 1.96 SE`.
    pub low: f64,
    /// Upper end, `mean + 1.96 SE`.
    pub high: f64,
}

impl Estimate {
    /// An estimate from its mean and standard error.
    pub fn new(mean: f64, standard_error: f64) -> Self {
        Estimate { mean, standard_error, low: mean - Z95 * standard_error, high: mean + Z95 * standard_error }
    }

    /// True if `value` is inside the 95% interval (ends included).
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
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
    check(pos, settings)?;
    let roller = Roller::new(evaluator, settings);
    let mut results = run(&roller, &[*pos], false, &progress)?;
    Ok(results.swap_remove(0).0)
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
    check(pos, settings)?;
    if settings.candidates == Some(0) {
        return Err(RolloutError::NoCandidates);
    }
    if pos.game_result().is_some() {
        return Err(RolloutError::GameOver);
    }
    let list = pos.legal_moves(dice);
    let mut moves: Vec<(Move, Position, f64)> = if list.is_empty() {
        vec![(Move::NONE, pos.switched(), 0.0)]
    } else {
        let mut values = vec![Probabilities::default(); list.len()];
        evaluator.evaluate_batch(list.positions(), &mut values);
        list.iter().zip(&values).map(|((m, p), v)| (m, p, -f64::from(v.equity()))).collect()
    };
    if list.is_empty() {
        let v = evaluator.evaluate(&moves[0].1);
        moves[0].2 = -f64::from(v.equity());
    }
    // Best first by 0 ply; the sort is stable, so ties keep the generator's order.
    moves.sort_by(|a, b| b.2.total_cmp(&a.2));
    if let Some(n) = settings.candidates {
        moves.truncate(n);
    }
    let starts: Vec<Position> = moves.iter().map(|m| m.1).collect();
    let roller = Roller::new(evaluator, settings);
    let results = run(&roller, &starts, true, &progress)?;
    let mut out: Vec<MoveRollout> = moves
        .iter()
        .zip(results)
        .map(|(&(mv, result, static_equity), (rollout, difference))| MoveRollout {
            mv,
            result,
            static_equity,
            rollout,
            difference,
        })
        .collect();
    out.sort_by(|a, b| b.rollout.headline().mean.total_cmp(&a.rollout.headline().mean));
    Ok(out)
}

fn check(pos: &Position, s: &RolloutSettings) -> Result<(), RolloutError> {
    if s.trials == 0 {
        return Err(RolloutError::NoTrials);
    }
    if s.ply > 1 {
        return Err(RolloutError::UnsupportedPly(s.ply));
    }
    if let Some(t) = s.target_se {
        if !(t.is_finite() && t > 0.0) {
            return Err(RolloutError::TargetSe(t));
        }
    }
    if !pos.is_consistent() {
        return Err(RolloutError::InvalidPosition);
    }
    Ok(())
}

/// One trial's values, for the starting player: the five probabilities
/// (luck-adjusted), the cubeless equity and the cubeful equity (0 when
/// cubeless).
type Sample = [f64; 7];
const EQUITY: usize = 5;
const CUBEFUL: usize = 6;

/// Five probabilities (or differences of them) in `f64`.
type Five = [f64; 5];

fn five(p: &Probabilities) -> Five {
    p.to_array().map(f64::from)
}

/// The same probabilities seen by the other side.
fn invert(v: &Five) -> Five {
    [1.0 - v[0], v[3], v[4], v[1], v[2]]
}

/// A difference of probabilities seen by the other side.
fn invert_difference(d: &Five) -> Five {
    [-d[0], d[3], d[4], d[1], d[2]]
}

fn equity_of(v: &Five) -> f64 {
    2.0 * v[0] - 1.0 + v[1] - v[3] + v[2] - v[4]
}

fn invert_sample(s: &Sample) -> Sample {
    [1.0 - s[0], s[3], s[4], s[1], s[2], -s[EQUITY], -s[CUBEFUL]]
}

/// The index of a roll in [`ALL_ROLLS`].
fn roll_index(d: Dice) -> usize {
    let (h, l) = (usize::from(d.high()), usize::from(d.low()));
    h * (h - 1) / 2 + l - 1
}

/// The 36 equally likely ordered outcomes, as rolls.
fn outcomes() -> [Dice; 36] {
    let mut out = [ALL_ROLLS[0]; 36];
    let mut i = 0;
    for d in ALL_ROLLS {
        for _ in 0..d.weight() {
            out[i] = d;
            i += 1;
        }
    }
    out
}

/// A seeded permutation of 0..36.
fn permutation(rng: &mut ChaCha8Rng) -> [u8; 36] {
    let mut p: [u8; 36] = std::array::from_fn(|i| i as u8);
    for i in (1..36).rev() {
        let j = rng.random_range(0..=i);
        p.swap(i, j);
    }
    p
}

/// The doubling cube of a cubeful trial, from the starting player's side.
#[derive(Debug, Clone, Copy)]
struct Cube {
    value: u32,
    /// `None`: centred; `Some(true)`: the starting player owns it.
    owner: Option<bool>,
    /// The cubeful result once a double was passed (starting player's points).
    settled: Option<f64>,
}

impl Cube {
    /// The cube state seen by the side on roll.
    fn state(&self, mover_is_root: bool) -> CubeState {
        let owner = match self.owner {
            None => CubeOwner::Centered,
            Some(root_owns) if root_owns == mover_is_root => CubeOwner::OnRoll,
            Some(_) => CubeOwner::Opponent,
        };
        CubeState::money(self.value, owner, false, false)
    }
}

/// The cubeful value (normalised to the cube) of a position for its side on
/// roll, with his cube decision: `max(no double, min(double/take, +1))`.
fn cubeful_value(pos: &Position, p: &Probabilities, state: &CubeState, met: &Met) -> Result<f64, CubeError> {
    if pos.game_result().is_some() {
        return Ok(equity_of(&five(p)));
    }
    Ok(decide(p, cube_efficiency(pos), state, met)?.best())
}

/// Buffers of one worker.
struct Work {
    list: MoveList,
    chosen: [Position; 21],
    values: [Probabilities; 21],
    candidates: Vec<(Position, f32)>,
    scratch: Vec<Probabilities>,
}

impl Work {
    fn new() -> Self {
        Work {
            list: MoveList::new(),
            chosen: [Position::STARTING; 21],
            values: [Probabilities::default(); 21],
            candidates: Vec::with_capacity(64),
            scratch: Vec::with_capacity(256),
        }
    }
}

/// The players and the dice of a rollout.
struct Roller<'a> {
    evaluator: &'a dyn Evaluator,
    settings: RolloutSettings,
    first: [Dice; 36],
    second: [Dice; 36],
    met: &'static Met,
}

impl<'a> Roller<'a> {
    fn new(evaluator: &'a dyn Evaluator, settings: &RolloutSettings) -> Self {
        let all = outcomes();
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed ^ 0x9E37_79B9_7F4A_7C15);
        let (p1, p2) = (permutation(&mut rng), permutation(&mut rng));
        Roller {
            evaluator,
            settings: *settings,
            first: p1.map(|i| all[usize::from(i)]),
            second: p2.map(|i| all[usize::from(i)]),
            met: Met::kazaross_xg2(),
        }
    }

    fn roll(&self, k: u64, turn: u32, rng: &mut RandomDice) -> Dice {
        if self.settings.quasi_random && turn < 2 {
            let j = k % BATCH;
            let a = j % 36;
            let b = (j / 36 + a) % 36;
            // Both indices are below 36.
            if turn == 0 {
                self.first[a as usize]
            } else {
                self.second[b as usize]
            }
        } else {
            rng.roll()
        }
    }

    /// The exact value of a finished game or (with `bearoff_exact`) a
    /// bearoff, for the side on roll.
    fn exact(&self, pos: &Position) -> Option<Probabilities> {
        Probabilities::of_finished(pos).or_else(|| {
            if self.settings.bearoff_exact {
                bearoff_db().evaluate(pos)
            } else {
                None
            }
        })
    }

    /// 0-ply values for their sides on roll: exact where [`Self::exact`]
    /// knows, the evaluator otherwise.
    fn values(&self, positions: &[Position], out: &mut [Probabilities]) {
        self.evaluator.evaluate_batch(positions, out);
        for (p, o) in positions.iter().zip(out.iter_mut()) {
            if let Some(v) = self.exact(p) {
                *o = v;
            }
        }
    }

    /// The position after the 0-ply best move (seen by the next player).
    fn play0(&self, list: &mut MoveList, pos: &Position, dice: Dice) -> Position {
        list.generate(pos, dice);
        match list.positions() {
            [] => pos.switched(),
            [only] => *only,
            all => {
                let i = self.evaluator.best_move(pos, all);
                all.get(i).copied().unwrap_or(all[0])
            }
        }
    }

    /// The position after the 1-ply best move (seen by the next player).
    fn play1(&self, w: &mut Work, pos: &Position, dice: Dice) -> Position {
        w.list.generate(pos, dice);
        let n = w.list.len();
        if n <= 1 {
            return w.list.positions().first().copied().unwrap_or_else(|| pos.switched());
        }
        w.scratch.clear();
        w.scratch.resize(n, Probabilities::default());
        self.values(w.list.positions(), &mut w.scratch);
        // The mover's equity is minus the next player's.
        w.candidates.clear();
        w.candidates.extend(w.list.positions().iter().zip(&w.scratch).map(|(p, v)| (*p, -v.equity())));
        w.candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        let best0 = w.candidates[0].1;
        let keep = w.candidates.iter().take(PLY1_MAX_MOVES).take_while(|c| c.1 >= best0 - PLY1_WINDOW).count();
        w.candidates.truncate(keep.max(1));
        let mut best = (w.candidates[0].0, f64::NEG_INFINITY);
        for c in 0..w.candidates.len() {
            let q = w.candidates[c].0;
            let v = self.one_ply_value(w, &q);
            if v > best.1 {
                best = (q, v);
            }
        }
        best.0
    }

    /// The 1-ply cubeless equity of `q` (the opponent on roll) for the player
    /// who just moved: each roll of the opponent, his 0-ply best reply.
    fn one_ply_value(&self, w: &mut Work, q: &Position) -> f64 {
        if let Some(p) = self.exact(q) {
            return -f64::from(p.equity());
        }
        let mut total = 0.0;
        for d in ALL_ROLLS {
            w.list.generate(q, d);
            let ours = match w.list.len() {
                0 => {
                    let back = q.switched();
                    let mut v = [Probabilities::default()];
                    self.values(std::slice::from_ref(&back), &mut v);
                    v[0].equity()
                }
                n => {
                    w.scratch.clear();
                    w.scratch.resize(n, Probabilities::default());
                    self.values(w.list.positions(), &mut w.scratch);
                    // The opponent leaves us the least.
                    w.scratch.iter().map(|v| v.equity()).fold(f32::INFINITY, f32::min)
                }
            };
            total += f64::from(d.weight()) * f64::from(ours);
        }
        total / 36.0
    }

    fn play(&self, w: &mut Work, pos: &Position, dice: Dice) -> Position {
        if self.settings.ply == 0 {
            self.play0(&mut w.list, pos, dice)
        } else {
            self.play1(w, pos, dice)
        }
    }

    /// Plays trial `k` from `start`; the values are for the side on roll at
    /// the start.
    fn trial(&self, w: &mut Work, start: &Position, k: u64) -> Result<Sample, RolloutError> {
        let s = &self.settings;
        let mut rng = RandomDice::new(s.seed, k);
        let mut pos = *start;
        let mut mover_is_root = true;
        let sign = |root: bool| if root { 1.0 } else { -1.0 };
        let mut luck = [0.0f64; 5];
        let mut luck_cubeful = 0.0f64;
        let mut cube = Cube { value: 1, owner: None, settled: None };
        let mut turn = 0u32;
        loop {
            // The end of the trial?
            let exact = self.exact(&pos);
            let stop = if exact.is_some() {
                exact
            } else if s.truncate.is_some_and(|t| turn >= t) || turn >= MAX_TURNS {
                Some(self.evaluator.evaluate(&pos))
            } else {
                None
            };
            if let Some(p) = stop {
                let mover = five(&p);
                let root = if mover_is_root { mover } else { invert(&mover) };
                let mut out = [0.0; 7];
                for i in 0..5 {
                    out[i] = root[i] - luck[i];
                }
                out[EQUITY] = equity_of(&[out[0], out[1], out[2], out[3], out[4]]);
                if s.cubeful {
                    let cubeful = match cube.settled {
                        Some(points) => points,
                        None => {
                            let state = cube.state(mover_is_root);
                            let v = cubeful_value(&pos, &p.sanitized(), &state, self.met)?;
                            sign(mover_is_root) * f64::from(cube.value) * v
                        }
                    };
                    out[CUBEFUL] = cubeful - luck_cubeful;
                }
                return Ok(out);
            }
            // The cube.
            if s.cubeful && cube.settled.is_none() {
                let state = cube.state(mover_is_root);
                if state.no_double_reason().is_none() {
                    let p = self.evaluator.evaluate(&pos).sanitized();
                    let d = decide(&p, cube_efficiency(&pos), &state, self.met)?;
                    if d.action.doubles() {
                        if d.response() == Some(Response::Take) {
                            cube.value = cube.value.saturating_mul(2);
                            cube.owner = Some(!mover_is_root);
                        } else {
                            cube.settled = Some(sign(mover_is_root) * f64::from(cube.value));
                        }
                    }
                }
            }
            // The roll and the move.
            let dice = self.roll(k, turn, &mut rng);
            pos = if s.variance_reduction {
                for (i, d) in ALL_ROLLS.iter().enumerate() {
                    w.chosen[i] = self.play0(&mut w.list, &pos, *d);
                }
                self.values(&w.chosen, &mut w.values);
                let actual = roll_index(dice);
                // Values for the mover: the chosen results are seen by the next player.
                let mut mean = [0.0f64; 5];
                for (d, v) in ALL_ROLLS.iter().zip(&w.values) {
                    let mv = invert(&five(v));
                    for i in 0..5 {
                        mean[i] += f64::from(d.weight()) * mv[i];
                    }
                }
                let got = invert(&five(&w.values[actual]));
                let mut delta = [0.0f64; 5];
                for i in 0..5 {
                    delta[i] = got[i] - mean[i] / 36.0;
                }
                let delta = if mover_is_root { delta } else { invert_difference(&delta) };
                for i in 0..5 {
                    luck[i] += delta[i];
                }
                if s.cubeful && cube.settled.is_none() {
                    // The next player's cube state; his cubeful values, for the mover.
                    let state = cube.state(!mover_is_root);
                    let mut mean = 0.0;
                    let mut got = 0.0;
                    for (i, d) in ALL_ROLLS.iter().enumerate() {
                        let v = -cubeful_value(&w.chosen[i], &w.values[i].sanitized(), &state, self.met)?;
                        mean += f64::from(d.weight()) * v;
                        if i == actual {
                            got = v;
                        }
                    }
                    luck_cubeful += sign(mover_is_root) * f64::from(cube.value) * (got - mean / 36.0);
                }
                if s.ply == 0 {
                    w.chosen[actual]
                } else {
                    self.play1(w, &pos, dice)
                }
            } else {
                self.play(w, &pos, dice)
            };
            mover_is_root = !mover_is_root;
            turn += 1;
        }
    }
}

/// Running sums of one start position, in trial order.
#[derive(Debug, Clone)]
struct Acc {
    n: u64,
    /// The first sample: the sums are of `x - shift`, for precision.
    shift: Sample,
    sum: Sample,
    sum_sq: Sample,
}

impl Acc {
    fn new() -> Self {
        Acc { n: 0, shift: [0.0; 7], sum: [0.0; 7], sum_sq: [0.0; 7] }
    }

    fn add(&mut self, x: &Sample) {
        if self.n == 0 {
            self.shift = *x;
        }
        self.n += 1;
        for (((v, shift), sum), sum_sq) in x.iter().zip(&self.shift).zip(&mut self.sum).zip(&mut self.sum_sq) {
            let d = v - shift;
            *sum += d;
            *sum_sq += d * d;
        }
    }

    fn mean(&self, i: usize) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.shift[i] + self.sum[i] / self.n as f64
    }

    /// The sample variance of component `i`.
    fn variance(&self, i: usize) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        ((self.sum_sq[i] - self.sum[i] * self.sum[i] / n) / (n - 1.0)).max(0.0)
    }

    fn estimate(&self, i: usize) -> Estimate {
        let se = if self.n < 2 { 0.0 } else { (self.variance(i) / self.n as f64).sqrt() };
        Estimate::new(self.mean(i), se)
    }

    fn result(&self, cubeful: bool, target_reached: bool) -> RolloutResult {
        RolloutResult {
            trials: self.n,
            probabilities: std::array::from_fn(|i| self.estimate(i)),
            equity: self.estimate(EQUITY),
            cubeful: if cubeful { Some(self.estimate(CUBEFUL)) } else { None },
            target_reached,
        }
    }
}

/// Sums of products of the headline equities of every pair of moves, for
/// the standard errors of their differences.
#[derive(Debug, Clone)]
struct Cross {
    m: usize,
    shift: Vec<f64>,
    sum: Vec<f64>,
    products: Vec<f64>,
    n: u64,
}

impl Cross {
    fn new(m: usize) -> Self {
        Cross { m, shift: vec![0.0; m], sum: vec![0.0; m], products: vec![0.0; m * m], n: 0 }
    }

    fn add(&mut self, x: &[f64]) {
        if self.n == 0 {
            self.shift.copy_from_slice(x);
        }
        self.n += 1;
        let d: Vec<f64> = x.iter().zip(&self.shift).map(|(a, b)| a - b).collect();
        for i in 0..self.m {
            self.sum[i] += d[i];
            for j in 0..self.m {
                self.products[i * self.m + j] += d[i] * d[j];
            }
        }
    }

    /// The sample covariance of moves `i` and `j`.
    fn covariance(&self, i: usize, j: usize) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        (self.products[i * self.m + j] - self.sum[i] * self.sum[j] / n) / (n - 1.0)
    }

    /// Mean and standard error of `x_i - x_j`.
    fn difference(&self, i: usize, j: usize, mean_i: f64, mean_j: f64) -> Estimate {
        if self.n < 2 || i == j {
            return Estimate::new(mean_i - mean_j, 0.0);
        }
        let var = (self.covariance(i, i) + self.covariance(j, j) - 2.0 * self.covariance(i, j)).max(0.0);
        Estimate::new(mean_i - mean_j, (var / self.n as f64).sqrt())
    }
}

/// Trials per chunk are adapted to take about this long (the results do not
/// depend on the chunks).
const CHUNK_TIME: Duration = Duration::from_millis(250);

/// Rolls out every start position with the same trials; `flip`: report for
/// the side not on roll at the start (the mover, for moves). Returns each
/// result with its headline difference to the best.
fn run(
    roller: &Roller<'_>,
    starts: &[Position],
    flip: bool,
    progress: &(dyn Fn(&RolloutProgress) + Sync),
) -> Result<Vec<(RolloutResult, Estimate)>, RolloutError> {
    let s = &roller.settings;
    let m = starts.len();
    let headline = if s.cubeful { CUBEFUL } else { EQUITY };
    let mut accs = vec![Acc::new(); m];
    let mut cross = Cross::new(m);
    let mut done = 0u64;
    let threads = rayon::current_num_threads() as u64;
    let mut chunk = (threads * 2).max(2);
    let mut target_reached = false;
    let mut line = vec![0.0; m];
    while done < s.trials {
        let boundary = (done / BATCH + 1) * BATCH;
        let end = (done + chunk).min(boundary).min(s.trials);
        let began = Instant::now();
        let rows: Vec<Result<Vec<Sample>, RolloutError>> = (done..end)
            .into_par_iter()
            .map_init(Work::new, |w, k| {
                starts.iter().map(|p| roller.trial(w, p, k).map(|x| if flip { invert_sample(&x) } else { x })).collect()
            })
            .collect();
        for row in rows {
            let row = row?;
            for ((acc, x), l) in accs.iter_mut().zip(&row).zip(line.iter_mut()) {
                acc.add(x);
                *l = x[headline];
            }
            if m > 1 {
                cross.add(&line);
            }
        }
        // Aim the next chunk at CHUNK_TIME; it only changes how often progress is shown.
        let per_trial = began.elapsed().as_secs_f64() / (end - done) as f64;
        let wanted = if per_trial > 0.0 { CHUNK_TIME.as_secs_f64() / per_trial } else { BATCH as f64 };
        chunk = (wanted as u64).clamp(threads.clamp(2, BATCH), BATCH);
        done = end;
        let leader = leader(&accs, headline);
        let lead = accs[leader].estimate(headline);
        progress(&RolloutProgress {
            trials: done,
            max_trials: s.trials,
            equity: lead.mean,
            standard_error: lead.standard_error,
            leader: if m > 1 { Some(leader) } else { None },
        });
        if let Some(target) = s.target_se {
            if done % BATCH == 0 && done < s.trials {
                let worst = accs.iter().map(|a| a.estimate(headline).standard_error).fold(0.0, f64::max);
                if worst <= target {
                    target_reached = true;
                    break;
                }
            }
        }
    }
    let best = leader(&accs, headline);
    Ok(accs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let diff = cross.difference(i, best, a.mean(headline), accs[best].mean(headline));
            (a.result(s.cubeful, target_reached), diff)
        })
        .collect())
}

/// The start with the highest mean headline equity (the first on ties).
fn leader(accs: &[Acc], headline: usize) -> usize {
    let mut best = 0;
    for (i, a) in accs.iter().enumerate() {
        if a.mean(headline) > accs[best].mean(headline) {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_indices_follow_all_rolls() {
        for (i, d) in ALL_ROLLS.iter().enumerate() {
            assert_eq!(roll_index(*d), i);
        }
        let all = outcomes();
        for d in ALL_ROLLS {
            assert_eq!(all.iter().filter(|&&o| o == d).count() as u32, d.weight());
        }
    }

    #[test]
    fn quasi_random_dice_are_balanced() {
        let evaluator = gammon_eval::pubeval::PubEval;
        let roller = Roller::new(&evaluator, &RolloutSettings { seed: 7, ..RolloutSettings::default() });
        let mut rng = RandomDice::new(0, 0);
        for block in 0..36u64 {
            let mut first = std::collections::HashMap::new();
            let mut second = std::collections::HashMap::new();
            for k in block * 36..block * 36 + 36 {
                let (a, b) = (roller.roll(k, 0, &mut rng), roller.roll(k, 1, &mut rng));
                *first.entry(a).or_insert(0u32) += 1;
                *second.entry(b).or_insert(0u32) += 1;
            }
            for d in ALL_ROLLS {
                assert_eq!(first[&d], d.weight());
                assert_eq!(second[&d], d.weight());
            }
        }
        // Every ordered pair of outcomes once in 1296 trials.
        let mut seen = vec![0u32; 1296];
        for j in 0..1296u64 {
            let a = j % 36;
            let b = (j / 36 + a) % 36;
            seen[(a * 36 + b) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c == 1));
    }
}
