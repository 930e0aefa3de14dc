//! The end of a game and what it is worth.

use crate::position::{Position, BAR};

/// What a finished game is worth, before the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameResult {
    /// `SINGLE_GAME`: the loser has borne off at least one checker (1 point).
    Single = 1,
    /// `GAMMON`: the loser has borne off no checker (2 points).
    Gammon = 2,
    /// `BACKGAMMON`: a gammon, and the loser still has a checker on the bar or
    /// in the winner's home board (3 points).
    Backgammon = 3,
}

impl GameResult {
    /// Points won (times the cube).
    pub const fn points(self) -> u32 {
        self as u32
    }
}

impl Position {
    /// If the game is over, who won and how much: `Some((true, r))` if the
    /// player on roll has borne off all his checkers, `Some((false, r))` if
    /// the opponent has; `None` while both still have checkers.
    ///
    /// ```
    /// use gammon_rules::{GameResult, Position};
    /// assert_eq!(Position::STARTING.game_result(), None);
    /// // The side on roll lost: the opponent bore off, I still have all 15.
    /// let p = Position::from_position_id("AAAAAAAA/38AAA").unwrap();
    /// assert!(matches!(p.game_result(), Some((false, _))));
    /// ```
    pub fn game_result(&self) -> Option<(bool, GameResult)> {
        let (me, him) = self.checkers_in_play();
        if him == 0 {
            return Some((false, self.loser_result()));
        }
        if me == 0 {
            return Some((true, self.switched().loser_result()));
        }
        None
    }

    /// The value of a game won by the opponent, judged from my checkers (I lost).
    fn loser_result(&self) -> GameResult {
        if self.borne_off().0 > 0 {
            return GameResult::Single;
        }
        // The winner's home board is my points 19..=24; plus my bar.
        let in_winners_home = (19..=BAR).any(|p| self.my_checkers(p) > 0);
        if in_winners_home {
            GameResult::Backgammon
        } else {
            GameResult::Gammon
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(me: &[(usize, u8)], him: &[(usize, u8)]) -> Position {
        let mut a = [0u8; 25];
        let mut b = [0u8; 25];
        for &(p, n) in me {
            a[p - 1] = n;
        }
        for &(p, n) in him {
            b[p - 1] = n;
        }
        Position::from_boards(&a, &b).unwrap()
    }

    #[test]
    fn single_gammon_backgammon() {
        // Opponent has borne off everything; I have 14 checkers left.
        assert_eq!(pos(&[(6, 14)], &[]).game_result(), Some((false, GameResult::Single)));
        assert_eq!(pos(&[(6, 15)], &[]).game_result(), Some((false, GameResult::Gammon)));
        assert_eq!(pos(&[(6, 14), (19, 1)], &[]).game_result(), Some((false, GameResult::Backgammon)));
        assert_eq!(pos(&[(6, 14), (25, 1)], &[]).game_result(), Some((false, GameResult::Backgammon)));
        // I have borne off everything: judged from his checkers.
        // His 10-point is my 15-point; his 20-point is my 5-point, in my home board.
        assert_eq!(pos(&[], &[(10, 15)]).game_result(), Some((true, GameResult::Gammon)));
        assert_eq!(pos(&[], &[(20, 15)]).game_result(), Some((true, GameResult::Backgammon)));
        assert_eq!(pos(&[], &[(2, 14)]).game_result(), Some((true, GameResult::Single)));
        assert_eq!(GameResult::Backgammon.points(), 3);
    }
}
