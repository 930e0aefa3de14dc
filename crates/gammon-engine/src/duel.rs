//! Duels: cubeless money games between two evaluators with duplicate dice.

use gammon_eval::{Evaluator, EvaluatorPlayer};
use gammon_rules::{
    play_game, GameRecord, GameStart, MatchRules, MatchState, NoCube, RandomDice, RecordingDice, ReplayDice, Seat,
    Seats,
};
use rayon::prelude::*;

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
    fn add_game(&mut self, points: i64) {
        self.games += 1;
        self.points += points;
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

/// One cubeless money game: `first` (seat Zero) makes the opening move.
fn money_game(first: &dyn Evaluator, second: &dyn Evaluator, dice: &mut dyn gammon_rules::DiceSource) -> GameRecord {
    let (mut a, mut b) = (EvaluatorPlayer(first), EvaluatorPlayer(second));
    let mut seats = Seats { players: [&mut a, &mut b], cube: &mut NoCube };
    let state = MatchState::new(MatchRules::cubeless());
    // Evaluator players never abandon a game.
    play_game(&mut seats, dice, &GameStart::opening(Seat::Zero), &state)
        .unwrap_or_else(|_| unreachable!("evaluator players do not abandon"))
}

/// Plays `pairs` pairs of cubeless money games with duplicate dice: each pair
/// uses one dice sequence twice, A moving first in one game and B in the
/// other. Pair `k` uses dice stream `k` of `seed`, so the result depends only
/// on the seed and the pair count, not on the threads (run it inside a rayon
/// pool to choose those). A game stopped at [`gammon_rules::MAX_TURNS`]
/// scores 0.
pub fn duel(a: &dyn Evaluator, b: &dyn Evaluator, pairs: u64, seed: u64) -> DuelResult {
    let tally = (0..pairs)
        .into_par_iter()
        .map(|k| {
            // Record the dice of the first game so the second replays them.
            let mut recorder = RecordingDice::new(RandomDice::new(seed, k));
            let g1 = money_game(a, b, &mut recorder).end.points_for(Seat::Zero);
            let mut replay = ReplayDice::new(recorder.rolls(), RandomDice::new(seed ^ 0x5EED, k));
            let g2 = money_game(b, a, &mut replay).end.points_for(Seat::Zero);
            let mut t = Tally::default();
            t.add_game(g1);
            t.add_game(-g2);
            let pair = (g1 - g2) as f64 / 2.0;
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

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_eval::Probabilities;
    use gammon_rules::Position;

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

    /// Plays the last legal move.
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

    #[test]
    fn a_player_against_itself_scores_zero_with_duplicate_dice() {
        let r = duel(&First, &First, 20, 5);
        assert_eq!(r.games, 40);
        assert_eq!(r.ppg, 0.0);
    }

    #[test]
    fn duels_are_reproducible_at_any_thread_count() {
        let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
        let one = pool(1).install(|| duel(&First, &Last, 30, 9));
        let two = pool(2).install(|| duel(&First, &Last, 30, 9));
        assert_eq!(one, two);
        assert!(one.ppg != 0.0);
    }
}
