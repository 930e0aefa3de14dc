//! Learning from search: positions from self-play, labelled with the
//! current nets' 1-ply or 2-ply lookahead value; the nets are then fitted
//! to those labels by the one supervised fitter
//! ([`crate::supervised`], driven round by round by [`crate::distill_run`]).
//!
//! Pure TD learns from one sampled roll; a lookahead label averages all 21
//! rolls and sees one or two moves deeper, so it is a better target than the
//! net's own 0-ply value. Every published net past +0.57 against pubeval
//! learned from such search or rollout targets (`shared/notes/td-training.md`).
//!
//! - `1-ply`: for each roll, the best result by 0-ply; the label is the
//!   average over the rolls of its (inverted) 0-ply value.
//! - `2-ply`: for each roll, the `candidates` best results by 0-ply are
//!   valued at 1-ply, the best of them is played; the label is the average
//!   of its (inverted) 1-ply value.
//!
//! Finished games and bearoff positions are exact at every ply. The labels
//! are the engine's [`Search`] values (its one lookahead); the sampling games
//! are played by the one game loop ([`play_game`]).

use crate::siblings::Grouped;
use gammon_engine::search::{Candidates, MoveFilter, Search};
use gammon_eval::net::{evaluate_position, Scratch};
use gammon_eval::{NetEvaluator, NetKind, NetWeights, Probabilities};
use gammon_rules::{
    play_game, Decision, Dice, Flow, GameStart, MatchRules, MatchState, MoveList, Position, RandomDice, Seat, Table,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

pub use crate::dataset::Dataset;

/// The most positions labelled per round (a dataset of this size is about
/// half of the largest file [`Dataset::load`] reads).
pub const MAX_POSITIONS: usize = 10_000_000;
/// The most moves per roll searched to the full depth.
pub const MAX_CANDIDATES: usize = 32;
/// The most results kept per move of the sampled games.
pub const MAX_AFTERSTATES: usize = 100;
/// The most rounds of one run.
pub const MAX_ROUNDS: u32 = 1000;
/// The most training passes per round.
pub const MAX_EPOCHS: u32 = 1000;
/// The learning rate is below this (as in the TD settings).
pub const MAX_RATE: f32 = 10.0;
/// The most pairs of benchmark games after a round.
pub const MAX_BENCHMARK_PAIRS: u64 = 10_000_000;

/// Everything that defines a distillation run (`gammon distill`), checked
/// by [`DistillSettings::validate`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistillSettings {
    /// Positions to label per round: 1 to [`MAX_POSITIONS`].
    pub positions: usize,
    /// Lookahead depth of the labels: 1 or 2.
    pub ply: u8,
    /// Moves per roll searched to the full depth: 1 to [`MAX_CANDIDATES`].
    pub candidates: usize,
    /// Results per move to label (0: the played positions only), up to
    /// [`MAX_AFTERSTATES`].
    pub afterstates: usize,
    /// Rounds, each from the previous round's net: 1 to [`MAX_ROUNDS`].
    pub rounds: u32,
    /// The most training passes per round (the supervised fitter stops
    /// earlier when the validation error stops falling): 1 to [`MAX_EPOCHS`].
    pub epochs: u32,
    /// The fitter's initial learning rate, on the mean gradient of a
    /// mini-batch: finite, in (0, [`MAX_RATE`]).
    pub rate: f32,
    /// Probability of a random move in the sampling games: 0 to 1.
    pub explore: f32,
    /// Seed (round k uses seed + k, wrapping).
    pub seed: u64,
    /// Worker threads: 1 to [`MAX_THREADS`](crate::MAX_THREADS).
    pub threads: usize,
    /// Pairs of benchmark games against pubeval (0 = none), up to
    /// [`MAX_BENCHMARK_PAIRS`].
    pub benchmark_pairs: u64,
}

/// A distillation setting that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{setting} must be {rule} (got {got})")]
pub struct DistillError {
    /// The setting, as the field of [`DistillSettings`] is named.
    pub setting: &'static str,
    /// What it must be.
    pub rule: String,
    /// The value given.
    pub got: String,
}

impl DistillSettings {
    /// Checks every value.
    ///
    /// # Errors
    /// The first value out of range.
    pub fn validate(&self) -> Result<(), DistillError> {
        fn count<T: PartialOrd + std::fmt::Display>(
            setting: &'static str,
            value: T,
            min: T,
            max: T,
        ) -> Result<(), DistillError> {
            if value < min || value > max {
                return Err(DistillError { setting, rule: format!("{min} to {max}"), got: value.to_string() });
            }
            Ok(())
        }
        count("positions", self.positions, 1, MAX_POSITIONS)?;
        count("ply", self.ply, 1, 2)?;
        count("candidates", self.candidates, 1, MAX_CANDIDATES)?;
        count("afterstates", self.afterstates, 0, MAX_AFTERSTATES)?;
        count("rounds", self.rounds, 1, MAX_ROUNDS)?;
        count("epochs", self.epochs, 1, MAX_EPOCHS)?;
        count("threads", self.threads, 1, crate::MAX_THREADS)?;
        count("benchmark_pairs", self.benchmark_pairs, 0, MAX_BENCHMARK_PAIRS)?;
        // `!(a < x)` style comparisons are false for NaN, so test finiteness first.
        if !self.rate.is_finite() || self.rate <= 0.0 || self.rate >= MAX_RATE {
            return Err(DistillError {
                setting: "rate",
                rule: format!("a finite number > 0 and < {MAX_RATE}"),
                got: format!("{:?}", self.rate),
            });
        }
        if !self.explore.is_finite() || !(0.0..=1.0).contains(&self.explore) {
            return Err(DistillError {
                setting: "explore",
                rule: "a finite number from 0 to 1".into(),
                got: format!("{:?}", self.explore),
            });
        }
        Ok(())
    }
}

/// The search that labels with `weights`: the engine's one lookahead, the
/// best `candidates` moves of each roll (by 0-ply) valued at the remaining
/// depth (the module documentation).
pub fn labeller(weights: &NetWeights, candidates: usize) -> Search<NetEvaluator> {
    let filter = MoveFilter { lookahead: Candidates::new(candidates.max(1), f32::INFINITY), ..MoveFilter::NORMAL };
    Search::new(NetEvaluator::new(weights.clone())).with_filter(filter)
}

/// The lookahead value of `pos` for the side on roll with `weights`. Each
/// call builds a [`labeller`]; for many positions build one and call
/// [`Search::value`].
pub fn lookahead_value(weights: &NetWeights, pos: &Position, ply: u8, candidates: usize) -> Probabilities {
    labeller(weights, candidates).value(pos, ply)
}

/// Positions (side on roll, before rolling) from self-play games of
/// `weights` at 0-ply, each move replaced by a random legal one with
/// probability `explore` for variety. Keeps contact and race positions only.
/// Game `g` uses dice stream `g` of `seed`; the result depends only on the
/// arguments.
pub fn sample_positions(weights: &NetWeights, count: usize, seed: u64, explore: f32) -> Vec<Position> {
    sample_grouped(weights, count, seed, explore, 0, f32::INFINITY).positions
}

/// Like [`sample_positions`], but from every move of the games the
/// `afterstates` best results by the net (each a position before the
/// opponent's roll), the played one first.
///
/// Self-play TD only ever trains on the positions it plays, so a result the
/// net undervalues is never corrected: it is never chosen. Labelling the
/// close alternatives too lets a lookahead label correct the net's ranking
/// of moves, which is what a 0-ply player lives by.
pub fn sample_afterstates(
    weights: &NetWeights,
    count: usize,
    seed: u64,
    explore: f32,
    afterstates: usize,
) -> Vec<Position> {
    sample_grouped(weights, count, seed, explore, afterstates.max(1), f32::INFINITY).positions
}

/// Like [`sample_afterstates`], keeping of the `afterstates` best results of
/// each move only those within `window` equity of the best one (which is
/// always kept): the close alternatives, where the net's ranking decides
/// the move.
pub fn sample_afterstates_within(
    weights: &NetWeights,
    count: usize,
    seed: u64,
    explore: f32,
    afterstates: usize,
    window: f32,
) -> Vec<Position> {
    sample_grouped(weights, count, seed, explore, afterstates.max(1), window).positions
}

/// The one sampler, behind every `sample_*` function: with `afterstates`
/// 0 the positions of [`sample_positions`], otherwise those of
/// [`sample_afterstates_within`], each with the roll it is a result of
/// (`gammon label sample --groups`). The groups are numbered from 0 in
/// order, a new one whenever the turn changes and after each game: the
/// results kept of one move are one group, a played position is a group
/// of its own.
pub fn sample_grouped(
    weights: &NetWeights,
    count: usize,
    seed: u64,
    explore: f32,
    afterstates: usize,
    window: f32,
) -> Grouped {
    let mut out = Grouped { positions: Vec::with_capacity(count), groups: Vec::with_capacity(count) };
    let mut next_group = 0u32;
    let mut next_game = 0u64;
    while out.positions.len() < count {
        let batch = 64u64;
        let games: Vec<Vec<(Position, u32)>> = (next_game..next_game + batch)
            .into_par_iter()
            .map_init(
                || (Scratch::new(weights), Vec::new()),
                |(scratch, scored), g| {
                    let mut explore_rng = ChaCha8Rng::seed_from_u64(seed ^ 0xE4F1_0BE5);
                    explore_rng.set_stream(g);
                    let mut sampler = Sampler {
                        weights,
                        scratch,
                        scored,
                        explore_rng,
                        explore,
                        afterstates,
                        window,
                        turn: 0,
                        seen: Vec::new(),
                    };
                    let state = MatchState::new(MatchRules::cubeless());
                    let start = GameStart::opening(Seat::Zero);
                    // The sampler never abandons a game.
                    let _ = play_game(&mut sampler, &mut RandomDice::new(seed, g), &start, &state);
                    sampler.seen
                },
            )
            .collect();
        next_game += batch;
        for game in games {
            let mut last = None;
            for (p, turn) in game {
                if last.is_some_and(|l| l != turn) {
                    next_group += 1;
                }
                last = Some(turn);
                out.positions.push(p);
                out.groups.push(next_group);
            }
            if last.is_some() {
                next_group += 1;
            }
        }
    }
    out.truncate(count);
    out
}

/// Positions a net answers are trained; the rest are exact.
fn trained(p: &Position) -> bool {
    NetKind::of_position(p).is_some()
}

/// One sampling game: 0-ply play with exploration, keeping the positions
/// before each roll or the best results of each move, each with the number
/// of its turn in the game.
struct Sampler<'a> {
    weights: &'a NetWeights,
    scratch: &'a mut Scratch,
    /// `(opponent's equity, index)` of the results of a move.
    scored: &'a mut Vec<(f32, usize)>,
    explore_rng: ChaCha8Rng,
    explore: f32,
    afterstates: usize,
    /// Only results within this equity of the best are kept.
    window: f32,
    /// The turn being played: half-moves played before it (passes too).
    turn: u32,
    /// The kept positions, each with its turn: the turn it is a result of,
    /// or for a played position the turn about to be played from it.
    seen: Vec<(Position, u32)>,
}

impl Sampler<'_> {
    /// Ranks `results`, keeps the best `afterstates` and picks the move:
    /// the best, or with probability `explore` a random one.
    fn pick(&mut self, results: &[Position]) -> usize {
        let (weights, scratch) = (self.weights, &mut *self.scratch);
        self.scored.clear();
        self.scored
            .extend(results.iter().enumerate().map(|(i, r)| (evaluate_position(weights, r, scratch).0.equity(), i)));
        // The results by the opponent's value, lowest (best for us) first.
        self.scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let limit = self.scored.first().map_or(0.0, |b| b.0) + self.window;
        let turn = self.turn;
        self.seen.extend(
            self.scored
                .iter()
                .take(self.afterstates)
                .take_while(|&&(e, _)| e <= limit)
                .map(|&(_, i)| results[i])
                .filter(trained)
                .map(|p| (p, turn)),
        );
        if self.explore_rng.random::<f32>() < self.explore {
            self.explore_rng.random_range(0..results.len())
        } else {
            self.scored[0].1
        }
    }
}

impl Table for Sampler<'_> {
    fn before_roll(&mut self, _: Seat, pos: &Position, turn: u32) -> Decision<Flow> {
        self.turn = turn;
        if self.afterstates == 0 && trained(pos) {
            self.seen.push((*pos, turn));
        }
        Ok(Flow::Play)
    }

    /// Forced moves too: their result is an afterstate, and the exploration
    /// draw keeps every game's random stream in step.
    fn choose_move(&mut self, _: Seat, _: &Position, _: Dice, moves: &MoveList) -> Decision<usize> {
        Ok(self.pick(moves.positions()))
    }
}

/// Labels `positions` at `ply` in parallel (each label depends only on its
/// position and the weights).
pub fn label(weights: &NetWeights, positions: &[Position], ply: u8, candidates: usize) -> Vec<[f32; 5]> {
    let search = labeller(weights, candidates);
    positions
        .par_iter()
        // Sums of 21 weighted probabilities can stray past 1 by a rounding.
        .map(|p| search.value(p, ply).sanitized().to_array())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_rules::DiceSource;

    fn settings() -> DistillSettings {
        DistillSettings {
            positions: 100,
            ply: 2,
            candidates: 2,
            afterstates: 0,
            rounds: 1,
            epochs: 4,
            rate: 0.02,
            explore: 0.1,
            seed: 1,
            threads: 2,
            benchmark_pairs: 0,
        }
    }

    #[test]
    fn settings_refuse_rates_that_are_not_finite_and_positive() {
        assert_eq!(settings().validate(), Ok(()));
        for rate in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, 0.0, 10.0] {
            let err = DistillSettings { rate, ..settings() }.validate().unwrap_err();
            assert_eq!(err.setting, "rate", "{rate}");
            assert!(err.to_string().starts_with("rate must be a finite number > 0"), "{err}");
        }
        let err = DistillSettings { explore: f32::NAN, ..settings() }.validate().unwrap_err();
        assert_eq!((err.setting, err.got.as_str()), ("explore", "NaN"));
    }

    #[test]
    fn settings_refuse_counts_out_of_range() {
        let bad = [
            DistillSettings { positions: 0, ..settings() },
            DistillSettings { positions: MAX_POSITIONS + 1, ..settings() },
            DistillSettings { ply: 3, ..settings() },
            DistillSettings { candidates: 0, ..settings() },
            DistillSettings { afterstates: MAX_AFTERSTATES + 1, ..settings() },
            DistillSettings { rounds: 0, ..settings() },
            DistillSettings { epochs: 0, ..settings() },
            DistillSettings { threads: 0, ..settings() },
            DistillSettings { benchmark_pairs: MAX_BENCHMARK_PAIRS + 1, ..settings() },
        ];
        let names: Vec<&str> = bad.iter().map(|s| s.validate().unwrap_err().setting).collect();
        assert_eq!(
            names,
            [
                "positions",
                "positions",
                "ply",
                "candidates",
                "afterstates",
                "rounds",
                "epochs",
                "threads",
                "benchmark_pairs"
            ]
        );
    }

    #[test]
    fn one_ply_of_a_bearoff_is_exact_and_lookahead_agrees_with_the_database() {
        let w = NetWeights::random(8, 8, 1);
        // Both sides bearing off: every ply gives the database value.
        let p = Position::from_position_id("AwAAEAEAAAAAAA").unwrap();
        let v0 = lookahead_value(&w, &p, 0, 1);
        let v1 = lookahead_value(&w, &p, 1, 1);
        assert_eq!(v0, v1);
    }

    #[test]
    fn one_ply_averages_the_rolls() {
        // A race where I have one checker on my 1-point: I win with any roll.
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        me[0] = 1;
        him[12] = 15; // all his checkers on his 13-point: a gammon for me
        let p = Position::from_boards(&me, &him).unwrap();
        let w = NetWeights::random(8, 8, 2);
        let v = lookahead_value(&w, &p, 1, 1);
        assert!((v.win - 1.0).abs() < 1e-6 && (v.win_gammon - 1.0).abs() < 1e-6, "{v:?}");
    }

    #[test]
    fn sampling_and_labels_are_reproducible() {
        let w = NetWeights::random(8, 8, 3);
        let a = sample_positions(&w, 50, 9, 0.1);
        let b = sample_positions(&w, 50, 9, 0.1);
        assert_eq!(a, b);
        let la = label(&w, &a[..5], 1, 1);
        let lb = label(&w, &b[..5], 1, 1);
        assert_eq!(la, lb);
        assert!(la.iter().flatten().all(|x| (0.0..=1.0).contains(x)));
    }

    #[test]
    fn a_window_keeps_only_the_close_alternatives() {
        let w = NetWeights::random(8, 8, 3);
        let all = sample_afterstates(&w, 300, 9, 0.0, 4);
        let close = sample_afterstates_within(&w, 300, 9, 0.0, 4, 0.02);
        assert_eq!(sample_afterstates_within(&w, 300, 9, 0.0, 4, f32::INFINITY), all);
        // The same games (no exploration), fewer results per move: the
        // window version reaches further into the games for its 300.
        assert_ne!(close, all);
        let mut list = MoveList::new();
        list.generate(&Position::STARTING, RandomDice::new(9, 0).opening());
        let mut scratch = Scratch::new(&w);
        let mut e = |p: &Position| evaluate_position(&w, p, &mut scratch).0.equity();
        let best = list.positions().iter().map(&mut e).fold(f32::INFINITY, f32::min);
        let first_move: Vec<&Position> = close.iter().take_while(|p| list.positions().contains(p)).collect();
        assert!(!first_move.is_empty());
        assert!(first_move.iter().all(|p| e(p) <= best + 0.02 + 1e-6));
    }

    #[test]
    fn each_group_is_the_results_of_one_roll_of_the_position_played_before() {
        let w = NetWeights::random(8, 8, 3);
        // No exploration: each move plays the first (best) result it keeps.
        let g = sample_grouped(&w, 600, 9, 0.0, 3, 0.05);
        assert_eq!(g.positions, sample_afterstates_within(&w, 600, 9, 0.0, 3, 0.05));
        assert_eq!(g.groups.len(), g.positions.len());
        let mut list = MoveList::new();
        let mut results_of = |from: &Position, group: &[Position]| {
            gammon_rules::ALL_ROLLS.iter().any(|&d| {
                list.generate(from, d);
                group.iter().all(|p| list.positions().contains(p))
            })
        };
        let mut played = Position::STARTING;
        let mut games = 0;
        let mut start = 0;
        while start < g.groups.len() {
            let end = start + g.groups[start..].iter().take_while(|&&x| x == g.groups[start]).count();
            let group = &g.positions[start..end];
            // From the played position, or after the other side's pass.
            if !results_of(&played, group) && !results_of(&played.switched(), group) {
                // A new game: the results of the opening roll.
                assert!(results_of(&Position::STARTING, group), "group {} is not of one roll", g.groups[start]);
                games += 1;
            }
            played = group[0];
            start = end;
        }
        assert!(games >= 1, "the sample spans more than one game");
    }

    #[test]
    fn each_played_position_is_a_group_of_its_own() {
        let w = NetWeights::random(8, 8, 3);
        let g = sample_grouped(&w, 3000, 9, 0.1, 0, f32::INFINITY);
        assert_eq!(g.positions, sample_positions(&w, 3000, 9, 0.1));
        assert!(g.groups.iter().copied().eq(0..3000), "one group a turn, passes too");
        // The games have passes: a side on the bar that cannot enter.
        let passes = g.positions.windows(2).filter(|p| p[1] == p[0].switched()).count();
        assert!(passes > 0);
    }

    #[test]
    fn afterstates_are_the_best_results_of_each_move() {
        let w = NetWeights::random(8, 8, 3);
        let played = sample_positions(&w, 30, 9, 0.0);
        let after = sample_afterstates(&w, 90, 9, 0.0, 3);
        assert_eq!(after, sample_afterstates(&w, 90, 9, 0.0, 3), "reproducible");
        // The first move's results: the played result is the best one, and
        // it is the second position the played game reaches.
        assert_eq!(after[0], played[1]);
        let mut list = MoveList::new();
        list.generate(&Position::STARTING, RandomDice::new(9, 0).opening());
        assert!(after[..3].iter().all(|p| list.positions().contains(p)));
        let mut scratch = Scratch::new(&w);
        let mut e = |p: &Position| evaluate_position(&w, p, &mut scratch).0.equity();
        let (e0, e1, e2) = (e(&after[0]), e(&after[1]), e(&after[2]));
        assert!(e0 <= e1 && e1 <= e2, "ranked: {e0} {e1} {e2}");
        let worse = list.positions().iter().filter(|p| e(p) < e2).count();
        assert_eq!(worse, 2, "nothing outside the three is better");
    }
}
