//! What can go wrong when the engine is asked something.

use super::MatrixError;
use crate::cube::{CubeError, NoDouble};
use crate::rollout::RolloutError;
use crate::search::SearchError;
use thiserror::Error;

/// A question the [`Engine`](super::Engine) cannot answer.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EngineError {
    /// The game in the position is over: there is nothing to move, decide
    /// or roll out.
    #[error("the game is over in this position")]
    GameOver,
    /// The cube question cannot be answered (a context that breaks the
    /// rules, a match longer than the match equity table).
    #[error(transparent)]
    Cube(CubeError),
    /// The rollout cannot be run (its settings, an illegal position).
    #[error(transparent)]
    Rollout(RolloutError),
    /// A cube decision to roll out that the player on roll may not make.
    #[error("the player on roll cannot double: {}", .0.describe())]
    CannotDouble(NoDouble),
    /// A search deeper than the engine answers at ([`MAX_PLY`](super::MAX_PLY)).
    #[error("{ply} plies is deeper than the engine searches (0 to {max}; rollouts go further)")]
    TooDeep {
        /// The depth asked for.
        ply: u8,
        /// The deepest the engine answers at.
        max: u8,
    },
    /// A score matrix that cannot be made (too short a match, a cube the
    /// opponent owns).
    #[error(transparent)]
    Matrix(#[from] MatrixError),
    /// A cube decision asked of a player who cannot double: the opponent
    /// owns the cube. Playing on is all he has; its value comes with the
    /// refusal.
    #[error("the player on roll cannot double: the opponent owns the {cube_value}-cube")]
    OpponentOwnsCube {
        /// The cube's value.
        cube_value: u32,
        /// The cubeful equity of playing on for the player on roll,
        /// normalised to the cube.
        playing_on: f64,
        /// His match winning chances in a match.
        mwc: Option<f64>,
    },
}

impl From<SearchError> for EngineError {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::GameOver => EngineError::GameOver,
        }
    }
}

impl From<CubeError> for EngineError {
    fn from(e: CubeError) -> Self {
        match e {
            CubeError::GameOver => EngineError::GameOver,
            e => EngineError::Cube(e),
        }
    }
}

impl From<RolloutError> for EngineError {
    fn from(e: RolloutError) -> Self {
        match e {
            RolloutError::GameOver => EngineError::GameOver,
            e => EngineError::Rollout(e),
        }
    }
}

/// `error` and its sources, each after a colon: the one-line message every
/// front end prints (anyhow's `{:#}` writes the same).
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
