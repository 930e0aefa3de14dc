//! Test support: positions along random games from the start, for unit
//! tests that check a fast path against a plain reference on many real
//! positions (openings, middle games, crashed boards, bearoffs with contact).

use crate::{DiceSource, MoveList, Position, RandomDice};

/// Calls `visit` with every position of `games` games played from the start
/// with dice stream `seed` (each side picks a legal result by a fixed
/// scramble of the game and turn numbers), until a side is off.
pub(crate) fn along_random_games(seed: u64, games: usize, mut visit: impl FnMut(&Position)) {
    let mut dice = RandomDice::new(seed, 0);
    let mut list = MoveList::new();
    for game in 0..games {
        let mut pos = Position::STARTING;
        for turn in 0..400 {
            if pos.my_occupied() == 0 || pos.their_occupied() == 0 {
                break;
            }
            visit(&pos);
            list.generate(&pos, dice.roll());
            let n = list.len();
            pos = if n == 0 { pos.switched() } else { list.positions()[(game * 31 + turn) * 7919 % n] };
        }
    }
}
