//! The two players of a game or a match, named by seat rather than by who
//! is on roll: the game loop, the match score and the Match ID all use it.

/// One of the two players of a game or match, whoever is on roll (gnubg's
/// player 0 or 1 in a Match ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// gnubg's player 0.
    Zero,
    /// gnubg's player 1.
    One,
}

impl Seat {
    /// The other player.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Seat::Zero => Seat::One,
            Seat::One => Seat::Zero,
        }
    }

    /// 0 or 1.
    pub const fn index(self) -> usize {
        match self {
            Seat::Zero => 0,
            Seat::One => 1,
        }
    }

    /// Seat Zero for an even bit, One for an odd one (the Match ID's
    /// player bits).
    pub(crate) const fn from_bit(bit: u64) -> Self {
        if bit & 1 == 0 {
            Seat::Zero
        } else {
            Seat::One
        }
    }
}
