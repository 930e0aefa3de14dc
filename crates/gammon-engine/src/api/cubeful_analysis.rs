//! The moves of a roll ranked by cubeful equity in a game context (the cube
//! and the score), as gnubg analyses them by default.

use crate::search::SearchStats;
use gammon_eval::Probabilities;
use gammon_rules::{Dice, GameContext, Move, Position};
use std::time::Duration;

/// One legal move valued by its cubeful equity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubefulMove {
    /// The move.
    pub mv: Move,
    /// The position after it, seen by the opponent (now on roll).
    pub result: Position,
    /// Cubeless probabilities for the mover at `plies`.
    pub probabilities: Probabilities,
    /// Cubeful equity for the mover, normalised: money per unit of the
    /// cube, in a match the equivalent-to-money equity (EMG) of `mwc`.
    pub equity: f64,
    /// The mover's match winning chances (`None` in money play).
    pub mwc: Option<f64>,
    /// Equity below the best move (0 for the best).
    pub loss: f64,
    /// The depth the move was valued at (moves dropped by the move filter
    /// carry the depth they reached).
    pub plies: u8,
}

/// Every legal move of a roll ranked best first by cubeful equity, from
/// [`Engine::analyse_roll_in_context`](super::Engine::analyse_roll_in_context).
#[derive(Debug, Clone, PartialEq)]
pub struct CubefulRollAnalysis {
    /// The position, player on roll to move.
    pub position: Position,
    /// The roll.
    pub dice: Dice,
    /// The cube and the score the moves were valued in.
    pub context: GameContext,
    /// The depth asked for.
    pub plies: u8,
    /// The evaluator's name.
    pub evaluator: String,
    /// The match equity table's name.
    pub met: String,
    /// Every legal move, best first; empty when no checker can move.
    pub moves: Vec<CubefulMove>,
    /// The search's work during the analysis.
    pub stats: SearchStats,
    /// The time the analysis took.
    pub elapsed: Duration,
}

impl CubefulRollAnalysis {
    /// The ranked move whose result is `result`, if it is legal here.
    pub fn find(&self, result: &Position) -> Option<&CubefulMove> {
        self.moves.iter().find(|m| m.result == *result)
    }

    /// True in a match, where `mwc` is given.
    pub fn is_match(&self) -> bool {
        !self.context.is_money()
    }
}
