//! Playing games between evaluators: one game, and duels with duplicate dice.

use crate::evaluator::Evaluator;
use gammon_rules::{opening_roll, Dice, MoveList, Position};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// A source of dice for one game: the opening roll (two different dice), then
/// a roll per turn.
pub trait DiceSource {
    /// The next roll.
    fn roll(&mut self) -> Dice;
    /// The opening roll: two different dice.
    fn opening(&mut self) -> Dice {
        loop {
            let d = self.roll();
            if !d.is_double() {
                return d;
            }
        }
    }
}

/// Dice from a seeded ChaCha8 generator.
#[derive(Debug, Clone)]
pub struct RandomDice(pub ChaCha8Rng);

impl RandomDice {
    /// The dice of stream `stream` of `seed`: independent streams for games
    /// or pairs, reproducible whatever the thread count.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        RandomDice(rng)
    }

    fn die(&mut self) -> u8 {
        self.0.random_range(1..=6)
    }
}

impl DiceSource for RandomDice {
    fn roll(&mut self) -> Dice {
        let (a, b) = (self.die(), self.die());
        Dice::new(a, b).unwrap_or_else(|_| unreachable!("dice are 1..=6"))
    }

    fn opening(&mut self) -> Dice {
        // The opening roll as the rules have it: one die each, ties re-rolled.
        let r = opening_roll(|| self.die()).unwrap_or_else(|_| unreachable!("dice are 1..=6"));
        r.dice
    }
}

/// Dice replayed from a recorded list (for duplicate play).
#[derive(Debug, Clone)]
pub struct ReplayDice<'a> {
    rolls: &'a [Dice],
    next: usize,
    fallback: RandomDice,
}

impl<'a> ReplayDice<'a> {
    /// Replays `rolls`, then continues with `fallback`.
    pub fn new(rolls: &'a [Dice], fallback: RandomDice) -> Self {
        ReplayDice { rolls, next: 0, fallback }
    }
}

impl DiceSource for ReplayDice<'_> {
    fn roll(&mut self) -> Dice {
        let d = self.rolls.get(self.next).copied().unwrap_or_else(|| self.fallback.roll());
        self.next += 1;
        d
    }
    fn opening(&mut self) -> Dice {
        self.roll()
    }
}

/// Result of one game, from the first player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// Points won by the first player (negative: lost), 1 to 3.
    pub points: i32,
    /// Half-moves played.
    pub turns: u32,
}

/// Plays a cubeless money game: `first` makes the opening move with
/// `dice.opening()`, then the players alternate. A turn with no legal move
/// passes. A game still running after 10,000 half-moves (which only a
/// broken evaluator could cause) is stopped and scored 0.
pub fn play_game(first: &dyn Evaluator, second: &dyn Evaluator, dice: &mut dyn DiceSource) -> GameOutcome {
    const MAX_TURNS: u32 = 10_000;
    let mut list = MoveList::new();
    let mut pos = Position::STARTING;
    let mut turn = 0u32;
    loop {
        let d = if turn == 0 { dice.opening() } else { dice.roll() };
        let player = if turn % 2 == 0 { first } else { second };
        list.generate(&pos, d);
        pos = if list.is_empty() {
            pos.switched()
        } else if list.len() == 1 {
            list.positions()[0]
        } else {
            list.positions()[player.best_move(&pos, list.positions())]
        };
        turn += 1;
        if let Some((on_roll_won, result)) = pos.game_result() {
            // The player who just moved is not on roll.
            let mover_won = !on_roll_won;
            let first_moved = (turn - 1) % 2 == 0;
            let points = result.points() as i32;
            let first_won = mover_won == first_moved;
            return GameOutcome { points: if first_won { points } else { -points }, turns: turn };
        }
        if turn >= MAX_TURNS {
            return GameOutcome { points: 0, turns: turn };
        }
    }
}

/// Summary of a duel, from player A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DuelResult {
    /// Games played (twice the pairs).
    pub games: u64,
    /// Points per game for A.
    pub ppg: f64,
    /// Standard error of `ppg`, from the spread of the pair results.
    pub standard_error: f64,
    /// Share of games A won.
    pub win_rate: f64,
    /// Share of games A won with a gammon (or backgammon).
    pub gammon_rate: f64,
    /// Share of games A won with a backgammon.
    pub backgammon_rate: f64,
    /// Share of games A lost with a gammon (or backgammon).
    pub lose_gammon_rate: f64,
    /// Share of games A lost with a backgammon.
    pub lose_backgammon_rate: f64,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    games: u64,
    points: i64,
    pair_sq: f64,
    pair_sum: f64,
    pairs: u64,
    wins: u64,
    gammons: u64,
    backgammons: u64,
    lose_gammons: u64,
    lose_backgammons: u64,
}

impl Tally {
    fn add_game(&mut self, points: i32) {
        self.games += 1;
        self.points += i64::from(points);
        self.wins += u64::from(points > 0);
        self.gammons += u64::from(points >= 2);
        self.backgammons += u64::from(points >= 3);
        self.lose_gammons += u64::from(points <= -2);
        self.lose_backgammons += u64::from(points <= -3);
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        self.points += o.points;
        self.pair_sq += o.pair_sq;
        self.pair_sum += o.pair_sum;
        self.pairs += o.pairs;
        self.wins += o.wins;
        self.gammons += o.gammons;
        self.backgammons += o.backgammons;
        self.lose_gammons += o.lose_gammons;
        self.lose_backgammons += o.lose_backgammons;
        self
    }
}

/// Plays `pairs` pairs of cubeless money games with duplicate dice: each pair
/// uses one dice sequence twice, A moving first in one game and B in the
/// other. Pair `k` uses dice stream `k` of `seed`, so the result depends only
/// on the seed and the pair count, not on the threads (run it inside a rayon
/// pool to choose those).
pub fn duel(a: &dyn Evaluator, b: &dyn Evaluator, pairs: u64, seed: u64) -> DuelResult {
    let tally = (0..pairs)
        .into_par_iter()
        .map(|k| {
            // Record the dice of the first game so the second replays them.
            let mut recorder = Recorder { inner: RandomDice::new(seed, k), rolls: Vec::with_capacity(128) };
            let g1 = play_game(a, b, &mut recorder);
            let mut replay = ReplayDice::new(&recorder.rolls, RandomDice::new(seed ^ 0x5EED, k));
            let g2 = play_game(b, a, &mut replay);
            let mut t = Tally::default();
            t.add_game(g1.points);
            t.add_game(-g2.points);
            let pair = f64::from(g1.points - g2.points) / 2.0;
            t.pairs = 1;
            t.pair_sum = pair;
            t.pair_sq = pair * pair;
            t
        })
        .reduce(Tally::default, Tally::merge);
    summarize(&tally)
}

fn summarize(t: &Tally) -> DuelResult {
    if t.games == 0 {
        return DuelResult::default();
    }
    let n = t.games as f64;
    let pairs = t.pairs as f64;
    let mean_pair = t.pair_sum / pairs;
    let var = if t.pairs > 1 { (t.pair_sq - pairs * mean_pair * mean_pair) / (pairs - 1.0) } else { 0.0 };
    DuelResult {
        games: t.games,
        ppg: t.points as f64 / n,
        standard_error: (var.max(0.0) / pairs).sqrt(),
        win_rate: t.wins as f64 / n,
        gammon_rate: t.gammons as f64 / n,
        backgammon_rate: t.backgammons as f64 / n,
        lose_gammon_rate: t.lose_gammons as f64 / n,
        lose_backgammon_rate: t.lose_backgammons as f64 / n,
    }
}

struct Recorder {
    inner: RandomDice,
    rolls: Vec<Dice>,
}

impl DiceSource for Recorder {
    fn roll(&mut self) -> Dice {
        let d = self.inner.roll();
        self.rolls.push(d);
        d
    }
    fn opening(&mut self) -> Dice {
        let d = self.inner.opening();
        self.rolls.push(d);
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Probabilities;

    /// Plays the first legal move: a deterministic, weak player.
    struct First;
    impl Evaluator for First {
        fn evaluate_batch(&self, _: &[Position], out: &mut [Probabilities]) {
            out.fill(Probabilities::from_array([0.5, 0.0, 0.0, 0.0, 0.0]));
        }
        fn best_move(&self, _: &Position, _: &[Position]) -> usize {
            0
        }
        fn name(&self) -> String {
            "first".into()
        }
    }

    #[test]
    fn a_player_against_itself_scores_zero_with_duplicate_dice() {
        let r = duel(&First, &First, 20, 5);
        assert_eq!(r.games, 40);
        assert_eq!(r.ppg, 0.0);
    }

    #[test]
    fn duels_are_reproducible() {
        struct Last;
        impl Evaluator for Last {
            fn evaluate_batch(&self, _: &[Position], out: &mut [Probabilities]) {
                out.fill(Probabilities::default());
            }
            fn best_move(&self, _: &Position, r: &[Position]) -> usize {
                r.len() - 1
            }
            fn name(&self) -> String {
                "last".into()
            }
        }
        let one =
            rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| duel(&First, &Last, 30, 9));
        let two =
            rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| duel(&First, &Last, 30, 9));
        assert_eq!(one, two);
        assert!(one.ppg != 0.0);
    }
}
