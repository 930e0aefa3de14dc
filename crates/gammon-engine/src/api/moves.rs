//! The legal moves of a roll, and the engine's choice among them.

use super::EngineError;
use gammon_rules::{Dice, Move, Position, StepNode};

/// Every legal move of a position for a roll, from [`legal_moves`].
#[derive(Debug, Clone, PartialEq)]
pub struct LegalMoves {
    /// The position, player on roll to move.
    pub position: Position,
    /// The roll.
    pub dice: Dice,
    /// How many dice every legal move uses (0 when no checker can move).
    pub dice_used: u8,
    /// The moves in the generator's order, one per distinct result.
    pub moves: Vec<LegalMove>,
}

/// One legal move and where it leads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegalMove {
    /// The move (gnubg notation: `position.format_move(&mv)`).
    pub mv: Move,
    /// The position after it, seen by the opponent (now on roll).
    pub result: Position,
}

/// Every legal move of `position` (player on roll) for `dice`; an empty
/// list when no checker can move. Needs no evaluator.
///
/// # Errors
/// [`EngineError::GameOver`] if the game is over in `position`.
///
/// ```
/// use gammon_engine::api::legal_moves;
/// use gammon_rules::{Dice, Position};
/// let moves = legal_moves(&Position::STARTING, Dice::new(3, 1).unwrap()).unwrap();
/// assert_eq!(moves.moves.len(), 16);
/// assert_eq!(moves.dice_used, 2);
/// ```
pub fn legal_moves(position: &Position, dice: Dice) -> Result<LegalMoves, EngineError> {
    if position.game_result().is_some() {
        return Err(EngineError::GameOver);
    }
    let list = position.legal_moves(dice);
    Ok(LegalMoves {
        position: *position,
        dice,
        dice_used: list.dice_used(),
        moves: list.iter().map(|(mv, result)| LegalMove { mv, result }).collect(),
    })
}

impl LegalMoves {
    /// Every order in which the moves can be played one die at a time, as a
    /// graph of partial plays ([`Position::step_graph`]): what a client
    /// taking moves by clicks matches them against.
    pub fn step_graph(&self) -> Vec<StepNode> {
        self.position.step_graph(self.dice, self.dice_used, self.moves.iter().map(|m| (m.mv, m.result)))
    }
}

/// The move the engine plays, from [`Engine::choose_move`](super::Engine::choose_move).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChosenMove {
    /// The move; [`Move::NONE`] when no checker can move (the turn passes).
    pub mv: Move,
    /// The position after it, seen by the opponent (now on roll).
    pub result: Position,
    /// How many legal moves there were to choose from (0: a pass, 1: forced).
    pub choices: usize,
}

impl ChosenMove {
    /// True when no checker could move and the turn passes.
    pub fn is_pass(&self) -> bool {
        self.mv.is_empty()
    }
}
