//! The engine's cube play in a game against a human, one set of decisions
//! for the terminal (`gammon play`) and the web page (`/api/play`): when it
//! doubles, and how it answers a double, a beaver and a raccoon, at its
//! search depth. The front ends only call it.

use super::{pending_answer, Engine, EngineError, PendingAnswer};
use crate::cube::{CubeAnalysis, CubeState};
use gammon_eval::Evaluator;
use gammon_rules::{BeaverAnswer, CubeAnswer, DiceState, GameContext, Position, RaccoonAnswer};

/// The engine as a cube player at `plies` (gnubg's count). Every question
/// takes the position and context seen by the **doubler** (the side on
/// roll), as the cube analysis does; the pending cube action in the
/// context is set aside.
#[derive(Debug, Clone, Copy)]
pub struct CubePlayer<'a, E: Evaluator> {
    engine: &'a Engine<E>,
    plies: u8,
}

impl<'a, E: Evaluator> CubePlayer<'a, E> {
    /// The cube player of `engine` searching `plies` deep.
    pub const fn new(engine: &'a Engine<E>, plies: u8) -> Self {
        CubePlayer { engine, plies }
    }

    /// True if a double by the side on roll in `ctx` can gain anything:
    /// not the leader after the Crawford game, not a dead cube, not a cube
    /// the opponent owns. A front end offers the human the cube only then.
    pub fn double_matters(&self, ctx: &GameContext) -> bool {
        CubeState::from_context(ctx, self.engine.met()).is_ok_and(|s| s.no_double_reason().is_none())
    }

    /// The cube analysis of the doubler, before his roll.
    ///
    /// # Errors
    /// [`EngineError`] where the engine cannot decide (a match longer than
    /// its match equity table, a context the rules refuse).
    pub fn analysis(&self, pos: &Position, ctx: &GameContext) -> Result<CubeAnalysis, EngineError> {
        let before_roll = GameContext { dice: DiceState::ToRoll, ..*ctx };
        Ok(self.engine.decide_cube(pos, &before_roll, self.plies)?.analysis)
    }

    /// Does the engine, on roll before its roll, double? Only where a
    /// double matters and its analysis says double.
    ///
    /// # Errors
    /// See [`analysis`](Self::analysis).
    pub fn offers_double(&self, pos: &Position, ctx: &GameContext) -> Result<bool, EngineError> {
        if !self.double_matters(ctx) {
            return Ok(false);
        }
        Ok(self.analysis(pos, ctx)?.action.doubles())
    }

    /// The engine's answer to the double of the side on roll: take, pass,
    /// or beaver where `may_beaver` (the rules allow it) and the doubler is
    /// the underdog after a take ([`pending_answer`]).
    ///
    /// # Errors
    /// See [`analysis`](Self::analysis).
    pub fn answers_double(
        &self,
        pos: &Position,
        ctx: &GameContext,
        may_beaver: bool,
    ) -> Result<CubeAnswer, EngineError> {
        let ctx = GameContext { beaver: ctx.beaver && may_beaver, ..*ctx };
        let a = self.analysis(pos, &ctx)?;
        Ok(match pending_answer(&a, DiceState::Doubled) {
            Some(PendingAnswer::Double(CubeAnswer::Beaver)) if may_beaver => CubeAnswer::Beaver,
            Some(PendingAnswer::Double(CubeAnswer::Pass)) => CubeAnswer::Pass,
            _ => CubeAnswer::Take,
        })
    }

    /// The engine's answer, as the doubler, to a beaver of its double:
    /// accept, pass when that loses less ([`pending_answer`]), or raccoon
    /// where `may_raccoon` and the beaver was wrong (the double/take is
    /// worth more than nothing to the doubler: at eight times the cube it
    /// gains twice what it gains at four).
    ///
    /// # Errors
    /// See [`analysis`](Self::analysis).
    pub fn answers_beaver(
        &self,
        pos: &Position,
        ctx: &GameContext,
        may_raccoon: bool,
    ) -> Result<BeaverAnswer, EngineError> {
        let a = self.analysis(pos, ctx)?;
        if may_raccoon && a.double_take > 0.0 {
            return Ok(BeaverAnswer::Raccoon);
        }
        Ok(match pending_answer(&a, DiceState::Beavered) {
            Some(PendingAnswer::Beaver(answer)) => answer,
            _ => BeaverAnswer::Accept,
        })
    }

    /// The engine's answer, as the beaverer, to a raccoon: accept unless
    /// passing loses less ([`pending_answer`]).
    ///
    /// # Errors
    /// See [`analysis`](Self::analysis).
    pub fn answers_raccoon(&self, pos: &Position, ctx: &GameContext) -> Result<RaccoonAnswer, EngineError> {
        let a = self.analysis(pos, ctx)?;
        Ok(match pending_answer(&a, DiceState::Raccooned) {
            Some(PendingAnswer::Raccoon(answer)) => answer,
            _ => RaccoonAnswer::Accept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_eval::NetEvaluator;
    use gammon_rules::SideBoard;

    fn engine() -> Engine<NetEvaluator> {
        Engine::new(NetEvaluator::shipped().unwrap())
    }

    /// Money play with beavers, cube centred, before the roll.
    fn beavers() -> GameContext {
        GameContext { beaver: true, ..GameContext::money() }
    }

    #[test]
    fn at_the_start_nobody_doubles_and_a_double_is_beavered_where_allowed() {
        let e = engine();
        let player = CubePlayer::new(&e, 0);
        let start = Position::STARTING;
        assert!(!player.offers_double(&start, &beavers()).unwrap());
        // The doubler of the opening position is no favourite after a take.
        assert_eq!(player.answers_double(&start, &beavers(), true).unwrap(), CubeAnswer::Beaver);
        assert_eq!(player.answers_double(&start, &beavers(), false).unwrap(), CubeAnswer::Take);
        // Its own double beavered: it neither passes (losing twice the cube)
        // nor raccoons a beaver that was right.
        assert_eq!(player.answers_beaver(&start, &beavers(), true).unwrap(), BeaverAnswer::Accept);
    }

    #[test]
    fn far_ahead_in_the_race_it_doubles_its_double_is_passed_and_a_beaver_raccooned() {
        let e = engine();
        let player = CubePlayer::new(&e, 0);
        // Two checkers left on the ace point against fifteen on the opponent's
        // six point: the side on roll wins at once, a gammon likely.
        let mut me: SideBoard = [0; 25];
        me[0] = 2;
        let mut him: SideBoard = [0; 25];
        him[5] = 15;
        let pos = Position::from_boards(&me, &him).unwrap();
        let ctx = beavers();
        assert_eq!(player.answers_double(&pos, &ctx, true).unwrap(), CubeAnswer::Pass);
        assert_eq!(player.answers_beaver(&pos, &ctx, true).unwrap(), BeaverAnswer::Raccoon);
        assert_eq!(player.answers_beaver(&pos, &ctx, false).unwrap(), BeaverAnswer::Accept);
        assert_eq!(player.answers_raccoon(&pos, &ctx).unwrap(), RaccoonAnswer::Pass);
        // In the Crawford game no double matters.
        let crawford = GameContext { score: (0, 4), crawford: true, ..GameContext::new_match(5) };
        assert!(!player.double_matters(&crawford));
        assert!(!player.offers_double(&pos, &crawford).unwrap());
    }
}
