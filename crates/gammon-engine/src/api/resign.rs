//! The answer to a resignation, as gnubg gives it: accept when what is
//! offered is worth at least what playing on is expected to bring.
//!
//! gnubg (`getResignEquities`, and the computer's answer in `play.c`)
//! compares the resigner's equity after the resignation with his equity
//! playing on, and accepts unless the resignation would cost the acceptor
//! more than 1e-6. The resignation is valued as a game lost by that much
//! (single, gammon, backgammon times the cube; a gammon counts single under
//! the Jacoby rule while the cube is centred); in a match as the match
//! winning chances after those points at this score, so the Crawford and
//! post-Crawford games count as the match equity table has them. A
//! resignation offered after the roll is judged after the resigner's best
//! move for that roll, with the acceptor on roll. gnubg values playing on
//! by its 0-ply cubeless evaluation; here it is the engine's cubeful value
//! (Janowski's model, the cube's owner, the score) at the depth asked, or
//! the cubeless one where no cube is played.

use super::{Engine, EngineError};
use crate::cube::{analyse_state_nply, CubeAnalysis, CubeState, Stakes};
use gammon_eval::Evaluator;
use gammon_rules::{CubeOwner, DiceState, GameContext, GameResult, Position};

/// gnubg's `max_gain`: a resignation is accepted unless it is worth this
/// much less than playing on.
pub const RESIGNATION_TOLERANCE: f64 = 1e-6;

/// What the values of a [`ResignationAnswer`] are counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResignationUnit {
    /// Money play: points won by the acceptor (negative: lost).
    Points,
    /// Match play: the acceptor's match winning chances, 0 to 1.
    MatchWinningChances,
}

/// Whether the game is played with the doubling cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeUse {
    /// The cube is in play: playing on is valued cubefully.
    Cubeful,
    /// No cube: playing on is valued by the cubeless evaluation.
    Cubeless,
}

/// The engine's answer to a resignation, from
/// [`Engine::answers_resignation`]. Both values are the acceptor's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResignationAnswer {
    /// What was offered.
    pub offered: GameResult,
    /// The resignation is accepted.
    pub accept: bool,
    /// What accepting is worth.
    pub offered_value: f64,
    /// What playing on is worth.
    pub play_on_value: f64,
    /// The unit of both values.
    pub unit: ResignationUnit,
    /// The depth of the evaluation of playing on, counted as gnubg counts.
    pub plies: u8,
    /// Cubeful or cubeless valuation.
    pub cube: CubeUse,
}

impl<E: Evaluator> Engine<E> {
    /// The answer of the opponent of the player on roll in `position`, in
    /// `context`, to his offer to resign `offered`. With `Rolled` dice in
    /// the context the offer comes after the roll; a pending cube action
    /// is set aside (the offer is judged before the roll, as
    /// [`CubeQuestion`](super::CubeQuestion) judges a cube decision).
    ///
    /// # Errors
    /// [`EngineError::GameOver`] for a finished game, [`EngineError::Cube`]
    /// for a context that breaks the rules or a match longer than the
    /// engine's match equity table.
    pub fn answers_resignation(
        &self,
        position: &Position,
        context: &GameContext,
        offered: GameResult,
        plies: u8,
        cube: CubeUse,
    ) -> Result<ResignationAnswer, EngineError> {
        if position.game_result().is_some() {
            return Err(EngineError::GameOver);
        }
        let before_roll = GameContext { dice: DiceState::ToRoll, ..*context };
        let state = CubeState::from_context(&before_roll, &self.met)?;
        // The acceptor's side of the stakes.
        let acceptor = state.switched();
        let offered_value = self.game_value(&acceptor, offered, cube, true);
        let play_on_value = match context.dice {
            DiceState::Rolled(dice) => {
                let after = self.choose_move(position, dice, plies)?.result;
                match after.game_result() {
                    // The resigner bore off his last checker with this roll.
                    Some((_, result)) => self.game_value(&acceptor, result, cube, false),
                    None => {
                        let a = analyse_state_nply(&self.search, &after, &acceptor, &self.met, plies)?;
                        value_on_roll(&a, &acceptor, cube)
                    }
                }
            }
            _ => {
                let a = analyse_state_nply(&self.search, position, &state, &self.met, plies)?;
                opposite(value_on_roll(&a, &state, cube), &state)
            }
        };
        Ok(ResignationAnswer {
            offered,
            accept: offered_value >= play_on_value - RESIGNATION_TOLERANCE,
            offered_value,
            play_on_value,
            unit: unit_of(&state),
            plies,
            cube,
        })
    }

    /// What the side seen by `state` gets when he wins (`won`) or loses
    /// `result` now: points in money play, match winning chances in a match.
    fn game_value(&self, state: &CubeState, result: GameResult, cube: CubeUse, won: bool) -> f64 {
        let jacoby = matches!(state.stakes, Stakes::Money { jacoby: true, .. })
            && state.owner == CubeOwner::Centered
            && cube == CubeUse::Cubeful;
        let points = if jacoby { state.cube } else { result.points().saturating_mul(state.cube) };
        match state.stakes {
            Stakes::Money { .. } if won => f64::from(points),
            Stakes::Money { .. } => -f64::from(points),
            Stakes::Match { away, crawford, .. } => self.met.mwc_after(away, crawford, points, won),
        }
    }
}

/// The value of the game for the side on roll in `a`, seen by `state`.
fn value_on_roll(a: &CubeAnalysis, state: &CubeState, cube: CubeUse) -> f64 {
    match (state.stakes, cube) {
        (Stakes::Money { .. }, CubeUse::Cubeful) => a.best() * f64::from(state.cube),
        (Stakes::Money { .. }, CubeUse::Cubeless) => a.cubeless_equity * f64::from(state.cube),
        (Stakes::Match { .. }, CubeUse::Cubeful) => a.best_mwc().unwrap_or(0.5),
        (Stakes::Match { .. }, CubeUse::Cubeless) => a.match_chances.map_or(0.5, |m| m.cubeless),
    }
}

/// The opponent's side of a value: minus the points, or the rest of the
/// match winning chances.
fn opposite(value: f64, state: &CubeState) -> f64 {
    match state.stakes {
        Stakes::Money { .. } => -value,
        Stakes::Match { .. } => 1.0 - value,
    }
}

const fn unit_of(state: &CubeState) -> ResignationUnit {
    match state.stakes {
        Stakes::Money { .. } => ResignationUnit::Points,
        Stakes::Match { .. } => ResignationUnit::MatchWinningChances,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::met::Met;
    use gammon_eval::NetEvaluator;
    use gammon_rules::Dice;

    fn engine() -> Engine<NetEvaluator> {
        Engine::new(NetEvaluator::shipped().unwrap())
    }

    /// The resigner (on roll) and the acceptor: `(point, checkers)` each in
    /// his own numbering.
    fn pos(resigner: &[(usize, u8)], acceptor: &[(usize, u8)]) -> Position {
        let board = |list: &[(usize, u8)]| {
            let mut b = [0u8; 25];
            for &(point, n) in list {
                b[point - 1] = n;
            }
            b
        };
        Position::from_boards(&board(resigner), &board(acceptor)).unwrap()
    }

    /// The resigner has all 15 on his midpoint; the acceptor's last checker
    /// is on his 1-point, out of reach: the acceptor wins a gammon next
    /// turn whatever happens, never a backgammon.
    fn certain_gammon() -> Position {
        pos(&[(13, 15)], &[(1, 1)])
    }

    /// The resigner's 15 are on his 20-point, in the acceptor's home board,
    /// and at most four can leave it in one roll: a certain backgammon.
    fn certain_backgammon() -> Position {
        pos(&[(20, 15)], &[(1, 1)])
    }

    fn answer(p: &Position, ctx: &GameContext, offered: GameResult, plies: u8) -> ResignationAnswer {
        engine().answers_resignation(p, ctx, offered, plies, CubeUse::Cubeful).unwrap()
    }

    #[test]
    fn a_certain_gammon_declines_a_single_and_accepts_a_gammon() {
        let money = GameContext::money();
        for plies in [0, 1] {
            let single = answer(&certain_gammon(), &money, GameResult::Single, plies);
            assert!(!single.accept, "{single:?}");
            assert_eq!((single.offered_value, single.unit, single.plies), (1.0, ResignationUnit::Points, plies));
            assert!(single.play_on_value > 1.9, "{single:?}");
            let gammon = answer(&certain_gammon(), &money, GameResult::Gammon, plies);
            assert!(gammon.accept && gammon.offered_value == 2.0, "{gammon:?}");
            assert!(answer(&certain_gammon(), &money, GameResult::Backgammon, plies).accept);
        }
        // With the cube at 2 owned by the acceptor, everything doubles.
        let cube2 = GameContext { cube_value: 2, cube_owner: CubeOwner::Opponent, ..money };
        let single = answer(&certain_gammon(), &cube2, GameResult::Single, 0);
        assert!(!single.accept && single.offered_value == 2.0 && single.play_on_value > 3.8, "{single:?}");
        assert!(answer(&certain_gammon(), &cube2, GameResult::Gammon, 0).accept);
        // Without the cube the same.
        let cubeless =
            engine().answers_resignation(&certain_gammon(), &money, GameResult::Single, 0, CubeUse::Cubeless);
        assert!(!cubeless.unwrap().accept);
    }

    #[test]
    fn a_certain_backgammon_declines_a_gammon() {
        let money = GameContext::money();
        let gammon = answer(&certain_backgammon(), &money, GameResult::Gammon, 0);
        assert!(!gammon.accept && gammon.play_on_value > 2.9, "{gammon:?}");
        assert!(answer(&certain_backgammon(), &money, GameResult::Backgammon, 0).accept);
    }

    #[test]
    fn jacoby_makes_a_single_enough_while_the_cube_is_centred() {
        // A gammon counts single: the acceptor can only cash 1 point (he
        // may double to make gammons count, and the resigner passes).
        let jacoby = GameContext { jacoby: true, ..GameContext::money() };
        let single = answer(&certain_gammon(), &jacoby, GameResult::Single, 0);
        assert!(single.accept, "{single:?}");
        let gammon = answer(&certain_gammon(), &jacoby, GameResult::Gammon, 0);
        assert_eq!(gammon.offered_value, 1.0);
    }

    #[test]
    fn a_single_at_the_start_is_accepted() {
        let a = answer(&Position::STARTING, &GameContext::money(), GameResult::Single, 0);
        assert!(a.accept && a.play_on_value.abs() < 0.3, "{a:?}");
    }

    #[test]
    fn in_a_match_the_offer_is_the_match_winning_chances_after_it() {
        let met = Met::kazaross_xg2();
        // 5-point match, resigner 0, acceptor 2 (3-away).
        let ctx = GameContext { score: (0, 2), ..GameContext::new_match(5) };
        let single = answer(&certain_gammon(), &ctx, GameResult::Single, 0);
        assert_eq!(single.unit, ResignationUnit::MatchWinningChances);
        // One point: 2-away against 5-away.
        assert_eq!(single.offered_value, met.mwc(2, 5));
        assert!(!single.accept, "{single:?}");
        // Two points: 1-away, and the next game is the Crawford game.
        let gammon = answer(&certain_gammon(), &ctx, GameResult::Gammon, 0);
        assert_eq!(gammon.offered_value, met.mwc(1, 5));
        assert!(gammon.accept, "{gammon:?}");
        // The acceptor one point away: any resignation wins him the match.
        let crawford = GameContext { score: (0, 4), crawford: true, ..GameContext::new_match(5) };
        let a = answer(&Position::STARTING, &crawford, GameResult::Single, 0);
        assert!(a.accept && a.offered_value == 1.0, "{a:?}");
        // Post-Crawford, the trailer's resigned single at 2 wins the leader the match.
        let post =
            GameContext { score: (3, 4), cube_value: 2, cube_owner: CubeOwner::Opponent, ..GameContext::new_match(5) };
        assert_eq!(answer(&Position::STARTING, &post, GameResult::Single, 0).offered_value, 1.0);
    }

    #[test]
    fn after_the_roll_the_resigners_move_is_played_first() {
        let rolled = |d: Dice| GameContext { dice: DiceState::Rolled(d), ..GameContext::money() };
        let d66 = Dice::new(6, 6).unwrap();
        assert!(!answer(&certain_gammon(), &rolled(d66), GameResult::Single, 0).accept);
        assert!(answer(&certain_gammon(), &rolled(d66), GameResult::Gammon, 0).accept);
        // The resigner bears off his last checker with this roll: he wins a
        // gammon, so any resignation is a gift.
        let winning = pos(&[(1, 1)], &[(13, 15)]);
        let a = answer(&winning, &rolled(Dice::new(2, 1).unwrap()), GameResult::Single, 0);
        assert!(a.accept && a.play_on_value == -2.0, "{a:?}");
        // A finished game has nothing to resign.
        let over = pos(&[(1, 1)], &[]);
        let err = engine().answers_resignation(&over, &GameContext::money(), GameResult::Single, 0, CubeUse::Cubeful);
        assert_eq!(err, Err(EngineError::GameOver));
    }
}
