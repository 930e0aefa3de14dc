//! A finished rollout with its settings and costs.

use crate::rollout::{MoveRollout, RolloutResult, RolloutSettings};
use gammon_rules::{Dice, Position};
use std::time::Duration;

/// What was rolled out and what came of it, from
/// [`Engine::rollout`](super::Engine::rollout).
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutReport {
    /// The position, player on roll.
    pub position: Position,
    /// The roll whose moves were rolled out (`None`: the position before the roll).
    pub dice: Option<Dice>,
    /// The settings used.
    pub settings: RolloutSettings,
    /// Worker threads of the rayon pool the rollout ran in (the result does
    /// not depend on them).
    pub threads: usize,
    /// The time it took.
    pub elapsed: Duration,
    /// With dice: the number of legal moves (more than were rolled out when
    /// [`RolloutSettings::candidates`] cut them).
    pub legal_moves: Option<usize>,
    /// The result.
    pub outcome: RolloutOutcome,
}

/// The result of a rollout: of the position, or of each candidate move.
#[derive(Debug, Clone, PartialEq)]
pub enum RolloutOutcome {
    /// The position before the roll.
    Position(Box<RolloutResult>),
    /// The candidate moves, best first (the pass when no checker can move).
    Moves(Vec<MoveRollout>),
}

impl RolloutReport {
    /// Games played (per move).
    pub fn trials(&self) -> u64 {
        match &self.outcome {
            RolloutOutcome::Position(r) => r.trials,
            RolloutOutcome::Moves(m) => m.first().map_or(0, |m| m.rollout.trials),
        }
    }

    /// Games played in all.
    pub fn games(&self) -> u64 {
        match &self.outcome {
            RolloutOutcome::Position(r) => r.trials,
            RolloutOutcome::Moves(m) => m.iter().map(|m| m.rollout.trials).sum(),
        }
    }

    /// True if the rollout stopped early at the target standard error.
    pub fn target_reached(&self) -> bool {
        match &self.outcome {
            RolloutOutcome::Position(r) => r.target_reached,
            RolloutOutcome::Moves(m) => m.first().is_some_and(|m| m.rollout.target_reached),
        }
    }

    /// True if the rollout was stopped (by its stop flag) before all its
    /// games: the result of the games played, in order, only.
    pub fn interrupted(&self) -> bool {
        match &self.outcome {
            RolloutOutcome::Position(r) => r.interrupted,
            RolloutOutcome::Moves(m) => m.first().is_some_and(|m| m.rollout.interrupted),
        }
    }

    /// Games played per second (0 when no time was measured).
    pub fn games_per_second(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            self.games() as f64 / seconds
        } else {
            0.0
        }
    }
}
