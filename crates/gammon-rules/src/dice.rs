//! Dice: a roll of two dice, and the 21 distinct rolls with their odds.

use crate::error::DiceError;
use std::fmt;
use std::str::FromStr;

/// A roll of two dice, stored larger die first (the order rolled does not
/// matter to the rules).
///
/// ```
/// use gammon_rules::Dice;
/// let d: Dice = "13".parse().unwrap();
/// assert_eq!((d.high(), d.low()), (3, 1));
/// assert!(!d.is_double());
/// assert_eq!(d.weight(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dice {
    high: u8,
    low: u8,
}

impl Dice {
    /// Two dice, in any order.
    ///
    /// # Errors
    /// A die outside 1..=6.
    pub const fn new(d1: u8, d2: u8) -> Result<Self, DiceError> {
        if d1 < 1 || d1 > 6 {
            return Err(DiceError::OutOfRange(d1));
        }
        if d2 < 1 || d2 > 6 {
            return Err(DiceError::OutOfRange(d2));
        }
        Ok(Self::new_unchecked(d1, d2))
    }

    /// Two dice known to be in 1..=6.
    const fn new_unchecked(d1: u8, d2: u8) -> Self {
        if d1 >= d2 {
            Dice { high: d1, low: d2 }
        } else {
            Dice { high: d2, low: d1 }
        }
    }

    /// The larger die.
    #[inline]
    pub const fn high(self) -> u8 {
        self.high
    }
    /// The smaller die.
    #[inline]
    pub const fn low(self) -> u8 {
        self.low
    }
    /// Both dice the same: the roll is played four times.
    #[inline]
    pub const fn is_double(self) -> bool {
        self.high == self.low
    }
    /// How many of the 36 equally likely outcomes give this roll: 1 for a
    /// double, 2 otherwise.
    #[inline]
    pub const fn weight(self) -> u32 {
        if self.is_double() {
            1
        } else {
            2
        }
    }
    /// The probability of this roll.
    #[inline]
    pub const fn probability(self) -> f64 {
        self.weight() as f64 / 36.0
    }
    /// How many single-die steps the roll gives: 4 for doubles, else 2.
    #[inline]
    pub const fn steps(self) -> u8 {
        if self.is_double() {
            4
        } else {
            2
        }
    }
}

/// The 21 distinct rolls in the order `11 21 22 31 32 33 41 … 66` (larger
/// die first; the order of gnubg and the oracle data).
pub const ALL_ROLLS: [Dice; 21] = {
    let mut rolls = [Dice { high: 1, low: 1 }; 21];
    let mut i = 0;
    let mut high = 1;
    while high <= 6 {
        let mut low = 1;
        while low <= high {
            rolls[i] = Dice::new_unchecked(high, low);
            i += 1;
            low += 1;
        }
        high += 1;
    }
    rolls
};

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.high, self.low)
    }
}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dice({}{})", self.high, self.low)
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    /// Parses `31`, `3-1` or `3 1`.
    fn from_str(s: &str) -> Result<Self, DiceError> {
        let digits: Vec<u8> = s.trim().bytes().filter(|b| !matches!(b, b'-' | b' ' | b',')).collect();
        match digits[..] {
            [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => Dice::new(a - b'0', b - b'0'),
            _ => Err(DiceError::Syntax(s.to_string())),
        }
    }
}

/// Which side plays first after the opening roll, and with which dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningRoll {
    /// True if the first player (the one whose die is rolled first) won the
    /// opening roll.
    pub first_player_starts: bool,
    /// The two dice, one from each side: the winner moves with both.
    pub dice: Dice,
}

/// The opening roll: each side rolls one die, equal dice are rolled again,
/// and the side with the higher die moves first using both dice.
/// `roll_die` must return a die (1..=6); it is called in pairs, first
/// player's die first.
///
/// # Errors
/// `roll_die` returned a number outside 1..=6.
pub fn opening_roll(mut roll_die: impl FnMut() -> u8) -> Result<OpeningRoll, DiceError> {
    try_opening_roll(|| Ok::<_, DiceError>((roll_die(), roll_die())))
}

/// [`opening_roll`] from a source of die pairs that may fail or that
/// watches the ties: dice typed by a person, a program that announces
/// equal dice (and turns the cube by Murphy's rule). `roll_pair` gives the
/// first player's die and the second player's; it is asked again after
/// equal dice.
///
/// ```
/// use gammon_rules::{try_opening_roll, DiceError};
/// let mut pairs = [(4, 4), (2, 5)].into_iter();
/// let r = try_opening_roll(|| pairs.next().ok_or(DiceError::OutOfRange(0))).unwrap();
/// assert!(!r.first_player_starts);
/// assert_eq!(r.dice.to_string(), "52");
/// ```
///
/// # Errors
/// The error of `roll_pair`, or a die outside 1..=6.
pub fn try_opening_roll<E: From<DiceError>>(
    mut roll_pair: impl FnMut() -> Result<(u8, u8), E>,
) -> Result<OpeningRoll, E> {
    loop {
        let (a, b) = roll_pair()?;
        let dice = Dice::new(a, b)?;
        if a != b {
            return Ok(OpeningRoll { first_player_starts: a > b, dice });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_cover_all_36_outcomes() {
        assert_eq!(ALL_ROLLS.iter().map(|d| d.weight()).sum::<u32>(), 36);
        let total: f64 = ALL_ROLLS.iter().map(|d| d.probability()).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let names: Vec<String> = ALL_ROLLS.iter().map(ToString::to_string).collect();
        assert_eq!(names.join(" "), "11 21 22 31 32 33 41 42 43 44 51 52 53 54 55 61 62 63 64 65 66");
    }

    #[test]
    fn opening_roll_rerolls_ties() {
        let mut seq = [3u8, 3, 6, 6, 2, 5].into_iter();
        let r = opening_roll(|| seq.next().unwrap_or(1)).unwrap();
        assert!(!r.first_player_starts);
        assert_eq!(r.dice, Dice::new(5, 2).unwrap());
        assert!(opening_roll(|| 7).is_err());
    }

    #[test]
    fn a_fallible_opening_roll_stops_at_the_first_error_and_asks_again_after_ties() {
        // The ties are seen by the source, in order; the winner is the higher die.
        let mut pairs = [(6, 6), (1, 1), (3, 5)].into_iter();
        let mut asked = 0;
        let r = try_opening_roll(|| {
            asked += 1;
            pairs.next().ok_or(DiceError::OutOfRange(0))
        })
        .unwrap();
        assert_eq!((asked, r.first_player_starts, r.dice), (3, false, Dice::new(5, 3).unwrap()));
        // An error of the source ends the roll; so does a die out of range.
        let mut pairs = [(2, 2)].into_iter();
        assert_eq!(try_opening_roll(|| pairs.next().ok_or(DiceError::OutOfRange(9))), Err(DiceError::OutOfRange(9)));
        assert!(try_opening_roll(|| Ok::<_, DiceError>((0, 3))).is_err());
    }

    #[test]
    fn parse_dice() {
        assert_eq!("3-1".parse::<Dice>(), Dice::new(3, 1));
        assert!("37".parse::<Dice>().is_err());
        assert!("3".parse::<Dice>().is_err());
        assert!("".parse::<Dice>().is_err());
    }
}
