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
        let (me, him) = pos.checkers_in_play();
        // His ace and deuce points are my 24 and 23.
        Self::side_crashed(me as u32, pos.my_checkers(1) as u32, pos.my_checkers(2) as u32, N)
            || Self::side_crashed(him as u32, pos.their_checkers(24) as u32, pos.their_checkers(23) as u32, N)
    }

    /// gnubg's test for one side with `total` checkers in play, `ace` on
    /// its ace point and `deuce` on its deuce point.
    const fn side_crashed(total: u32, ace: u32, deuce: u32, n: u32) -> bool {
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

    /// gnubg's `ClassifyPosition` test written over its own board arrays,
    /// as `eval.c` does: the reference for the mask-based version.
    fn crashed_on_boards(pos: &Position) -> bool {
        let side = |board: &[u8; 25]| {
            let total: u32 = board.iter().map(|&n| u32::from(n)).sum();
            let (ace, deuce) = (u32::from(board[0]), u32::from(board[1]));
            if total <= 6 {
                true
            } else if ace > 1 {
                total <= 6 + ace || (deuce > 1 && 1 + total - (ace + deuce) <= 6)
            } else {
                deuce > 0 && total < 6 + deuce
            }
        };
        let (me, him) = pos.to_boards();
        side(&me) || side(&him)
    }

    #[test]
    fn crashed_agrees_with_the_board_array_reference() {
        // Positions along random games, which reach crashed boards near their ends.
        let (mut crashed, mut seen) = (0, 0);
        crate::random_games::along_random_games(11, 300, |pos| {
            assert_eq!(PositionClass::is_crashed(pos), crashed_on_boards(pos), "{}", pos.to_position_id());
            seen += 1;
            crashed += usize::from(crashed_on_boards(pos));
        });
        assert!(crashed > 1_000 && seen - crashed > 1_000, "{crashed} crashed of {seen}");
    }
}
