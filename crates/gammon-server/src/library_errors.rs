//! The libraries' errors as refusals, in one place: a handler writes `?`
//! (or [`ApiError::engine`] where the words depend on what was asked) and
//! every endpoint refuses the same error with the same field and reason.

use crate::error::{chain, ApiError};
use gammon_engine::api::play::PlayError;
use gammon_engine::api::{EngineError, RequestError};
use gammon_rules::PositionTextError;

/// What a request asked the engine: a finished game or a context the cube
/// cannot be analysed in is refused in the words of the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// The moves of a roll (`/api/moves`, cubeless `/api/analyse`).
    Moves,
    /// The moves ranked by cubeful equity (`/api/analyse` with dice).
    CubefulMoves,
    /// The cube decision (`/api/cube`).
    Cube,
}

impl ApiError {
    /// The engine's refusal of the request's position, for `asked`.
    pub fn engine(e: EngineError, asked: Asked) -> Self {
        let reason = match (&e, asked) {
            (EngineError::GameOver, Asked::Cube) => {
                "the game is over in this position: there is no cube decision".to_string()
            }
            (EngineError::GameOver, _) => "the game in this position is over: there is no move".to_string(),
            (EngineError::Cube(_), Asked::CubefulMoves) => format!(
                "cannot rank the moves by cubeful equity in this context (cubeless=true ranks them in money play): {}",
                chain(&e)
            ),
            (EngineError::Cube(_), Asked::Cube) => {
                format!("cannot analyse the cube at this score and cube: {}", chain(&e))
            }
            (EngineError::OpponentOwnsCube { .. }, _) => {
                format!("{} (give the position with the opponent on roll to see his redouble)", chain(&e))
            }
            (EngineError::TooDeep { .. }, _) => return ApiError::bad("ply", chain(&e)),
            (EngineError::Rollout(r), _) => return ApiError::bad(r.setting().unwrap_or("position"), chain(&e)),
            _ => chain(&e),
        };
        ApiError::bad("position", reason)
    }

    /// The same refusal naming `field` (wildbg's names for the board and
    /// the dice).
    #[must_use]
    pub fn on(self, field: &str) -> Self {
        ApiError { field: Some(field.to_string()), ..self }
    }
}

/// The position at fault, asked for its moves.
impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        ApiError::engine(e, Asked::Moves)
    }
}

/// `match_id` when the Match ID beside a Position ID is wrong, else
/// `position`.
impl From<PositionTextError> for ApiError {
    fn from(e: PositionTextError) -> Self {
        let field = match e {
            PositionTextError::MatchId { .. } => "match_id",
            _ => "position",
        };
        ApiError::bad(field, chain(&e))
    }
}

/// The part of a request that does not read: `position`, `match_id` or
/// `dice`.
impl From<RequestError> for ApiError {
    fn from(e: RequestError) -> Self {
        ApiError::bad(e.field(), chain(&e))
    }
}

/// A refused play step names what the human sent that the rules or the
/// state refuse: his move, his action, the match length, or the state.
impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> Self {
        let field = match e {
            PlayError::Move(_) => "move",
            PlayError::Rule(_) => "action",
            PlayError::MatchTooLong { .. } => "match_length",
            PlayError::State(_) | PlayError::BadState(_) | PlayError::Engine(_) => "state",
        };
        ApiError::bad(field, chain(&e))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn a_finished_game_is_refused_in_the_words_of_the_question() {
        let moves = ApiError::from(EngineError::GameOver);
        assert_eq!((moves.status, moves.field.as_deref()), (StatusCode::BAD_REQUEST, Some("position")));
        assert!(moves.reason.ends_with("there is no move"), "{}", moves.reason);
        let cube = ApiError::engine(EngineError::GameOver, Asked::Cube);
        assert!(cube.reason.ends_with("there is no cube decision"), "{}", cube.reason);
        assert_eq!(cube.clone().on("p0").field.as_deref(), Some("p0"));
        assert_eq!(cube.on("p0").reason, ApiError::engine(EngineError::GameOver, Asked::Cube).reason);
    }

    #[test]
    fn a_bad_match_id_names_match_id_and_a_bad_position_names_position() {
        let match_id = gammon_rules::parse_position_text("4HPwATDgc/ABMA:////////////").unwrap_err();
        assert_eq!(ApiError::from(match_id).field.as_deref(), Some("match_id"));
        let position = gammon_rules::parse_position_text("nonsense").unwrap_err();
        assert_eq!(ApiError::from(position).field.as_deref(), Some("position"));
    }
}
