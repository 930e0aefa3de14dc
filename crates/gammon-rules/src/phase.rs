//! The phase of a game: what kind of position the side on roll faces.
//!
//! The phase decides which evaluator part answers (exact result, bearoff
//! database, race net, contact net) and, in the cube model, how efficient
//! the cube is; it is a property of the position alone, so it lives here.

use crate::position::Position;
use std::fmt;

/// The phase of a position, seen from the side on roll.
///
/// ```
/// use gammon_rules::{Position, PositionClass};
/// assert_eq!(PositionClass::of(&Position::STARTING), PositionClass::Contact);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionClass {
    /// The game is over: one side has borne off all its checkers.
    Finished,
    /// No contact and both sides have all checkers home: a bearoff.
    Bearoff,
    /// No contact, but not every checker is home yet: a race.
    Race,
    /// The checkers can still hit or block each other.
    Contact,
}

impl PositionClass {
    /// Classifies a position seen from the side on roll.
    pub const fn of(pos: &Position) -> Self {
        // A side with no checker left has won: the game is over.
        if pos.my_occupied() == 0 || pos.their_occupied() == 0 {
            PositionClass::Finished
        } else if pos.has_contact() {
            PositionClass::Contact
        } else if pos.all_home() && pos.switched().all_home() {
            PositionClass::Bearoff
        } else {
            PositionClass::Race
        }
    }

    /// A one-word name: `finished`, `bearoff`, `race` or `contact`.
    pub const fn name(self) -> &'static str {
        match self {
            PositionClass::Finished => "finished",
            PositionClass::Bearoff => "bearoff",
            PositionClass::Race => "race",
            PositionClass::Contact => "contact",
        }
    }
}

impl fmt::Display for PositionClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_of_known_positions() {
        assert_eq!(PositionClass::of(&Position::STARTING), PositionClass::Contact);
        // Both sides home, no contact.
        let bearoff = Position::from_position_id("AwAAEAEAAAAAAA").unwrap();
        assert_eq!(PositionClass::of(&bearoff), PositionClass::Bearoff);
        // The opponent has borne off everything.
        let over = Position::from_position_id("AAAAAAAA/38AAA").unwrap();
        assert_eq!(PositionClass::of(&over), PositionClass::Finished);
    }
}
