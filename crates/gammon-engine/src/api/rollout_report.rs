//! A finished rollout with its settings and costs.

use crate::cube::{CubeState, Stakes};
use crate::met::Met;
use crate::rollout::{match_chances, Estimate, MoveRollout, RolloutResult, RolloutSettings};
use gammon_rules::{Dice, GameContext, Position};
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
    /// In a match: the score and cube it was rolled out at, and how its
    /// results read as match winning chances and normalised equity.
    pub match_units: Option<MatchUnits>,
}

/// How a match rollout's results read: its trials sum `2 × MWC − 1` of the
/// player on roll (of the mover, for moves); normalised equity (EMG) is the
/// equity whose ±1 are winning and losing the cube's points at the score,
/// gnubg's `mwc2eq`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchUnits {
    /// The match context rolled out (before the roll).
    pub context: GameContext,
    /// EMG = `factor × MWC + offset` at that score and cube.
    factor: f64,
    offset: f64,
}

impl MatchUnits {
    /// The units of a rollout at the match cube state `state` (`None` in
    /// money play).
    pub fn new(context: &GameContext, state: &CubeState, met: &Met) -> Option<Self> {
        let Stakes::Match { away, crawford, .. } = state.stakes else { return None };
        let offset = met.mwc2eq(0.0, state.cube, away, crawford);
        let factor = met.mwc2eq(1.0, state.cube, away, crawford) - offset;
        Some(MatchUnits { context: *context, factor, offset })
    }

    /// The match winning chances of a result's cubeful estimate.
    pub fn mwc(&self, cubeful: &Estimate) -> Estimate {
        match_chances(cubeful)
    }

    /// Its normalised equity (EMG).
    pub fn emg(&self, cubeful: &Estimate) -> Estimate {
        self.emg_of_mwc(&self.mwc(cubeful))
    }

    /// The normalised equity (EMG) of match winning chances.
    pub fn emg_of_mwc(&self, mwc: &Estimate) -> Estimate {
        mwc.linear(self.factor, self.offset)
    }

    /// A difference of match winning chances as a difference of EMG.
    pub fn emg_difference(&self, mwc: &Estimate) -> Estimate {
        mwc.linear(self.factor, 0.0)
    }

    /// A difference between two moves' cubeful estimates in match winning
    /// chances.
    pub fn mwc_difference(&self, difference: &Estimate) -> Estimate {
        difference.linear(0.5, 0.0)
    }
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
