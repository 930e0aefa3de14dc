//! Typed errors of the rules crate.

use thiserror::Error;

/// A board that cannot exist.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// More than 15 checkers for one side on the board and bar.
    #[error("the {side} has {count} checkers on the board and bar; at most 15 are allowed")]
    TooManyCheckers {
        /// Which side.
        side: &'static str,
        /// How many were found.
        count: u32,
    },
    /// Checkers of both colours on one point.
    #[error("both sides have checkers on point {point} (numbered for the player on roll)")]
    SharedPoint {
        /// The point, in the numbering of the player on roll.
        point: u8,
    },
    /// Neither side has a checker left: both cannot have borne off.
    #[error("neither side has a checker left on the board")]
    BothSidesOff,
}

/// A malformed gnubg Position ID.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionIdError {
    /// Not 14 characters.
    #[error("a Position ID has 14 characters, this one has {0}")]
    Length(usize),
    /// A character outside the Base64 alphabet.
    #[error("character {0:?} is not in the Base64 alphabet (A-Z a-z 0-9 + /)")]
    Character(char),
    /// The bits do not describe 2 x 25 checker counts within 80 bits.
    #[error("the bits do not describe a board: {0}")]
    Bits(&'static str),
    /// The board described is impossible.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Dice that are not two numbers from 1 to 6.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceError {
    /// A die outside 1..=6.
    #[error("a die shows 1 to 6, not {0}")]
    OutOfRange(u8),
    /// Text that is not two digits.
    #[error("dice are written as two digits 1-6, like 31 or 66, not {}", crate::quote(.0))]
    Syntax(String),
}
