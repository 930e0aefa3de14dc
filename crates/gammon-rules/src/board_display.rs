//! An ASCII board in the style of gnubg's `show board`.
//!
//! The player on roll is `X` and plays from the bottom: his points 1..12
//! along the bottom edge (1 at the right), 13..24 along the top. The
//! opponent is `O`. A column shows up to five checkers; a taller stack shows
//! its count in the fifth row.

use crate::position::{Position, BAR, OFF};
use std::fmt;

const ROWS: usize = 5;

fn cell(count: u8, row: usize, symbol: char) -> String {
    let n = usize::from(count);
    if n == 0 || row >= n.min(ROWS) {
        return "   ".to_string();
    }
    if row == ROWS - 1 && n > ROWS {
        return format!("{n:>2} ");
    }
    format!(" {symbol} ")
}

impl Position {
    /// The board as text, with Position ID, pip counts and who is on roll.
    ///
    /// ```
    /// use gammon_rules::Position;
    /// let text = Position::STARTING.board_diagram();
    /// assert!(text.contains("Position ID: 4HPwATDgc/ABMA"));
    /// assert!(text.contains("Pip counts: X 167, O 167"));
    /// ```
    pub fn board_diagram(&self) -> String {
        // (count, symbol) on each of my points 1..=24.
        let at = |p: usize| -> (u8, char) {
            let mine = self.my_checkers(p);
            if mine > 0 {
                (mine, 'X')
            } else {
                (self.their_checkers(p), 'O')
            }
        };
        let (my_pips, his_pips) = self.pip_count();
        let (my_off, his_off) = self.borne_off();
        let mut out = String::new();
        out.push_str(&format!(" Position ID: {}\n", self.to_position_id()));
        out.push_str(" +13-14-15-16-17-18------19-20-21-22-23-24-+\n");
        let half = |out: &mut String, points: [usize; 12], row: usize, bar: (u8, char)| {
            out.push_str(" |");
            for (i, &p) in points.iter().enumerate() {
                let (n, c) = at(p);
                out.push_str(&cell(n, row, c));
                if i == 5 {
                    out.push('|');
                    out.push_str(&cell(bar.0, row, bar.1));
                    out.push('|');
                }
            }
            out.push('|');
        };
        let top: [usize; 12] = [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24];
        let bottom: [usize; 12] = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
        for row in 0..ROWS {
            // The opponent's bar checkers sit in the top half of the bar.
            half(&mut out, top, row, (self.their_checkers(OFF), 'O'));
            if row == 0 {
                out.push_str(&format!("  O: {his_off} off"));
            }
            out.push('\n');
        }
        out.push_str("v|                  |BAR|                  |\n");
        for row in (0..ROWS).rev() {
            half(&mut out, bottom, row, (self.my_checkers(BAR), 'X'));
            if row == 0 {
                out.push_str(&format!("  X: {my_off} off"));
            }
            out.push('\n');
        }
        out.push_str(" +12-11-10--9--8--7-------6--5--4--3--2--1-+\n");
        out.push_str(&format!(" Pip counts: X {my_pips}, O {his_pips}\n"));
        out.push_str(" X (bottom) is on roll and moves from 24 down to 1\n");
        out
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board_diagram())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tall_stacks_show_their_count() {
        let mut me = [0u8; 25];
        me[5] = 9;
        me[24] = 1;
        let mut him = [0u8; 25];
        him[0] = 1;
        let p = Position::from_boards(&me, &him).unwrap();
        let text = p.board_diagram();
        assert!(text.contains(" 9 "), "{text}");
        assert!(text.contains("X: 5 off"), "{text}");
        assert!(text.contains("O: 14 off"), "{text}");
        assert_eq!(text.lines().count(), 16);
    }
}
