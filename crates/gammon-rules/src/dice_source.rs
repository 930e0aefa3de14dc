//! Where the dice of a game come from: a seeded generator, a recorded list,
//! or a recorder around another source (duplicate-dice play).

use crate::dice::{opening_roll, Dice};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A source of dice for one game: the opening roll (two different dice),
/// then a roll per turn.
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
///
/// ```
/// use gammon_rules::{DiceSource, RandomDice};
/// let (mut a, mut b) = (RandomDice::new(7, 3), RandomDice::new(7, 3));
/// assert_eq!(a.roll(), b.roll());
/// assert!(!a.opening().is_double());
/// ```
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

    /// One die, 1 to 6.
    pub fn die(&mut self) -> u8 {
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

/// Dice replayed from a recorded list (for duplicate play), then from a
/// fallback source once the list is used up.
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

    /// The recorded opening roll is replayed as it was.
    fn opening(&mut self) -> Dice {
        self.roll()
    }
}

/// Records every roll of another source, opening roll included, so that a
/// second game can replay them with [`ReplayDice`].
#[derive(Debug, Clone)]
pub struct RecordingDice<S> {
    inner: S,
    rolls: Vec<Dice>,
}

impl<S: DiceSource> RecordingDice<S> {
    /// Records the rolls of `inner`.
    pub fn new(inner: S) -> Self {
        RecordingDice { inner, rolls: Vec::with_capacity(128) }
    }

    /// The rolls so far, in order.
    pub fn rolls(&self) -> &[Dice] {
        &self.rolls
    }
}

impl<S: DiceSource> DiceSource for RecordingDice<S> {
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

    #[test]
    fn a_recording_replays_exactly() {
        let mut rec = RecordingDice::new(RandomDice::new(1, 2));
        let first: Vec<Dice> = std::iter::once(rec.opening()).chain((0..50).map(|_| rec.roll())).collect();
        let mut replay = ReplayDice::new(rec.rolls(), RandomDice::new(9, 9));
        let again: Vec<Dice> = std::iter::once(replay.opening()).chain((0..50).map(|_| replay.roll())).collect();
        assert_eq!(first, again);
        assert!(!first[0].is_double());
    }

    #[test]
    fn streams_differ() {
        let (mut a, mut b) = (RandomDice::new(1, 0), RandomDice::new(1, 1));
        let a: Vec<Dice> = (0..20).map(|_| a.roll()).collect();
        let b: Vec<Dice> = (0..20).map(|_| b.roll()).collect();
        assert_ne!(a, b);
    }
}
