//! The dice of a trial: quasi-random (stratified) first two rolls, then the
//! trial's own random stream.

use super::BATCH;
use gammon_rules::{Dice, DiceSource, RandomDice, ALL_ROLLS};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The dice of every trial of a rollout: with `quasi_random`, trial `k`'s
/// first two rolls come from two seeded permutations of the 36 outcomes
/// (see the [module documentation](super)); every other roll from the
/// trial's [`RandomDice`].
#[derive(Debug, Clone)]
pub(super) struct TrialDice {
    quasi_random: bool,
    first: [Dice; 36],
    second: [Dice; 36],
}

impl TrialDice {
    pub(super) fn new(seed: u64, quasi_random: bool) -> Self {
        let all = outcomes();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
        let (p1, p2) = (permutation(&mut rng), permutation(&mut rng));
        TrialDice { quasi_random, first: p1.map(|i| all[usize::from(i)]), second: p2.map(|i| all[usize::from(i)]) }
    }

    /// The roll of half-move `turn` of trial `k`.
    pub(super) fn roll(&self, k: u64, turn: u32, rng: &mut RandomDice) -> Dice {
        if self.quasi_random && turn < 2 {
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
}

/// The index of a roll in [`ALL_ROLLS`].
pub(super) fn roll_index(d: Dice) -> usize {
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
        let dice = TrialDice::new(7, true);
        let mut rng = RandomDice::new(0, 0);
        for block in 0..36u64 {
            let mut first = std::collections::HashMap::new();
            let mut second = std::collections::HashMap::new();
            for k in block * 36..block * 36 + 36 {
                let (a, b) = (dice.roll(k, 0, &mut rng), dice.roll(k, 1, &mut rng));
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
