//! The five cumulative outcome probabilities and the cubeless equity.

use gammon_rules::{GameResult, Position};

/// Number of a net's outputs: win, win gammon, win backgammon, lose gammon,
/// lose backgammon. Here rather than in `mlp.rs` so that the vector kernels
/// (`simd.rs`), which `mlp.rs` calls, need not import `mlp.rs` back.
pub const OUTPUTS: usize = 5;

/// Outcome probabilities for the player on roll, cumulative as gnubg's:
/// gammons include backgammons, and a win includes gammon wins.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Probabilities {
    /// P(win).
    pub win: f32,
    /// P(win a gammon or backgammon).
    pub win_gammon: f32,
    /// P(win a backgammon).
    pub win_backgammon: f32,
    /// P(lose a gammon or backgammon).
    pub lose_gammon: f32,
    /// P(lose a backgammon).
    pub lose_backgammon: f32,
}

impl Probabilities {
    /// From the five outputs in the order win, win gammon, win backgammon,
    /// lose gammon, lose backgammon.
    pub const fn from_array(a: [f32; 5]) -> Self {
        Probabilities { win: a[0], win_gammon: a[1], win_backgammon: a[2], lose_gammon: a[3], lose_backgammon: a[4] }
    }

    /// The five outputs in the order of [`from_array`](Self::from_array).
    pub const fn to_array(self) -> [f32; 5] {
        [self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon]
    }

    /// Cubeless money equity: `2 P(win) - 1 + (Wg - Lg) + (Wbg - Lbg)`.
    ///
    /// ```
    /// use gammon_eval::Probabilities;
    /// let p = Probabilities::from_array([0.5, 0.1, 0.0, 0.1, 0.0]);
    /// assert_eq!(p.equity(), 0.0);
    /// ```
    pub fn equity(self) -> f32 {
        2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon + self.win_backgammon - self.lose_backgammon
    }

    /// The same probabilities seen by the other side.
    #[must_use]
    pub fn inverted(self) -> Self {
        Probabilities {
            win: 1.0 - self.win,
            win_gammon: self.lose_gammon,
            win_backgammon: self.lose_backgammon,
            lose_gammon: self.win_gammon,
            lose_backgammon: self.win_backgammon,
        }
    }

    /// Clamps to a consistent set: each value in [0, 1], backgammon <= gammon
    /// <= win on both sides.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let win = self.win.clamp(0.0, 1.0);
        let win_gammon = self.win_gammon.clamp(0.0, win);
        let win_backgammon = self.win_backgammon.clamp(0.0, win_gammon);
        let lose_gammon = self.lose_gammon.clamp(0.0, 1.0 - win);
        let lose_backgammon = self.lose_backgammon.clamp(0.0, lose_gammon);
        Probabilities { win, win_gammon, win_backgammon, lose_gammon, lose_backgammon }
    }

    /// The exact value of a finished game for the side who won (`won`) or lost.
    pub fn of_result(won: bool, result: GameResult) -> Self {
        let g = if result >= GameResult::Gammon { 1.0 } else { 0.0 };
        let bg = if result >= GameResult::Backgammon { 1.0 } else { 0.0 };
        let winner =
            Probabilities { win: 1.0, win_gammon: g, win_backgammon: bg, lose_gammon: 0.0, lose_backgammon: 0.0 };
        if won {
            winner
        } else {
            winner.inverted()
        }
    }

    /// The exact value of `pos` if the game is over, for the side on roll.
    pub fn of_finished(pos: &Position) -> Option<Self> {
        pos.game_result().map(|(won, result)| Self::of_result(won, result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inversion_is_an_involution_and_negates_equity() {
        let p = Probabilities::from_array([0.6, 0.2, 0.05, 0.1, 0.01]);
        assert_eq!(p.inverted().inverted(), p);
        assert!((p.inverted().equity() + p.equity()).abs() < 1e-6);
    }

    #[test]
    fn results_have_their_value() {
        assert_eq!(Probabilities::of_result(true, GameResult::Backgammon).equity(), 3.0);
        assert_eq!(Probabilities::of_result(false, GameResult::Gammon).equity(), -2.0);
        assert_eq!(Probabilities::of_result(false, GameResult::Single).equity(), -1.0);
    }

    #[test]
    fn sanitize_orders_the_outputs() {
        let p = Probabilities::from_array([1.2, 0.9, 0.95, 0.5, 0.7]).sanitized();
        assert!(p.win <= 1.0 && p.win_backgammon <= p.win_gammon && p.win_gammon <= p.win);
        assert!(p.lose_backgammon <= p.lose_gammon && p.lose_gammon <= 1.0 - p.win);
    }
}
