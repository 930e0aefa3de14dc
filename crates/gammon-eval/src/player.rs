//! An evaluator at the table: the move it chooses, as a game-loop player.

use crate::evaluator::Evaluator;
use gammon_rules::{Decision, Dice, Move, MoveList, Player, Position};

/// The move `evaluator` plays with `dice` in `pos` (side on roll), and the
/// position after it (seen by the opponent): the best by
/// [`Evaluator::best_move`], the only move without asking, `None` when no
/// checker can move. `list` is scratch space.
///
/// ```
/// use gammon_eval::{choose_move, pubeval::PubEval};
/// use gammon_rules::{Dice, MoveList, Position};
/// let mut list = MoveList::new();
/// let (m, _) = choose_move(&PubEval, &Position::STARTING, Dice::new(3, 1).unwrap(), &mut list).unwrap();
/// assert_eq!(Position::STARTING.format_move(&m), "8/5 6/5");
/// ```
pub fn choose_move<E: Evaluator + ?Sized>(
    evaluator: &E,
    pos: &Position,
    dice: Dice,
    list: &mut MoveList,
) -> Option<(Move, Position)> {
    list.generate(pos, dice);
    let i = match list.len() {
        0 => return None,
        1 => 0,
        _ => evaluator.best_move(pos, list.positions()),
    };
    // An evaluator answering out of range plays the first move.
    list.iter().nth(i).or_else(|| list.iter().next())
}

/// An evaluator as a [`Player`] of [`gammon_rules::play_game`]: it plays
/// the move [`Evaluator::best_move`] picks (cubeless, at its own depth).
#[derive(Clone, Copy)]
pub struct EvaluatorPlayer<'a>(pub &'a dyn Evaluator);

impl std::fmt::Debug for EvaluatorPlayer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("EvaluatorPlayer").field(&self.0.name()).finish()
    }
}

impl Player for EvaluatorPlayer<'_> {
    fn choose_move(&mut self, pos: &Position, _: Dice, moves: &MoveList) -> Decision<usize> {
        Ok(self.0.best_move(pos, moves.positions()))
    }
}
