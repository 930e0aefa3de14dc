//! An [`EngineError`] in the words of the question asked: a finished game
//! has no move to analyse, no cube decision, nothing to roll out. The
//! command line and the Python package refuse alike through these; the
//! words name options as the command line spells them.

use super::EngineError;
use crate::cube::CubeError;
use thiserror::Error;

/// What the caller asked the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// The legal moves of a roll (`gammon moves`).
    Moves,
    /// The moves of a roll ranked, or the position before the roll
    /// (`gammon analyse`).
    Analyse,
    /// The cube decision (`gammon cube`).
    Cube,
    /// A rollout of the position or of a roll's moves (`gammon rollout`).
    Rollout,
    /// A rollout of the cube decision (`gammon rollout --cube-decision`).
    CubeRollout,
}

/// An engine error said for what was asked: its message, and the error it
/// explains as its source where that says more.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{message}")]
pub struct Refusal {
    message: String,
    #[source]
    source: Option<Cause>,
}

/// The error under a [`Refusal`]'s message.
#[derive(Debug, Clone, PartialEq, Error)]
enum Cause {
    #[error(transparent)]
    Cube(CubeError),
}

impl Refusal {
    /// `error` as the answer to `asked`.
    pub fn new(error: EngineError, asked: Asked) -> Self {
        let said = |message: &str| Refusal { message: message.to_string(), source: None };
        let explains =
            |message: &str, e: CubeError| Refusal { message: message.to_string(), source: Some(Cause::Cube(e)) };
        match (error, asked) {
            (EngineError::GameOver, Asked::Moves) => {
                said("the game in this position is over: there is nothing to move")
            }
            (EngineError::GameOver, Asked::Analyse) => {
                said("the game in this position is over: there is no move to analyse")
            }
            (EngineError::GameOver, Asked::Cube | Asked::CubeRollout) => {
                said("the game is over in this position: there is no cube decision")
            }
            (EngineError::GameOver, Asked::Rollout) => {
                said("the game in this position is over: there are no moves to roll out")
            }
            (EngineError::Cube(e), Asked::Analyse) => explains(
                "cannot rank the moves by cubeful equity in this context (--cubeless ranks them in money play)",
                e,
            ),
            (EngineError::Cube(e), Asked::Cube) => explains("cannot analyse the cube at this score and cube", e),
            (EngineError::Cube(e), Asked::CubeRollout) => {
                explains("cannot roll out the cube at this score and cube", e)
            }
            (EngineError::OpponentOwnsCube { cube_value, playing_on, mwc }, Asked::Cube) => {
                let mwc = mwc.map_or(String::new(), |m| format!(", {:.2}% match winning chances", 100.0 * m));
                said(&format!(
                    "X (the player on roll) cannot double: O owns the {cube_value}-cube. Playing on is worth {playing_on:+.3} for X (normalised to the cube{mwc}). \
                     To see O's redouble and X's take or pass, give the position with O on roll and --owner me."
                ))
            }
            (EngineError::Rollout(e), Asked::Rollout | Asked::CubeRollout) if e.setting().is_some() => {
                let setting = e.setting().unwrap_or_default().replace('_', "-");
                said(&format!("--{setting}: {e}"))
            }
            // Anything else in its own words, its sources on the same line.
            (error, _) => said(&super::error_chain(&error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::error_chain;

    #[test]
    fn a_finished_game_is_refused_in_the_words_of_the_question() {
        let said = |asked| error_chain(&Refusal::new(EngineError::GameOver, asked));
        assert_eq!(said(Asked::Moves), "the game in this position is over: there is nothing to move");
        assert_eq!(said(Asked::Cube), "the game is over in this position: there is no cube decision");
        assert_eq!(said(Asked::Rollout), "the game in this position is over: there are no moves to roll out");
    }

    #[test]
    fn a_cube_error_keeps_its_reason_after_the_question() {
        let e = EngineError::Cube(CubeError::MatchTooLong { length: 30, max: 25 });
        let line = error_chain(&Refusal::new(e.clone(), Asked::Cube));
        assert_eq!(line, format!("cannot analyse the cube at this score and cube: {e}"));
        // Not a cube question: the error in its own words.
        assert_eq!(error_chain(&Refusal::new(e.clone(), Asked::Moves)), error_chain(&e));
    }
}
