//! The evaluation of a position and the ranked moves of a roll.

use crate::search::{RankedMove, SearchStats};
use gammon_eval::{PositionClass, Probabilities};
use gammon_rules::{Dice, Position};
use std::time::Duration;

/// A position valued before the roll, from [`Engine::evaluate`](super::Engine::evaluate).
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The position, player on roll before rolling.
    pub position: Position,
    /// The depth, counted as gnubg counts (0 = static evaluation).
    pub plies: u8,
    /// The evaluator's name.
    pub evaluator: String,
    /// Which part of the evaluator answers for the position (finished games
    /// and bearoff databases are exact and not searched).
    pub class: PositionClass,
    /// The chances of the player on roll.
    pub probabilities: Probabilities,
}

impl Evaluation {
    /// True when the value is exact, the same at every depth (a finished
    /// game, a bearoff database position).
    pub fn is_exact(&self) -> bool {
        matches!(self.class, PositionClass::Finished | PositionClass::Bearoff)
    }
}

/// The legal moves of a roll ranked best first, from
/// [`Engine::analyse_roll`](super::Engine::analyse_roll).
#[derive(Debug, Clone, PartialEq)]
pub struct RollAnalysis {
    /// The position, player on roll to move.
    pub position: Position,
    /// The roll.
    pub dice: Dice,
    /// The depth asked for (moves dropped by the move filter carry the depth
    /// they reached).
    pub plies: u8,
    /// The evaluator's name.
    pub evaluator: String,
    /// Every legal move, best first; empty when no checker can move.
    pub moves: Vec<RankedMove>,
    /// The search's work during the analysis.
    pub stats: SearchStats,
    /// The time the analysis took.
    pub elapsed: Duration,
}
