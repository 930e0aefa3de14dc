//! The phase of a game: what kind of position the side on roll faces.
//!
//! The phase decides which evaluator part answers (exact result, bearoff
//! database, race net, crashed net, contact net) and, in the cube model, how
//! efficient the cube is; it is a property of the position alone, so it
//! lives here.

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
    /// Contact, and one side has crashed: few checkers left in play, the
    /// rest borne off or piled deep on its ace and deuce points
    /// ([`is_crashed`](PositionClass::is_crashed), gnubg's `CLASS_CRASHED`).
    /// Such positions play unlike ordinary contact (a side often cannot keep
    /// a point or a board), so gnubg gives them a net of their own.
    Crashed,
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
            if Self::is_crashed(pos) {
                PositionClass::Crashed
            } else {
                PositionClass::Contact
            }
        } else if pos.all_home() && pos.switched().all_home() {
            PositionClass::Bearoff
        } else {
            PositionClass::Race
        }
    }

    /// Whether either side of `pos` has crashed, as gnubg 1.07 decides it
    /// (`ClassifyPosition` in `eval.c`): with `n` checkers left in play (bar
    /// included), a side has crashed if `n <= 6`, or if the checkers beyond
    /// those piled on its ace point (more than one there) number at most 6,
    /// or the same with its deuce point (more than one there) too, counting
    /// one of them; with at most one checker on its ace point, if the checkers
    /// beyond all but one on its deuce point number at most 6. Meant for
    /// contact positions; [`PositionClass::of`] asks it only of those.
    pub const fn is_crashed(pos: &Position) -> bool {
        const N: u32 = 6;
        let (me, him) = pos.to_boards();
        Self::side_crashed(&me, N) || Self::side_crashed(&him, N)
    }

    const fn side_crashed(board: &[u8; 25], n: u32) -> bool {
        let mut total = 0u32;
        let mut i = 0;
        while i < 25 {
            total += board[i] as u32;
            i += 1;
        }
        let (ace, deuce) = (board[0] as u32, board[1] as u32);
        if total <= n {
            true
        } else if ace > 1 {
            total <= n + ace || (deuce > 1 && 1 + total - (ace + deuce) <= n)
        } else {
            // gnubg's unsigned `N + (board[1] - 1)`: with an empty deuce point
            // it wraps to `N - 1`, already covered by `total <= N`.
            deuce > 0 && total < n + deuce
        }
    }

    /// A one-word name: `finished`, `bearoff`, `race`, `crashed` or `contact`.
    pub const fn name(self) -> &'static str {
        match self {
            PositionClass::Finished => "finished",
            PositionClass::Bearoff => "bearoff",
            PositionClass::Race => "race",
            PositionClass::Crashed => "crashed",
            PositionClass::Contact => "contact",
        }
    }

    /// Contact of either kind: the checkers can still hit each other.
    pub const fn is_contact(self) -> bool {
        matches!(self, PositionClass::Crashed | PositionClass::Contact)
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
