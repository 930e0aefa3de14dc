//! What can go wrong when the engine is asked something.

use crate::cube::CubeError;
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
